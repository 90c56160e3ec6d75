import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  DEMO_HARDHAT_VERSION,
  DEMO_HARDHAT3_VERSION,
  DEMO_NEEDS_HARDHAT,
  HARDHAT_INSTALL_HINT,
  HARNESS_ENTRY,
  loadDemoEnvironment,
} from "../../src/cli/demo";
import { checkDemoEndpoints } from "../../src/cli/drift-args";
import { EMBEDDED_SERVICE_IDENTITY } from "../../src/cli/drift-config";
import { MARKDOWN_SUMMARY_MAX_BYTES } from "../../src/cli/format-markdown";
import { formatVerdict } from "../../src/cli/format-summary";
import { type EmbeddedEnvironment, main, type RunDriftFunction, type StartEmbeddedEnvironment } from "../../src/cli/main";
import type { DriftReport } from "../../src/drift/types";
import { InvalidArgumentError } from "../../src/errors";
import { startDemoDriftEnvironment } from "../../src/harness/demo";
import { runChild } from "../support/child-run";
import { hardhat3RecipeVersions } from "../support/hardhat3-recipe";
import { HARDHAT_INSTALL_COMMAND, HARDHAT_PEER_VERSION, HARDHAT3_PEER_VERSION } from "../../src/harness/devnet/hardhat-network";
import { capturedIo } from "../support/captured-io";

const root = join(__dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

// The harness's starter satisfies the command line's contract (a compile-time check).
const contract: StartEmbeddedEnvironment = startDemoDriftEnvironment;

const neverRun = vi.fn<RunDriftFunction>(async () => {
  throw new Error("no scan may start");
});

describe("--demo: when the embedded environment is used", () => {
  it.each([
    [[], /^Give --rpc and --api \(the chain and the trust service to compare\), or --demo/],
    [["--rpc", "http://127.0.0.1:1", "--all"], /^No --api given: .* or add --demo to use the embedded local trust service$/],
    [["--api", "http://127.0.0.1:2", "--all"], /^No --rpc given: .* or add --demo to use the embedded local Base chain$/],
    [
      ["--demo", "--rpc", "http://127.0.0.1:1", "--api", "http://127.0.0.1:2", "--all"],
      /^--demo stands in for a missing --rpc or --api, but both are given/,
    ],
  ])("trustgate drift %j is a usage error: exit 2, one line, nothing started", async (argv, message) => {
    const h = capturedIo();
    const start = vi.fn<StartEmbeddedEnvironment>();
    expect(await main(["drift", ...argv], h.io, { runDrift: neverRun, startEmbedded: start })).toBe(2);
    const lines = h.stderr().trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.replace(/^trustgate: /, "")).toMatch(message);
    expect(start).not.toHaveBeenCalled();
    expect(neverRun).not.toHaveBeenCalled();
  });

  it("checkDemoEndpoints accepts --demo with one or both parts missing, and both endpoints without it", () => {
    expect(() => checkDemoEndpoints({ chain: true, api: true }, true)).not.toThrow();
    expect(() => checkDemoEndpoints({ chain: true, api: false }, true)).not.toThrow();
    expect(() => checkDemoEndpoints({ chain: false, api: true }, true)).not.toThrow();
    expect(() => checkDemoEndpoints({ chain: false, api: false }, false)).not.toThrow();
    expect(() => checkDemoEndpoints({ chain: true, api: true }, false)).toThrow(InvalidArgumentError);
  });
});

describe("--demo: loading the harness", () => {
  it("without Hardhat, exits 2 with exactly one line naming what to install, before any notice", async () => {
    const h = capturedIo();
    const importHarness = vi.fn(async () => ({}));
    const code = await main(["drift", "--demo"], h.io, {
      runDrift: neverRun,
      demoLoader: { hardhatInstalled: () => false, importHarness },
    });
    expect(code).toBe(2);
    expect(h.stderr()).toBe(`trustgate: ${DEMO_NEEDS_HARDHAT}\n`);
    expect(DEMO_NEEDS_HARDHAT).toBe(
      "trustgate drift --demo needs the optional peer dependency hardhat: npm install --save-dev hardhat@3.18.0 (Hardhat 3, Node 22 or later) or hardhat@2.29.1 (Hardhat 2)",
    );
    expect(importHarness).not.toHaveBeenCalled();
  });

  it("refuses a harness entry without startDemoDriftEnvironment (an incomplete installation)", async () => {
    await expect(loadDemoEnvironment({ hardhatInstalled: () => true, importHarness: async () => ({}) })).rejects.toThrow(
      `${HARNESS_ENTRY} does not export startDemoDriftEnvironment`,
    );
  });

  it("starts what the harness entry exports, with the clock given", async () => {
    const environment = { close: vi.fn() } as unknown as EmbeddedEnvironment;
    const startDemo = vi.fn(async () => environment);
    const start = await loadDemoEnvironment({
      hardhatInstalled: () => true,
      importHarness: async () => ({ startDemoDriftEnvironment: startDemo }),
    });
    const now = new Date("2026-11-22T12:00:00Z");
    expect(await start({ now })).toBe(environment);
    expect(startDemo).toHaveBeenCalledWith({ now });
  });

  it("names the Hardhat 2 version this repository is built with and the Hardhat 3 version docs/testing.md's Hardhat 3 recipe pins, both in the optional peer range", () => {
    const hardhat3 = hardhat3RecipeVersions().hardhat;
    expect(DEMO_HARDHAT_VERSION).toBe(pkg.devDependencies.hardhat);
    expect(HARDHAT_PEER_VERSION).toBe(pkg.devDependencies.hardhat);
    expect(DEMO_HARDHAT3_VERSION).toBe(hardhat3);
    expect(HARDHAT3_PEER_VERSION).toBe(hardhat3);
    expect(HARDHAT_INSTALL_COMMAND).toBe(HARDHAT_INSTALL_HINT);
    expect(HARDHAT_INSTALL_HINT).toBe(
      `npm install --save-dev hardhat@${hardhat3} (Hardhat 3, Node 22 or later) or hardhat@${pkg.devDependencies.hardhat} (Hardhat 2)`,
    );
    expect(pkg.peerDependencies.hardhat).toBe(`^${pkg.devDependencies.hardhat} || ^3`);
    expect(pkg.peerDependenciesMeta.hardhat).toEqual({ optional: true });
    expect(typeof contract).toBe("function");
  });
});

