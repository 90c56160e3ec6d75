/**
 * `npm run test:unit` (vitest.unit.config.mts) holds the suites that start no chain, no subprocess, no server and no
 * worker thread: each listed file exists and calls nothing that starts one (the helpers that do are named). And the
 * skip summary every run ends with names each skipped test with its reason.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { UNIT_TESTS } from "../../vitest.unit.config.mjs";
import { forgeSkippedTests, skipSummary } from "../../scripts/lib/skip-summary";

const ROOT = resolve(__dirname, "../..");

/**
 * What starts a chain, a subprocess, a server or a worker thread: the kit's starters, the test helpers that start
 * one (or bind a port, or deploy on Hardhat's network), Node's own, and Hardhat's runtime.
 */
const STARTERS = new RegExp(
  [
    String.raw`\b(startLocalChain|startTrustService|startBaseSimulation|startForkableBase|startEmbedded\w*|startSubmissionSimulator)\(`,
    String.raw`\b(startJwksServer|unreachableJwksUrl|startHostileServer|startScriptedServer|unusedPort|startSideNetwork|startVectorOracle|deployTrustStack|latestTimestamp|doctorAgainst)\(`,
    String.raw`\b(startVerifierPool|createServer|spawn|spawnSync|execFile|execFileSync|fork|new Worker)\(`,
    String.raw`from "hardhat"|\.listen\(`,
  ].join("|"),
);

describe("the unit suite", () => {
  it.each(UNIT_TESTS.filter((file) => file !== "test/package/unit-suite.test.ts"))("%s exists and starts nothing", (file) => {
    const path = join(ROOT, file);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, "utf8")).not.toMatch(STARTERS);
  });

  it("the check would see a starter", () => {
    expect("const chain = await startLocalChain({ http: true });").toMatch(STARTERS);
    expect("const server = await startJwksServer(jwks);").toMatch(STARTERS);
    expect('import hre from "hardhat";').toMatch(STARTERS);
    expect("await buildTrustCheckResponse(keys.v2, {});").not.toMatch(STARTERS);
  });
});

describe("the skip summary", () => {
  it("counts the skipped tests and names each with its file, its reason and its note", () => {
    expect(skipSummary([])).toEqual(["Skipped: none."]);
    expect(
      skipSummary([
        { file: "test/a.test.ts", name: "forge > gate (skipped: forge is not installed)", mode: "skip", note: undefined },
        { file: "test/b.test.ts", name: "later", mode: "todo", note: "needs a node" },
      ]),
    ).toEqual([
      "Skipped: 2 tests (the reason is in each name, or after it):",
      "  skip  test/a.test.ts > forge > gate (skipped: forge is not installed)",
      "  todo  test/b.test.ts > later (needs a node)",
    ]);
  });
});

describe("forge's skipped tests in the summary", () => {
  it("names each [SKIP] line of forge's report with its file, contract and reason, and a suite skipped as a whole", () => {
    const output = [
      "Ran 26 tests for test/foundry/TrustGated.t.sol:TrustGatedTest",
      "[PASS] test_refusesScoreAboveRangeAsMalformed() (gas: 30554)",
      "Ran 1 test for test/foundry/BaseFork.t.sol:BaseForkTest",
      "[SKIP: skipped: fork test: no BASE_RPC_URL] setUp() (gas: 0)",
      "[SKIP] test_later() (gas: 0)",
      "Suite result: ok. 0 passed; 0 failed; 2 skipped; finished in 2.22ms (0.00ns CPU time)",
    ].join("\n");
    expect(forgeSkippedTests(output)).toEqual([
      { file: "test/foundry/BaseFork.t.sol", name: "BaseForkTest > setUp()", mode: "skip", note: "fork test: no BASE_RPC_URL" },
      { file: "test/foundry/BaseFork.t.sol", name: "BaseForkTest > test_later()", mode: "skip", note: undefined },
    ]);
    expect(forgeSkippedTests("test:forge skipped: the npm registry has no forge 1.7.1 binary for linux-arm64\n")).toEqual([
      {
        file: "test/foundry",
        name: "the forge suite",
        mode: "skip",
        note: "the npm registry has no forge 1.7.1 binary for linux-arm64",
      },
    ]);
    expect(forgeSkippedTests("Ran 3 tests for test/foundry/A.t.sol:ATest\n[PASS] test_a() (gas: 1)\n")).toEqual([]);
  });
});
