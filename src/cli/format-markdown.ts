/**
 * The drift report as a Markdown document (for a pull request, an issue or a CI job summary): the verdict, what
 * changed since the previous night, a summary table, counts per status, what to do about each, and every row (with when the attested score was computed and whether
 * that was after the on-chain refresh, and whether the signed attestation could refresh the record on-chain).
 *
 * URLs are shown redacted (`redactUrl`: providers put API keys in the path). Every value is outside text (the
 * service's and the chain's data, reasons quoting them) and goes through `markdownText`: control characters
 * removed, Markdown metacharacters escaped, so that a report posted on a pull request shows `![img](url)` as text
 * and loads nothing; addresses and agent references are code spans.
 *
 * @packageDocumentation
 */
import { type RowTally, sortRows, tallyRows } from "../drift/report.js";
import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES, type DriftReport, type DriftReportHead, type DriftRow } from "../drift/types.js";
import { markdownText, sanitizeText } from "../security/outside-text.js";
import { redactUrl } from "../security/redact-url.js";
import { formatDuration } from "./duration.js";
import {
  formatAudit,
  formatEncoding,
  formatFlips,
  formatOracleRead,
  formatRefreshable,
  formatState,
  formatSybilEncoding,
  formatUnverified,
  formatVerdict,
} from "./format-summary.js";
import { markdownActions, markdownSinceLastNight } from "./format-since-last-night.js";
import { REPORT_COLUMNS } from "./report-columns.js";
import { NONE } from "./row-cells.js";

/**
 * Formats a report as Markdown.
 *
 * @param report - The report.
 * @returns The document, ending with a newline.
 */
export function formatMarkdown(report: DriftReport): string {
  const rows = sortRows(report.agents);
  const body = rows.length === 0 ? [MARKDOWN_NO_ROWS] : [...MARKDOWN_ROWS_HEADER, ...rows.map(markdownRow)];
  return `${[markdownHead(report, tallyRows(rows)), ...body].join("\n")}\n`;
}

/** What stands for the rows when there are none. */
export const MARKDOWN_NO_ROWS = "No agents scanned.";

/** The columns of the rows' table, in order. */
const MARKDOWN_COLUMNS = REPORT_COLUMNS.flatMap(({ align, cell, markdown }) =>
  markdown === undefined ? [] : [{ align, header: markdown.header, cell: markdown.cell ?? cell, code: markdown.code === true }],
);

/** The two header lines of the rows' table. */
export const MARKDOWN_ROWS_HEADER: readonly string[] = [
  `| ${MARKDOWN_COLUMNS.map((column) => column.header).join(" | ")} |`,
  `|${MARKDOWN_COLUMNS.map((column) => (column.align === "right" ? "--:" : "---")).join("|")}|`,
];

/**
 * The document up to its rows: the verdict, the summary table, counts per status and the `## Agents` heading (then an
 * empty line), without a trailing newline. {@link formatMarkdown} is this, a newline, then
 * {@link MARKDOWN_ROWS_HEADER} and one {@link markdownRow} per row sorted by severity (or {@link MARKDOWN_NO_ROWS}),
 * each on its own line, and a final newline — so that a writer can put the rows in as they come from a file.
 *
 * @param report - The report (its rows are not read).
 * @param rows - The tally of its rows, for the refresh assessments (see `formatRefreshable`).
 * @returns The head.
 */
export function markdownHead(report: DriftReportHead, rows: Pick<RowTally, "refreshAssessed" | "refreshBlockers">): string {
  const s = report.summary;
  const block = report.source.blockNumber === null ? "" : ` at block ${report.source.blockNumber}`;
  const text = markdownText;
  const summary: [string, string][] = [
    ["Generated", text(report.generatedAt)],
    ["Chain", text(`${report.source.chainId}${block}`)],
    ["Oracle", code(report.source.oracle)],
    ["RPC", text(redactUrl(report.source.rpc))],
    ["API", text(report.source.api)],
    ["Issuer", text(report.source.issuer)],
    ["Decision rule", code(report.decisionRule)],
    ["Stale after", text(formatDuration(report.maxAgeSeconds))],
    ["Agents", String(s.agents)],
    ["Decision flips", text(formatFlips(report))],
    ["Oldest on-chain record", text(s.oldestUpdatedAt ?? NONE)],
    ["Newest on-chain record", text(s.newestUpdatedAt ?? NONE)],
    ["Tier encoding", text(formatEncoding(report))],
    ["Sybil encoding", text(formatSybilEncoding(report))],
    ["Unverified", text(formatUnverified(report))],
  ];
  if (report.source.attestedOracle) summary.splice(3, 0, ["Records read from", text(formatOracleRead(report))]);
  const refreshable = formatRefreshable(report, rows);
  if (refreshable !== null) summary.push(["Refreshable", text(refreshable)]);
  if (s.triage) {
    const t = s.triage;
    summary.push(
      ["Triage", text(`${t.listed} listed, ${t.signedFetches} signed fetches, ${t.fetchesSaved} saved`)],
      ["Triage audit", text(`${formatAudit(t)}, ${t.listingContradictions} listing contradictions`)],
    );
    if (t.state) summary.push(["State", text(formatState(t.state, report.generatedAt))]);
  }

  return [
    "# trustgate drift report",
    "",
    `**${markdownText(formatVerdict(report))}**`,
    "",
    ...markdownSinceLastNight(report),
    "| | |",
    "|---|---|",
    ...summary.map(([key, value]) => `| ${key} | ${value} |`),
    "",
    "## Status",
    "",
    "| Status | Agents | Meaning |",
    "|---|--:|---|",
    ...DRIFT_STATUSES.map(
      (status) => `| ${markdownText(status)} | ${s.byStatus[status]} | ${markdownText(DRIFT_STATUS_MEANINGS[status])} |`,
    ),
    "",
    ...markdownActions(report),
    "## Agents",
    "",
  ].join("\n");
}

/**
 * One row of the rows' table.
 *
 * @param row - The row.
 * @returns The line, without a newline.
 */
export function markdownRow(row: DriftRow): string {
  return MARKDOWN_COLUMNS.map((column) => {
    const cell = column.cell(row);
    return column.code ? code(cell) : markdownText(cell);
  }).reduce((line, cell) => `${line} ${cell} |`, "|");
}

/** Inline code, for a table cell: control characters removed, no backtick to end it, pipes escaped. */
function code(text: string): string {
  return `\`${sanitizeText(text).replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
}
