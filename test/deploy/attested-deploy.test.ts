// The deployment with an AttestedTrustOracle (deploy/config.json "attestedOracle", "gateOracle"): its upstream wired
// to the network's oracle, its signing keys installed from a JWKS served over loopback HTTP, the gates pointed at it,
// and a signed attestation then admitting an agent through the deployed contracts.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  getAddress,
  http,
  type PublicClient,
  zeroAddress,
} from "viem";
import { calculateJwkThumbprint } from "jose";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  chainOf,
  type DeploymentsFile,
  type DeployParameters,
  deploy,
  type NetworkDeployConfig,
  networkConfig,
  parseDeployConfig,
  updateSigningKeys,
} from "../../src/deploy/index.js";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { attestedTrustOracleAbi } from "../../src/oracle/abi.js";
import { submitTrustAttestation } from "../../src/oracle/attested-oracle.js";
import { buildTrustCheckResponse, type JwksTestServer, jwksOf, startJwksServer, unreachableJwksUrl } from "../support/attestations.js";
import { abiOf, coordinateHex, nonceOf, SHIPPED_CONFIG, tempDeploymentsDir } from "./support.js";

const ORACLE_ABI = abiOf("oracle/TrustScoreOracle.sol", "TrustScoreOracle");
const HOOK_ABI = abiOf("examples/TrustAdmissionHook.sol", "TrustAdmissionHook");
const REGISTRY_ABI = abiOf("testing/MockIdentityRegistry.sol", "MockIdentityRegistry");
const ZERO_KEY = `0x${"0".repeat(64)}`;

let v1: AttestationSigningKey;
let v2: AttestationSigningKey;
beforeAll(async () => {
  [v1, v2] = await Promise.all([generateSigningKey("rnwy-trust-v1"), generateSigningKey("rnwy-trust-v2")]);
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function chainWithId(chainId: number, served = false): Promise<LocalChain> {
  const chain = await startLocalChain({ chainId, http: served });
  cleanups.push(chain.close);
  return chain;
}

async function serve(jwks: Parameters<typeof startJwksServer>[0]): Promise<JwksTestServer> {
  const server = await startJwksServer(jwks);
  cleanups.push(server.close);
  return server;
}

/** A network of the shipped configuration with changes, validated (defaults filled) as the script reads it. */
function configured(network: string, changes: Record<string, unknown>): NetworkDeployConfig {
  const raw = JSON.parse(readFileSync(SHIPPED_CONFIG, "utf8")) as { networks: Record<string, object> };
  return networkConfig(parseDeployConfig({ networks: { [network]: { ...raw.networks[network], ...changes } } }), network);
}

function jwksFile(jwks: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "trustgate-jwks-")), "jwks.json");
  writeFileSync(path, JSON.stringify(jwks));
  return path;
}

function deployWith(
  chain: LocalChain | DeployParameters["provider"],
  config: NetworkDeployConfig,
  dir: string,
  extra: Partial<DeployParameters> = {},
) {
  return deploy({
    network: "hardhat",
    config,
    provider: "provider" in chain ? chain.provider : chain,
    deploymentsDir: dir,
    gitCommit: "0123456789abcdef0123456789abcdef01234567",
    ...extra,
  });
}

async function read<T>(client: PublicClient, address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): Promise<T> {
  return (await client.readContract({ address, abi, functionName, args })) as T;
}

