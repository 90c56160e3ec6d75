import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DRIFT_HELP, MAIN_HELP } from "../../src/cli/help";
import { type EmbeddedEnvironment, type MainDependencies, main, type RunDriftFunction } from "../../src/cli/main";
import type { DriftConfig } from "../../src/drift/config";
import { sortRows } from "../../src/drift/report";
import type { DriftReport } from "../../src/drift/types";
import { ConfigurationError } from "../../src/errors";
import { errorRow, failToPass, invalid, passToFail, report, row } from "./report-fixture";

const REAL = ["--rpc", "http://127.0.0.1:1/rpc", "--api", "http://127.0.0.1:2"];
const CLEAN = report([row({ agentId: "1" }), row({ agentId: "2" })]);
/** Every agent in error: nothing was verified. */
const ALL_ERRORS = report([errorRow("1"), errorRow("2"), errorRow("3")]);
const FLIPPED = report([row({ agentId: "1" }), passToFail("2")]);
const FLIPPED_SORTED: DriftReport = { ...FLIPPED, agents: sortRows(FLIPPED.agents) };
const NOW = new Date("2026-11-22T12:00:00Z");

function harness(options: { env?: Record<string, string>; isTTY?: boolean; columns?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (chunk: string) => out.push(chunk) },
      stderr: { write: (chunk: string) => err.push(chunk) },
      env: options.env ?? {},
      isTTY: options.isTTY ?? false,
      columns: options.columns,
    },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}

/** A runDrift stand-in: reports progress through every stage, then returns `result` (or throws it). */
function fakeRun(result: DriftReport | Error) {
  return vi.fn<RunDriftFunction>(async (_config, hooks) => {
    for (const stage of ["onchain", "attestations"] as const) {
      for (let done = 0; done <= 3; done++) hooks?.onProgress?.({ stage, done, total: 3 });
    }
    if (result instanceof Error) throw result;
    return result;
  });
}

function fakeEmbedded() {
  const close = vi.fn(async () => {});
  const environment: EmbeddedEnvironment = {
    rpcUrl: "http://127.0.0.1:40001",
    chainId: 8453,
    oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
    apiUrl: "http://127.0.0.1:40002",
    issuer: "http://127.0.0.1:40002",
    jwksUrl: "http://127.0.0.1:40002/.well-known/jwks.json",
    close,
  };
  const start = vi.fn(async () => environment);
  return { start, close, environment };
}

const noEmbedded = vi.fn(async (): Promise<EmbeddedEnvironment> => {
  throw new Error("the embedded environment must not start when --rpc and --api are given");
});

function deps(run: RunDriftFunction, startEmbedded: MainDependencies["startEmbedded"] = noEmbedded): MainDependencies {
  return { runDrift: run, startEmbedded, now: () => NOW };
}

describe("main: commands", () => {
  it("with no command, prints the help on stderr and exits 2", async () => {
    const h = harness();
    expect(await main([], h.io)).toBe(2);
    expect(h.stderr()).toBe(MAIN_HELP);
    expect(h.stdout()).toBe("");
  });

  it("prints the help on stdout for --help, -h and help, and the drift help for drift --help and help drift", async () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const h = harness();
      expect(await main(argv, h.io)).toBe(0);
      expect(h.stdout()).toBe(MAIN_HELP);
    }
    for (const argv of [
      ["drift", "--help"],
      ["help", "drift"],
      ["drift", "-h", "--all"],
    ]) {
      const h = harness();
      expect(await main(argv, h.io, deps(fakeRun(CLEAN)))).toBe(0);
      expect(h.stdout()).toBe(DRIFT_HELP);
    }
  });

  it("the drift manual's usage block (docs/drift.md) is the drift help, word for word", () => {
    const manual = readFileSync(join(__dirname, "../../docs/drift.md"), "utf8");
    const start = manual.indexOf("```\nUsage: trustgate drift [options]") + 4;
    expect(start).toBeGreaterThan(4);
    expect(manual.slice(start, manual.indexOf("```\n", start))).toBe(DRIFT_HELP);
  });

  it("prints the package version", async () => {
    const h = harness();
    const { version } = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { version: string };
    expect(await main(["--version"], h.io)).toBe(0);
    expect(h.stdout()).toBe(`${version}\n`);
  });

  it.each([
    [["scan"], 'trustgate: Unknown command "scan" (commands: drift, doctor, accept, refresh, watch; see trustgate --help)\n'],
    [
      ["--agents", "base:1"],
      'trustgate: Unknown command "--agents" (give the command first: trustgate drift [options]; see trustgate --help)\n',
    ],
    [["help", "scan"], 'trustgate: No help for "scan" (commands: drift, doctor, accept, refresh, watch)\n'],
  ])("refuses %j with exit 2 and one line", async (argv, message) => {
    const h = harness();
    expect(await main(argv, h.io)).toBe(2);
    expect(h.stderr()).toBe(message);
  });
});

