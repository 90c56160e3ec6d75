/**
 * Assembling the drift report: ordering rows by severity and summarising them.
 *
 * @packageDocumentation
 */
import { DRIFT_STATUSES, type DecisionFlips, type DriftReport, type DriftRow, type DriftStatus, type EncodingCheck, type TriageSummary, type DriftRuntime } from "./types.js";

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
      a.chain.localeCompare(b.chain) ||
      compareIds(a.agentId, b.agentId) ||
      a.registry.localeCompare(b.registry),
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
}

/**
 * Builds the JSON report.
 *
 * @param rows - One row per agent.
 * @param context - Source, rule, encoding check, triage summary, notes and time.
 * @returns The report, rows sorted by severity.
 */
export function buildReport(rows: readonly DriftRow[], context: ReportContext): DriftReport {
  const dates = rows.flatMap((r) => (r.onchain ? [r.onchain.updatedAt] : [])).sort();
  return {
    version: 1,
    generatedAt: context.generatedAt.toISOString(),
    source: context.source,
    decisionRule: context.decisionRule,
    maxAgeSeconds: context.maxAgeSeconds,
    summary: {
      agents: rows.length,
      byStatus: countByStatus(rows),
      flips: countFlips(rows),
      oldestUpdatedAt: dates[0] ?? null,
      newestUpdatedAt: dates[dates.length - 1] ?? null,
      encoding: context.encoding,
      ...(context.triage ? { triage: context.triage } : {}),
    },
    ...(context.notes && context.notes.length > 0 ? { notes: [...context.notes] } : {}),
    ...(context.runtime ? { runtime: context.runtime } : {}),
    agents: sortRows(rows),
  };
}

/**
 * The exit code a report calls for: 3 when a decision flips or an attestation is invalid, else 0.
 *
 * @param report - The report.
 * @returns 0 or 3.
 */
export function exitCodeOf(report: Pick<DriftReport, "summary">): 0 | 3 {
  const { flips, byStatus } = report.summary;
  return flips.passToFail + flips.failToPass > 0 || byStatus["invalid-attestation"] > 0 ? 3 : 0;
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