describe("deploying an AttestedTrustOracle", () => {
  test("over the reference oracle, with the JWKS's on-chain trust key, the gates pointed at it; an attestation then admits the agent; a second run sends nothing", async () => {
    // Over HTTP, as a real node.
    const chain = await chainWithId(31337, true);
    const transport = http(chain.rpcUrl);
    const provider = transport({});
    const publicClient = createPublicClient({ transport }) as PublicClient;
    const server = await serve(jwksOf(v2, v1));
    // No kids configured: the on-chain trust kids of the JWKS.
    const config = configured("hardhat", { attestedOracle: { jwks: server.jwksUrl }, gateOracle: "attested" });
    const dir = tempDeploymentsDir();
    const result = await deployWith(provider, config, dir);
    expect(result.actions.map((a) => [a.name, a.status])).toEqual([
      ["TrustScoreOracle", "deployed"],
      ["AttestedTrustOracle", "deployed"],
      ["MockIdentityRegistry", "deployed"],
      ["TrustAdmissionHook", "deployed"],
      ["AgentTaskBoard", "deployed"],
    ]);
    const [reference, attested, registry, hook] = result.actions.map((a) => a.address) as [Address, Address, Address, Address];

    // Wiring: upstream = the reference oracle deployed in this run, admin = the deployer, the hook reads the
    // attested oracle, and the record names the constructor arguments.
    expect(getAddress(await read<string>(publicClient, attested, attestedTrustOracleAbi, "upstream"))).toBe(reference);
    expect(await read<boolean>(publicClient, attested, attestedTrustOracleAbi, "hasRole", [ZERO_KEY, result.deployer])).toBe(true);
    expect(getAddress(await read<string>(publicClient, hook, HOOK_ABI, "trustOracle"))).toBe(attested);
    const file = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as DeploymentsFile;
    expect(Object.keys(file.contracts)).toEqual([
      "TrustScoreOracle",
      "AttestedTrustOracle",
      "MockIdentityRegistry",
      "TrustAdmissionHook",
      "AgentTaskBoard",
    ]);
    expect(file.contracts.AttestedTrustOracle!.constructorArgs).toEqual([result.deployer, reference]);
    expect((file.contracts.TrustAdmissionHook!.constructorArgs[0] as { oracle: string }).oracle).toBe(attested);

    // The on-chain trust kid is installed with the JWK's coordinates; the legacy v1 key of the JWKS is not.
    expect(result.signingKeys?.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "set"]]);
    expect(await read<unknown>(publicClient, attested, attestedTrustOracleAbi, "signingKey", ["rnwy-trust-v2"])).toEqual([
      coordinateHex(v2.publicJwk.x),
      coordinateHex(v2.publicJwk.y),
      false,
    ]);
    expect(await read<unknown>(publicClient, attested, attestedTrustOracleAbi, "signingKey", ["rnwy-trust-v1"])).toEqual([
      ZERO_KEY,
      ZERO_KEY,
      false,
    ]);
    expect(result.transactionsSent).toBe(6);

    // The hook checks the controller: `agent` controls agents 4242 and 7 in the mock registry of this deployment.
    const [deployer, agent] = (await provider.request({ method: "eth_accounts" })) as [Address, Address];
    const registrar = createWalletClient({ account: deployer, chain: chainOf(31337, "hardhat"), transport });
    for (const agentId of [4242n, 7n]) {
      await publicClient.waitForTransactionReceipt({
        hash: await registrar.writeContract({
          address: registry,
          abi: REGISTRY_ABI,
          functionName: "registerWithId",
          args: [agent, agentId],
        }),
      });
    }

    // No record for agent 4242 yet: the hook refuses it (RecordMissing).
    const verdict = (id: bigint) => read<readonly [boolean, number, unknown]>(publicClient, hook, HOOK_ABI, "trustVerdict", [id, agent]);
    expect((await verdict(4242n)).slice(0, 2)).toEqual([false, 3]);

    // The service's signed attestation, submitted by anyone, answers getScore through the attested oracle.
    const now = Number((await publicClient.getBlock()).timestamp);
    const response = await buildTrustCheckResponse(v2, {
      agent: { agentId: 4242, score: 81, tier: "established", sybilSeverity: null },
      issuedAt: new Date((now - 7200) * 1000),
      verifiedAt: new Date((now - 60) * 1000),
    });
    const clients = {
      wallet: createWalletClient({ account: agent, chain: chainOf(31337, "hardhat"), transport }),
      public: publicClient,
    };
    await submitTrustAttestation(clients, attested, response);
    expect(await read<unknown>(publicClient, attested, attestedTrustOracleAbi, "getScore", [4242n, 8453n, "erc8004"])).toEqual([
      81,
      3,
      0,
      now - 7200,
    ]);
    expect((await verdict(4242n))[0]).toBe(true);

    // The upstream is wired: a record published on the reference oracle is answered through the attested one.
    const wallet = createWalletClient({ account: deployer, chain: chainOf(31337, "hardhat"), transport });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: reference,
        abi: ORACLE_ABI,
        functionName: "publish",
        args: [[{ agentId: 7n, chainId: 8453n, registry: "erc8004", score: 60, tier: 2, sybilSeverity: 1, updatedAt: now }]],
      }),
    });
    expect(await read<unknown>(publicClient, attested, attestedTrustOracleAbi, "getScore", [7n, 8453n, "erc8004"])).toEqual([
      60,
      2,
      1,
      now,
    ]);
    expect((await verdict(7n))[0]).toBe(true);

    // Second run: everything reused, keys already held, nothing sent.
    const nonce = await nonceOf(provider, result.deployer);
    const lines: string[] = [];
    const second = await deployWith(provider, config, dir, { log: (line) => lines.push(line) });
    expect(second.actions.map((a) => a.status)).toEqual(["unchanged", "unchanged", "unchanged", "unchanged", "unchanged"]);
    expect(second.actions[1]!.address).toBe(attested);
    expect(second.signingKeys?.changes.map((c) => c.kind)).toEqual(["unchanged"]);
    expect(second.transactionsSent).toBe(0);
    expect(await nonceOf(provider, result.deployer)).toBe(nonce);
    expect(lines).toContain(`= AttestedTrustOracle unchanged at ${attested}`);
    expect(lines.at(-1)).toBe("Signing keys: nothing to change, the oracle already holds them.");

    // The keys command finds the recorded oracle by itself, and by default takes the same key.
    const keys = await updateSigningKeys({ provider, deploymentsDir: dir, jwks: server.jwksUrl, network: "localhost", local: true });
    expect(keys.oracle).toBe(attested);
    expect(keys.changes.map((c) => [c.kid, c.kind])).toEqual([["rnwy-trust-v2", "unchanged"]]);
  });

  test("upstream none and a configured admin; the gates keep reading the network's oracle", async () => {
    const chain = await chainWithId(31337);
    const publicClient = createPublicClient({ transport: custom(chain.provider) }) as PublicClient;
    const accounts = ((await chain.provider.request({ method: "eth_accounts" })) as Address[]).map((a) => getAddress(a));
    const admin = accounts[5]!;
    const result = await deployWith(chain, configured("hardhat", { attestedOracle: { upstream: "none", admin } }), tempDeploymentsDir());
    expect(result.actions.map((a) => a.name)).toEqual([
      "TrustScoreOracle",
      "AttestedTrustOracle",
      "MockIdentityRegistry",
      "TrustAdmissionHook",
      "AgentTaskBoard",
    ]);
    const [reference, attested, , hook] = result.actions.map((a) => a.address) as [Address, Address, Address, Address];
    expect(await read<string>(publicClient, attested, attestedTrustOracleAbi, "upstream")).toBe(zeroAddress);
    expect(await read<boolean>(publicClient, attested, attestedTrustOracleAbi, "hasRole", [ZERO_KEY, admin])).toBe(true);
    expect(await read<boolean>(publicClient, attested, attestedTrustOracleAbi, "hasRole", [ZERO_KEY, result.deployer])).toBe(false);
    expect(getAddress(await read<string>(publicClient, hook, HOOK_ABI, "trustOracle"))).toBe(reference);
    expect(result.actions[1]!.constructorArgs).toEqual([admin, zeroAddress]);
    expect(result.signingKeys).toBeUndefined();
  });

  test("heldFirstRecordMaxAge deploys the held-first oracle, recorded as the attested oracle; removing it deploys the default again", async () => {
    const chain = await chainWithId(31337);
    const publicClient = createPublicClient({ transport: custom(chain.provider) }) as PublicClient;
    const dir = tempDeploymentsDir();
    const heldFirst = configured("hardhat", { attestedOracle: { heldFirstRecordMaxAge: 172_800 }, gateOracle: "attested" });
    const result = await deployWith(chain, heldFirst, dir);
    const [reference, attested, , hook] = result.actions.map((a) => a.address) as [Address, Address, Address, Address];
    expect(result.actions[1]!.name).toBe("AttestedTrustOracle");
    // (A uint256 argument is recorded as a decimal string.)
    expect(result.actions[1]!.constructorArgs).toEqual([result.deployer, reference, "172800"]);
    expect(await read<bigint>(publicClient, attested, attestedTrustOracleAbi, "heldFirstRecordMaxAge")).toBe(172_800n);
    expect(getAddress(await read<string>(publicClient, attested, attestedTrustOracleAbi, "upstream"))).toBe(reference);
    expect(getAddress(await read<string>(publicClient, hook, HOOK_ABI, "trustOracle"))).toBe(attested);
    const file = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as DeploymentsFile;
    expect(file.contracts.AttestedTrustOracle!.address).toBe(attested);

    // The same configuration again: kept. Without the option: the default oracle replaces it, and the gates follow.
    expect((await deployWith(chain, heldFirst, dir)).actions[1]!.status).toBe("unchanged");
    const fresher = await deployWith(chain, configured("hardhat", { attestedOracle: {}, gateOracle: "attested" }), dir);
    expect(fresher.actions.map((a) => [a.name, a.status])).toEqual([
      ["TrustScoreOracle", "unchanged"],
      ["AttestedTrustOracle", "deployed"],
      ["MockIdentityRegistry", "unchanged"],
      ["TrustAdmissionHook", "deployed"],
      ["AgentTaskBoard", "deployed"],
    ]);
    expect(await read<bigint>(publicClient, fresher.actions[1]!.address, attestedTrustOracleAbi, "heldFirstRecordMaxAge")).toBe(0n);

    // A max age of 0, a fraction or one above 2^40 - 1 is refused when the configuration is read.
    for (const maxAge of [0, 1.5, 2 ** 40]) {
      expect(() => configured("hardhat", { attestedOracle: { heldFirstRecordMaxAge: maxAge } }), String(maxAge)).toThrow(
        /heldFirstRecordMaxAge/,
      );
    }
  });

  test("upstream = a configured oracle address; the reference oracle is deployed only when something reads it", async () => {
    const chain = await chainWithId(31337);
    const publicClient = createPublicClient({ transport: custom(chain.provider) }) as PublicClient;
    const first = await deployWith(chain, configured("hardhat", { contracts: ["TrustAdmissionHook"] }), tempDeploymentsDir());
    const existing = first.actions[0]!.address;

    // The network's oracle is an address (as on Base): the attested oracle falls back on it.
    const overAddress = await deployWith(
      chain,
      configured("hardhat", { oracle: existing, attestedOracle: {}, contracts: [] }),
      tempDeploymentsDir(),
    );
    expect(overAddress.actions.map((a) => [a.name, a.status])).toEqual([["AttestedTrustOracle", "deployed"]]);
    expect(getAddress(await read<string>(publicClient, overAddress.actions[0]!.address, attestedTrustOracleAbi, "upstream"))).toBe(
      existing,
    );

    // "deploy-reference", but the gates read the attested oracle and its upstream is an explicit address: no
    // reference oracle is deployed.
    const explicit = await deployWith(
      chain,
      configured("hardhat", { attestedOracle: { upstream: existing }, gateOracle: "attested", contracts: ["TrustAdmissionHook"] }),
      tempDeploymentsDir(),
    );
    expect(explicit.actions.map((a) => a.name)).toEqual(["AttestedTrustOracle", "MockIdentityRegistry", "TrustAdmissionHook"]);
    expect(getAddress(await read<string>(publicClient, explicit.actions[0]!.address, attestedTrustOracleAbi, "upstream"))).toBe(existing);

    // An upstream address without code is refused before anything is sent.
    const nobody = "0x00000000000000000000000000000000000abcde";
    await expect(
      deployWith(chain, configured("hardhat", { attestedOracle: { upstream: nobody } }), tempDeploymentsDir()),
    ).rejects.toMatchObject({
      reason: "no-code",
      shortMessage: `The configured attestedOracle.upstream ${nobody} has no code on chain 31337`,
    });
  });
});