describe("main: usage errors", () => {
  it.each([
    [["drift", "--bogus"], /^trustgate: Unknown option --bogus/],
    [["drift", ...REAL], /^trustgate: Choose the agents/],
    [["drift", "--agents", "basse:1"], /^trustgate: Invalid agent "basse:1": Unknown chain "basse"\. Did you mean "base"\?/],
    [["drift", "--threshold", "200"], /^trustgate: --threshold must be an integer from 0 to 100/],
    [["drift", "--max-age", "soon"], /^trustgate: --max-age: Invalid duration "soon"/],
    [["drift", "--gate", "0xnope"], /^trustgate: Invalid --gate "0xnope"/],
    [["drift", "--jwks", "/nonexistent/jwks.json"], /^trustgate: Cannot read --jwks file/],
    [
      ["drift", "--demo", "--json", "/nonexistent-dir/report.json"],
      /^trustgate: --json \/nonexistent-dir\/report\.json: directory "\/nonexistent-dir" does not exist/,
    ],
    // A name longer than the file system allows (255 bytes on Linux, macOS and Windows), a missing directory, a
    // directory, a path below a file: usage errors before the scan, not the write's unexpected error after it.
    [
      ["drift", "--demo", `--html=${"a".repeat(300)}`],
      /^trustgate: --html a{300}: cannot be written there: the name is too long for the file system\n$/,
    ],
    [
      ["drift", "--demo", "--json", `${"d".repeat(300)}/r.json`],
      /^trustgate: --json d{300}\/r\.json: cannot be written there: the name is too long for the file system\n$/,
    ],
    [
      ["drift", "--demo", `--state=${"s".repeat(300)}`],
      /^trustgate: --state s{300}: cannot be written there: the name is too long for the file system\n$/,
    ],
    [
      ["drift", "--demo", "--state", "/nonexistent-dir/state.jsonl"],
      /^trustgate: --state \/nonexistent-dir\/state\.jsonl: directory "\/nonexistent-dir" does not exist\n$/,
    ],
    [["drift", "--demo", "--state", "src"], /^trustgate: --state src: is a directory\n$/],
    [
      ["drift", "--demo", "--markdown", "package.json/r.md"],
      /^trustgate: --markdown package\.json\/r\.md: directory ".*package\.json" does not exist\n$/,
    ],
    [["drift", "--demo", "--markdown-rows", "src"], /^trustgate: --markdown-rows src: is a directory\n$/],
    [
      ["drift", "--demo", "--markdown-rows", "-"],
      /^trustgate: --markdown-rows takes a file, not "-": the rows are a document to keep, not to pipe\n$/,
    ],
    [
      ["drift", "--demo", "--markdown", "same.md", "--markdown-rows", "./same.md"],
      /^trustgate: --markdown same\.md and --markdown-rows \.\/same\.md are the same file .*: the Markdown rows would overwrite the Markdown summary; give two files\n$/,
    ],
    [
      ["drift", "--max-errors", "150%"],
      /^trustgate: --max-errors must be a count .* or a percentage of the scanned agents from 0% to 100% .*, got "150%" \(above 100%\)\n$/,
    ],
    [["drift", "--max-errors=-3"], /^trustgate: --max-errors must be a count \(an integer >= 0, e\.g\. 10\).*, got "-3"\n$/],
    [
      ["drift", "--max-errors", "-3"],
      /^trustgate: Option --max-errors needs a value \(to give a value starting with "-", write --max-errors=-3\)\n$/,
    ],
    [["drift", "--max-errors", "lots"], /^trustgate: --max-errors must be a count .*, got "lots"\n$/],
  ])("%j exits 2 with one line and never starts a scan", async (argv, message) => {
    const h = harness();
    const run = fakeRun(CLEAN);
    const embedded = fakeEmbedded();
    expect(await main(argv, h.io, deps(run, embedded.start))).toBe(2);
    expect(h.stderr()).toMatch(message);
    expect(h.stderr().trimEnd().split("\n")).toHaveLength(1);
    expect(h.stdout()).toBe("");
    expect(run).not.toHaveBeenCalled();
    expect(embedded.start).not.toHaveBeenCalled();
  });
});

