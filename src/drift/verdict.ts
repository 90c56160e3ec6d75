/**
 * The verdict of a drift report: the exit code it calls for ({@link exitCodeOf}, the one place that rule lives) and
 * its reason in one plain sentence ({@link verdictOf}). The JSON report carries both as `verdict`; the summary, the
 * Markdown and the page say the same.
 *
 * @packageDocumentation
 */
import { describeErrorLimit } from "./error-limit.js";
import type { DriftReport, DriftRow, DriftVerdict, SinceLastNight } from "./types.js";

/**
 * Exit codes of `trustgate drift`.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { DRIFT_EXIT_CODES, type DriftReport, exitCodeOf } from "trustgate/drift";
 *
 * const code = exitCodeOf(JSON.parse(readFileSync("report.json", "utf8")) as DriftReport);
 * if (code === DRIFT_EXIT_CODES.drift) console.log("a gate decision flips, or an attestation is invalid");
 * if (code === DRIFT_EXIT_CODES.unverified) console.log("too many agents could not be verified");
 * ```
 */
export const DRIFT_EXIT_CODES = {
  /** Every agent that could be verified agrees on the decision, no attestation is invalid, and few enough went unverified. */
  ok: 0,
  /** The command failed unexpectedly (a bug, or the environment broke mid-run). */
  unexpected: 1,
  /** Usage or configuration error, found before any agent is scanned (bad flag; chain, oracle, gate or JWKS unreachable). */
  usage: 2,
  /** At least one decision flip or invalid attestation. */
  drift: 3,
  /**
   * The run could not verify enough to be trusted: more agents unverified than `--max-errors` allows, none scanned, or
   * the run stopped before fetching everything it selected (`--max-duration`: partial).
   */
  unverified: 4,
} as const;

/**
 * The exit code a report calls for — the one rule, in order:
 *
 * 1. `4` when the run could not verify enough to be trusted: `summary.unverified.exceeded` (more agents in
 *    status `error` or `missing-attestation` than `--max-errors` allows, or no agent scanned at all), or
 *    `summary.partial` (the run stopped at `--max-duration` before fetching every signed attestation it selected: a
 *    partial run is never green, whatever it found so far). This wins over 3: flips counted among the few verified
 *    rows say little when most rows were not verified, and the verdict line still names them.
 * 2. `3` when a decision flips or an attestation is invalid — with `--fail-on new` (`sinceLastNight.failOn`), only
 *    when a problem is new since the previous night (`sinceLastNight.new`): persisting and accepted ones do not.
 * 3. `0` otherwise.
 *
 * Rows a fresh attestation could refresh (`summary.refreshable`) do not change it: refreshing is what an operator
 * may do about a stale, missing or drifted record, not a verdict of its own.
 *
 * (`2`, usage or configuration errors before the scan, and `1`, unexpected failures, come from errors, not
 * from a report: see `exitCodeForError` in `src/cli/error-exit.ts`.)
 *
 * @param report - The report.
 * @returns 0, 3 or 4.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { type DriftReport, exitCodeOf } from "trustgate/drift";
 *
 * // the report `trustgate drift --json report.json` wrote: the same rule as the command's exit code
 * const report = JSON.parse(readFileSync("report.json", "utf8")) as DriftReport;
 * process.exitCode = exitCodeOf(report);
 * ```
 */
export function exitCodeOf(report: {
  /** Only whether the run was partial matters, not how. */
  readonly summary: Pick<DriftReport["summary"], "flips" | "byStatus" | "unverified"> & { readonly partial?: object | undefined };
  /** With `--fail-on new`, only its `new` problems make exit 3. */
  readonly sinceLastNight?: Pick<SinceLastNight, "failOn" | "new"> | null | undefined;
}): 0 | 3 | 4 {
  const { flips, byStatus, unverified, partial } = report.summary;
  if (unverified.exceeded || partial) return DRIFT_EXIT_CODES.unverified;
  const since = report.sinceLastNight;
  if (since?.failOn === "new") return since.new.length > 0 ? DRIFT_EXIT_CODES.drift : DRIFT_EXIT_CODES.ok;
  return flips.passToFail + flips.failToPass > 0 || byStatus["invalid-attestation"] > 0 ? DRIFT_EXIT_CODES.drift : DRIFT_EXIT_CODES.ok;
}

