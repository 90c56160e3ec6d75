import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BASE_TRUST_ORACLE_ADDRESS, ERC8004_IDENTITY_REGISTRY_ADDRESS } from "../../src/config/addresses.js";
import { loadDeployConfig, networkConfig, parseDeployConfig } from "../../src/deploy/config.js";
import { resolveDeployerKey } from "../../src/deploy/deploy.js";
import { SHIPPED_CONFIG, tempDeploymentsDir } from "./support.js";

const validNetwork = {
  chainId: 31337,
  local: true,
  oracle: "deploy-reference",
  identityRegistry: null,
  agentChainId: 8453,
  agentRegistry: "erc8004",
  policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 172800, requireController: false },
  contracts: ["TrustAdmissionHook"],
};

/** The local networks as shipped before the task board's requirement was checked: a board behind a hook without the controller check. */
const boardWithoutControllerCheck = { ...validNetwork, contracts: ["TrustAdmissionHook", "AgentTaskBoard"] };

describe("deployment configuration", () => {
  test("the shipped deploy/config.json: local networks deploy the reference oracle, Base uses the service's oracle", () => {
    const config = loadDeployConfig(SHIPPED_CONFIG);
    expect(Object.fromEntries(Object.entries(config.networks).map(([name, n]) => [name, n.chainId]))).toEqual({
      hardhat: 31337,
      localhost: 31337,
      baseSepolia: 84532,
      base: 8453,
    });
    const base = networkConfig(config, "base");
    expect(base.oracle).toBe(BASE_TRUST_ORACLE_ADDRESS);
    expect(base.identityRegistry).toBe(ERC8004_IDENTITY_REGISTRY_ADDRESS);
    expect(base.local).toBe(false);
    expect(base.rpcUrlEnv).toBe("BASE_RPC_URL");
    expect(base.contracts).toEqual(["TrustAdmissionHook", "AgentTaskBoard", "TrustGatedEscrow"]);
    expect(networkConfig(config, "baseSepolia").oracle).toBe("deploy-reference");
    expect(networkConfig(config, "baseSepolia").rpcUrlEnv).toBe("BASE_SEPOLIA_RPC_URL");
    expect(networkConfig(config, "hardhat").local).toBe(true);
    expect(networkConfig(config, "hardhat").owner).toBeNull();
  });

  test("every shipped network gives its task board and escrow the controller check they require", () => {
    for (const [name, network] of Object.entries(loadDeployConfig(SHIPPED_CONFIG).networks)) {
      if (network.contracts.includes("AgentTaskBoard") || network.contracts.includes("TrustGatedEscrow")) {
        expect({ name, requireController: network.policy.requireController }).toEqual({ name, requireController: true });
        expect(network.identityRegistry).not.toBeNull();
      }
    }
    const config = loadDeployConfig(SHIPPED_CONFIG);
    expect(networkConfig(config, "hardhat").identityRegistry).toBe("deploy-mock");
    expect(networkConfig(config, "localhost").identityRegistry).toBe("deploy-mock");
    expect(networkConfig(config, "baseSepolia").contracts).toEqual(["TrustAdmissionHook"]);
  });

  test("refuses at load a task board behind a hook without the controller check, naming the network, the contract and the setting", () => {
    const dir = tempDeploymentsDir();
    const path = join(dir, "config.json");
    writeFileSync(path, JSON.stringify({ networks: { staging: boardWithoutControllerCheck, ok: validNetwork } }));
    const attempt = () => loadDeployConfig(path);
    expect(attempt).toThrow(`Invalid deployment configuration ${path}`);
    expect(attempt).toThrow(
      'networks.staging.policy.requireController: network "staging": AgentTaskBoard requires policy.requireController = true (configured: false)',
    );
    expect(attempt).toThrow("anyone can take, and be paid for, a trusted agent's task");
  });

  test('"deploy-mock" is refused on a network that is not local', () => {
    expect(() => parseDeployConfig({ networks: { testnet: { ...validNetwork, local: false, identityRegistry: "deploy-mock" } } })).toThrow(
      'identityRegistry: "deploy-mock" is for local networks only',
    );
  });

  test("an unknown network names the configured ones", () => {
    expect(() => networkConfig(loadDeployConfig(SHIPPED_CONFIG), "mainnet")).toThrow(
      /No deployment configuration for network "mainnet"[\s\S]*Configured networks: hardhat, localhost, baseSepolia, base/,
    );
  });

  test.each([
    ["a task board without its hook", { contracts: ["AgentTaskBoard"] }, "contracts: AgentTaskBoard needs TrustAdmissionHook"],
    [
      "a controller check without a registry",
      { policy: { ...validNetwork.policy, requireController: true } },
      "identityRegistry: policy.requireController needs an identity registry",
    ],
    [
      "an escrow without the controller check",
      { identityRegistry: ERC8004_IDENTITY_REGISTRY_ADDRESS, contracts: ["TrustGatedEscrow"] },
      'policy.requireController: network "local": TrustGatedEscrow requires policy.requireController = true (configured: false)',
    ],
    ["a bad oracle address", { oracle: "0x1234" }, "oracle:"],
    ["a minScore above 100", { policy: { ...validNetwork.policy, minScore: 101 } }, "policy.minScore:"],
    ["a zero maxAge", { policy: { ...validNetwork.policy, maxAge: 0 } }, "policy.maxAge:"],
    ["a registry name over 31 bytes", { agentRegistry: "x".repeat(32) }, "agentRegistry:"],
    ["an unknown contract", { contracts: ["Nope"] }, "contracts.0:"],
    ["an unknown key", { minscore: 5 }, "minscore"],
    ["no contract and no attested oracle", { contracts: [] }, "contracts: nothing to deploy: list a contract, or configure attestedOracle"],
    ["gates on the attested oracle without one", { gateOracle: "attested" }, 'gateOracle: "attested" needs an attestedOracle entry'],
    ["an unknown gateOracle", { gateOracle: "upstream" }, "gateOracle:"],
    [
      "attested kids without a JWKS",
      { attestedOracle: { kids: ["rnwy-trust-v2"] } },
      "attestedOracle.kids: kids needs attestedOracle.jwks",
    ],
    [
      "attested forceKids without a JWKS",
      { attestedOracle: { forceKids: ["rnwy-trust-v3"] } },
      "attestedOracle.forceKids: forceKids needs attestedOracle.jwks",
    ],
    [
      "an MCP kid to install without forcing it",
      { attestedOracle: { jwks: "deploy/jwks.json", kids: ["rnwy-mcp-v1"] } },
      'attestedOracle: Refusing to install "rnwy-mcp-v1": "rnwy-mcp-v1" signs MCP attestations, and the oracle would let it sign trust records. The oracle holds only "rnwy-trust-v2" unless another kid is forced by name (--force-kid rnwy-mcp-v1, or attestedOracle.forceKids)',
    ],
    [
      "a thumbprint that is not one",
      { attestedOracle: { jwks: "deploy/jwks.json", thumbprints: { "rnwy-trust-v2": "abc" } } },
      "attestedOracle.thumbprints.rnwy-trust-v2: must be a base64url SHA-256 JWK thumbprint (43 characters)",
    ],
    [
      "a thumbprint pinned for a kid not installed",
      { attestedOracle: { jwks: "deploy/jwks.json", kids: ["rnwy-trust-v2"], thumbprints: { "rnwy-trust-v3": "A".repeat(43) } } },
      'attestedOracle: A thumbprint is pinned for "rnwy-trust-v3", which is not among the kids to install',
    ],
    ["a bad attested upstream", { attestedOracle: { upstream: "base" } }, "attestedOracle.upstream:"],
    ["a bad attested admin", { attestedOracle: { admin: "0x12" } }, "attestedOracle.admin:"],
    ["an unknown attested key", { attestedOracle: { jwksUrl: "https://rnwy.com/.well-known/jwks.json" } }, "jwksUrl"],
  ])("refuses %s", (_label, change, message) => {
    const attempt = () => parseDeployConfig({ networks: { local: { ...validNetwork, ...change } } });
    expect(attempt).toThrow("Invalid deployment configuration");
    expect(attempt).toThrow(message);
  });

  test("attestedOracle: defaults (upstream the network's oracle, admin the owner or deployer, no JWKS), and gates may read it", () => {
    const parsed = parseDeployConfig({ networks: { local: { ...validNetwork, attestedOracle: {} } } });
    const network = networkConfig(parsed, "local");
    expect(network.attestedOracle).toEqual({ upstream: "oracle", admin: null, jwks: null });
    expect(network.gateOracle).toBe("oracle");
    const onlyOracle = networkConfig(
      parseDeployConfig({
        networks: {
          local: {
            ...validNetwork,
            contracts: [],
            gateOracle: "attested",
            attestedOracle: { upstream: "none", jwks: "deploy/jwks.json", kids: ["rnwy-trust-v2"] },
          },
        },
      }),
      "local",
    );
    expect(onlyOracle.contracts).toEqual([]);
    expect(onlyOracle.attestedOracle).toEqual({ upstream: "none", admin: null, jwks: "deploy/jwks.json", kids: ["rnwy-trust-v2"] });
    // The service's next trust kid, forced by name, with pinned thumbprints.
    const pins = { "rnwy-trust-v2": "A".repeat(43), "rnwy-trust-v3": "b_-".repeat(14) + "c" };
    const forced = networkConfig(
      parseDeployConfig({
        networks: {
          local: {
            ...validNetwork,
            attestedOracle: { jwks: "deploy/jwks.json", forceKids: ["rnwy-trust-v3"], kids: ["rnwy-trust-v2"], thumbprints: pins },
          },
        },
      }),
      "local",
    );
    expect(forced.attestedOracle).toMatchObject({ kids: ["rnwy-trust-v2"], forceKids: ["rnwy-trust-v3"], thumbprints: pins });
    // Of the shipped networks, only the devnet (localhost) deploys an attested oracle, over its reference oracle, and
    // its gates read it: the rehearsal of a Base deployment with one (npm run keys, the key-leak runbook).
    const shipped = loadDeployConfig(SHIPPED_CONFIG).networks;
    for (const [name, entry] of Object.entries(shipped)) {
      if (name === "localhost") continue;
      expect({ name, attestedOracle: entry.attestedOracle }).toEqual({ name, attestedOracle: undefined });
      expect(entry.gateOracle).toBe("oracle");
    }
    expect(shipped.localhost!.attestedOracle).toEqual({ upstream: "oracle", admin: null, jwks: null });
    expect(shipped.localhost!.gateOracle).toBe("attested");
  });

  test("a file that is not JSON, or missing, is a clear error", () => {
    const dir = tempDeploymentsDir();
    const path = join(dir, "config.json");
    writeFileSync(path, "{ networks: ");
    expect(() => loadDeployConfig(path)).toThrow(`The deployment configuration ${path} is not valid JSON`);
    expect(() => loadDeployConfig(join(dir, "absent.json"))).toThrow("Cannot read the deployment configuration");
  });
});

describe("resolveDeployerKey", () => {
  const key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

  test("takes the environment first, then Hardhat's vars, and adds the 0x prefix", () => {
    expect(resolveDeployerKey("base", 8453, { DEPLOYER_PRIVATE_KEY: key }, () => `0x${"1".repeat(64)}`)).toBe(`0x${key}`);
    expect(resolveDeployerKey("base", 8453, {}, (name) => (name === "DEPLOYER_PRIVATE_KEY" ? `0x${key}` : undefined))).toBe(`0x${key}`);
  });

  test("missing everywhere, or a vars lookup that fails: missing-key", () => {
    expect(() => resolveDeployerKey("base", 8453, { DEPLOYER_PRIVATE_KEY: "  " })).toThrow(/DEPLOYER_PRIVATE_KEY is not set/);
    expect(() =>
      resolveDeployerKey("base", 8453, {}, () => {
        throw new Error("no vars file");
      }),
    ).toThrow(expect.objectContaining({ reason: "missing-key" }));
  });
});