describe("npm start: trustgate drift --demo on the sources", () => {
  it("is the start script, and runs the embedded environment through the package's harness entry (no hardhat.config.ts read)", () => {
    expect(pkg.scripts.start).toBe("tsx --conditions=trustgate-source src/cli/bin.ts drift --demo");
    // The start script's command, with an agent list so that the scan stays short; run from a folder without
    // a Hardhat configuration, to show that the demo does not need one.
    const tsx = join(root, "node_modules/.bin/tsx");
    const cwd = mkdtempSync(join(tmpdir(), "trustgate-demo-"));
    let stdout: string;
    try {
      stdout = execFileSync(
        tsx,
        [
          "--conditions=trustgate-source",
          join(root, "src/cli/bin.ts"),
          "drift",
          "--demo",
          "--agents",
          "base:1,base:2,polygon:3",
          "--json",
          "-",
        ],
        { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "1" } },
      );
    } catch (error) {
      const failed = error as { status: number | null; stdout: string; stderr: string };
      const status = failed.status ?? -1;
      stdout = failed.stdout;
      // 3 and 4 are verdicts of a finished scan (flips, unverified agents); anything else is a failure.
      if (status !== 3 && status !== 4) throw new Error(`exit ${status}: ${failed.stderr}`, { cause: error });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
    const parsed = JSON.parse(stdout) as DriftReport;
    expect(parsed.source).toMatchObject({ chainId: 8453, oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4" });
    expect(parsed.source.rpc).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(parsed.summary.agents).toBe(3);
    expect(parsed.agents.map((r) => `${r.chain}:${r.agentId}`).sort()).toEqual(["base:1", "base:2", "polygon:3"]);
  });

  it("writes a Markdown summary of at most 64 KB for the demo's 3,035 agents, and every row with --markdown-rows", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "trustgate-demo-markdown-"));
    try {
      const run = await runChild(
        join(root, "node_modules/.bin/tsx"),
        ["--conditions=trustgate-source", join(root, "src/cli/bin.ts"), "drift", "--demo", "--quiet"].concat([
          "--json",
          "report.json",
          "--markdown",
          "report.md",
          "--markdown-rows",
          "rows.md",
        ]),
        cwd,
      );
      expect([3, 4], run.stderr).toContain(run.code);
      const report = JSON.parse(readFileSync(join(cwd, "report.json"), "utf8")) as DriftReport;
      expect(report.summary.agents).toBe(3035);
      const summary = readFileSync(join(cwd, "report.md"), "utf8");
      expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(MARKDOWN_SUMMARY_MAX_BYTES);
      expect(summary.split("\n")[2]).toBe(`**${formatVerdict(report)}**`);
      // Every flip and invalid attestation is listed; the other rows are where the summary says.
      const problems = report.agents.filter((r) => r.decision.flipped || r.status === "invalid-attestation");
      for (const r of problems) expect(summary).toContain(`| \`${r.chain}:${r.agentId}:${r.registry}\` |`);
      expect(summary).toContain(
        `All ${problems.length} listed, most severe first; the other ${3035 - problems.length} rows are in the JSON report \`report.json\` and the Markdown rows \`rows.md\`.`,
      );
      const rows = readFileSync(join(cwd, "rows.md"), "utf8")
        .split("\n")
        .filter((line) => /^\| [a-z-]+ \|/.test(line));
      expect(rows).toHaveLength(3035);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("runs twice in a row with the same --state, the second run incremental (the embedded service is one identity, whatever its port)", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "trustgate-demo-state-"));
    const night = (report: string) =>
      runChild(
        join(root, "node_modules/.bin/tsx"),
        [
          "--conditions=trustgate-source",
          join(root, "src/cli/bin.ts"),
          "drift",
          "--demo",
          "--state",
          "s.jsonl",
          "--json",
          report,
          "--quiet",
        ],
        cwd,
      );
    try {
      const first = await night("first.json");
      const second = await night("second.json");
      for (const run of [first, second]) expect([3, 4], run.stderr).toContain(run.code);
      expect(second.stderr).not.toContain("another setup");
      const stateOf = (file: string) => (JSON.parse(readFileSync(join(cwd, file), "utf8")) as DriftReport).summary.triage?.state;
      expect(stateOf("first.json")?.fromState).toBe(0);
      expect(stateOf("second.json")?.fromState).toBeGreaterThan(0);
      const header = JSON.parse(readFileSync(join(cwd, "s.jsonl"), "utf8").split("\n")[0]!) as { api: string; issuer: string };
      expect(header).toMatchObject({ api: EMBEDDED_SERVICE_IDENTITY, issuer: EMBEDDED_SERVICE_IDENTITY });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
