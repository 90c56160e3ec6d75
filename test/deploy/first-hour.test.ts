// A deployer's first hour: a node that is not there, a URL given by flag or environment, a throw-away network that
// must leave no record, a record written for another chain with the same id, a dry run without a key, and
// deployments/ kept out of git.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { type DeploymentsFile, deploy, resolveRpcUrl } from "../../src/deploy/index.js";
import { type LocalChain, startLocalChain } from "../../src/harness/devnet/local-chain.js";
import { HARDHAT_KEY_0, shippedNetwork, tempDeploymentsDir } from "./support.js";

const run = promisify(execFile);
const TSX = join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");

const chains: LocalChain[] = [];
afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.close();
});

async function deployCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = tempDeploymentsDir();
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

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the RPC URL", () => {
  test("order: --rpc-url, TRUSTGATE_RPC_URL, the network's variable, the configuration", () => {
    const config = shippedNetwork("localhost");
    expect(config.rpcUrlEnv).toBe("LOCALHOST_RPC_URL");
    const env = { TRUSTGATE_RPC_URL: "http://a.test:1", LOCALHOST_RPC_URL: "http://b.test:2" };
    expect(resolveRpcUrl("localhost", config, "http://flag.test:3", env)).toEqual({ url: "http://flag.test:3", source: "--rpc-url" });
    expect(resolveRpcUrl("localhost", config, undefined, env)).toEqual({ url: "http://a.test:1", source: "TRUSTGATE_RPC_URL" });
    expect(resolveRpcUrl("localhost", config, undefined, { LOCALHOST_RPC_URL: "http://b.test:2" })).toEqual({
      url: "http://b.test:2",
      source: "LOCALHOST_RPC_URL",
    });
    expect(resolveRpcUrl("localhost", config, undefined, {})).toEqual({ url: "http://127.0.0.1:8545", source: "deploy/config.json" });
    expect(() => resolveRpcUrl("localhost", config, "127.0.0.1:8545", {})).toThrow('Invalid --rpc-url URL "127.0.0.1:8545": not a URL');
    expect(() => resolveRpcUrl("baseSepolia", shippedNetwork("baseSepolia"), undefined, {})).toThrow(
      'No RPC URL for network "baseSepolia": pass --rpc-url or set TRUSTGATE_RPC_URL or BASE_SEPOLIA_RPC_URL',
    );
  });

  test("localhost on another port, from the environment (TRUSTGATE_RPC_URL, then LOCALHOST_RPC_URL)", async () => {
    const url = await httpChain(31337);
    const viaTrustgate = await deployCli(["--network", "localhost", "--dry-run", "--deployments-dir", tempDeploymentsDir()], {
      TRUSTGATE_RPC_URL: url,
    });
    expect(viaTrustgate.stderr).toBe("");
    expect(viaTrustgate.code).toBe(0);
    expect(viaTrustgate.stdout).toContain("Dry run: nothing sent; 5 contract(s) would be deployed.");
    const viaNetwork = await deployCli(["--network", "localhost", "--dry-run", "--deployments-dir", tempDeploymentsDir()], {
      LOCALHOST_RPC_URL: url,
    });
    expect(viaNetwork.code).toBe(0);
  });

  test("an unreachable node: exit 2 and one line naming the URL and how to start a node", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await deployCli(["--network", "localhost", "--rpc-url", url, "--deployments-dir", tempDeploymentsDir()]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^Cannot reach the localhost node at ${url.replace(/\./g, "\\.")} \\(.+\\): start one with \`npx hardhat node\``),
    );
  });
});

