/**
 * The drift report as a table for people: one line per agent, most severe first (decision flips first),
 * fitted to the terminal's width, and at most `maxRows` rows besides the ones that are always shown.
 *
 * Width: with `width` (the terminal's columns), no line is longer than it. Columns are dropped or shortened
 * in a fixed order until the row fits with at least {@link MIN_REASON_WIDTH} characters of reason:
 * {@link NARROWING_STEPS} (the tiers first — they follow from the scores —, then the record's age, then the
 * sybil severities, then the REFRESH column, then the three score columns merged into one `62→47`, then the agent
 * without its default registry, then the flip as an arrow); the reason takes what is left and is cut with `…`.
 *
 * REFRESH (shown when a shown row has a refresh assessment): whether the service's signed attestation could refresh
 * a stale, missing or drifted record through an attested oracle — `yes`, `no:<what>` or `-` (see `refreshableCell`). As a last resort
 * (a very narrow terminal) whole lines are cut. Without `width` (`--wide`, or stdout not a terminal) every
 * column is shown and reasons are whole.
 *
 * Rows: decision flips and invalid attestations are always shown, on top (they are what the exit code is
 * about); `maxRows` caps the rest.
 *
 * @packageDocumentation
 */
import { compareRows, sortRows } from "../drift/report.js";
import type { DriftReport, DriftRow } from "../drift/types.js";
import { isFlipOrInvalid } from "../drift/verdict.js";
import { sanitizeText } from "../security/outside-text.js";
import { DEFAULT_TABLE_ROWS } from "./drift-options.js";
import { type NarrowingStep, type TableCell, REPORT_COLUMNS } from "./report-columns.js";
import { truncate } from "./row-cells.js";

/** Options of {@link formatTable}. */
export interface TableOptions {
  /**
   * Rows shown at most besides decision flips and invalid attestations, which are always shown (default 50;
   * `Infinity` for all); the rest are counted in a last line.
   */
  readonly maxRows?: number;
  /** Width of the terminal: no line is longer. Absent: no limit (every column, whole reasons). */
  readonly width?: number;
  /** Longest reason shown when `width` is not given (default: no limit). */
  readonly maxReasonWidth?: number;
  /**
   * Rows in the whole report, when `report.agents` holds only the ones the table may show (a {@link TopRows}
   * selection: its flips and invalid attestations and its most severe other rows); default `report.agents.length`.
   * The last line counts the rest.
   */
  readonly totalRows?: number;
}

/** The fixed order in which columns are dropped or shortened to fit a width. */
export const NARROWING_STEPS: readonly NarrowingStep[] = [
  "drop-tiers",
  "drop-age",
  "drop-sybil",
  "drop-refresh",
  "merge-scores",
  "short-agent",
  "short-flip",
];

/** Fewest characters of reason the narrowing keeps room for before it cuts whole lines. */
export const MIN_REASON_WIDTH = 20;

/** A column of the table, as laid out after the narrowing steps taken. */
interface Column {
  readonly header: string;
  readonly align: "left" | "right";
  readonly cell: TableCell;
}

const GAP = "  ";

/**
 * The columns after the given narrowing steps, the reason last. `refresh`: whether a shown row has a refresh
 * assessment (else the REFRESH column is left out: it would only say `-`).
 */
function columnsFor(steps: ReadonlySet<NarrowingStep>, refresh: boolean): Column[] {
  return REPORT_COLUMNS.flatMap(({ align, cell, terminal }) => {
    if (terminal === undefined) return [];
    if (terminal.droppedBy !== undefined && steps.has(terminal.droppedBy)) return [];
    if (terminal.addedBy !== undefined && !steps.has(terminal.addedBy)) return [];
    if (terminal.onlyWithRefresh && !refresh) return [];
    const shortened = terminal.shortenedBy !== undefined && steps.has(terminal.shortenedBy.step) ? terminal.shortenedBy.cell : undefined;
    return [{ header: terminal.header, align, cell: shortened ?? terminal.cell ?? cell }];
  });
}

/** Rows that are shown whatever `maxRows` says: decision flips and invalid attestations. */
const alwaysShown = isFlipOrInvalid;

/**
 * The rows a table shows: every decision flip and invalid attestation, then up to `maxRows` minus their
 * number of the others, most severe first.
 *
 * @param agents - The report's rows, in any order.
 * @param maxRows - The cap (`Infinity` for all).
 * @returns The rows shown, in table order, and how many were left out.
 */
export function tableRows(agents: readonly DriftRow[], maxRows: number): { shown: DriftRow[]; hidden: number } {
  const sorted = sortRows(agents);
  const must = sorted.filter(alwaysShown);
  const others = sorted.filter((row) => !alwaysShown(row));
  const shown = [...must, ...others.slice(0, Math.max(0, maxRows - must.length))];
  return { shown, hidden: sorted.length - shown.length };
}

