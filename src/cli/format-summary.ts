/**
 * The summary of a drift report for people: counts per status, decision flips per direction, what changed since the
 * previous night, the age of the on-chain records, the tier- and sybil-encoding checks, the agents that could not be
 * verified against `--max-errors`, what triage saved, the decision rule, what to do about each status that has rows,
 * the report's notes (for example how the oracle was read on a chain without Multicall3), and a last line with the
 * verdict and exit code. Each line is sanitised (`sanitizeText`): no control character or escape sequence from outside
 * reaches the terminal.
 *
 * @packageDocumentation
 */
import { describeErrorLimit, UNVERIFIED_STATUSES } from "../drift/error-limit.js";
import { type RowTally, tallyRows } from "../drift/report.js";
import { DRIFT_STATUSES, type DriftReport, type DriftReportHead } from "../drift/types.js";
import { verdictOf } from "../drift/verdict.js";
import { isZeroAddress } from "../inputs/address.js";
import { sanitizeText } from "../security/outside-text.js";
import { formatDuration } from "./duration.js";
import { formatActions, formatSinceLastNight } from "./format-since-last-night.js";

/**
 * Counts per status, most severe first, zero counts left out: `2 drifted, 1 stale-onchain, 40 in-sync`.
 *
 * @param report - The report.
 * @returns The counts, or `none` when there are no rows.
 */
export function formatStatusCounts(report: Pick<DriftReport, "summary">): string {
  const parts = DRIFT_STATUSES.filter((s) => report.summary.byStatus[s] > 0).map((s) => `${report.summary.byStatus[s]} ${s}`);
  return parts.length > 0 ? parts.join(", ") : "none";
}

/**
 * The flips: `3 (2 pass→fail, 1 fail→pass)` or `none`.
 *
 * @param report - The report.
 * @returns The flip counts.
 */
export function formatFlips(report: Pick<DriftReport, "summary">): string {
  const { passToFail, failToPass } = report.summary.flips;
  const total = passToFail + failToPass;
  return total === 0 ? "none" : `${total} (${passToFail} pass→fail, ${failToPass} fail→pass)`;
}

/**
 * The verdict line: a label for the exit code, the reason `verdictOf` gives (the same sentence as the JSON report's
 * `verdict.reason` and the HTML page's), and the code. The label is `OK` (0), `DRIFT` (3), `PARTIAL` (4, stopped at
 * `--max-duration`) or `FAILED` (4, too much unverified); the details of exit 4 are the summary's `unverified:` line.
 *
 * @param report - The report.
 * @returns For example `DRIFT: 3 gate decisions flip and 1 attestation is invalid (exit 3)`, or
 *   `FAILED: could not verify: 12 of 12 agents unverified, more than --max-errors 1% allows (exit 4)`.
 */
export function formatVerdict(report: Pick<DriftReport, "summary" | "sinceLastNight">): string {
  const { exitCode, reason } = verdictOf(report);
  return `${verdictLabel(exitCode, report.summary.partial !== undefined)}: ${reason} (exit ${exitCode})`;
}

function verdictLabel(exitCode: 0 | 3 | 4, partial: boolean): string {
  if (exitCode === 0) return "OK";
  if (exitCode === 3) return "DRIFT";
  return partial ? "PARTIAL" : "FAILED";
}

/**
 * The unverified agents against the limit, in one phrase.
 *
 * @param report - The report.
 * @returns For example `6 of 3035 agents (0.2%): error 1, missing-attestation 5; limit --max-errors 1% (at most 30)`,
 *   with ` — EXCEEDED` when the run fails for it.
 */
export function formatUnverified(report: Pick<DriftReport, "summary">): string {
  const s = report.summary;
  const share = s.agents > 0 ? ` (${formatShare(s.unverified.count, s.agents)})` : "";
  return `${s.unverified.count} of ${plural(s.agents, "agent")}${share}: ${formatUnverifiedSplit(report)}; limit ${formatLimit(report)}${
    s.unverified.exceeded ? " — EXCEEDED" : ""
  }`;
}

