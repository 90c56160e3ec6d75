/**
 * The page's own stylesheet (beside uPlot's): layout, the verdict's colours, the matrix and the virtual table.
 *
 * @packageDocumentation
 */

/** The page's stylesheet. */
export const PAGE_STYLE = `
:root { font-family: system-ui, sans-serif; color: #1b1f24; background: #fff; }
body { margin: 0 auto; max-width: 1200px; padding: 16px 24px 48px; }
h1 { font-size: 1.4rem; margin: 0 0 4px; }
h2 { font-size: 1.1rem; margin: 28px 0 8px; }
.muted { color: #57606a; font-size: 0.85rem; }
.verdict { border-radius: 8px; padding: 12px 16px; margin: 12px 0; border: 2px solid #2da44e; background: #dafbe1; }
.verdict.exit-3 { border-color: #bf8700; background: #fff8c5; }
.verdict.exit-4 { border-color: #cf222e; background: #ffebe9; }
.verdict-code { font-size: 1.6rem; font-weight: 700; margin-right: 12px; }
.counts { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 8px 0; }
.counts li { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }
.counts dfn { font-style: normal; font-weight: 600; }
.counts .count { font-variant-numeric: tabular-nums; margin-left: 6px; }
.counts .meaning { display: block; color: #57606a; font-size: 0.75rem; max-width: 260px; }
.flips { max-height: 220px; overflow: auto; margin: 0; padding-left: 3em; font-family: ui-monospace, monospace; font-size: 0.8rem; }
.grid { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.matrix { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.matrix th, .matrix td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: right; }
.matrix th { background: #f6f8fa; }
.matrix button { border: 0; background: none; cursor: pointer; font: inherit; min-width: 3em; text-align: right; }
.matrix td.diagonal { background: #f6f8fa; }
.matrix td.active { outline: 2px solid #0969da; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.chip { border: 1px solid #0969da; border-radius: 12px; padding: 2px 8px; background: #ddf4ff; cursor: pointer; }
.chip[hidden] { display: none; }
.table-head, .table-row { display: grid; grid-template-columns: 8rem 13rem 4rem 6rem 10rem 4rem 6rem 10rem 3rem 5rem minmax(10rem, 1fr); gap: 0 8px; align-items: center; }
.table-head { font-size: 0.8rem; font-weight: 600; border-bottom: 2px solid #d0d7de; }
.table-head button { border: 0; background: none; font: inherit; cursor: pointer; text-align: left; padding: 4px 0; }
.table-head button[aria-sort="ascending"]::after { content: " ▲"; }
.table-head button[aria-sort="descending"]::after { content: " ▼"; }
.table-view { height: 520px; overflow-y: auto; position: relative; border-bottom: 1px solid #d0d7de; font-size: 0.8rem; }
.table-spacer { position: relative; }
.table-body { position: absolute; left: 0; right: 0; top: 0; }
.table-row { height: 24px; border-bottom: 1px solid #eaeef2; white-space: nowrap; }
.table-row span { overflow: hidden; text-overflow: ellipsis; }
.table-row .num { text-align: right; font-variant-numeric: tabular-nums; }
.status-drifted, .status-invalid-attestation, .status-error { color: #cf222e; }
.status-stale-onchain, .status-missing-onchain, .status-missing-attestation { color: #9a6700; }
.flip-1, .flip-2 { font-weight: 700; }
.nights { display: flex; flex-wrap: wrap; gap: 16px; }
.night-chart { margin: 0; }
.night-values { border-collapse: collapse; font-size: 0.75rem; font-variant-numeric: tabular-nums; }
.night-values th, .night-values td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: right; }
.since { border-collapse: collapse; font-size: 0.8rem; margin: 4px 0; }
.since th, .since td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: left; vertical-align: top; }
.since .num { text-align: right; font-variant-numeric: tabular-nums; }
.since-new td:first-child { font-weight: 700; color: #cf222e; }
.expired { color: #9a6700; font-weight: 600; }
.actions dt { font-weight: 600; margin-top: 4px; }
.actions dd { margin: 0 0 0 1.5em; font-size: 0.85rem; }
`;
