/**
 * The page's own stylesheet (beside uPlot's): layout, the verdict's and the statuses' colours, the matrix and the
 * virtual rows table. Two layouts: from {@link NARROW_PAGE_WIDTH} px up, the rows are one line each under a header
 * that stays at the top of the table while it scrolls, every column fitting at 1440 px; below it (a phone), the
 * cards and the charts take the width, the matrix scrolls within itself, and each row is a block of six labelled
 * lines (status and agent; scores and tiers; Δ and flip; the two times; the reason), so that the page never scrolls
 * sideways.
 *
 * @packageDocumentation
 */
import { NEUTRAL_COLOUR, statusColourRules } from "./status-colours.js";

/** Below this viewport width (CSS px) the page takes its narrow layout. */
export const NARROW_PAGE_WIDTH = 760;

/**
 * The rows table's columns in the wide layout: each cell's class (`col-<id>`, in the order the script writes the
 * cells) and its width in rem; the last one (`reason`) takes the rest of the line, at least its width.
 */
const WIDE_COLUMNS: readonly (readonly [id: string, rem: number])[] = [
  ["status", 9.5],
  ["agent", 11],
  ["onscore", 4.5],
  ["ontier", 5.5],
  ["updated", 10.5],
  ["atscore", 4.5],
  ["attier", 5.5],
  ["issued", 10.5],
  ["delta", 2.5],
  ["flip", 5],
  ["reason", 12],
];
const COLUMN_GAP_PX = 6;
const TRACKS = WIDE_COLUMNS.map(([id, rem]) => (id === "reason" ? `minmax(${rem}rem, 1fr)` : `${rem}rem`)).join(" ");
const TABLE_MIN_WIDTH = `calc(${WIDE_COLUMNS.reduce((sum, [, rem]) => sum + rem, 0)}rem + ${(WIDE_COLUMNS.length - 1) * COLUMN_GAP_PX}px)`;

