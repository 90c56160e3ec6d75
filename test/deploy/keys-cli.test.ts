// scripts/keys.ts (npm run keys) as an operator runs it: a node over HTTP, a JWKS over loopback HTTP or in a file,
// the oracle recorded by the deployment, and one-line errors with exit code 2.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Address, createPublicClient, getAddress, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { calculateJwkThumbprint } from "jose";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { deploy, loadDeployConfig, networkConfig } from "../../src/deploy/index.js";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { type AttestationSigningKey, generateSigningKey } from "../../src/harness/signing.js";
import { attestedTrustOracleAbi } from "../../src/oracle/abi.js";
import { jwksOf, startJwksServer, unreachableJwksUrl } from "../support/attestations.js";
import { coordinateHex, deployAttestedOracle, SHIPPED_CONFIG, tempDeploymentsDir } from "./support.js";

const run = promisify(execFile);
const TSX = join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");

let v1: AttestationSigningKey;
let v2: AttestationSigningKey;
beforeAll(async () => {
  [v1, v2] = await Promise.all([generateSigningKey("rnwy-trust-v1"), generateSigningKey("rnwy-trust-v2")]);
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Runs scripts/keys.ts (asynchronously: the chain and the JWKS server it talks to live in this process). */
async function keysCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = tempDeploymentsDir(); // no Hardhat vars file there
  const base = { ...process.env };
  for (const name of [
    "DEPLOYER_PRIVATE_KEY",
    "BASE_RPC_URL",
    "BASE_SEPOLIA_RPC_URL",
    "TRUSTGATE_RPC_URL",
    "LOCALHOST_RPC_URL",
    "TRUSTGATE_DEBUG",
  ])
    delete base[name];
  try {
    const { stdout, stderr } = await run(process.execPath, [TSX, "scripts/keys.ts", ...args], {
      env: { ...base, HOME: home, XDG_CONFIG_HOME: home, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function httpChain(chainId: number): Promise<LocalChain & { rpcUrl: string }> {
  const chain = await startLocalChain({ chainId, http: true });
  cleanups.push(chain.close);
  return chain as LocalChain & { rpcUrl: string };
}

async function heldKey(url: string, oracle: Address, kid: string): Promise<readonly [string, string, boolean]> {
  const client = createPublicClient({ transport: http(url) }) as PublicClient;
  return client.readContract({ address: oracle, abi: attestedTrustOracleAbi, functionName: "signingKey", args: [kid] });
}

function jwksFile(jwks: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "trustgate-jwks-")), "jwks.json");
  writeFileSync(path, JSON.stringify(jwks));
  return path;
}

describe("npm run keys", () => {
  test("localhost: sets the JWKS's on-chain trust key on the AttestedTrustOracle the deployment recorded; a second run sends nothing; --revoke", async () => {
    const chain = await httpChain(31337);
    const server = await startJwksServer(jwksOf(v2, v1));
    cleanups.push(server.close);
    const dir = tempDeploymentsDir();
    const config = {
      ...networkConfig(loadDeployConfig(SHIPPED_CONFIG), "localhost"),
      attestedOracle: { upstream: "oracle" as const, admin: null, jwks: null },
    };
    const deployed = await deploy({ network: "localhost", config, provider: http(chain.rpcUrl)({}), deploymentsDir: dir, gitCommit: null });
    const oracle = deployed.actions.find((a) => a.name === "AttestedTrustOracle")!.address;
    const recorded = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as { contracts: Record<string, { address: string }> };
    expect(recorded.contracts.AttestedTrustOracle!.address).toBe(oracle);

    const args = ["--network", "localhost", "--rpc-url", chain.rpcUrl, "--deployments-dir", dir, "--jwks", server.jwksUrl];
    const first = await keysCli(args);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Signing keys of the AttestedTrustOracle ${oracle} on localhost (chain 31337) from `);
    const thumbprint = await calculateJwkThumbprint(v2.publicJwk, "sha256");
    expect(first.stdout).toContain(
      `+ set signing key "rnwy-trust-v2" (x ${coordinateHex(v2.publicJwk.x)}, y ${coordinateHex(v2.publicJwk.y)}, thumbprint ${thumbprint}) (transaction 0x`,
    );
    expect(first.stdout).toContain("Signing keys: 1 transaction(s) sent.");
    expect(await heldKey(chain.rpcUrl, oracle, "rnwy-trust-v1")).toEqual([`0x${"0".repeat(64)}`, `0x${"0".repeat(64)}`, false]);

    const second = await keysCli([...args, "--thumbprint", `rnwy-trust-v2=${thumbprint}`]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`= signing key "rnwy-trust-v2" already set with the same coordinates (thumbprint ${thumbprint})`);
    expect(second.stdout).toContain("Signing keys: nothing to change, the oracle already holds them.");
    expect(second.stdout).not.toContain("+ set");

    // The legacy kid only by name, forced, with a warning.
    const forced = await keysCli([...args, "--force-kid", "rnwy-trust-v1"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('! signing key "rnwy-trust-v1" is forced: ');
    expect(forced.stdout).toContain('+ set signing key "rnwy-trust-v1"');
    expect((await heldKey(chain.rpcUrl, oracle, "rnwy-trust-v1"))[0]).toBe(coordinateHex(v1.publicJwk.x));

    const revoked = await keysCli(["--network", "localhost", "--rpc-url", chain.rpcUrl, "--oracle", oracle, "--revoke", "rnwy-trust-v1"]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/- revoke signing key "rnwy-trust-v1" \(transaction 0x[0-9a-f]{64}\)/);
    expect((await heldKey(chain.rpcUrl, oracle, "rnwy-trust-v1"))[2]).toBe(true);
  });

  test("a fresh devnet: after npm run deploy -- --network localhost, --network localhost --dry-run finds the attested oracle the shipped configuration deploys", async () => {
    const chain = await httpChain(31337);
    const dir = tempDeploymentsDir();
    const env = { LOCALHOST_RPC_URL: chain.rpcUrl };
    const home = tempDeploymentsDir();
    const operator: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, ...env };
    for (const name of ["DEPLOYER_PRIVATE_KEY", "TRUSTGATE_RPC_URL"]) delete operator[name];
    const deployed = await run(process.execPath, [TSX, "scripts/deploy.ts", "--network", "localhost", "--deployments-dir", dir], {
      env: operator,
    });
    expect(deployed.stdout).toMatch(/\+ deployed AttestedTrustOracle at 0x[0-9a-fA-F]{40}/);
    const oracle = (JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as { contracts: Record<string, { address: string }> })
      .contracts.AttestedTrustOracle!.address;

    const dry = await keysCli(["--network", "localhost", "--jwks", jwksFile(jwksOf(v2)), "--dry-run", "--deployments-dir", dir], env);
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`Dry run: signing keys of the AttestedTrustOracle ${oracle} on localhost (chain 31337) from `);
    expect(dry.stdout).toContain('+ would set signing key "rnwy-trust-v2"');
    expect(dry.stdout).toContain("Dry run: nothing sent; 1 signing-key change(s) would be made.");
    expect(await heldKey(chain.rpcUrl, getAddress(oracle), "rnwy-trust-v2")).toEqual([`0x${"0".repeat(64)}`, `0x${"0".repeat(64)}`, false]);
  });

  test("--dry-run by --rpc-url alone needs no key; failures are one clear line and exit 2", async () => {
    const chain = await httpChain(84532);
    const [account] = (await chain.provider.request({ method: "eth_accounts" })) as [Address];
    const oracle = await deployAttestedOracle(chain.provider, account, account);
    const file = jwksFile(jwksOf(v2));
    const common = ["--rpc-url", chain.rpcUrl, "--oracle", oracle];

    const dry = await keysCli([...common, "--jwks", file, "--dry-run"]);
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("No DEPLOYER_PRIVATE_KEY: the sender's admin role is not checked");
    expect(dry.stdout).toContain(`+ would set signing key "rnwy-trust-v2" (x ${coordinateHex(v2.publicJwk.x)}`);
    expect(dry.stdout).toContain("Dry run: nothing sent; 1 signing-key change(s) would be made.");
    expect((await heldKey(chain.rpcUrl, oracle, "rnwy-trust-v2"))[0]).toBe(`0x${"0".repeat(64)}`);

    const stranger = generatePrivateKey();
    const notAdmin = await keysCli([...common, "--jwks", file], { DEPLOYER_PRIVATE_KEY: stranger });
    expect(notAdmin.code).toBe(2);
    expect(notAdmin.stderr.split("\n")[0]).toBe(
      `${privateKeyToAccount(stranger).address} is not an admin of the AttestedTrustOracle ${getAddress(oracle)} on the node (chain 84532): only an account holding DEFAULT_ADMIN_ROLE can set or revoke signing keys`,
    );
    expect(notAdmin.stderr).not.toContain(stranger.slice(2));

    const badKey = await keysCli([...common, "--jwks", jwksFile({ keys: [{ ...v2.publicJwk, use: "enc" }] }), "--dry-run"]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('JWKS entry "rnwy-trust-v2" is published for use "enc", not "sig"');

    const jwksUrl = await unreachableJwksUrl();
    const noJwks = await keysCli([...common, "--jwks", jwksUrl, "--dry-run"]);
    expect(noJwks.code).toBe(2);
    expect(noJwks.stderr.trim()).toBe(
      `Cannot fetch the JWKS ${jwksUrl} (fetch failed (connect ECONNREFUSED 127.0.0.1:${new URL(jwksUrl).port})): check the URL and that the service is up, or save the JWKS to a file and pass --jwks <file>`,
    );

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const noNode = await keysCli(["--rpc-url", `http://127.0.0.1:${port}`, "--oracle", oracle, "--jwks", file, "--dry-run"]);
    expect(noNode.code).toBe(2);
    expect(noNode.stderr.trim()).toMatch(
      new RegExp(
        `^Cannot reach the node at http://127\\.0\\.0\\.1:${port} \\([^\\n]+\\): check the RPC URL \\(--rpc-url, TRUSTGATE_RPC_URL\\)$`,
      ),
    );

    const mcp = await keysCli([...common, "--jwks", file, "--kid", "rnwy-mcp-v1", "--dry-run"]);
    expect(mcp.code).toBe(2);
    expect(mcp.stderr.trim()).toBe(
      'Refusing to install "rnwy-mcp-v1": "rnwy-mcp-v1" signs MCP attestations, and the oracle would let it sign trust records. The oracle holds only "rnwy-trust-v2" unless another kid is forced by name (--force-kid rnwy-mcp-v1, or attestedOracle.forceKids)',
    );
    const badPin = await keysCli([...common, "--jwks", file, "--thumbprint", "rnwy-trust-v2", "--dry-run"]);
    expect(badPin.code).toBe(2);
    expect(badPin.stderr.trim()).toBe('--thumbprint takes kid=<base64url thumbprint>, not "rnwy-trust-v2"');

    const nowhere = await keysCli(["--jwks", file]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr.trim()).toBe("Give --network <name> or --rpc-url <url> (or set TRUSTGATE_RPC_URL)");
  });
});
