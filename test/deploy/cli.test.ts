import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { HARDHAT_KEY_0, tempDeploymentsDir } from "./support.js";

const run = promisify(execFile);
const TSX = join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");

const chains: LocalChain[] = [];
afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.close();
});

/** Runs scripts/deploy.ts (asynchronously: the chain it talks to lives in this process). */
async function deployCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = tempDeploymentsDir(); // no Hardhat vars file there
  const base = { ...process.env };
  for (const name of ["DEPLOYER_PRIVATE_KEY", "BASE_RPC_URL", "BASE_SEPOLIA_RPC_URL", "TRUSTGATE_RPC_URL", "LOCALHOST_RPC_URL"])
    delete base[name];
  try {
    const { stdout, stderr } = await run(process.execPath, [TSX, "scripts/deploy.ts", ...args], {
      env: { ...base, HOME: home, XDG_CONFIG_HOME: home, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function httpChain(chainId: number): Promise<string> {
  const chain = await startLocalChain({ chainId, http: true });
  chains.push(chain);
  return chain.rpcUrl!;
}

describe("scripts/deploy.ts", () => {
  test("localhost over RPC: deploys, records, and a second run deploys nothing", async () => {
    const url = await httpChain(31337);
    const dir = tempDeploymentsDir();
    const first = await deployCli(["--network", "localhost", "--rpc-url", url, "--deployments-dir", dir]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/\+ deployed TrustScoreOracle at 0x[0-9a-fA-F]{40}/);
    expect(first.stdout).toContain("Deployed 5 contract(s)");
    const recorded = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as { network: string; contracts: object };
    expect(recorded.network).toBe("localhost");
    expect(Object.keys(recorded.contracts)).toEqual([
      "TrustScoreOracle",
      "AttestedTrustOracle",
      "MockIdentityRegistry",
      "TrustAdmissionHook",
      "AgentTaskBoard",
    ]);

    const second = await deployCli(["--network", "localhost", "--rpc-url", url, "--deployments-dir", dir]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("Nothing to deploy");
    expect(second.stdout).not.toContain("+ deployed");
  });

  test("--dry-run on the in-process network prints the plan with gas and arguments", async () => {
    const dir = tempDeploymentsDir();
    const result = await deployCli(["--network", "hardhat", "--dry-run", "--deployments-dir", dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /\+ would deploy TrustScoreOracle at 0x[0-9a-fA-F]{40} \(predicted\)\n {4}constructor arguments: \["0x[0-9a-fA-F]{40}"\]\n {4}estimated gas: \d{6,}/,
    );
    expect(result.stdout).toContain("Dry run: nothing sent; 4 contract(s) would be deployed.");
  });

  test("--dry-run on a node that refuses a state override in eth_estimateGas: every contract's gas, then the total", async () => {
    const url = await httpChain(31337);
    const dir = tempDeploymentsDir();
    const dry = await deployCli(["--network", "localhost", "--rpc-url", url, "--dry-run", "--deployments-dir", dir]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).not.toContain("unknown");
    const estimated = [...dry.stdout.matchAll(/\+ would deploy (\w+) .*\n.*\n {4}estimated gas: (\d+)/g)].map(
      (m) => [m[1], BigInt(m[2]!)] as const,
    );
    expect(estimated.map(([name]) => name)).toEqual([
      "TrustScoreOracle",
      "AttestedTrustOracle",
      "MockIdentityRegistry",
      "TrustAdmissionHook",
      "AgentTaskBoard",
    ]);
    // The contracts that depend on others are measured in an eth_call, since Hardhat's node refuses the override.
    expect(dry.stdout).toMatch(
      /estimated gas: \d+ \(measured in an eth_call with a state override: this node refuses one in eth_estimateGas\)/,
    );
    const total = estimated.reduce((sum, [, gas]) => sum + gas, 0n);
    expect(dry.stdout).toContain(
      `Estimated gas in total: ${total} for 5 contract(s)\nDry run: nothing sent; 5 contract(s) would be deployed.`,
    );

    // The figures are what the creations then use.
    const real = await deployCli(["--network", "localhost", "--rpc-url", url, "--deployments-dir", dir]);
    expect(real.code, real.stderr).toBe(0);
    const used = [...real.stdout.matchAll(/\+ deployed (\w+) at .*, gas (\d+)\)/g)].map((m) => [m[1], BigInt(m[2]!)] as const);
    expect(used).toEqual(estimated);
  });

  test("Base mainnet without --confirm-mainnet: refused, exit 2, the key never printed", async () => {
    const url = await httpChain(8453);
    const result = await deployCli(["--network", "base", "--rpc-url", url, "--deployments-dir", tempDeploymentsDir()], {
      DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Refusing to deploy to mainnet (chain 8453) without --confirm-mainnet");
    expect(result.stdout + result.stderr).not.toContain(HARDHAT_KEY_0.slice(2));
  });

  test("Base Sepolia without DEPLOYER_PRIVATE_KEY: a clear message, exit 2", async () => {
    const url = await httpChain(84532);
    const result = await deployCli(["--network", "baseSepolia", "--rpc-url", url, "--deployments-dir", tempDeploymentsDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "DEPLOYER_PRIVATE_KEY is not set: deploying to baseSepolia (chain 84532) needs the deployer's private key",
    );
  });

  test("no RPC URL for a remote network, or an unknown network: exit 2 with the reason", async () => {
    const noUrl = await deployCli(["--network", "baseSepolia"]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('No RPC URL for network "baseSepolia": pass --rpc-url or set TRUSTGATE_RPC_URL or BASE_SEPOLIA_RPC_URL');
    const unknown = await deployCli(["--network", "optimism"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No deployment configuration for network "optimism"');
  });
});
