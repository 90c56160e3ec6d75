/**
 * The drift report's Markdown summary (`--markdown`), for where people read it: a CI job's step summary, a mail, a
 * pull request. It holds, in this order, one function per section ({@link MARKDOWN_SECTIONS}): the verdict and its
 * reason; what changed since the previous night (with `--state`); the decision flips and invalid attestations, up to
 * {@link MARKDOWN_SUMMARY_ROWS} and a line saying how many were left out and where every row is; the unverified agents
 * grouped by cause with counts; the totals (the source, the rule, the checks, the counts per status); what to do about
 * each status; and the names of the other outputs. It is at most
 * {@link MARKDOWN_SUMMARY_MAX_BYTES} at any population (GitHub refuses a step summary over 1 MiB): each section but
 * the rows' has a bounded share, and the rows take what is left. Every row is in the JSON report, on the page, and
 * in `--markdown-rows` (`markdown-rows.ts`).
 *
 * A section is a function of the {@link MarkdownSummaryInput} that returns its lines (none: the section is left
 * out); a new section is one more function in {@link MARKDOWN_SECTIONS}.
 *
 * URLs are shown redacted (`redactUrl`: providers put API keys in the path). Every value is outside text (the
 * service's and the chain's data, reasons quoting them, paths from the command line) and goes through `markdownText`:
 * control characters removed, Markdown metacharacters escaped, so that a summary posted on a pull request shows
 * `![img](url)` as text and loads nothing; addresses, agent references and file names are code spans.
 *
 * @packageDocumentation
 */
import { formatAgentRef } from "../agent/agent-ref.js";
import { type RowTally, sortRows, tallyRows } from "../drift/report.js";
import { DRIFT_STATUS_MEANINGS, DRIFT_STATUSES, type DriftReport, type DriftReportHead, type DriftRow } from "../drift/types.js";
import { isFlipOrInvalid } from "../drift/verdict.js";
import { markdownText } from "../security/outside-text.js";
import { redactUrl } from "../security/redact-url.js";
import { formatDuration } from "./duration.js";
import { type CauseGroup, createCauseTally } from "./error-causes.js";
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
import { markdownCode, MARKDOWN_ROWS_HEADER, markdownRow } from "./markdown-rows.js";
import { NONE, refreshableCell, truncate } from "./row-cells.js";

/** The largest summary, in bytes of UTF-8: 64 KiB. */
export const MARKDOWN_SUMMARY_MAX_BYTES = 64 * 1024;
/** Decision flips and invalid attestations listed at most (fewer when they would not fit the size). */
export const MARKDOWN_SUMMARY_ROWS = 100;
/** Causes of unverified agents listed at most. */
export const MARKDOWN_SUMMARY_CAUSES = 20;
/** The largest share of the summary a section other than the rows' may take, in bytes. */
const SECTION_MAX_BYTES = 12 * 1024;
/** Longest cell of a listed row, and longest cause or example reason, in characters. */
const MAX_CELL = 240;
/** Longest file name shown, in characters. */
const MAX_NAME = 200;
/** Room kept for the lines that follow the listed rows (what was left out and where), in bytes. */
const ROWS_TAIL_BYTES = 1200;

/** The other outputs of the run, to say where every row is. */
export interface MarkdownOutputs {
  /** `--json`: a file, or `-` for stdout. */
  readonly json?: string | undefined;
  /** `--html`: the page's file. */
  readonly html?: string | undefined;
  /** `--markdown-rows`: the file of every row as Markdown. */
  readonly markdownRows?: string | undefined;
}

/** What the summary is made from: the report's head and what was kept of its rows. */
export interface MarkdownSummaryInput {
  /** The report without its rows. */
  readonly head: DriftReportHead;
  /** The tally of its rows (the refresh assessments). */
  readonly tally: Pick<RowTally, "refreshAssessed" | "refreshBlockers">;
  /**
   * Its decision flips and invalid attestations, most severe first: the first {@link MARKDOWN_SUMMARY_ROWS} of them at
   * least (or all).
   */
  readonly problems: readonly DriftRow[];
  /** How many decision flips and invalid attestations the report has in all. */
  readonly problemCount: number;
  /** Its unverified agents by cause (`error-causes.ts`), the largest group first, and the rows not told apart. */
  readonly causes: { readonly groups: readonly CauseGroup[]; readonly otherRows: number };
  /** The run's other outputs. */
  readonly outputs: MarkdownOutputs;
}