/** The page's stylesheet. */
export const PAGE_STYLE = `
:root { font-family: system-ui, sans-serif; color: #1b1f24; background: #fff; }
body { margin: 0 auto; max-width: 1600px; padding: 16px 24px 48px; overflow-wrap: anywhere; }
h1 { font-size: 1.4rem; margin: 0 0 4px; }
h2 { font-size: 1.1rem; margin: 28px 0 8px; }
h3 { font-size: 0.95rem; margin: 8px 0 4px; }
.muted { color: ${NEUTRAL_COLOUR}; font-size: 0.85rem; font-weight: normal; }
.verdict { border-radius: 8px; padding: 12px 16px; margin: 12px 0; border: 2px solid #2da44e; background: #dafbe1; }
.verdict.exit-3 { border-color: #bf8700; background: #fff8c5; }
.verdict.exit-4 { border-color: #cf222e; background: #ffebe9; }
.verdict-code { font-size: 1.6rem; font-weight: 700; margin-right: 12px; }
.counts { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 8px 0; }
.counts li { border: 1px solid #d0d7de; border-left: 4px solid ${NEUTRAL_COLOUR}; border-radius: 6px; padding: 6px 10px; }
.counts dfn { font-style: normal; font-weight: 600; }
.counts .count { font-variant-numeric: tabular-nums; margin-left: 6px; font-weight: 600; color: ${NEUTRAL_COLOUR}; }
.counts li[data-zero] { color: ${NEUTRAL_COLOUR}; border-left-color: #d0d7de; }
.counts .meaning { display: block; color: ${NEUTRAL_COLOUR}; font-size: 0.75rem; max-width: 260px; }
${statusColourRules()}
.flip-lists { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); gap: 8px 24px; }
.flips { max-height: 220px; overflow: auto; margin: 0; padding-left: 3em; font-family: ui-monospace, monospace; font-size: 0.8rem; }
.flips a { color: #0969da; }
.grid { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.grid > section { flex: 1 1 380px; min-width: 0; max-width: 100%; }
.grid > section.matrix-section { flex: 0 1 auto; }
.matrix-view { max-width: 100%; overflow-x: auto; }
.matrix { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.matrix th, .matrix td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: right; overflow-wrap: normal; }
.matrix th { background: #f6f8fa; }
.matrix th.apart, .matrix td.apart { border-left: 2px solid #8c959f; }
.matrix tr.apart > * { border-top: 2px solid #8c959f; }
.matrix button { border: 0; background: none; cursor: pointer; font: inherit; min-width: 3em; text-align: right; }
.matrix td.diagonal { background: #f6f8fa; }
.matrix td.active { outline: 2px solid #0969da; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.chip { border: 1px solid #0969da; border-radius: 12px; padding: 2px 8px; background: #ddf4ff; cursor: pointer; }
.chip[hidden] { display: none; }
.table-view { --row-height: 24px; height: min(520px, 75vh); overflow: auto; position: relative; border: 1px solid #d0d7de; font-size: 0.8rem; overflow-wrap: normal; }
.table-head, .table-row { display: grid; grid-template-columns: ${TRACKS}; gap: 0 ${COLUMN_GAP_PX}px; align-items: center; padding: 0 4px; }
.table-head, .table-spacer { min-width: ${TABLE_MIN_WIDTH}; }
.table-head { position: sticky; top: 0; z-index: 1; background: #f6f8fa; font-weight: 600; border-bottom: 2px solid #d0d7de; }
.table-head button { border: 0; background: none; font: inherit; cursor: pointer; text-align: left; padding: 4px 0; white-space: nowrap; }
.table-head button[aria-sort="ascending"]::after { content: " ▲"; }
.table-head button[aria-sort="descending"]::after { content: " ▼"; }
.table-spacer { position: relative; }
.table-body { position: absolute; left: 0; right: 0; top: 0; }
.table-row { box-sizing: border-box; height: var(--row-height); border-bottom: 1px solid #eaeef2; white-space: nowrap; scroll-margin-top: 48px; }
.table-row.target { background: #ddf4ff; }
.table-row span { overflow: hidden; text-overflow: ellipsis; }
.table-row .num { text-align: right; font-variant-numeric: tabular-nums; }
.flip-1, .flip-2 { font-weight: 700; }
.nights { display: flex; flex-wrap: wrap; gap: 16px; }
.night-chart { margin: 0; max-width: 100%; }
.night-values { border-collapse: collapse; font-size: 0.75rem; font-variant-numeric: tabular-nums; }
.night-values th, .night-values td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: right; }
.since { border-collapse: collapse; font-size: 0.8rem; margin: 4px 0; }
.since th, .since td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: left; vertical-align: top; }
.since .num { text-align: right; font-variant-numeric: tabular-nums; }
.since-new td:first-child { font-weight: 700; color: #cf222e; }
.expired { color: #9a6700; font-weight: 600; }
.actions dt { font-weight: 600; margin-top: 4px; }
.actions dd { margin: 0 0 0 1.5em; font-size: 0.85rem; }
#since-last-night, #refreshes { max-width: 100%; overflow-x: auto; }
@media (max-width: ${NARROW_PAGE_WIDTH - 0.02}px) {
  body { padding: 12px 12px 32px; }
  .table-view { --row-height: 104px; height: min(520px, 70vh); }
  .table-head, .table-spacer { min-width: 0; }
  .table-head { display: flex; flex-wrap: wrap; gap: 0 12px; }
  .table-row { grid-template-columns: repeat(4, minmax(0, 1fr)); grid-auto-rows: 16px; align-content: center; gap: 0 8px;
    grid-template-areas: "status status agent agent" "onscore ontier atscore attier" "delta flip flip flip" "updated updated updated updated" "issued issued issued issued" "reason reason reason reason"; }
${WIDE_COLUMNS.map(([id]) => `  .table-row .col-${id} { grid-area: ${id}; }`).join("\n")}
  .table-row span[data-label]::before { content: attr(data-label) " "; color: ${NEUTRAL_COLOUR}; }
  .table-row .num { text-align: left; }
}
`;