describe("main: a run", () => {
  it("passes the parsed configuration to runDrift and exits 0 without a flip", async () => {
    const h = harness({ env: { TRUSTGATE_API_KEY: "secret" } });
    const run = fakeRun(CLEAN);
    expect(await main(["drift", ...REAL, "--agents", "base:1", "--threshold", "60"], h.io, deps(run))).toBe(0);
    const config = run.mock.calls[0]![0] as DriftConfig;
    expect(config).toMatchObject({
      rpcUrl: "http://127.0.0.1:1/rpc",
      apiUrl: "http://127.0.0.1:2",
      issuer: "http://127.0.0.1:2",
      jwks: "http://127.0.0.1:2/.well-known/jwks.json",
      apiKey: "secret",
      threshold: 60,
      scope: { kind: "list", agents: [{ chain: "base", agentId: 1n }] },
    });
    expect(run.mock.calls[0]![1]?.now?.()).toEqual(NOW);
  });

  it("prints the table and the summary on stdout", async () => {
    const h = harness();
    await main(["drift", ...REAL, "--all"], h.io, deps(fakeRun(FLIPPED)));
    expect(h.stdout()).toMatch(/^STATUS\s+FLIP\s+AGENT/);
    expect(h.stdout()).toContain("▲ pass→fail  base:2:erc8004");
    expect(h.stdout().trimEnd().split("\n").at(-1)).toBe("DRIFT: 1 gate decision flips (exit 3)");
    expect(h.stderr()).toBe("");
  });

  it.each([
    ["a pass→fail flip", report([passToFail("1")]), 3],
    ["a fail→pass flip", report([failToPass("1")]), 3],
    ["an invalid attestation", report([invalid("1")]), 3],
    ["in-sync rows only", CLEAN, 0],
    ["errors within the limit", report([row({ agentId: "1" }), errorRow("2")], { errorLimit: { kind: "count", value: 1 } }), 0],
    ["errors over the limit", report([row({ agentId: "1" }), errorRow("2")]), 4],
    ["every agent in error", ALL_ERRORS, 4],
    ["a flip and errors over the limit (4 wins over 3)", report([passToFail("1"), errorRow("2")]), 4],
    ["no agent scanned", report([]), 4],
  ])("exits with the report's code for %s", async (_, result, code) => {
    expect(await main(["drift", ...REAL, "--all"], harness().io, deps(fakeRun(result)))).toBe(code);
  });

  it("exits 4 when nothing was verified, and says why on the last line, even with --quiet or --json -", async () => {
    const h = harness();
    expect(await main(["drift", ...REAL, "--all"], h.io, deps(fakeRun(ALL_ERRORS)))).toBe(4);
    expect(h.stdout().trimEnd().split("\n").at(-1)).toBe(
      "FAILED: could not verify: 3 of 3 agents unverified, more than --max-errors 1% allows (exit 4)",
    );
    const quiet = harness();
    expect(await main(["drift", ...REAL, "--all", "--quiet"], quiet.io, deps(fakeRun(ALL_ERRORS)))).toBe(4);
    expect(quiet.stdout()).toMatch(/^3 agents checked[\s\S]*FAILED: could not verify: 3 of 3 agents unverified[^\n]*\(exit 4\)\n$/);
    const json = harness();
    expect(await main(["drift", ...REAL, "--all", "--json", "-"], json.io, deps(fakeRun(ALL_ERRORS)))).toBe(4);
    const parsed = JSON.parse(json.stdout()) as DriftReport;
    expect(parsed.summary.unverified).toEqual({ count: 3, fraction: 1, limit: { kind: "percent", value: 1 }, allowed: 0, exceeded: true });
    expect(json.stderr()).toContain("FAILED: could not verify: 3 of 3 agents unverified");
  });

  it("passes --max-errors to runDrift (default 1%)", async () => {
    const given = fakeRun(CLEAN);
    await main(["drift", ...REAL, "--all", "--max-errors", "2.5%"], harness().io, deps(given));
    expect(given.mock.calls[0]![0].maxErrors).toEqual({ kind: "percent", value: 2.5 });
    const count = fakeRun(CLEAN);
    await main(["drift", ...REAL, "--all", "--max-errors", "10"], harness().io, deps(count));
    expect(count.mock.calls[0]![0].maxErrors).toEqual({ kind: "count", value: 10 });
    const byDefault = fakeRun(CLEAN);
    await main(["drift", ...REAL, "--all"], harness().io, deps(byDefault));
    expect(byDefault.mock.calls[0]![0].maxErrors).toEqual({ kind: "percent", value: 1 });
  });

  it("passes --state, --full, --max-duration and the audit flags to runDrift, and a partial run exits 4", async () => {
    const partial = {
      ...CLEAN,
      summary: { ...CLEAN.summary, partial: { reason: "max-duration" as const, maxDurationSeconds: 1800, notFetched: 3, resumable: true } },
    };
    const given = fakeRun(partial);
    const argv = [
      "drift",
      ...REAL,
      "--all",
      "--state",
      "s.jsonl",
      "--full",
      "--max-duration",
      "30m",
      "--audit-confidence",
      "95%",
      "--seed",
      "7",
    ];
    const h = harness();
    expect(await main(argv, h.io, deps(given))).toBe(4);
    const config = given.mock.calls[0]![0];
    expect(config).toMatchObject({ state: "s.jsonl", full: true, maxDurationSeconds: 1800 });
    expect(config.scope).toMatchObject({ kind: "all", auditConfidence: 0.95, auditLieRate: 0.01, seed: 7 });
    expect(h.stdout().trimEnd().split("\n").at(-1)).toMatch(
      /^PARTIAL: could not verify: stopped at --max-duration with 3 signed attestations not fetched \(run it again with the same --state to continue\) \(exit 4\)$/,
    );
  });

  it("with --json -, prints only the JSON report on stdout (parseable) and the summary on stderr", async () => {
    const h = harness({ isTTY: true });
    expect(await main(["drift", ...REAL, "--all", "--json", "-"], h.io, deps(fakeRun(FLIPPED)))).toBe(3);
    // Rows most severe first (the fixture lists them as given; a real report is sorted already).
    expect(JSON.parse(h.stdout())).toEqual(JSON.parse(JSON.stringify(FLIPPED_SORTED)));
    expect(h.stdout()).toBe(`${JSON.stringify(FLIPPED_SORTED, null, 2)}\n`);
    expect(h.stderr()).not.toContain("STATUS");
    expect(h.stderr()).not.toContain("\r"); // no progress bar even on a terminal
    expect(h.stderr()).toContain("DRIFT: 1 gate decision flips (exit 3)");
  });

  it("with --markdown -, prints only the Markdown on stdout", async () => {
    const h = harness();
    await main(["drift", ...REAL, "--all", "--markdown", "-"], h.io, deps(fakeRun(FLIPPED)));
    expect(h.stdout().startsWith("# trustgate drift report\n")).toBe(true);
    expect(h.stdout()).not.toContain("STATUS  ");
    expect(h.stderr()).toContain("DRIFT: 1 gate decision flips (exit 3)");
  });

  it("writes the JSON, the Markdown summary and the Markdown rows, and still prints the table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "trustgate-cli-"));
    const json = join(dir, "report.json");
    const markdown = join(dir, "report.md");
    const rows = join(dir, "rows.md");
    const h = harness();
    const argv = ["drift", ...REAL, "--all", "--json", json, "--markdown", markdown, "--markdown-rows", rows];
    expect(await main(argv, h.io, deps(fakeRun(FLIPPED)))).toBe(3);
    expect(JSON.parse(readFileSync(json, "utf8"))).toEqual(JSON.parse(JSON.stringify(FLIPPED_SORTED)));
    expect(readFileSync(json, "utf8")).toContain('\n  "version": 1,');
    // The summary names the other outputs; the rows file holds every row.
    expect(readFileSync(markdown, "utf8")).toContain(`- JSON report, every row with every field: \`${json}\``);
    expect(readFileSync(markdown, "utf8")).toContain(`- Every row as Markdown: \`${rows}\``);
    const rowLines = readFileSync(rows, "utf8")
      .split("\n")
      .filter((line) => /^\| [a-z-]+ \|/.test(line));
    expect(rowLines).toHaveLength(FLIPPED_SORTED.agents.length);
    expect(h.stdout()).toMatch(/^STATUS/);
    expect(h.stderr()).toContain(`trustgate: JSON report written to ${json}`);
    expect(h.stderr()).toContain(`trustgate: Markdown summary written to ${markdown}`);
    expect(h.stderr()).toContain(`trustgate: Markdown rows written to ${rows}`);
  });

  it("with --quiet, prints only the summary", async () => {
    const h = harness({ isTTY: true });
    await main(["drift", "--demo", "--quiet", "--agents", "base:1"], h.io, deps(fakeRun(CLEAN), fakeEmbedded().start));
    expect(h.stdout()).not.toContain("STATUS");
    expect(h.stdout().trimEnd().split("\n").at(-1)).toBe("OK: no gate decision flips and no attestation is invalid (exit 0)");
    expect(h.stderr()).toBe("");
  });

  it("fits the table to the terminal width", async () => {
    const h = harness({ columns: 120 });
    const long = report([errorRow("1", "x".repeat(300))]);
    await main(["drift", ...REAL, "--all", "--rows", "all"], h.io, deps(fakeRun(long)));
    const table = h.stdout().split("\n\n")[0]!;
    for (const line of table.split("\n")) expect(line.length).toBeLessThanOrEqual(120);
    expect(table.split("\n")[1]!.length).toBe(120);
    expect(table.endsWith("x…")).toBe(true);
  });
});

