/**
 * A drift report's rows as a Markdown table: the lines the summary lists its decision flips and invalid attestations
 * with (`format-markdown.ts`), and the document of every row that `--markdown-rows <file>` writes.
 *
 * A row says whether its signed attestation could refresh the record on-chain in a word (`yes`, `no:kid`, …): the
 * sentence that explains it (about 300 characters, mostly the same on every row) is in the JSON report's
 * `refresh.reason` and on the page, and the summary gives it once per word. Every value is outside text (the
 * service's and the chain's data, reasons quoting them) and goes through `markdownText`; agent references are code
 * spans.
 *
 * @packageDocumentation
 */
import type { DriftReportHead, DriftRow } from "../drift/types.js";
import { markdownText, sanitizeText } from "../security/outside-text.js";
import { formatVerdict } from "./format-summary.js";
import { REPORT_COLUMNS } from "./report-columns.js";
import { truncate } from "./row-cells.js";

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

/** Options of {@link markdownRow}. */
export interface MarkdownRowOptions {
  /** Longest cell, in characters, before it is cut with `…` (default: no limit). */
  readonly maxCell?: number;
}

/**
 * One row of the rows' table.
 *
 * @param row - The row.
 * @param options - The longest cell.
 * @returns The line, without a newline.
 */
export function markdownRow(row: DriftRow, options: MarkdownRowOptions = {}): string {
  const max = options.maxCell ?? Number.POSITIVE_INFINITY;
  return MARKDOWN_COLUMNS.map((column) => {
    const cell = truncate(sanitizeText(column.cell(row)).replace(/\s+/g, " ").trim(), max);
    return column.code ? markdownCode(cell) : markdownText(cell);
  }).reduce((line, cell) => `${line} ${cell} |`, "|");
}

/**
 * Inline code, for a table cell: control characters removed, no backtick to end it, pipes escaped.
 *
 * @param text - The text.
 * @returns The code span.
 */
export function markdownCode(text: string): string {
  return `\`${sanitizeText(text).replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
}

/**
 * The document of every row (`--markdown-rows`) up to its table: a title, the verdict, when the report was made and
 * what the columns hold, then an empty line; without a trailing newline. The whole document is this, a newline,
 * then {@link MARKDOWN_ROWS_HEADER} and one {@link markdownRow} per row, most severe first (or
 * {@link MARKDOWN_NO_ROWS}), each on its own line, and a final newline.
 *
 * @param head - The report without its rows.
 * @returns The head.
 */
export function markdownRowsHead(head: DriftReportHead): string {
  return [
    "# trustgate drift report: every row",
    "",
    `**${markdownText(formatVerdict(head))}**`,
    "",
    `${markdownText(`Generated ${head.generatedAt}; ${head.summary.agents} agents, most severe first.`)} ` +
      "The Refresh on-chain column says in a word whether the signed attestation could refresh the record on-chain; " +
      "why is in the JSON report (`refresh.reason`) and on the page.",
    "",
  ].join("\n");
}
