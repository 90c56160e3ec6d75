/**
 * The drift report as a table for people: one line per agent, most severe first (decision flips first),
 * columns fitted to their content, long reasons cut, and at most `maxRows` rows.
 *
 * @packageDocumentation
 */
import { sortRows } from "../drift/report.js";
import type { DriftReport } from "../drift/types.js";
import { DEFAULT_TABLE_ROWS } from "./drift-args.js";
import { NONE, ageCell, agentCell, deltaCell, flipCell, truncate } from "./row-cells.js";

/** Options of {@link formatTable}. */
export interface TableOptions {
  /** Rows shown at most (default 50; `Infinity` for all); the rest are counted in a last line. */
  readonly maxRows?: number;
  /** Width of the terminal: the reason column is cut to fit it (never below 20 characters). */
  readonly width?: number;
  /** Longest reason shown when `width` is not given (default 80). */
  readonly maxReasonWidth?: number;
}

interface Column {
  readonly header: string;
  readonly align: "left" | "right";
}

const COLUMNS: readonly Column[] = [
  { header: "STATUS", align: "left" },
  { header: "FLIP", align: "left" },
  { header: "AGENT", align: "left" },
  { header: "ON-CHAIN", align: "right" },
  { header: "TIER", align: "left" },
  { header: "SYBIL", align: "left" },
  { header: "AGE", align: "left" },
  { header: "ATTESTED", align: "right" },
  { header: "TIER", align: "left" },
  { header: "SYBIL", align: "left" },
  { header: "Δ", align: "right" },
  { header: "REASON", align: "left" },
];

const GAP = "  ";
const MIN_REASON_WIDTH = 20;

/**
 * Formats the rows of a report as a table.
 *
 * @param report - The report (its rows and the time it was made, for record ages).
 * @param options - Row cap and widths.
 * @returns The table as lines joined with `\n` (no trailing newline); `No agents scanned.` for no rows.
 */
export function formatTable(report: Pick<DriftReport, "agents" | "generatedAt">, options: TableOptions = {}): string {
  const rows = sortRows(report.agents);
  if (rows.length === 0) return "No agents scanned.";
  const maxRows = Math.max(0, options.maxRows ?? DEFAULT_TABLE_ROWS);
  const shown = rows.slice(0, maxRows);
  const cells = shown.map((row) => [
    row.status,
    flipCell(row),
    agentCell(row),
    row.onchain ? String(row.onchain.score) : NONE,
    row.onchain?.tier ?? NONE,
    row.onchain?.sybilSeverity ?? NONE,
    ageCell(row.onchain?.updatedAt, report.generatedAt),
    row.attested ? String(row.attested.score) : NONE,
    row.attested?.tier ?? NONE,
    row.attested?.sybilSeverity ?? NONE,
    deltaCell(row),
    (row.reason ?? "").replace(/\s+/g, " ").trim(),
  ]);
  const last = COLUMNS.length - 1;
  const widths = COLUMNS.map((column, i) => Math.max(column.header.length, ...cells.map((line) => line[i]!.length)));
  const used = widths.slice(0, last).reduce((sum, w) => sum + w + GAP.length, 0);
  const reasonWidth =
    options.width !== undefined ? Math.max(MIN_REASON_WIDTH, options.width - used) : (options.maxReasonWidth ?? 80);

  const render = (line: readonly string[]) =>
    line
      .map((cell, i) => {
        if (i === last) return truncate(cell, reasonWidth);
        return COLUMNS[i]!.align === "right" ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join(GAP)
      .trimEnd();
  const lines = [render(COLUMNS.map((c) => c.header)), ...cells.map(render)];
  const hidden = rows.length - shown.length;
  if (hidden > 0) lines.push(`… ${hidden} more row${hidden === 1 ? "" : "s"} (see --json)`);
  return lines.join("\n");
}
