// The command line's side of "since last night": --accept and --fail-on (scope, values, the baseline read before any
// scan), trustgate accept (writing a baseline from a report), and the summary's and Markdown's lines without a state.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parseDriftArgs } from "../../src/cli/drift-args";
import { formatMarkdown } from "../../src/cli/format-markdown";
import { formatSummary } from "../../src/cli/format-summary";
import { main, type RunDriftFunction } from "../../src/cli/main";
import { parseBaseline } from "../../src/drift/baseline";
import { InvalidArgumentError } from "../../src/errors";
import { errorRow, failToPass, invalid, passToFail, report, row } from "./report-fixture";
import { capturedIo } from "../support/captured-io";

const dir = mkdtempSync(join(tmpdir(), "trustgate-accept-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = () => new Date("2026-11-29T00:00:00Z");

describe("--accept and --fail-on", () => {
  const demo = ["--demo", "--all"];
  it("go with --state: the values reach the settings, --fail-on defaults to nothing set (any)", () => {
    const args = parseDriftArgs([...demo, "--state", "s.jsonl", "--accept", "b.jsonl", "--fail-on", "NEW"], { env: {} });
    expect(args).toMatchObject({ kind: "run", accept: "b.jsonl", settings: { failOn: "new", state: "s.jsonl" } });
    const plain = parseDriftArgs([...demo, "--state", "s.jsonl"], { env: {} });
    expect(plain.kind === "run" && plain.settings.failOn).toBeUndefined();
  });

  it.each([
    [["--accept", "b.jsonl"], "--accept compares tonight with the night before, so it needs --state <file>"],
    [["--fail-on", "new"], "--fail-on compares tonight with the night before, so it needs --state <file>"],
    [["--state", "s.jsonl", "--fail-on", "some"], '--fail-on must be "new" or "any", got "some"'],
  ])("refuse %j: %s", (extra, message) => {
    expect(() => parseDriftArgs([...demo, ...extra], { env: {} })).toThrow(new InvalidArgumentError(message));
  });

  it("refuse an --agents list (a state file belongs to --all)", () => {
    expect(() => parseDriftArgs(["--demo", "--agents", "base:1", "--fail-on", "new"], { env: {} })).toThrow(
      /--fail-on applies only to --all/,
    );
  });

  it("a malformed baseline is a usage error naming the file and the line, before anything starts", async () => {
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, '{"agent":"base:1","problem":"pass-to-fail","reason":"r","until":"2027-01-01"}\n{"agent":"base:2"}\n');
    const h = capturedIo();
    const neverRun = vi.fn<RunDriftFunction>();
    const start = vi.fn();
    const code = await main(["drift", "--demo", "--all", "--state", join(dir, "s.jsonl"), "--accept", file], h.io, {
      runDrift: neverRun,
      startEmbedded: start,
    });
    expect(code).toBe(2);
    expect(h.stderr()).toMatch(
      new RegExp(
        `^trustgate: The baseline ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}, line 2: member "problem" must be a non-empty string`,
      ),
    );
    expect(neverRun).not.toHaveBeenCalled();
    expect(start).not.toHaveBeenCalled();
  });
});

describe("trustgate accept", () => {
  const from = join(dir, "report.json");
  writeFileSync(from, JSON.stringify(report([passToFail("1"), failToPass("2"), invalid("3"), errorRow("4"), row({ agentId: "5" })])));

  it("writes one entry per flip and invalid attestation, with the reason and the end given; a second run keeps what is there", async () => {
    const to = join(dir, "baseline.jsonl");
    const h = capturedIo();
    const argv = ["accept", "--from", from, "--reason", "known, OPS-12", "--until", "2027-06-30", "--to", to];
    expect(await main(argv, h.io, { now: NOW })).toBe(0);
    expect(h.stderr()).toBe(`trustgate: 3 problems accepted until 2027-06-30 in ${to}\n`);
    const entries = parseBaseline(readFileSync(to, "utf8"), to).entries;
    expect(entries.map((e) => [e.agent, e.problem, e.reason])).toEqual([
      ["base:1:erc8004", "pass-to-fail", "known, OPS-12"],
      ["base:2:erc8004", "fail-to-pass", "known, OPS-12"],
      ["base:3:erc8004", "invalid-attestation", "known, OPS-12"],
    ]);
    const again = capturedIo();
    expect(await main([...argv.slice(0, 4), "other reason", ...argv.slice(5)], again.io, { now: NOW })).toBe(0);
    expect(again.stderr()).toBe(`trustgate: 0 problems accepted until 2027-06-30 in ${to}; 3 already there kept\n`);
    expect(parseBaseline(readFileSync(to, "utf8"), to).entries.map((e) => e.reason)).toEqual(Array(3).fill("known, OPS-12"));
  });

  it.each([
    [["--from", "r.json", "--reason", "x", "--until", "2027-01-01"], /^trustgate: trustgate accept needs --to /],
    [["--from", "r.json", "--reason", "x", "--until", "2026-11-28", "--to", "b"], /^trustgate: --until 2026-11-28 has passed/],
    [["--from", "r.json", "--reason", "x", "--until", "soon", "--to", "b"], /^trustgate: --until must be a date/],
    [
      ["--from", join(dir, "missing.json"), "--reason", "x", "--until", "2027-01-01", "--to", join(dir, "b")],
      /cannot read the JSON report/,
    ],
    [["--from", "r.json", "--reason", "x", "--until", "2027-01-01", "--to", dir], /^trustgate: --to .*: is a directory$/m],
  ])("refuses %j with exit 2", async (argv, message) => {
    const h = capturedIo();
    expect(await main(["accept", ...argv], h.io, { now: NOW })).toBe(2);
    expect(h.stderr()).toMatch(message);
  });

  it("refuses a JSON file that is not a drift report", async () => {
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ agents: [{ name: "x" }] }));
    const h = capturedIo();
    expect(
      await main(["accept", "--from", other, "--reason", "x", "--until", "2027-01-01", "--to", join(dir, "b2")], h.io, { now: NOW }),
    ).toBe(2);
    expect(h.stderr()).toMatch(/not a trustgate drift JSON report/);
  });
});

describe("a report without a state file", () => {
  it("says plainly that there was no previous night, in the summary and the Markdown, and what to do about each status with rows", () => {
    const r = { ...report([passToFail("1"), row({ agentId: "2" })]), sinceLastNight: null };
    const summary = formatSummary(r);
    expect(summary).toContain("  since last night: not compared: without --state there is no previous night");
    expect(summary).toMatch(/^ {2}what to do: {7}drifted: tell the oracle's publisher/m);
    expect(summary).not.toMatch(/in-sync: nothing to do/);
    const markdown = formatMarkdown(r);
    expect(markdown).toContain("## Since last night\n\nNot compared: without --state there is no previous night.\n");
    expect(markdown).toContain("| drifted | 1 | tell the oracle's publisher");
  });
});