describe("the in-process network leaves no record", () => {
  test("--network hardhat deploys and writes no deployments file", async () => {
    const dir = tempDeploymentsDir();
    const result = await deployCli(["--network", "hardhat", "--deployments-dir", dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("nothing is recorded");
    expect(result.stdout).toContain("Deployed 4 contract(s) to the throw-away chain; nothing recorded.");
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("a deployments file is trusted only for its own chain", () => {
  const gitCommit = "0123456789abcdef0123456789abcdef01234567";

  test("records block 0's hash; a file of another chain with the same id is not trusted on a local network: said, then deployed afresh", async () => {
    const dir = tempDeploymentsDir();
    const first = await startLocalChain({ chainId: 31337 });
    chains.push(first);
    await deploy({ network: "localhost", config: shippedNetwork("localhost"), provider: first.provider, deploymentsDir: dir, gitCommit });
    const written = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as DeploymentsFile;
    expect(written.genesisHash).toMatch(/^0x[0-9a-f]{64}$/);

    // Another chain with id 31337 — pretend its block 0 differs by editing the record.
    const second = await startLocalChain({ chainId: 31337 });
    chains.push(second);
    writeFileSync(join(dir, "31337.json"), JSON.stringify({ ...written, network: "hardhat", genesisHash: `0x${"ab".repeat(32)}` }));
    const lines: string[] = [];
    const result = await deploy({
      network: "localhost",
      config: shippedNetwork("localhost"),
      provider: second.provider,
      deploymentsDir: dir,
      gitCommit,
      log: (l) => lines.push(l),
    });
    expect(lines.join("\n")).toMatch(
      /31337\.json was written for another chain with id 31337 \(network "hardhat", block 0 0x(ab){32}; this chain's block 0 is 0x[0-9a-f]{64}\): not trusted, deploying afresh/,
    );
    expect(result.actions.map((a) => a.status)).toEqual(["deployed", "deployed", "deployed", "deployed", "deployed"]);
  });

  test("a recorded contract whose creation is not on this chain is not trusted, even with code at its address", async () => {
    const dir = tempDeploymentsDir();
    const first = await startLocalChain({ chainId: 31337 });
    chains.push(first);
    await deploy({ network: "localhost", config: shippedNetwork("localhost"), provider: first.provider, deploymentsDir: dir, gitCommit });
    const written = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8")) as DeploymentsFile;
    // A second chain where the same deployer's first contracts sit at the same addresses, created by other transactions.
    const second = await startLocalChain({ chainId: 31337 });
    chains.push(second);
    await deploy({
      network: "localhost",
      config: shippedNetwork("localhost", { policy: { ...shippedNetwork("localhost").policy, minScore: 60 } }),
      provider: second.provider,
      deploymentsDir: tempDeploymentsDir(),
      gitCommit,
    });
    const { genesisHash: _ignored, ...withoutGenesis } = written; // a file from before block 0 was recorded
    writeFileSync(join(dir, "31337.json"), JSON.stringify(withoutGenesis));
    const lines: string[] = [];
    const result = await deploy({
      network: "localhost",
      config: shippedNetwork("localhost"),
      provider: second.provider,
      deploymentsDir: dir,
      gitCommit,
      log: (l) => lines.push(l),
    });
    // The oracle's creation is the very same transaction on both chains (same sender, nonce and data): it holds.
    // The hook sits at the same address on the second chain, but was created there by another transaction.
    expect(lines.join("\n"), lines.join("\n")).toMatch(
      /! TrustAdmissionHook is recorded at 0x[0-9a-fA-F]{40} in .*31337\.json, but its creation transaction 0x[0-9a-f]{64} is not on this chain \(the code there is someone else's\): not trusted, deploying again/,
    );
    expect(result.actions.find((a) => a.name === "TrustAdmissionHook")!.status).toBe("deployed");
  });

  test("on a non-local network a record that does not hold is refused, sending nothing", async () => {
    const dir = tempDeploymentsDir();
    const config = shippedNetwork("baseSepolia");
    const env = { DEPLOYER_PRIVATE_KEY: HARDHAT_KEY_0 };
    const first = await startLocalChain({ chainId: 84532 });
    chains.push(first);
    await deploy({ network: "baseSepolia", config, provider: first.provider, deploymentsDir: dir, gitCommit, env });
    const second = await startLocalChain({ chainId: 84532 });
    chains.push(second);
    const written = JSON.parse(readFileSync(join(dir, "84532.json"), "utf8")) as DeploymentsFile;
    const { genesisHash: _ignored, ...withoutGenesis } = written;
    writeFileSync(join(dir, "84532.json"), JSON.stringify(withoutGenesis));
    const attempt = deploy({ network: "baseSepolia", config, provider: second.provider, deploymentsDir: dir, gitCommit, env });
    await expect(attempt).rejects.toMatchObject({ reason: "untrusted-record" });
    await expect(attempt).rejects.toThrow(
      /84532\.json records TrustScoreOracle at 0x[0-9a-fA-F]{40}, but on chain 84532 there is no code at that address: refusing to trust it/,
    );

    writeFileSync(join(dir, "84532.json"), JSON.stringify({ ...written, genesisHash: `0x${"cd".repeat(32)}` }));
    await expect(
      deploy({ network: "baseSepolia", config, provider: second.provider, deploymentsDir: dir, gitCommit, env }),
    ).rejects.toThrow(/was written for another chain with id 84532 .*: refusing to trust it/);
  });
});

describe("a dry run needs no key", () => {
  test("baseSepolia --dry-run without DEPLOYER_PRIVATE_KEY: plans with a placeholder sender, exit 0", async () => {
    const url = await httpChain(84532);
    const dir = tempDeploymentsDir();
    const result = await deployCli(["--network", "baseSepolia", "--rpc-url", url, "--dry-run", "--deployments-dir", dir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("No DEPLOYER_PRIVATE_KEY: estimating from 0x000000000000000000000000000000000000dEaD (a placeholder)");
    expect(result.stdout).toMatch(
      /\+ would deploy TrustScoreOracle at 0x[0-9a-fA-F]{40} \(predicted\)\n {4}constructor arguments: \["0x000000000000000000000000000000000000dEaD"\]\n {4}estimated gas: \d{6,}/,
    );
    expect(result.stdout).toContain("Dry run: nothing sent; 2 contract(s) would be deployed.");
    expect(readdirSync(dir)).toEqual([]);
  });

  test("a real deployment still needs it", async () => {
    const url = await httpChain(84532);
    const result = await deployCli(["--network", "baseSepolia", "--rpc-url", url, "--deployments-dir", tempDeploymentsDir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("DEPLOYER_PRIVATE_KEY is not set");
  });
});

describe("deployments/ is not committed by accident", () => {
  test("git ignores deployments/ (a real network's record is added deliberately with git add -f)", () => {
    expect(existsSync(".gitignore")).toBe(true);
    expect(() => execFileSync("git", ["check-ignore", "-q", "deployments/31337.json"])).not.toThrow();
    expect(() => execFileSync("git", ["check-ignore", "-q", "deployments/8453/TrustAdmissionHook.args.js"])).not.toThrow();
    expect(readFileSync("docs/deployment.md", "utf8")).toContain("git add -f deployments/");
  });
});