function formatUnverifiedSplit(report: Pick<DriftReport, "summary">): string {
  return UNVERIFIED_STATUSES.map((status) => `${status} ${report.summary.byStatus[status]}`).join(", ");
}

function formatLimit(report: Pick<DriftReport, "summary">): string {
  const { limit, allowed } = report.summary.unverified;
  return `--max-errors ${describeErrorLimit(limit)}${limit.kind === "percent" ? ` (at most ${allowed})` : ""}`;
}

/** `count` as a percentage of `total`, never rounded to 0 % or 100 % when it is neither. */
function formatShare(count: number, total: number): string {
  const percent = (100 * count) / total;
  if (count > 0 && percent < 0.01) return "<0.01%";
  if (count < total && percent > 99.99) return ">99.99%";
  return `${Number(percent.toFixed(2))}%`;
}

/**
 * The tier-encoding check in one phrase.
 *
 * @param report - The report.
 * @returns For example `consistent (118 records checked)` or `CONTRADICTED by 4 of 118 records, e.g. …`.
 */
export function formatEncoding(report: Pick<DriftReport, "summary">): string {
  const e = report.summary.encoding;
  const table = `tiers ${e.tiers.join(",")}`;
  if (e.checked === 0) return `not checked, no on-chain record (${table})`;
  if (e.consistent) return `consistent with ${table} (${plural(e.checked, "record")} checked)`;
  const example = e.examples[0] ? `, e.g. ${e.examples[0]}` : "";
  return `CONTRADICTED by ${e.contradictions} of ${plural(e.checked, "record")} (${table})${example}`;
}

/**
 * The sybil-encoding check in one phrase.
 *
 * @param report - The report.
 * @returns For example `consistent with sybil none,low,… (12 records checked against the service's severity)` or
 *   `CONTRADICTED by 2 of 12 records (…), e.g. …`.
 */
export function formatSybilEncoding(report: Pick<DriftReport, "summary">): string {
  const { sybilSeverities } = report.summary.encoding;
  const e = report.summary.encoding.sybil;
  const table = `sybil ${sybilSeverities.join(",")}`;
  if (e.checked === 0) return `not checked, no record the service states at the same score and computation (${table})`;
  if (e.consistent) return `consistent with ${table} (${plural(e.checked, "record")} checked against the service's severity)`;
  const example = e.examples[0] ? `, e.g. ${e.examples[0]}` : "";
  return `CONTRADICTED by ${e.contradictions} of ${plural(e.checked, "record")} (${table})${example}`;
}

/**
 * The summary, several lines, one `note:` line per note of the report, the verdict last.
 *
 * @param report - The report, or its head when its rows were not kept (then give `rows`).
 * @param rows - The tally of its rows, for the refresh assessments; default: counted from `report.agents`.
 * @returns Lines joined with `\n` (no trailing newline).
 */
export function formatSummary(
  report: DriftReportHead & { readonly agents?: DriftReport["agents"] },
  rows?: Pick<RowTally, "refreshAssessed" | "refreshBlockers">,
): string {
  const s = report.summary;
  const lines = [
    `${plural(s.agents, "agent")} checked · rule ${report.decisionRule} · stale after ${formatDuration(report.maxAgeSeconds)}`,
    `  status:           ${formatStatusCounts(report)}`,
    `  decision flips:   ${formatFlips(report)}`,
    ...formatSinceLastNight(report).map((line, i) => `${i === 0 ? "  since last night: " : "                    "}${line}`),
    `  on-chain records: ${formatDates(report)}`,
    `  tier encoding:    ${formatEncoding(report)}`,
    `  sybil encoding:   ${formatSybilEncoding(report)}`,
    `  unverified:       ${formatUnverified(report)}`,
  ];
  const attested = report.source.attestedOracle;
  if (attested) lines.push(`  oracle read:      ${formatOracleRead(report)}`);
  const refresh = formatRefreshable(report, rows);
  if (refresh !== null) lines.push(`  refreshable:      ${refresh}`);
  if (s.triage) {
    const t = s.triage;
    lines.push(...formatTriage(t).map((line, i) => `${i === 0 ? "  triage:           " : "                    "}${line}`));
    if (t.state) lines.push(`  state:            ${formatState(t.state, report.generatedAt)}`);
  }
  lines.push(...formatActions(report).map((line, i) => `${i === 0 ? "  what to do:       " : "                    "}${line}`));
  for (const note of report.notes ?? []) lines.push(`  note:             ${note}`);
  lines.push(formatVerdict(report));
  // Notes and examples may quote the chain or the service: each line reaches the terminal sanitised.
  return lines.map(sanitizeText).join("\n");
}

