/**
 * Assembling the drift report: ordering rows by severity and summarising them, and the exit code a report
 * calls for ({@link exitCodeOf}, the one place that rule lives).
 *
 * @packageDocumentation
 */
import { type AgentRef, compareAgentRefs } from "../agent/agent-ref.js";
import { DEFAULT_ERROR_LIMIT, type ErrorLimit, evaluateErrorLimit } from "./error-limit.js";
import {
  type DecisionFlips,
  DRIFT_STATUSES,
  type DriftReport,
  type DriftRow,
  type DriftRuntime,
  type DriftStatus,
  type EncodingCheck,
  type PartialRun,
  type TriageSummary,
} from "./types.js";

const SEVERITY = new Map(DRIFT_STATUSES.map((status, index) => [status, index]));

/**
 * Orders rows most severe first: decision flips, then by status (invalid attestations, errors, drift,
 * staleness, missing records, in sync), then by the size of the score change, then by agent.
 *
 * @param rows - Rows in any order.
 * @returns A new, sorted array.
 */
export function sortRows(rows: readonly DriftRow[]): DriftRow[] {
  return [...rows].sort(
    (a, b) =>
      Number(b.decision.flipped) - Number(a.decision.flipped) ||
      SEVERITY.get(a.status)! - SEVERITY.get(b.status)! ||
      Math.abs(b.scoreDelta ?? 0) - Math.abs(a.scoreDelta ?? 0) ||
      compareAgentRefs(agentOfRow(a), agentOfRow(b)),
  );
}

/**
 * Counts of rows per status (every status present, zero included).
 *
 * @param rows - The rows.
 * @returns Count per status.
 */
export function countByStatus(rows: readonly DriftRow[]): Record<DriftStatus, number> {
  const counts = Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0])) as Record<DriftStatus, number>;
  for (const row of rows) counts[row.status]++;
  return counts;
}

/**
 * Decision flips in each direction.
 *
 * @param rows - The rows.
 * @returns The flip counts.
 */
export function countFlips(rows: readonly DriftRow[]): DecisionFlips {
  let passToFail = 0;
  let failToPass = 0;
  for (const { decision } of rows) {
    if (!decision.flipped) continue;
    if (decision.onchain) passToFail++;
    else failToPass++;
  }
  return { passToFail, failToPass };
}

/**
 * Rows whose record the service's signed attestation could refresh through an `AttestedTrustOracle`.
 *
 * @param rows - The rows.
 * @returns How many have `refresh.possible`.
 */
export function countRefreshable(rows: readonly DriftRow[]): number {
  return rows.filter((row) => row.refresh?.possible === true).length;
}

/** Inputs of {@link buildReport} besides the rows. */
export interface ReportContext {
  readonly source: DriftReport["source"];
  readonly decisionRule: string;
  readonly maxAgeSeconds: number;
  readonly encoding: EncodingCheck;
  readonly triage?: TriageSummary;
  /** Notes on the run (see {@link DriftReport.notes}); left out of the report when empty. */
  readonly notes?: readonly string[];
  readonly runtime?: DriftRuntime;
  readonly generatedAt: Date;
  /** How many agents may go unverified before the run fails (default {@link DEFAULT_ERROR_LIMIT}, 1 %). */
  readonly errorLimit?: ErrorLimit;
  /** Present when the run stopped before fetching everything it selected (`--max-duration`). */
  readonly partial?: PartialRun;
}

/**
 * Builds the JSON report.
 *
 * @param rows - One row per agent.
 * @param context - Source, rule, encoding check, triage summary, notes, time and error limit.
 * @returns The report, rows sorted by severity.
 * @throws `InvalidArgumentError` for an invalid `errorLimit` (see `checkErrorLimit`).
 */
export function buildReport(rows: readonly DriftRow[], context: ReportContext): DriftReport {
  const dates = rows.flatMap((r) => (r.onchain ? [r.onchain.updatedAt] : [])).sort();
  const byStatus = countByStatus(rows);
  return {
    version: 1,
    generatedAt: context.generatedAt.toISOString(),
    source: context.source,
    decisionRule: context.decisionRule,
    maxAgeSeconds: context.maxAgeSeconds,
    summary: {
      agents: rows.length,
      byStatus,
      flips: countFlips(rows),
      oldestUpdatedAt: dates[0] ?? null,
      newestUpdatedAt: dates[dates.length - 1] ?? null,
      encoding: context.encoding,
      ...(context.triage ? { triage: context.triage } : {}),
      unverified: evaluateErrorLimit(byStatus, rows.length, context.errorLimit ?? DEFAULT_ERROR_LIMIT),
      refreshable: countRefreshable(rows),
      ...(context.partial ? { partial: context.partial } : {}),
    },
    ...(context.notes && context.notes.length > 0 ? { notes: [...context.notes] } : {}),
    ...(context.runtime ? { runtime: context.runtime } : {}),
    agents: sortRows(rows),
  };
}

/** Exit codes of `trustgate drift`. */
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
 * 2. `3` when a decision flips or an attestation is invalid.
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
 */
export function exitCodeOf(report: Pick<DriftReport, "summary">): 0 | 3 | 4 {
  const { flips, byStatus, unverified, partial } = report.summary;
  if (unverified.exceeded || partial) return DRIFT_EXIT_CODES.unverified;
  return flips.passToFail + flips.failToPass > 0 || byStatus["invalid-attestation"] > 0 ? DRIFT_EXIT_CODES.drift : DRIFT_EXIT_CODES.ok;
}

/** A row's agent (its `agentId` is a decimal string, as every row the kit builds carries). */
function agentOfRow(row: DriftRow): AgentRef {
  return { chain: row.chain, chainId: row.chainId, agentId: BigInt(row.agentId), registry: row.registry };
}