describe("refused before anything is sent", () => {
  test("an unreachable JWKS, a bad key in it, or keys to install with an admin other than the deployer", async () => {
    const chain = await chainWithId(31337);
    const [deployer, other] = (await chain.provider.request({ method: "eth_accounts" })) as [Address, Address];
    const nonce = await nonceOf(chain.provider, deployer);
    const dir = tempDeploymentsDir();

    const url = await unreachableJwksUrl();
    const unreachable = deployWith(chain, configured("hardhat", { attestedOracle: { jwks: url } }), dir);
    await expect(unreachable).rejects.toMatchObject({ reason: "jwks-unavailable" });
    await expect(unreachable).rejects.toThrow(
      `Cannot fetch the JWKS ${url} (fetch failed (connect ECONNREFUSED 127.0.0.1:${new URL(url).port})): check the URL`,
    );

    const badKey = jwksFile({ keys: [{ ...v2.publicJwk, crv: "P-384" }] });
    await expect(deployWith(chain, configured("hardhat", { attestedOracle: { jwks: badKey } }), dir)).rejects.toThrow(
      /JWKS entry "rnwy-trust-v2" not an EC P-256 key \(kty EC, crv P-384\)/,
    );

    const foreignAdmin = deployWith(chain, configured("hardhat", { attestedOracle: { jwks: jwksFile(jwksOf(v2)), admin: other } }), dir);
    await expect(foreignAdmin).rejects.toMatchObject({
      reason: "bad-config",
      shortMessage: `attestedOracle.jwks is set, but the attested oracle's admin ${getAddress(other)} is not the deployer ${getAddress(deployer)}: only its admin can install the keys`,
    });
    expect(await nonceOf(chain.provider, deployer)).toBe(nonce);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a kid outside the on-chain trust kids, a thumbprint that differs, and a plain-http JWKS of another host on mainnet", async () => {
    const chain = await chainWithId(8453);
    const [deployer] = (await chain.provider.request({ method: "eth_accounts" })) as [Address];
    const nonce = await nonceOf(chain.provider, deployer);
    const dir = tempDeploymentsDir();
    const file = jwksFile(jwksOf(v2, v1));
    // The hardhat network (local: unlocked accounts, deployed reference oracle and mock registry) on chain 8453.
    const onMainnet = (attestedOracle: Record<string, unknown>) => configured("hardhat", { chainId: 8453, attestedOracle });

    // Built in code, past the loader: refused before any request.
    const base = onMainnet({ jwks: file });
    const legacy = { ...base, attestedOracle: { ...base.attestedOracle!, kids: ["rnwy-trust-v1"] } };
    await expect(deployWith(chain, legacy, dir, { confirmMainnet: true })).rejects.toMatchObject({
      reason: "refused-kid",
      shortMessage:
        'network "hardhat": Refusing to install "rnwy-trust-v1": "rnwy-trust-v1" signs legacy v1 trust-check blocks, which can never be read on-chain. The oracle holds only "rnwy-trust-v2" unless another kid is forced by name (--force-kid rnwy-trust-v1, or attestedOracle.forceKids)',
    });

    const pinned = await calculateJwkThumbprint(v1.publicJwk, "sha256");
    await expect(
      deployWith(chain, onMainnet({ jwks: file, thumbprints: { "rnwy-trust-v2": pinned } }), dir, { confirmMainnet: true }),
    ).rejects.toMatchObject({
      reason: "thumbprint-mismatch",
      shortMessage: `The JWKS ${file} publishes "rnwy-trust-v2" with thumbprint ${await calculateJwkThumbprint(v2.publicJwk, "sha256")}, not the pinned ${pinned}: refusing to install it`,
    });

    const fetched: string[] = [];
    const fetchSpy = (async (input: string | URL | Request) => {
      fetched.push(String(input));
      return new Response(JSON.stringify(jwksOf(v2)));
    }) as typeof fetch;
    const insecure = onMainnet({ jwks: "http://jwks.example.net/.well-known/jwks.json" });
    for (const extra of [{ confirmMainnet: true }, { dryRun: true }]) {
      await expect(deployWith(chain, insecure, dir, { ...extra, jwksFetch: { fetch: fetchSpy } })).rejects.toMatchObject({
        reason: "insecure-jwks",
      });
    }
    expect(fetched).toEqual([]);
    expect(await nonceOf(chain.provider, deployer)).toBe(nonce);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a dry run without a key plans the attested oracle, the gates on it and its keys (a forced one said), and sends nothing", async () => {
    const chain = await chainWithId(84532);
    const publicClient = createPublicClient({ transport: custom(chain.provider) }) as PublicClient;
    const dir = tempDeploymentsDir();
    const thumbprint = await calculateJwkThumbprint(v2.publicJwk, "sha256");
    const config = configured("baseSepolia", {
      attestedOracle: {
        jwks: jwksFile(jwksOf(v2, v1)),
        kids: ["rnwy-trust-v2"],
        forceKids: ["rnwy-trust-v1"],
        thumbprints: { "rnwy-trust-v2": thumbprint },
      },
      gateOracle: "attested",
    });
    const before = await publicClient.getBlockNumber();
    const lines: string[] = [];
    const dry = await deploy({
      network: "baseSepolia",
      config,
      provider: chain.provider,
      deploymentsDir: dir,
      dryRun: true,
      env: {},
      log: (line) => lines.push(line),
    });
    expect(dry.actions.map((a) => [a.name, a.status])).toEqual([
      ["TrustScoreOracle", "would-deploy"],
      ["AttestedTrustOracle", "would-deploy"],
      ["TrustAdmissionHook", "would-deploy"],
    ]);
    const [reference, attested] = dry.actions.map((a) => a.address);
    expect(dry.actions[1]!.constructorArgs).toEqual([dry.deployer, reference]);
    expect((dry.actions[2]!.constructorArgs[0] as { oracle: string }).oracle).toBe(attested);
    expect(dry.signingKeys?.changes.map((c) => [c.kid, c.kind])).toEqual([
      ["rnwy-trust-v2", "set"],
      ["rnwy-trust-v1", "set"],
    ]);
    expect(lines).toContain(
      `+ would set signing key "rnwy-trust-v2" (x ${coordinateHex(v2.publicJwk.x)}, y ${coordinateHex(v2.publicJwk.y)}, thumbprint ${thumbprint})`,
    );
    expect(lines).toContain(
      '! signing key "rnwy-trust-v1" is forced: "rnwy-trust-v1" signs legacy v1 trust-check blocks, which can never be read on-chain; the oracle will accept trust records it signs',
    );
    expect(lines.at(-1)).toBe("Dry run: nothing sent; 2 signing-key change(s) would be made.");
    expect(dry.transactionsSent).toBe(0);
    expect(await publicClient.getBlockNumber()).toBe(before);
    expect(readdirSync(dir)).toEqual([]);
  });
});