/**
 * Which oracle the records were read from, with `--attested-oracle`.
 *
 * @param report - The report.
 * @returns For example `attested oracle 0xA… (the fresher of its own records and its upstream 0xU…'s)`, or
 *   `oracle 0x…` without an attested oracle.
 */
export function formatOracleRead(report: Pick<DriftReport, "source">): string {
  const attested = report.source.attestedOracle;
  if (!attested) return `oracle ${report.source.oracle}`;
  const upstream = isZeroAddress(attested.upstream)
    ? "its own records only: it has no upstream"
    : `the fresher of its own records and its upstream ${attested.upstream}'s${attested.upstreamIsOracle ? "" : " (NOT --oracle: see the note)"}`;
  return `attested oracle ${attested.address} (${upstream})`;
}

/**
 * Rows the service's signed attestation could refresh on-chain, among those assessed (stale, missing or drifted
 * with a verified attestation), with what stands in the way of the others and whether kids were checked.
 *
 * @param report - The report (its `agents` are read only without `rows`).
 * @param rows - The tally of the report's rows (assessed rows, blockers); default: counted from `report.agents`.
 * @returns For example `3 of 5 assessed (not: kid-not-installed 2); kids checked against the attested oracle 0x…`;
 *   `null` when no row was assessed and no attested oracle was read.
 */
export function formatRefreshable(
  report: Pick<DriftReport, "summary" | "source"> & { readonly agents?: DriftReport["agents"] },
  rows: Pick<RowTally, "refreshAssessed" | "refreshBlockers"> = tallyRows(report.agents ?? []),
): string | null {
  const assessed = rows.refreshAssessed;
  const attested = report.source.attestedOracle;
  if (assessed === 0 && !attested) return null;
  const not = Object.entries(rows.refreshBlockers)
    .filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([blocker, n]) => `${blocker} ${n}`)
    .join(", ");
  const kids = attested ? `kids checked against the attested oracle ${attested.address}` : "kids not checked (no --attested-oracle)";
  return `${report.summary.refreshable ?? 0} of ${assessed} stale, missing or drifted with a verified attestation${
    not ? ` (not: ${not})` : ""
  }; ${kids}`;
}

/**
 * What triage did, in a few plain lines (every count by reason, what was avoided and by what, stays in the JSON's
 * `summary.triage`): how many agents were fetched and verified out of those listed, why, the audit, and what the
 * listing or the chain contradicted, when anything did.
 *
 * @param t - The report's triage summary.
 * @returns For example `["627 of 3030 listed agents fetched and verified; the other 2408 (79%) taken from the listing",
 *   "fetched because: mismatch 136, near-threshold 34, missing-onchain 30 (more in the JSON)",
 *   "random audit: 413 of 2821 (99% to catch a listing lying about 1%; seed 123)"]`.
 */
