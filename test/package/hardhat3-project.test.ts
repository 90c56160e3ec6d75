/**
 * The packed kit in a Hardhat 3 project made as docs/testing.md's "Hardhat 3" section says, from an empty folder with
 * nothing but the npm registry, run with Node 22 from the npm registry (`tools/node22`, which `npm run tools:install`,
 * the first step of `npm test`, installs):
 *
 * 1. `npm pack` the repository (its `prepare` builds `dist/`): the kit as the recipe's "tarball";
 * 2. run the recipe's commands one by one (test/support/hardhat3-recipe.ts reads them from the page): make the folder,
 *    `npm init -y`, `npm pkg set type=module`, `npm install --save-dev --save-exact` of Hardhat 3, its toolbox and
 *    their peers, OpenZeppelin and solc at the versions the page pins, then the kit: a plain install (no overrides,
 *    no `--legacy-peer-deps`), since the kit's optional peer range admits Hardhat 3;
 * 3. write the documented Hardhat 3 files into it: every block of README.md and docs/ marked
 *    `<!-- doc-test: hardhat3: <path> -->` (the config, compiling offline with the `solc` package's `soljson.js`
 *    and naming the mocks in `npmFilesToBuild`; docs/contracts.md's `AgentVault`; a node:test + viem test behind
 *    the mocks; `startBaseContext` on `network.create()`; a Solidity test), and the Solidity files of
 *    docs/testing.md's Foundry project (`src/AgentVault.sol` and its tests, which run unchanged under Hardhat 3),
 *    and this suite's own fork test (`test/package/hardhat3-project/test/`);
 * 4. `npx hardhat test nodejs` and `npx hardhat test solidity` pass, each test by name;
 * 5. the kit's Foundry user suite (`test/package/foundry-project`: `src/` and `test/`, copied over the documented
 *    Foundry files) passes `npx hardhat test solidity` as it passes forge (test/package/foundry-project.test.ts);
 * 6. every entry of the installed kit can be `require`d from CommonJS under Node 22 (no top-level await on a
 *    `require` path: `ERR_REQUIRE_ASYNC_MODULE`);
 * 7. `npx trustgate drift --demo` prints the embedded report and exits 3;
 * 8. the documented TypeScript files type-check (`tsc --noEmit`, strict) against the installed packages, so that a
 *    renamed function in a branch the tests never run still fails.
 *
 * The install comes from the npm registry (through the local npm cache when it holds the packages). Where the pinned
 * Node 22 cannot run (a platform without its binary, or an install that failed), the suite is skipped with the reason
 * in its name.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildRun, runChild } from "../support/child-run";
import { startForkableBase } from "../../src/harness/devnet/forkable-base.js";
import { docProjectFiles, DOCUMENTS } from "../support/doc-blocks";
import { locateToolchain, NODE22_TOOLCHAIN } from "../../scripts/lib/toolchains";
import { hardhat3RecipeCommands, hardhat3RecipeFolder, hardhat3RecipeVersions, KIT_PLACEHOLDER } from "../support/hardhat3-recipe";

const root = resolve(__dirname, "../..");
const located = locateToolchain(NODE22_TOOLCHAIN);
const node22 = located.ok ? located.path : undefined;
const skipped = located.ok ? "" : ` (skipped: ${located.reason})`;

/** Result of a command. */
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
): Promise<ChildRun> {
  return runChild(command, args, cwd, {
    timeoutMs,
    env: { ...extraEnv, PATH: `${dirname(node22!)}${delimiter}${process.env.PATH ?? ""}` },
  });
}

async function must(command: string, args: readonly string[], cwd: string): Promise<ChildRun> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The page whose marked blocks make the documented Foundry project. */
const FOUNDRY_PAGE = "docs/testing.md";