/**
 * Whether a row is one of those exit 3 is about: a decision flip or an invalid attestation. The terminal table always
 * shows them, and the Markdown summary lists them.
 *
 * @param row - The row.
 * @returns True for a decision flip or an invalid attestation.
 */
export function isFlipOrInvalid(row: Pick<DriftRow, "decision" | "status">): boolean {
  return row.decision.flipped || row.status === "invalid-attestation";
}

/**
 * The verdict of a report: {@link exitCodeOf} and the reason for it, one plain sentence. For exit 4 it says what
 * could not be verified (and still names flips and invalid attestations); for exit 3, the flips and invalid
 * attestations; for exit 0, that none was found, with the unverified agents the limit let through.
 *
 * @param report - The report (its summary).
 * @returns For example `{ exitCode: 3, reason: "2 gate decisions flip and 1 attestation is invalid" }`.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { type DriftReport, verdictOf } from "trustgate/drift";
 *
 * const verdict = verdictOf(JSON.parse(readFileSync("report.json", "utf8")) as DriftReport);
 * console.log(verdict.exitCode, verdict.reason); // the exit code, and the sentence that says why
 * ```
 */
export function verdictOf(report: Pick<DriftReport, "summary" | "sinceLastNight">): DriftVerdict {
  const exitCode = exitCodeOf(report);
  const s = report.summary;
  const flips = s.flips.passToFail + s.flips.failToPass;
  const invalid = s.byStatus["invalid-attestation"];
  const findings = [
    ...(flips > 0 ? [`${count(flips, "gate decision flips", "gate decisions flip")}`] : []),
    ...(invalid > 0 ? [`${count(invalid, "attestation is invalid", "attestations are invalid")}`] : []),
  ].join(" and ");
  const since = report.sinceLastNight;
  if (since?.failOn === "new" && exitCode !== DRIFT_EXIT_CODES.unverified && findings !== "") {
    const known = since.persisting.length + since.accepted.length;
    const others = `${known} persisting or accepted (--fail-on new)`;
    if (exitCode === DRIFT_EXIT_CODES.drift) {
      return { exitCode, reason: `${count(since.new.length, "new problem", "new problems")} since the night before; ${others}` };
    }
    return { exitCode, reason: `no new problem since the night before: ${findings}, ${others}` };
  }
  if (exitCode === DRIFT_EXIT_CODES.drift) return { exitCode, reason: findings };
  if (exitCode === DRIFT_EXIT_CODES.ok) {
    const within =
      s.unverified.count > 0
        ? `; ${count(s.unverified.count, "agent", "agents")} unverified, within --max-errors ${describeErrorLimit(s.unverified.limit)}`
        : "";
    return { exitCode, reason: `no gate decision flips and no attestation is invalid${within}` };
  }
  const also = findings ? `; so far ${findings}` : "";
  if (s.partial) {
    const next = s.partial.resumable ? "run it again with the same --state to continue" : "without --state it cannot be continued";
    const notFetched = count(s.partial.notFetched, "signed attestation", "signed attestations");
    if (s.partial.stopped) {
      const endpoint = s.partial.stopped.endpoint === "service" ? "the service" : "the RPC";
      return {
        exitCode,
        reason: `could not verify: ${endpoint} stopped answering at ${s.partial.stopped.at} (${s.partial.stopped.cause}); ${notFetched} not fetched (${next})${also}`,
      };
    }
    return { exitCode, reason: `could not verify: stopped at --max-duration with ${notFetched} not fetched (${next})${also}` };
  }
  if (s.agents === 0) return { exitCode, reason: "could not verify: no agent was scanned" };
  return {
    exitCode,
    reason: `could not verify: ${s.unverified.count} of ${count(s.agents, "agent", "agents")} unverified, more than --max-errors ${describeErrorLimit(
      s.unverified.limit,
    )} allows${also}`,
  };
}

/** `1 thing is` / `2 things are`: the count with the singular or plural phrase. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