export function formatTriage(t: NonNullable<DriftReport["summary"]["triage"]>): string[] {
  const share = t.listed > 0 ? ` (${Math.round((100 * t.fetchesSaved) / t.listed)}%)` : "";
  const notAnswered = t.signedNotAnswered ?? 0;
  // Never "fetched and verified" for agents whose signed attestation did not come (a dead service, --max-duration).
  const fetched =
    notAnswered === 0
      ? `${t.signedFetches} of ${t.listed} listed agents fetched and verified`
      : `${t.signedFetches} of ${t.listed} listed agents selected for a signed attestation, ${t.signedFetches - notAnswered} fetched and verified, ${notAnswered} not (error rows)`;
  const lines = [`${fetched}; the other ${t.fetchesSaved}${share} taken from the listing`];
  const reasons = Object.entries(t.reasons)
    .filter(([reason, n]) => reason !== "audit" && n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (reasons.length > 0) {
    const shown = reasons.slice(0, 3).map(([reason, n]) => `${reason} ${n}`);
    lines.push(`fetched because: ${shown.join(", ")}${reasons.length > 3 ? " (more in the JSON)" : ""}`);
  }
  lines.push(`random ${formatAudit(t)}`);
  const notListed = t.onchainEnumeration?.notListed ?? 0;
  const against = [
    ...(t.listingContradictions > 0 ? [`contradicted by ${t.listingContradictions} signed answers`] : []),
    ...(notListed > 0 ? [`lacks ${notListed} agents the chain holds records for`] : []),
  ];
  if (against.length > 0) lines.push(`the listing ${against.join(" and ")}`);
  return lines;
}

/**
 * The audit in one phrase.
 *
 * @param t - The report's triage summary.
 * @returns For example `audit 456 of 131994 (99% to catch a listing lying about 1%; seed 123)`.
 */
export function formatAudit(t: NonNullable<DriftReport["summary"]["triage"]>): string {
  const seed = t.seed !== undefined ? `seed ${t.seed}` : "";
  const a = t.audit;
  if (!a) return `audit ${formatPercent(t.auditFraction)}${seed ? ` (${seed})` : ""}`;
  const why = `${formatPercent(a.confidence)} to catch a listing lying about ${formatPercent(a.lieRate)}`;
  return `audit ${a.sampleSize} of ${a.eligible} (${why}${seed ? `; ${seed}` : ""})`;
}

/**
 * The state file in one phrase: entries, the rows it stood in for, the oldest verified attestation's age.
 *
 * @param state - The report's `summary.triage.state`.
 * @param generatedAt - The report's time (ages are counted to it).
 * @returns For example `state.jsonl: 17925 agents, 120 rows from it; oldest verified attestation base:erc8004:7, verified 1d 2h ago`.
 */
export function formatState(state: NonNullable<NonNullable<DriftReport["summary"]["triage"]>["state"]>, generatedAt: string): string {
  const oldest = state.oldestAttestation;
  const age = (iso: string) => formatDuration(Math.max(0, (Date.parse(generatedAt) - Date.parse(iso)) / 1000));
  const oldestText = oldest
    ? `oldest verified attestation ${oldest.agent}, verified ${age(oldest.verifiedAt)} ago` +
      (oldest.computedAt ? ` (computed ${age(oldest.computedAt)} ago)` : "")
    : "no verified attestation";
  return (
    `${state.file}: ${state.entries} agents, ${state.fromState} rows from it${state.full ? " (--full: not used for triage)" : ""}; ${oldestText}` +
    (state.truncatedLine !== undefined ? `; its cut-short line ${state.truncatedLine} was ignored` : "")
  );
}

function formatDates(report: DriftReportHead): string {
  const { oldestUpdatedAt, newestUpdatedAt } = report.summary;
  if (oldestUpdatedAt === null || newestUpdatedAt === null) return "none";
  const ago = (iso: string) => {
    const seconds = (Date.parse(report.generatedAt) - Date.parse(iso)) / 1000;
    return seconds >= 0 ? `${formatDuration(seconds)} ago` : `${formatDuration(-seconds)} ahead`;
  };
  return `oldest ${oldestUpdatedAt} (${ago(oldestUpdatedAt)}), newest ${newestUpdatedAt} (${ago(newestUpdatedAt)})`;
}

function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