/**
 * Formats the rows of a report as a table.
 *
 * @param report - The report (its rows and the time it was made, for record ages).
 * @param options - Row cap and width.
 * @returns The table as lines joined with `\n` (no trailing newline); `No agents scanned.` for no rows.
 */
export function formatTable(report: Pick<DriftReport, "agents" | "generatedAt">, options: TableOptions = {}): string {
  const total = Math.max(options.totalRows ?? 0, report.agents.length);
  if (total === 0) return "No agents scanned.";
  const { shown } = tableRows(report.agents, Math.max(0, options.maxRows ?? DEFAULT_TABLE_ROWS));
  const hidden = total - shown.length;
  const width = options.width !== undefined && options.width > 0 ? Math.floor(options.width) : undefined;

  const refresh = shown.some((row) => row.refresh !== null && row.refresh !== undefined);
  const layout = (steps: ReadonlySet<NarrowingStep>) => {
    const columns = columnsFor(steps, refresh);
    // Every cell may hold outside text (a reason quoting the service, an id from a listing): no control character
    // or escape sequence reaches the terminal, and widths are those of what is shown.
    const cells = shown.map((row) => columns.map((column) => sanitizeText(column.cell(row, report.generatedAt))));
    const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => line[i]!.length)));
    const fixed = widths.slice(0, -1).reduce((sum, w) => sum + w + GAP.length, 0);
    return { columns, cells, widths, fixed };
  };
  const steps = new Set<NarrowingStep>();
  let table = layout(steps);
  if (width !== undefined) {
    for (const step of NARROWING_STEPS) {
      if (table.fixed + MIN_REASON_WIDTH <= width) break;
      steps.add(step);
      table = layout(steps);
    }
  }
  const { columns, cells, widths, fixed } = table;
  const last = columns.length - 1;
  const reasonWidth = width !== undefined ? Math.max(1, width - fixed) : (options.maxReasonWidth ?? Number.POSITIVE_INFINITY);

  const render = (line: readonly string[]) => {
    const text = line
      .map((cell, i) => {
        if (i === last) return truncate(cell, reasonWidth);
        return columns[i]!.align === "right" ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join(GAP)
      .trimEnd();
    return width === undefined ? text : truncate(text, width);
  };
  const lines = [render(columns.map((c) => c.header)), ...cells.map(render)];
  if (hidden > 0) {
    const more = `… ${hidden} more row${hidden === 1 ? "" : "s"} (see --json)`;
    lines.push(width === undefined ? more : truncate(more, width));
  }
  return lines.join("\n");
}

/**
 * The rows a table may show, kept while rows stream past: every decision flip and invalid attestation (the table
 * shows them all), and the `maxRows` most severe of the others in a bounded heap, so that memory does not grow with
 * the report (except with `maxRows` `Infinity`, `--rows all`, which keeps every row). {@link tableRows} over
 * {@link TopRows.rows} then picks exactly what it would have picked from all of them.
 */
export interface TopRows {
  /** Offers a row. */
  add(row: DriftRow): void;
  /** The rows kept, in the order they came. */
  rows(): DriftRow[];
  /** Rows offered. */
  readonly total: number;
}

/**
 * Starts a {@link TopRows}.
 *
 * @param maxRows - The table's cap on the other rows (`--rows`; `Infinity` for all).
 * @returns The selection.
 */
export function createTopRows(maxRows: number): TopRows {
  // Each kept row with its arrival number: rows of the same place in the order (the same agent twice) keep their
  // arrival order, as the stable sort over all rows keeps it.
  type Entry = { readonly row: DriftRow; readonly seq: number };
  const must: Entry[] = [];
  const cap = Math.max(0, maxRows);
  // A heap of the other rows with the least severe on top, evicted when over the cap.
  const heap: Entry[] = [];
  const worse = (a: Entry, b: Entry) => (compareRows(a.row, b.row) || a.seq - b.seq) > 0;
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let top = i;
      if (left < heap.length && worse(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && worse(heap[right]!, heap[top]!)) top = right;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  };
  let total = 0;
  return {
    add(row) {
      const entry = { row, seq: total++ };
      if (alwaysShown(row)) {
        must.push(entry);
        return;
      }
      if (cap === 0) return;
      if (heap.length < cap) {
        heap.push(entry);
        up(heap.length - 1);
      } else if (worse(heap[0]!, entry)) {
        heap[0] = entry;
        down(0);
      }
    },
    rows: () => [...must, ...heap].sort((a, b) => a.seq - b.seq).map((entry) => entry.row),
    get total() {
      return total;
    },
  };
}