describe("main: progress bar", () => {
  it("draws on stderr at a terminal and clears it before the output", async () => {
    const h = harness({ isTTY: true });
    await main(["drift", ...REAL, "--all"], h.io, deps(fakeRun(CLEAN)));
    expect(h.stderr()).toContain("\rreading the oracle [");
    expect(h.stderr()).toContain("\rfetching attestations [");
    expect(h.stderr().endsWith("\r\x1b[K")).toBe(true);
    expect(h.stdout()).not.toContain("\r");
  });

  it.each([
    ["stderr is not a terminal", { isTTY: false }, []],
    ["CI is set", { isTTY: true, env: { CI: "true" } }, []],
    ["--json - is given", { isTTY: true }, ["--json", "-"]],
    ["--quiet is given", { isTTY: true }, ["--quiet"]],
  ])("is silent when %s", async (_, options, extra) => {
    const h = harness(options);
    await main(["drift", ...REAL, "--all", ...extra], h.io, deps(fakeRun(CLEAN)));
    expect(h.stderr()).not.toContain("\r");
    expect(h.stderr()).not.toContain("█");
  });
});

describe("main: --demo, the embedded default", () => {
  it("with --demo and without --rpc and --api, starts the embedded environment, says so, runs every agent against it, and closes it", async () => {
    const h = harness();
    const embedded = fakeEmbedded();
    const run = fakeRun(CLEAN);
    expect(await main(["drift", "--demo"], h.io, deps(run, embedded.start))).toBe(0);
    expect(embedded.start).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]![0]).toMatchObject({
      rpcUrl: embedded.environment.rpcUrl,
      apiUrl: embedded.environment.apiUrl,
      issuer: embedded.environment.issuer,
      jwks: embedded.environment.jwksUrl,
      oracle: embedded.environment.oracle,
      scope: { kind: "all" },
    });
    expect(h.stderr()).toMatch(/^trustgate: --demo: using the embedded local Base chain and trust service .*every agent/);
    expect(embedded.close).toHaveBeenCalledTimes(1);
  });

  it("names the embedded part when only one is missing", async () => {
    const onlyApi = harness();
    await main(["drift", "--demo", "--api", "http://127.0.0.1:2", "--all"], onlyApi.io, deps(fakeRun(CLEAN), fakeEmbedded().start));
    expect(onlyApi.stderr()).toContain("trustgate: --demo: no --rpc given, using the embedded local Base chain");
    const onlyRpc = harness();
    await main(["drift", "--demo", "--rpc", "http://127.0.0.1:1", "--all"], onlyRpc.io, deps(fakeRun(CLEAN), fakeEmbedded().start));
    expect(onlyRpc.stderr()).toContain("trustgate: --demo: no --api given, using the embedded local trust service");
  });

  it("closes the embedded environment when the run fails", async () => {
    const embedded = fakeEmbedded();
    const h = harness();
    expect(await main(["drift", "--demo"], h.io, deps(fakeRun(new Error("kaput")), embedded.start))).toBe(1);
    expect(embedded.close).toHaveBeenCalledTimes(1);
  });

  it("exits 1 when the embedded environment cannot start", async () => {
    const h = harness();
    const start = vi.fn(async (): Promise<EmbeddedEnvironment> => {
      throw new Error("hardhat exploded");
    });
    expect(await main(["drift", "--demo"], h.io, deps(fakeRun(CLEAN), start))).toBe(1);
    expect(h.stderr()).toContain("trustgate: unexpected error: hardhat exploded");
  });
});

