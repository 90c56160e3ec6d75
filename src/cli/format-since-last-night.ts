/**
 * What changed since the previous night (`report.sinceLastNight`) and what to do about each status
 * (`DRIFT_STATUS_ACTIONS`), for people: lines of the terminal summary, and the Markdown report's sections, each a
 * function returning its lines so that the summary and the document place them where they fit. Lists are bounded
 * (the JSON holds them whole); a report without `--state` says plainly that there was no night to compare with.
 *
 * @packageDocumentation
 */
import { DRIFT_STATUS_ACTIONS, DRIFT_STATUSES, type DriftReportHead, type PersistingProblem, type SinceLastNight } from "../drift/types.js";
import { markdownText, sanitizeText } from "../security/outside-text.js";

/** Problems listed per list in the terminal summary. */
export const SUMMARY_PROBLEMS_LISTED = 5;
/** Problems listed, all lists together, in the Markdown section. */
export const MARKDOWN_PROBLEMS_LISTED = 50;

/** The sentence of a report without a state file. */
export const NO_PREVIOUS_NIGHT = "not compared: without --state there is no previous night";

/**
 * The counts in one phrase.
 *
 * @param since - The report's `sinceLastNight`.
 * @returns For example `1 new, 1 persisting, 0 resolved, 0 accepted (compared with the night started 2026-11-28T04:17:00.000Z; --fail-on any)`.
 */
export function formatSinceLastNightCounts(since: SinceLastNight): string {
  const against =
    since.previousNight === null
      ? "no previous night in the state: every problem is new"
      : `compared with the night started ${since.previousNight}`;
  const unverified = since.unverified.length > 0 ? `, ${since.unverified.length} unverified tonight` : "";
  return `${since.new.length} new, ${since.persisting.length} persisting, ${since.resolved.length} resolved, ${since.accepted.length} accepted${unverified} (${against}; --fail-on ${since.failOn})`;
}

/**
 * The terminal summary's lines about the previous night: the counts, then each list (at most
 * {@link SUMMARY_PROBLEMS_LISTED} problems each), then the expired baseline entries.
 *
 * @param report - The report's head.
 * @returns The lines, without the summary's label or indent; one line without a state file.
 */
export function formatSinceLastNight(report: Pick<DriftReportHead, "sinceLastNight">): string[] {
  const since = report.sinceLastNight;
  if (since === undefined || since === null) return [NO_PREVIOUS_NIGHT];
  const lines = [formatSinceLastNightCounts(since)];
  const list = (name: string, problems: readonly PersistingProblem[], extra: (p: PersistingProblem) => string = () => "") => {
    if (problems.length === 0) return;
    const shown = problems.slice(0, SUMMARY_PROBLEMS_LISTED).map((p) => `${p.agent} ${p.problem} (${p.status ?? "no row"}${extra(p)})`);
    const more = problems.length > SUMMARY_PROBLEMS_LISTED ? `, and ${problems.length - SUMMARY_PROBLEMS_LISTED} more in the JSON` : "";
    lines.push(`${name}: ${shown.join(", ")}${more}`);
  };
  const nights = (p: PersistingProblem) => `, ${p.nights} nights`;
  list("new", since.new);
  list("persisting", since.persisting, nights);
  list("accepted", since.accepted, nights);
  list("resolved", since.resolved);
  list("unverified", since.unverified);
  if (since.expired.length > 0) {
    const first = since.expired[0]!;
    lines.push(
      `EXPIRED: ${since.expired.length} baseline entr${since.expired.length === 1 ? "y" : "ies"} accept nothing any more (${first.agent} ${first.problem} until ${first.until}${since.expired.length > 1 ? ", …" : ""})`,
    );
  }
  return lines.map(sanitizeText);
}

/**
 * The terminal summary's lines of actions: one per status that has rows, but `in-sync`.
 *
 * @param report - The report's head.
 * @returns `drifted: tell the oracle's publisher …` lines; none when every row is in sync.
 */
export function formatActions(report: Pick<DriftReportHead, "summary">): string[] {
  return DRIFT_STATUSES.filter((s) => s !== "in-sync" && report.summary.byStatus[s] > 0).map((s) => `${s}: ${DRIFT_STATUS_ACTIONS[s]}`);
}

/**
 * The Markdown section `## Since last night`: what changed, one table of the problems (new, persisting, accepted,
 * resolved, unverified; at most {@link MARKDOWN_PROBLEMS_LISTED} rows, then a line saying how many more the JSON
 * holds), and the expired baseline entries.
 *
 * @param report - The report's head.
 * @returns The lines, the heading first, ending with an empty line.
 */
export function markdownSinceLastNight(report: Pick<DriftReportHead, "sinceLastNight">): string[] {
  const since = report.sinceLastNight;
  const heading = ["## Since last night", ""];
  if (since === undefined || since === null)
    return [...heading, `${markdownText(`Not compared: without --state there is no previous night.`)}`, ""];
  const rows: [string, PersistingProblem, string][] = [
    ...since.new.map((p): [string, PersistingProblem, string] => ["new", p, ""]),
    ...since.persisting.map((p): [string, PersistingProblem, string] => ["persisting", p, ""]),
    ...since.accepted.map((p): [string, PersistingProblem, string] => ["accepted", p, `${p.reason} (until ${p.until})`]),
    ...since.resolved.map((p): [string, PersistingProblem, string] => ["resolved", p, ""]),
    ...since.unverified.map((p): [string, PersistingProblem, string] => ["unverified", p, "could not be verified tonight"]),
  ];
  const lines = [...heading, markdownText(formatSinceLastNightCounts(since)), ""];
  if (rows.length > 0) {
    lines.push("| Since last night | Agent | Problem | Status | Nights | Note |", "|---|---|---|---|--:|---|");
    for (const [kind, p, note] of rows.slice(0, MARKDOWN_PROBLEMS_LISTED)) {
      lines.push(
        `| ${kind} | \`${sanitizeText(p.agent).replace(/[`|]/g, "")}\` | ${p.problem} | ${p.status ?? "no row"} | ${p.nights} | ${markdownText(note)} |`,
      );
    }
    if (rows.length > MARKDOWN_PROBLEMS_LISTED) {
      lines.push("", `${rows.length - MARKDOWN_PROBLEMS_LISTED} more in the JSON report (\`sinceLastNight\`).`);
    }
    lines.push("");
  }
  for (const e of since.expired) {
    lines.push(
      markdownText(`EXPIRED baseline entry: ${e.agent} ${e.problem} until ${e.until} (${e.reason}) accepts nothing any more.`),
      "",
    );
  }
  return lines;
}

/**
 * The Markdown section `## What to do`: one row per status that has rows, but `in-sync`, with its action.
 *
 * @param report - The report's head.
 * @returns The lines, the heading first, ending with an empty line; none when every row is in sync.
 */
export function markdownActions(report: Pick<DriftReportHead, "summary">): string[] {
  const statuses = DRIFT_STATUSES.filter((s) => s !== "in-sync" && report.summary.byStatus[s] > 0);
  if (statuses.length === 0) return [];
  return [
    "## What to do",
    "",
    "| Status | Agents | Action |",
    "|---|--:|---|",
    ...statuses.map((s) => `| ${s} | ${report.summary.byStatus[s]} | ${markdownText(DRIFT_STATUS_ACTIONS[s])} |`),
    "",
  ];
}