/** One section of the summary: its lines, within `budget` bytes (none: the section is left out). */
export interface MarkdownSection {
  /** What the section is, for people reading the code. */
  readonly name: string;
  /** The section's lines, without blank lines around them, in at most `budget` bytes. */
  readonly lines: (input: MarkdownSummaryInput, budget: number) => readonly string[];
  /** Whether it takes the room the other sections leave (the rows); else it has {@link SECTION_MAX_BYTES}. */
  readonly fills?: boolean;
}

/**
 * Formats a report as the Markdown summary (as a run writes it from its streamed rows).
 *
 * @param report - The report.
 * @param outputs - The run's other outputs, named in the summary.
 * @returns The document, ending with a newline, at most {@link MARKDOWN_SUMMARY_MAX_BYTES}.
 */
export function formatMarkdown(report: DriftReport, outputs: MarkdownOutputs = {}): string {
  const { agents, ...head } = report;
  const problems = sortRows(agents.filter(isFlipOrInvalid));
  const causes = createCauseTally();
  for (const row of agents) causes.add(row);
  return markdownSummary({
    head,
    tally: tallyRows(agents),
    problems: problems.slice(0, MARKDOWN_SUMMARY_ROWS),
    problemCount: problems.length,
    causes: { groups: causes.groups(), otherRows: causes.otherRows },
    outputs,
  });
}

/**
 * Composes the summary from {@link MARKDOWN_SECTIONS}: each section with its share, the rows with what is left, a
 * blank line between sections.
 *
 * @param input - The report's head and what was kept of its rows.
 * @returns The document, ending with a newline, at most {@link MARKDOWN_SUMMARY_MAX_BYTES}.
 */
export function markdownSummary(input: MarkdownSummaryInput): string {
  const texts = new Map<MarkdownSection, string>();
  let used = 0;
  for (const section of MARKDOWN_SECTIONS) {
    if (section.fills) continue;
    const text = fitLines(section.lines(input, SECTION_MAX_BYTES), SECTION_MAX_BYTES).join("\n");
    texts.set(section, text);
    used += bytes(text) + 2;
  }
  const fillers = MARKDOWN_SECTIONS.filter((section) => section.fills);
  for (const section of fillers) {
    const budget = Math.floor((MARKDOWN_SUMMARY_MAX_BYTES - used - 1) / fillers.length) - 2;
    texts.set(section, fitLines(section.lines(input, budget), budget).join("\n"));
  }
  const document = `${MARKDOWN_SECTIONS.map((section) => texts.get(section)!)
    .filter((text) => text !== "")
    .join("\n\n")}\n`;
  return capDocument(document);
}

/** The verdict: the title, then the exit code's label, its reason and the code. */
function verdictSection(input: MarkdownSummaryInput): string[] {
  return ["# trustgate drift report", "", `**${markdownText(formatVerdict(input.head))}**`];
}

/** The decision flips and invalid attestations: as many as fit, what was left out and where, the refresh words. */
function problemsSection(input: MarkdownSummaryInput, budget: number): string[] {
  const { head, problemCount } = input;
  const title = ["## Decision flips and invalid attestations", ""];
  const others = head.summary.agents - problemCount;
  if (problemCount === 0) {
    return [
      ...title,
      `None. ${head.summary.agents === 0 ? "No agents scanned." : `The ${rowsAre(others)} in ${whereRowsAre(input.outputs)}.`}`,
    ];
  }
  const candidates = input.problems.slice(0, MARKDOWN_SUMMARY_ROWS);
  const legend = refreshLegend(candidates);
  let room = budget - bytes([...title, ...MARKDOWN_ROWS_HEADER, ...legend].join("\n")) - ROWS_TAIL_BYTES;
  const lines: string[] = [];
  for (const row of candidates) {
    const line = markdownRow(row, { maxCell: MAX_CELL });
    if (bytes(line) + 1 > room) break;
    lines.push(line);
    room -= bytes(line) + 1;
  }
  const left = problemCount - lines.length;
  const where = whereRowsAre(input.outputs);
  const tail =
    left === 0
      ? `All ${problemCount} listed, most severe first${others > 0 ? `; the other ${rowsAre(others)} in ${where}` : ""}.`
      : `${left} of ${problemCount} decision flips and invalid attestations left out here, to keep this summary under ` +
        `${MARKDOWN_SUMMARY_MAX_BYTES / 1024} KB: ${lines.length} listed, most severe first; every row (${head.summary.agents}) is in ${where}.`;
  const table = lines.length > 0 ? [...MARKDOWN_ROWS_HEADER, ...lines, ""] : [];
  return [...title, ...table, tail, ...(legend.length > 0 ? ["", ...legend] : [])];
}

