/**
 * The columns of a drift report's rows, declared once for both outputs: the terminal table (`format-table.ts`) and
 * the Markdown rows (`markdown-rows.ts`). Each column names its header in each output it appears in, its
 * alignment and its cell; an output may show a column its own way (the terminal shows a record's age, Markdown its
 * time), and the terminal table may drop or shorten a column to fit a width ({@link NarrowingStep}).
 *
 * @packageDocumentation
 */
import { formatAgentRef } from "../agent/agent-ref.js";
import type { DriftRow } from "../drift/types.js";
import { ageCell, deltaCell, flipCell, NONE, refreshableCell, refreshCell } from "./row-cells.js";

/** A way to narrow the terminal table, in the order they are applied. */
export type NarrowingStep = "drop-tiers" | "drop-age" | "drop-sybil" | "drop-refresh" | "merge-scores" | "short-agent" | "short-flip";

/** A cell of a row. */
export type RowCell = (row: DriftRow) => string;

/** A cell of the terminal table: the row, and the time the report was made (for ages). */
export type TableCell = (row: DriftRow, generatedAt: string) => string;

/** How the terminal table shows a column. */
export interface TerminalColumn {
  /** The header. */
  readonly header: string;
  /** The cell, when not the column's own. */
  readonly cell?: TableCell;
  /** The step that removes the column, if any. */
  readonly droppedBy?: NarrowingStep;
  /** The step that brings the column in (it is shown only once that step is taken), if any. */
  readonly addedBy?: NarrowingStep;
  /** A step that shortens the cell, and the shortened cell. */
  readonly shortenedBy?: { readonly step: NarrowingStep; readonly cell: RowCell };
  /** Shown only when a shown row has a refresh assessment (else every cell would say `-`). */
  readonly onlyWithRefresh?: boolean;
}

/** How the Markdown rows show a column. */
export interface MarkdownColumn {
  /** The header. */
  readonly header: string;
  /** The cell, when not the column's own. */
  readonly cell?: RowCell;
  /** Written as a code span (else as Markdown text). */
  readonly code?: boolean;
}

/** One column of the report's rows. */
export interface ReportColumn {
  /** Alignment in both outputs (numbers to the right). */
  readonly align: "left" | "right";
  /** The cell, as each output shows it unless it gives its own. */
  readonly cell: RowCell;
  /** The column in the terminal table; absent: not shown there. */
  readonly terminal?: TerminalColumn;
  /** The column in the Markdown rows; absent: not shown there. */
  readonly markdown?: MarkdownColumn;
}

/** A side of a row: the on-chain record, or the attested data. */
type Side = "onchain" | "attested";

const scoreOf =
  (side: Side): RowCell =>
  (row) => {
    const data = row[side];
    return data ? String(data.score) : NONE;
  };
const onchainScore = scoreOf("onchain");
const attestedScore = scoreOf("attested");

/** The tier and sybil severity columns of one side. */
function tierAndSybil(side: Side): ReportColumn[] {
  return [
    {
      align: "left",
      cell: (row) => row[side]?.tier ?? NONE,
      terminal: { header: "TIER", droppedBy: "drop-tiers" },
      markdown: { header: "Tier" },
    },
    {
      align: "left",
      cell: (row) => row[side]?.sybilSeverity ?? NONE,
      terminal: { header: "SYBIL", droppedBy: "drop-sybil" },
      markdown: { header: "Sybil" },
    },
  ];
}

/** The merged score cell: `62→47`, `62→-`, `-→47`, or `62` when both sides agree. */
const mergedScore: RowCell = (row) => {
  const onchain = onchainScore(row);
  const attested = attestedScore(row);
  return onchain === attested ? onchain : `${onchain}→${attested}`;
};

/** The columns, in the order shown; the reason is last in both outputs. */
export const REPORT_COLUMNS: readonly ReportColumn[] = [
  { align: "left", cell: (row) => row.status, terminal: { header: "STATUS" }, markdown: { header: "Status" } },
  {
    align: "left",
    cell: flipCell,
    terminal: { header: "FLIP", shortenedBy: { step: "short-flip", cell: (row) => flipCell(row).slice(0, 1) } },
    markdown: { header: "Flip" },
  },
  {
    align: "left",
    cell: (row) => formatAgentRef(row),
    terminal: { header: "AGENT", shortenedBy: { step: "short-agent", cell: (row) => formatAgentRef(row, { omitDefaultRegistry: true }) } },
    markdown: { header: "Agent", code: true },
  },
  { align: "right", cell: onchainScore, terminal: { header: "ON-CHAIN", droppedBy: "merge-scores" }, markdown: { header: "On-chain" } },
  { align: "left", cell: mergedScore, terminal: { header: "SCORE", addedBy: "merge-scores" } },
  ...tierAndSybil("onchain"),
  {
    align: "left",
    cell: (row) => row.onchain?.updatedAt ?? NONE,
    terminal: { header: "AGE", cell: (row, at) => ageCell(row.onchain?.updatedAt, at), droppedBy: "drop-age" },
    markdown: { header: "Updated" },
  },
  { align: "right", cell: attestedScore, terminal: { header: "ATTESTED", droppedBy: "merge-scores" }, markdown: { header: "Attested" } },
  ...tierAndSybil("attested"),
  { align: "right", cell: deltaCell, terminal: { header: "Δ", droppedBy: "merge-scores" }, markdown: { header: "Δ" } },
  { align: "left", cell: (row) => row.attestedComputedAt ?? NONE, markdown: { header: "Computed" } },
  { align: "left", cell: refreshCell, markdown: { header: "vs. refresh" } },
  {
    align: "left",
    cell: refreshableCell,
    terminal: { header: "REFRESH", droppedBy: "drop-refresh", onlyWithRefresh: true },
    // The word only: the sentence behind it is in the JSON and on the page, and the Markdown summary says it once.
    markdown: { header: "Refresh on-chain" },
  },
  {
    align: "left",
    cell: (row) => row.reason ?? "",
    terminal: { header: "REASON", cell: (row) => (row.reason ?? "").replace(/\s+/g, " ").trim() },
    markdown: { header: "Reason" },
  },
];
