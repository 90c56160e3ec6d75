/**
 * The page's markup around its data: a head with the Content-Security-Policy, the stylesheets and the title (the
 * verdict and the night, {@link pageTitle}), the empty sections the script fills (the top ones listed in order, so
 * that a section drops in beside the others), the data elements, then the scripts. The page is written in two parts,
 * {@link pageStart} and {@link pageEnd}, with the rows' JSON between them (streamed, see `write-page.ts`).
 *
 * The policy (`default-src 'none'`) lets the page run only its own two inline scripts and use only its own two
 * inline stylesheets, each named by its SHA-256 hash, and load nothing at all (no image, font, frame, connection or
 * form target). The data elements are `application/json`, which a browser never runs.
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { DRIFT_EXIT_CODES } from "../drift/verdict.js";
import { chartLibrary } from "./chart-library.js";
import { CLIENT_SCRIPT } from "./client-script.js";
import type { PageHead } from "./page-data.js";
import { PAGE_STYLE } from "./page-style.js";
import { scriptJson } from "./script-json.js";
import type { NightRefreshes } from "../refresh/night-refreshes.js";
import { refreshSection } from "./refresh-section.js";
import { sinceLastNightSection } from "./since-last-night-section.js";

/** The id of the element holding the rows' JSON (an array of row tuples). */
export const ROWS_ELEMENT_ID = "page-rows";

/**
 * The Content-Security-Policy of a page whose inline scripts and stylesheets are the given texts.
 *
 * @param scripts - The inline scripts' texts.
 * @param styles - The inline stylesheets' texts.
 * @returns The policy.
 */
export function pagePolicy(scripts: readonly string[], styles: readonly string[]): string {
  const hashes = (texts: readonly string[]) =>
    texts.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`).join(" ");
  return [
    "default-src 'none'",
    `script-src ${hashes(scripts)}`,
    `style-src ${hashes(styles)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * The tab's title: the verdict's exit code and its name (`DRIFT_EXIT_CODES`), then the night (the report's time, to
 * the minute, UTC), so that a browser tab or a bookmark says what the night found before it is opened.
 *
 * @param head - The page's head data.
 * @returns The title's text (not yet escaped for HTML).
 */
export function pageTitle(head: PageHead): string {
  const { exitCode } = head.verdict;
  const name = Object.entries(DRIFT_EXIT_CODES).find(([, code]) => code === exitCode)?.[0];
  const night = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(head.generatedAt);
  const when = night ? `${night[1]} ${night[2]} UTC` : head.generatedAt;
  return `exit ${exitCode}${name === undefined ? "" : ` ${name}`} · ${when} · trustgate drift report`;
}

/**
 * The sections at the top of the page, in order: the changes since last night, written from the head, the night's
 * refreshes when given, and the others, each filled by the page's script (one function per section). One more section
 * drops in by adding its markup here.
 */
function topSections(head: PageHead, refreshes: NightRefreshes | undefined): string[] {
  return [
    `<header>
<h1>trustgate drift report</h1>
<p class="muted" id="run"></p>
</header>`,
    `<section id="verdict" class="verdict" aria-label="verdict">
<span class="verdict-code" id="verdict-code"></span><span id="verdict-reason"></span>
<p id="unverified"></p>
</section>`,
    sinceLastNightSection(head),
    ...(refreshes ? [refreshSection(refreshes)] : []),
    `<section id="statuses" aria-label="agents per status">
<ul class="counts" id="counts" aria-label="agents per status, and what each status means"></ul>
<p id="notes" class="muted"></p>
</section>`,
    `<section id="flips-section" aria-labelledby="flips-title">
<h2 id="flips-title">Decision flips <span class="muted" id="flip-counts"></span></h2>
<div class="flip-lists">
<section><h3>pass→fail <span class="muted">the gate admits on the chain's record, would refuse on the attestation</span></h3><ol class="flips" id="flips-pass-to-fail" data-flip="1"></ol></section>
<section><h3>fail→pass <span class="muted">the gate refuses on the chain's record, would admit on the attestation</span></h3><ol class="flips" id="flips-fail-to-pass" data-flip="2"></ol></section>
</div>
</section>`,
  ];
}

/**
 * The page up to its rows: everything before the rows' JSON array's first element.
 *
 * @param head - The page's head data.
 * @param refreshes - The night's refreshes (`--refresh-report`), shown in their own section; none without.
 * @returns The HTML text, ending with `[`.
 */
export function pageStart(head: PageHead, refreshes?: NightRefreshes): string {
  const library = chartLibrary();
  const policy = pagePolicy([library.script, CLIENT_SCRIPT], [library.style, PAGE_STYLE]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(pageTitle(head))}</title>
<style>${library.style}</style>
<style>${PAGE_STYLE}</style>
</head>
<body>
${topSections(head, refreshes).join("\n")}
<div class="grid">
<section class="matrix-section"><h2>Tier transitions <span class="muted">on-chain → attested, tiers lowest first; click a cell to filter the rows</span></h2><div class="matrix-view" id="matrix-view"><table class="matrix" id="matrix"></table></div></section>
<section><h2>Attested against on-chain score</h2><div id="scatter"></div></section>
<section><h2>Record age <span class="muted">hours before the report</span></h2><div id="ages"></div></section>
</div>
<section id="history-section" hidden><h2>The nights before</h2><div class="nights" id="history"></div></section>
<h2 id="rows-title">Agents <span class="muted" id="rows-count"></span></h2>
<div class="filters">
<label>Status <select id="filter-status"></select></label>
<label>Chain <select id="filter-chain"></select></label>
<label>Tier <select id="filter-tier"></select></label>
<label>Text <input id="filter-text" type="search" placeholder="agent, tier, reason"></label>
<button type="button" class="chip" id="filter-matrix" hidden></button>
</div>
<div class="table-view" id="table-view"><div class="table-head" id="table-head" role="row"></div><div class="table-spacer" id="table-spacer"><div class="table-body" id="table-body"></div></div></div>
<script type="application/json" id="page-head">${scriptJson(head)}</script>
<script type="application/json" id="${ROWS_ELEMENT_ID}">[`;
}

/** Text with the characters HTML reads as markup written as references. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page after its rows: the end of the rows' JSON array, then the scripts.
 *
 * @returns The HTML text.
 */
export function pageEnd(): string {
  const library = chartLibrary();
  return `]</script>
<script>${library.script}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}