/** What each word of the Refresh on-chain column among `rows` means: one example reason per word. */
function refreshLegend(rows: readonly DriftRow[]): string[] {
  const examples = new Map<string, DriftRow>();
  for (const row of rows) {
    if (row.refresh === null || row.refresh === undefined) continue;
    const word = refreshableCell(row);
    if (!examples.has(word)) examples.set(word, row);
  }
  if (examples.size === 0) return [];
  return [
    "Refresh on-chain, one example per word (every row's is the JSON report's `refresh.reason`):",
    "",
    ...[...examples].map(
      ([word, row]) =>
        `- ${markdownCode(word)}: ${markdownCode(formatAgentRef(row))} ${markdownText(truncate(row.refresh!.reason, MAX_CELL))}`,
    ),
  ];
}

/** The unverified agents (error, missing-attestation) by cause, the largest group first. */
function causesSection(input: MarkdownSummaryInput): string[] {
  const { groups, otherRows } = input.causes;
  const title = ["## Unverified agents by cause", ""];
  if (groups.length === 0 && otherRows === 0) return [...title, "None: every agent scanned was verified."];
  const shown = groups.slice(0, MARKDOWN_SUMMARY_CAUSES);
  const hidden = groups.slice(MARKDOWN_SUMMARY_CAUSES);
  const hiddenRows = hidden.reduce((sum, group) => sum + group.rows, 0) + otherRows;
  return [
    ...title,
    "Agents in `error` or `missing-attestation` (what `--max-errors` counts), by cause: the reason without the agent's own " +
      "id, chain and registry, query strings and times.",
    "",
    "| Status | Cause | Agents | Example |",
    "|---|---|--:|---|",
    ...shown.map(
      (group) =>
        `| ${markdownText(group.status)} | ${markdownText(truncate(group.cause, MAX_CELL))} | ${group.rows} | ${markdownCode(formatAgentRef(group.example))} |`,
    ),
    ...(hiddenRows > 0
      ? ["", `And ${count(hiddenRows, "agent")} of other causes: every row's reason is in ${whereRowsAre(input.outputs)}.`]
      : []),
  ];
}

/** The totals: the source, the rule and the checks, then the counts per status with their meanings. */
function totalsSection(input: MarkdownSummaryInput): string[] {
  const report = input.head;
  const s = report.summary;
  const block = report.source.blockNumber === null ? "" : ` at block ${report.source.blockNumber}`;
  const text = markdownText;
  const summary: [string, string][] = [
    ["Generated", text(report.generatedAt)],
    ["Chain", text(`${report.source.chainId}${block}`)],
    ["Oracle", markdownCode(report.source.oracle)],
    ["RPC", text(redactUrl(report.source.rpc))],
    ["API", text(report.source.api)],
    ["Issuer", text(report.source.issuer)],
    ["Decision rule", markdownCode(report.decisionRule)],
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
  const refreshable = formatRefreshable(report, input.tally);
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
    "## Totals",
    "",
    "| | |",
    "|---|---|",
    ...summary.map(([key, value]) => `| ${key} | ${value} |`),
    "",
    "| Status | Agents | Meaning |",
    "|---|--:|---|",
    ...DRIFT_STATUSES.map((status) => `| ${text(status)} | ${s.byStatus[status]} | ${text(DRIFT_STATUS_MEANINGS[status])} |`),
  ];
}

