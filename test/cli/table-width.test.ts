// The terminal table fits the terminal: no line longer than the width at 80 and 120 columns, every column with
// --wide, columns dropped in the documented order, and flips and invalid attestations shown whatever --rows says.
import { describe, expect, it } from "vitest";
import { formatTable, NARROWING_STEPS } from "../../src/cli/format-table";
import { main } from "../../src/cli/main";
import type { DriftRow } from "../../src/drift/types";
import { errorRow, failToPass, invalid, passToFail, report, row } from "./report-fixture";

/** Rows like the embedded default's: long agents, every status, long reasons. */
function realisticRows(): DriftRow[] {
  const rows: DriftRow[] = [];
  for (let i = 0; i < 12; i++) {
    const flip = i % 2 === 0 ? passToFail(String(100 + i)) : failToPass(String(200 + i));
    rows.push({
      ...flip,
      chain: i % 3 === 0 ? "ethereum" : "arbitrum",
      chainId: i % 3 === 0 ? 1 : 42161,
      registry: i % 4 === 0 ? "olas" : "erc8004",
      onchain: { ...flip.onchain!, sybilSeverity: "moderate" },
      attested: { ...flip.attested!, sybilSeverity: "elevated" },
      reason: `${flip.reason} (changed since the last refresh)`,
    });
  }
  rows.push(invalid("4242"), errorRow("77", "service request failed: HTTP 500 Internal Server Error after 3 attempts"));
  rows.push({
    ...row({ agentId: "31337" }),
    status: "missing-attestation",
    attested: null,
    scoreDelta: null,
    reason: "the service answers 404 for this agent",
  });
  for (let i = 0; i < 40; i++) rows.push(row({ agentId: String(1000 + i) }));
  return rows;
}

const REPORT = report(realisticRows());

describe("formatTable: width", () => {
  it.each([80, 120])("at %i columns no line is longer than the width, and the reason still shows", (width) => {
    const lines = formatTable(REPORT, { width, maxRows: Number.POSITIVE_INFINITY }).split("\n");
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
    expect(lines[0]).toMatch(/^STATUS\s+FLIP\s+AGENT\s+.*REASON$/);
    expect(lines.find((line) => line.includes("4242"))).toMatch(/invalid-attestation/);
    const flip = lines.find((line) => line.includes(":100"))!;
    expect(flip).toMatch(/score 60 → 45/);
  });

  it("at 80 columns, merges the scores and drops tiers, ages and sybil severities", () => {
    const [header, first] = formatTable(REPORT, { width: 80 }).split("\n");
    expect(header).toMatch(/^STATUS\s+FLIP\s+AGENT\s+SCORE\s+REASON$/);
    expect(first).toMatch(/\b40→70\b/); // the largest change first
  });

  it("at 120 columns, keeps more columns than at 80", () => {
    const header120 = formatTable(REPORT, { width: 120 }).split("\n")[0]!;
    const header80 = formatTable(REPORT, { width: 80 }).split("\n")[0]!;
    expect(header120.split(/\s{2,}/).length).toBeGreaterThan(header80.split(/\s{2,}/).length);
    expect(header120).not.toContain("TIER"); // tiers go first: they follow from the scores
  });

  it("without a width (--wide, a file, a pipe) shows every column and whole reasons", () => {
    const lines = formatTable(REPORT, { maxRows: Number.POSITIVE_INFINITY }).split("\n");
    expect(lines[0]).toMatch(/^STATUS\s+FLIP\s+AGENT\s+ON-CHAIN\s+TIER\s+SYBIL\s+AGE\s+ATTESTED\s+TIER\s+SYBIL\s+Δ\s+REASON$/);
    expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(120);
    expect(lines.some((line) => line.endsWith("(changed since the last refresh)"))).toBe(true);
  });

  it("narrows in the documented order", () => {
    expect(NARROWING_STEPS).toEqual(["drop-tiers", "drop-age", "drop-sybil", "drop-refresh", "merge-scores", "short-agent", "short-flip"]);
    // A very narrow terminal: every step applied, then whole lines cut.
    const lines = formatTable(REPORT, { width: 50 }).split("\n");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(50);
    expect(lines[1]).toMatch(/^drifted\s+[▲▼]\s+ethereum:\d+:olas|^drifted\s+[▲▼]\s+\S+/);
  });
});

describe("formatTable: rows", () => {
  it("shows every flip and invalid attestation whatever --rows says, on top", () => {
    const lines = formatTable(REPORT, { maxRows: 3 }).split("\n");
    const body = lines.slice(1, -1);
    expect(body).toHaveLength(13); // 12 flips + 1 invalid attestation, though --rows 3
    expect(body.at(-1)).toMatch(/^invalid-attestation/);
    expect(lines.at(-1)).toBe(`… ${REPORT.agents.length - 13} more rows (see --json)`);
    const zero = formatTable(REPORT, { maxRows: 0 }).split("\n");
    expect(zero.slice(1, -1)).toHaveLength(13);
  });

  it("fills up to --rows with the other rows, most severe first", () => {
    const lines = formatTable(REPORT, { maxRows: 15 }).split("\n").slice(1, -1);
    expect(lines).toHaveLength(15);
    expect(lines[13]).toMatch(/^error/);
    expect(lines[14]).toMatch(/^missing-attestation/);
  });
});

describe("trustgate drift: table width through the command line", () => {
  const run = async (argv: string[], columns: number | undefined) => {
    let out = "";
    const io = {
      stdout: { write: (chunk: string) => (out += chunk) },
      stderr: { write: () => true },
      env: {},
      isTTY: false,
      columns,
    };
    await main(["drift", "--rpc", "http://127.0.0.1:1", "--api", "http://127.0.0.1:2", "--all", ...argv], io, {
      runDrift: async () => REPORT,
    });
    return out.split("\n\n")[0]!.split("\n");
  };

  it.each([80, 120])("fits a %i-column terminal", async (columns) => {
    for (const line of await run([], columns)) expect(line.length).toBeLessThanOrEqual(columns);
  });

  it("--wide shows every column at any width", async () => {
    const lines = await run(["--wide"], 80);
    expect(lines[0]).toContain("ATTESTED");
    expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(80);
  });

  it("--rows 2 still shows every flip and the invalid attestation", async () => {
    const lines = await run(["--rows", "2"], 120);
    expect(lines.filter((line) => /pass→fail|fail→pass|[▲▼]/.test(line))).toHaveLength(12);
    expect(lines.some((line) => line.startsWith("invalid-attestation"))).toBe(true);
  });
});