describe("main: errors of the run", () => {
  it("exits 2 with one line for a ConfigurationError (chain or API unreachable before the scan)", async () => {
    const h = harness({ isTTY: true });
    const error = new ConfigurationError("Cannot reach the RPC at http://127.0.0.1:1/…", { details: "HTTP request failed." });
    expect(await main(["drift", ...REAL, "--all"], h.io, deps(fakeRun(error)))).toBe(2);
    const lines = h.stderr().split("\r\x1b[K").at(-1)!; // after the progress bar is cleared
    expect(lines).toBe("trustgate: Cannot reach the RPC at http://127.0.0.1:1/… (HTTP request failed.)\n");
    expect(h.stdout()).toBe("");
  });

  it("exits 1 for an unexpected failure, without the stack unless TRUSTGATE_DEBUG is set", async () => {
    const quiet = harness();
    expect(await main(["drift", ...REAL, "--all"], quiet.io, deps(fakeRun(new TypeError("undefined is not a function"))))).toBe(1);
    expect(quiet.stderr()).toBe("trustgate: unexpected error: undefined is not a function\n(set TRUSTGATE_DEBUG=1 for the stack trace)\n");

    const debug = harness({ env: { TRUSTGATE_DEBUG: "1" } });
    expect(await main(["drift", ...REAL, "--all"], debug.io, deps(fakeRun(new TypeError("undefined is not a function"))))).toBe(1);
    expect(debug.stderr()).toMatch(/TypeError: undefined is not a function\n\s+at /);
  });
});