/** The run's other outputs, by name. */
function outputsSection(input: MarkdownSummaryInput): string[] {
  const { json, html, markdownRows } = input.outputs;
  const items = [
    ...(json !== undefined ? [`- JSON report, every row with every field: ${json === "-" ? "written to stdout" : fileName(json)}`] : []),
    ...(html !== undefined ? [`- Page, every row (sortable, filterable) and the nights before: ${fileName(html)}`] : []),
    ...(markdownRows !== undefined ? [`- Every row as Markdown: ${fileName(markdownRows)}`] : []),
  ];
  return [
    "## Every row",
    "",
    ...(items.length > 0 ? items : ["This run wrote no other report: `--json`, `--html` or `--markdown-rows` hold every row."]),
  ];
}

/**
 * The sections of the summary, in order. Each returns its lines (none: left out); the one that `fills` takes the room
 * the others leave.
 */
export const MARKDOWN_SECTIONS: readonly MarkdownSection[] = [
  { name: "verdict", lines: verdictSection },
  { name: "since last night", lines: (input) => withoutTrailingBlanks(markdownSinceLastNight(input.head)) },
  { name: "decision flips and invalid attestations", lines: problemsSection, fills: true },
  { name: "unverified agents by cause", lines: causesSection },
  { name: "totals", lines: totalsSection },
  { name: "what to do", lines: (input) => withoutTrailingBlanks(markdownActions(input.head)) },
  { name: "every row", lines: outputsSection },
];

/** `lines` without the blank lines at its end (the summary puts one blank line between sections). */
function withoutTrailingBlanks(lines: readonly string[]): readonly string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end -= 1;
  return lines.slice(0, end);
}

/** Where every row is, in words: the outputs written, or the flags that would write them. */
function whereRowsAre(outputs: MarkdownOutputs): string {
  const places = [
    ...(outputs.json !== undefined
      ? [outputs.json === "-" ? "the JSON report (stdout)" : `the JSON report ${fileName(outputs.json)}`]
      : []),
    ...(outputs.html !== undefined ? [`the page ${fileName(outputs.html)}`] : []),
    ...(outputs.markdownRows !== undefined ? [`the Markdown rows ${fileName(outputs.markdownRows)}`] : []),
  ];
  if (places.length === 0)
    return "the JSON report, the page and the Markdown rows, which this run did not write (`--json`, `--html`, `--markdown-rows`)";
  return places.length === 1 ? places[0]! : `${places.slice(0, -1).join(", ")} and ${places.at(-1)!}`;
}

/** A file name from the command line, as a code span, cut when very long. */
function fileName(path: string): string {
  return markdownCode(truncate(path, MAX_NAME));
}

/** Lines within `budget` bytes: as many as fit, then a line saying how many were left out. */
function fitLines(lines: readonly string[], budget: number): readonly string[] {
  if (bytes(lines.join("\n")) <= budget) return lines;
  const kept: string[] = [];
  let room = budget - 200;
  for (const line of lines) {
    if (bytes(line) + 1 > room) break;
    kept.push(line);
    room -= bytes(line) + 1;
  }
  return [
    ...kept,
    "",
    `… ${lines.length - kept.length} more lines left out, to keep this summary under ${MARKDOWN_SUMMARY_MAX_BYTES / 1024} KB.`,
  ];
}

/** The document, cut at a line when it is over the limit (no section should bring it there). */
function capDocument(document: string): string {
  if (bytes(document) <= MARKDOWN_SUMMARY_MAX_BYTES) return document;
  const note = `\n… cut here, to keep this summary under ${MARKDOWN_SUMMARY_MAX_BYTES / 1024} KB.\n`;
  const limit = MARKDOWN_SUMMARY_MAX_BYTES - bytes(note);
  const cut = Buffer.from(document)
    .subarray(0, limit)
    .toString("utf8")
    .replace(/\uFFFD?$/, "");
  return `${cut.slice(0, cut.lastIndexOf("\n"))}${note}`;
}

function bytes(text: string): number {
  return Buffer.byteLength(text);
}

/** `1 row is`, `2 rows are`. */
function rowsAre(n: number): string {
  return n === 1 ? "1 row is" : `${n} rows are`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