/** The project's files beside its package.json: the documents' Hardhat 3 blocks, and the Foundry project's Solidity files. */
function projectFiles(): Record<string, string> {
  const foundrySolidity = Object.entries(docProjectFiles(FOUNDRY_PAGE, "foundry")).filter(([path]) => path.endsWith(".sol"));
  const hardhat3 = docProjectFiles(DOCUMENTS, "hardhat3");
  for (const [path] of foundrySolidity)
    if (path in hardhat3) throw new Error(`${FOUNDRY_PAGE}: ${path} is both a Foundry and a Hardhat 3 file`);
  return { ...hardhat3, ...Object.fromEntries(foundrySolidity) };
}

/** `npx hardhat test solidity` in the project: passes, with no failing test; its time is printed. */
async function hardhatTestSolidity(what: string): Promise<ChildRun> {
  const result = await run("npx", ["hardhat", "test", "solidity"], project);
  console.log(`hardhat3-project: npx hardhat test solidity (${what}) took ${result.ms} ms, compilation included`);
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.stdout).not.toMatch(/failing/);
  expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/Warning:/); // solc compiles every file clean
  return result;
}

let work: string;
let project: string;

beforeAll(async () => {
  if (!node22) return;
  work = mkdtempSync(join(tmpdir(), "trustgate-hardhat3-"));
  await must("npm", ["pack", "--pack-destination", work], root);
  const tarball = join(
    work,
    readdirSync(work).find((name) => name.endsWith(".tgz"))!,
  );
  // The recipe, line by line, as a user pastes it: the first line makes the folder and enters it.
  const [makeFolder, ...steps] = hardhat3RecipeCommands();
  project = join(work, hardhat3RecipeFolder());
  console.log(`hardhat3-project: ${makeFolder}`);
  mkdirSync(project);
  for (const step of steps) {
    const command = step.replaceAll(KIT_PLACEHOLDER, JSON.stringify(tarball));
    const result = await must("bash", ["-euo", "pipefail", "-c", command], project);
    console.log(`hardhat3-project: ${step} (${result.ms} ms)`);
  }
  for (const [path, text] of Object.entries(projectFiles())) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  cpSync(join(root, "test/package/hardhat3-project/test"), join(project, "test"), { recursive: true });
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!node22)(`a Hardhat 3 project (Node 22) with the packed kit${skipped}`, () => {
  it("installs with a plain npm install and runs on Node 22", async () => {
    expect((await must("node", ["--version"], project)).stdout.trim()).toBe("v22.23.3");
    expect((await must("node", ["-p", 'require("hardhat/package.json").version'], project)).stdout.trim()).toBe("3.18.0");
  });

  it("the recipe pins every package it installs from the registry (--save-exact: no range for npm update to move)", () => {
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      type?: string;
      devDependencies: Record<string, string>;
    };
    expect(manifest.type).toBe("module");
    const { trustgate, ...fromRegistry } = manifest.devDependencies;
    expect(trustgate).toMatch(/^file:.*\.tgz$/);
    expect(fromRegistry).toEqual(hardhat3RecipeVersions());
    expect(fromRegistry.solc).toBe("0.8.28");
  });

  it("requires every entry of the installed kit from CommonJS under Node 22: no top-level await on a require path", async () => {
    const kit = JSON.parse(readFileSync(join(project, "node_modules/trustgate/package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(kit.exports)
      .filter((key) => !key.includes("*") && !key.endsWith(".json"))
      .map((key) => (key === "." ? "trustgate" : `trustgate/${key.slice(2)}`));
    expect(entries).toEqual([
      "trustgate",
      "trustgate/drift",
      "trustgate/deploy",
      "trustgate/refresh",
      "trustgate/watch",
      "trustgate/service",
      "trustgate/testing",
      "trustgate/harness",
    ]);
    writeFileSync(
      join(project, "require-entries.cjs"),
      `for (const entry of ${JSON.stringify(entries)}) {\n  const names = Object.keys(require(entry));\n  console.log(entry, names.length);\n}\n`,
    );
    const result = await run("node", ["require-entries.cjs"], project);
    expect(result.stderr).not.toContain("ERR_REQUIRE_ASYNC_MODULE");
    expect(result.code, result.stderr).toBe(0);
    for (const entry of entries) expect(result.stdout).toMatch(new RegExp(`^${entry} [1-9]\\d*$`, "m"));
  });

  it("passes npx hardhat test nodejs: the documented AgentVault behind the mocks, and startBaseContext on network.create()", async () => {
    const result = await run("npx", ["hardhat", "test", "nodejs"], project);
    console.log(`hardhat3-project: npx hardhat test nodejs took ${result.ms} ms`);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    for (const name of [
      "is a simulation of Base on the caller's chain",
      "admits the controller of a trusted agent",
      "refuses a low score with TrustScoreTooLow",
      "refuses a stranger with NotAgentController",
      "refuses an agent without a record with TrustRecordMissing",
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

  it("type-checks the documented TypeScript files (config and tests) against the installed Hardhat 3, viem and kit", async () => {
    // Built first, so that Hardhat's generated artifact types (`artifacts/artifacts.d.ts`) type each contract's ABI: a
    // misspelt `vault.write.…` is then an error, not an `any`. TypeScript and Node's types come from this repository
    // (the recipe installs neither); everything else from the project.
    const built = await run("npx", ["hardhat", "build"], project);
    expect(built.code, `${built.stdout}\n${built.stderr}`).toBe(0);
    writeFileSync(
      join(project, "tsconfig.typecheck.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(root, "node_modules/@types")],
        },
        include: ["hardhat.config.ts", "test/**/*.ts", "artifacts/**/*.d.ts"],
      }),
    );
    const checked = Object.keys(projectFiles()).filter((path) => path.endsWith(".ts"));
    expect(checked).toEqual(expect.arrayContaining(["hardhat.config.ts", "test/mock-gate.test.ts", "test/base-context.test.ts"]));
    const result = await run("node", [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.typecheck.json"], project);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  }, 300_000);

  it("passes npx hardhat test solidity: the documented Solidity tests for Hardhat 3 and for Foundry, on EDR", async () => {
    const result = await hardhatTestSolidity("the documented tests");
    for (const name of [
      "test/AgentVaultContext.t.sol:AgentVaultContextTest", // docs/testing.md's Hardhat 3 test
      "✔ test_oracleRevertingWithGivenDataIsRefused()",
      "test/AgentVault.t.sol:AgentVaultTest", // docs/testing.md's Foundry test, unchanged
      "✔ test_revertingOracleIsRefused()",
      "test/AgentVaultFork.t.sol:AgentVaultForkTest", // skipped without BASE_RPC_URL
    ]) {
      expect(result.stdout).toContain(name);
    }
    expect(result.stdout).toMatch(/\b7 passing/);
    expect(result.stdout).toMatch(/\b1 skipped/);
  }, 600_000);

  it("passes npx hardhat test solidity with the kit's Foundry user suite in place of the documented Foundry files", async () => {
    const suite = join(root, "test/package/foundry-project");
    cpSync(join(suite, "src"), join(project, "src"), { recursive: true });
    cpSync(join(suite, "test"), join(project, "test"), { recursive: true });
    const result = await hardhatTestSolidity("the Foundry user suite");
    for (const name of [
      "✔ test_attestationRefreshesAStaleOracle()",
      "✔ test_oracleRevertsWithGivenData()",
      "✔ test_oracleRevertSeenOnADirectRead()", // makeOracleRevert(): a direct read's revert, seen by expectRevert
      "✔ test_expectations()", // a mocked revert expected through a relay, as EDR requires
      "- test_forks()", // needs the local chain foundry-project.test.ts serves
    ]) {
      expect(result.stdout).toContain(name);
    }
    expect(result.stdout).toMatch(/\b33 passing/); // the suite's 30 and the documented Hardhat 3 test's 3
    expect(result.stdout).toMatch(/\b2 skipped/);
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
