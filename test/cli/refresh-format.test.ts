// How people see the refresh assessment and the attested oracle: the REFRESH column of the terminal table (shown
// only when a row was assessed, dropped in its place in the narrowing order), the summary's `oracle read` and
// `refreshable` lines, and the Markdown summary's table and the rows' column.
import { describe, expect, it } from "vitest";
import { formatMarkdown } from "../../src/cli/format-markdown";
import { MARKDOWN_ROWS_HEADER, markdownRow } from "../../src/cli/markdown-rows";
import { formatSummary, formatVerdict } from "../../src/cli/format-summary";
import { formatTable } from "../../src/cli/format-table";
import { refreshableCell } from "../../src/cli/row-cells";
import { buildReport } from "../../src/drift/report";
import type { DriftReport, DriftRow, RowRefresh } from "../../src/drift/types";
import { CONSISTENT, GENERATED_AT, report, row } from "./report-fixture";

const ATTESTED = "0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const ORACLE = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4";

const possible: RowRefresh = {
  possible: true,
  reason: `submitAttestation can refresh it before 2026-11-23T11:59:00.000Z: issuedAt …; kid "rnwy-trust-v2" installed on the attested oracle ${ATTESTED}`,
  kid: "rnwy-trust-v2",
  keyStatus: "installed",
  expiresAt: "2026-11-23T11:59:00.000Z",
  call: { function: "submitAttestation", form: "sig" },
};
const notInstalled: RowRefresh = {
  possible: false,
  blocker: "kid-not-installed",
  reason: `kid "rnwy-trust-v2" is not installed on the attested oracle ${ATTESTED}`,
  kid: "rnwy-trust-v2",
  keyStatus: "not-installed",
  expiresAt: "2026-11-23T11:59:00.000Z",
};

function staleRow(agentId: string, refresh: RowRefresh | null): DriftRow {
  return row({
    agentId,
    status: "stale-onchain",
    onchain: { score: 60, tier: "developing", sybilSeverity: "none", updatedAt: "2026-11-19T03:00:00.000Z" },
    refresh,
    reason: "on-chain record is 3.4d old (max 1.5d)",
  });
}

const ROWS = [
  staleRow("1", possible),
  staleRow("2", notInstalled),
  staleRow("3", { ...possible, keyStatus: "unchecked" }),
  row({ agentId: "4" }),
];

function withAttested(rows: DriftRow[], upstream = ORACLE): DriftReport {
  const base = report(rows);
  return {
    ...base,
    source: { ...base.source, attestedOracle: { address: ATTESTED, upstream, upstreamIsOracle: upstream === ORACLE } },
  };
}

describe("the REFRESH column", () => {
  it("says yes, no:<what> or -, after Δ and before the reason", () => {
    expect(ROWS.map(refreshableCell)).toEqual(["yes", "no:kid", "yes", "-"]);
    const lines = formatTable(report(ROWS)).split("\n");
    expect(lines[0]).toMatch(/\s+Δ\s+REFRESH\s+REASON$/);
    expect(lines.find((l) => l.includes("base:2:erc8004"))).toMatch(/\s+no:kid\s+on-chain record is 3\.4d old/);
    expect(lines.find((l) => l.includes("base:4:erc8004"))).toMatch(/\s+0\s+-\s*$/);
  });

  it("is left out when no shown row was assessed, so reports without refresh data look as before", () => {
    const header = formatTable(report([row({ agentId: "4" })])).split("\n")[0]!;
    expect(header).not.toContain("REFRESH");
    expect(header).toMatch(/\s+Δ\s+REASON$/);
  });

  it("is dropped after the sybil severities and before the scores are merged", () => {
    const columns = (width: number) =>
      formatTable(report(ROWS), { width })
        .split("\n")[0]!
        .split(/\s{2,}/);
    const full = formatTable(report(ROWS)).split("\n")[0]!;
    // Find the widths at which the table stops showing the sybil columns, then the REFRESH column.
    const widths = Array.from({ length: 120 }, (_, i) => 150 - i);
    const firstWithoutSybil = widths.find((w) => !columns(w).includes("SYBIL"))!;
    const firstWithoutRefresh = widths.find((w) => !columns(w).includes("REFRESH"))!;
    const firstMerged = widths.find((w) => columns(w).includes("SCORE"))!;
    expect(full).toContain("SYBIL");
    expect(firstWithoutSybil).toBeGreaterThanOrEqual(firstWithoutRefresh);
    expect(firstWithoutRefresh).toBeGreaterThanOrEqual(firstMerged);
    expect(columns(firstWithoutRefresh)).toContain("ON-CHAIN"); // dropped before the merge
    for (const w of [60, 80, 100, 120])
      for (const line of formatTable(report(ROWS), { width: w }).split("\n")) expect(line.length).toBeLessThanOrEqual(w);
  });
});

describe("the summary and the Markdown report", () => {
  it("count refreshable rows, what stands in the way of the others, and whether kids were checked", () => {
    const built = buildReport(ROWS, {
      source: report([]).source,
      decisionRule: "score >= 51",
      maxAgeSeconds: 36 * 3600,
      encoding: CONSISTENT,
      generatedAt: new Date(GENERATED_AT),
    });
    expect(built.summary.refreshable).toBe(2);
    expect(formatSummary(built)).toContain(
      "refreshable:      2 of 3 stale, missing or drifted with a verified attestation (not: kid-not-installed 1); kids not checked (no --attested-oracle)\n",
    );
    expect(formatSummary(built)).not.toContain("oracle read:");
    // Refreshable rows do not make a verdict.
    expect(formatVerdict(built)).toBe("OK: no gate decision flips and no attestation is invalid (exit 0)");
    // Without any assessed row or attested oracle, no line at all.
    expect(formatSummary(report([row({ agentId: "4" })]))).not.toContain("refreshable:");
  });

  it("name the attested oracle read, and flag an upstream that is not --oracle", () => {
    const text = formatSummary(withAttested(ROWS));
    expect(text).toContain(`oracle read:      attested oracle ${ATTESTED} (the fresher of its own records and its upstream ${ORACLE}'s)\n`);
    expect(text).toContain(`; kids checked against the attested oracle ${ATTESTED}\n`);
    const other = "0xBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    expect(formatSummary(withAttested(ROWS, other))).toContain(`its upstream ${other}'s (NOT --oracle: see the note))`);
    expect(formatSummary(withAttested(ROWS, "0x0000000000000000000000000000000000000000"))).toContain(
      "(its own records only: it has no upstream)",
    );
  });

  it("Markdown: the oracle read and the refreshable count in the summary table, the assessment in a word in its own column", () => {
    const lines = [
      ...formatMarkdown(withAttested(ROWS)).split("\n"),
      ...MARKDOWN_ROWS_HEADER,
      ...withAttested(ROWS).agents.map((r) => markdownRow(r)),
    ];
    expect(lines).toContain(
      `| Records read from | attested oracle ${ATTESTED} (the fresher of its own records and its upstream ${ORACLE}'s) |`,
    );
    expect(lines.find((l) => l.startsWith("| Refreshable |"))).toContain("2 of 3 stale, missing or drifted");
    expect(lines.find((l) => l.startsWith("| Status | Flip |"))).toContain("| vs. refresh | Refresh on-chain | Reason |");
    expect(lines.find((l) => l.includes("`base:2:erc8004`"))).toContain(`| no:kid | on-chain record is 3.4d old (max 1.5d) |`);
    expect(lines.find((l) => l.includes("`base:4:erc8004`"))).toMatch(/\| - \| {2}\|$/);
  });
});
