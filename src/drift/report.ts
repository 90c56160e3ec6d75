/**
 * Assembling the drift report: ordering rows by severity and summarising them, with the verdict the summary calls
 * for (`verdict.ts`, where the exit-code rule lives).
 *
 * @packageDocumentation
 */
import { type AgentRef, compareAgentRefs } from "../agent/agent-ref.js";
import { DEFAULT_ERROR_LIMIT, type ErrorLimit, evaluateErrorLimit } from "./error-limit.js";
import {
  type DecisionFlips,
  DRIFT_STATUS_ACTIONS,
  DRIFT_STATUSES,
  type DriftReport,
  type DriftReportHead,
  type DriftRow,
  type DriftRuntime,
  type DriftStateHistory,
  type DriftStatus,
  type EncodingCheck,
  type FetchProjection,
  type PartialRun,
  type RefreshBlocker,
  type SinceLastNight,
  type TriageSummary,
} from "./types.js";
import { verdictOf } from "./verdict.js";

const SEVERITY = new Map(DRIFT_STATUSES.map((status, index) => [status, index]));

/**
 * Orders rows most severe first: decision flips, then by status (invalid attestations, errors, drift,
 * staleness, missing records, in sync), then by the size of the score change, then by agent.
 *
 * @param rows - Rows in any order.
 * @returns A new, sorted array.
 */
export function sortRows(rows: readonly DriftRow[]): DriftRow[] {
  return [...rows].sort(compareRows);
}

/**
 * The order of {@link sortRows}: by {@link rowRank}, then by the size of the score change (largest first), then by
 * agent (chain, id, registry).
 *
 * @param a - A row.
 * @param b - Another row.
 * @returns Negative when `a` comes first, positive when `b` does, 0 for the same agent and severity.
 */
export function compareRows(a: DriftRow, b: DriftRow): number {
  return rowRank(a) - rowRank(b) || rowDeltaSize(b) - rowDeltaSize(a) || compareAgentRefs(agentOfRow(a), agentOfRow(b));
}

/**
 * A row's severity class, the first key of the report order: decision flips first (by status), then the other rows
 * by status (invalid attestations, errors, drift, staleness, missing records, in sync). 0 to 13, lower first.
 *
 * @param row - A row.
 * @returns The class.
 */
export function rowRank(row: Pick<DriftRow, "decision" | "status">): number {
  return (row.decision.flipped ? 0 : DRIFT_STATUSES.length) + SEVERITY.get(row.status)!;
}

/**
 * The second key of the report order: the size of the score change (0 when unknown), larger first.
 *
 * @param row - A row.
 * @returns `|scoreDelta|`.
 */
export function rowDeltaSize(row: Pick<DriftRow, "scoreDelta">): number {
  return Math.abs(row.scoreDelta ?? 0);
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
 * What a report's summary counts of its rows, added up one row at a time ({@link createRowTally}), so that a run
 * that does not keep its rows (they went to a file as they were produced) still has its summary.
 */
export interface RowTally {
  /** Rows counted. */
  readonly agents: number;
  readonly byStatus: Readonly<Record<DriftStatus, number>>;
  readonly flips: DecisionFlips;
  /** Earliest on-chain `updatedAt` of the rows (ISO-8601), `null` without a record. */
  readonly oldestUpdatedAt: string | null;
  /** Latest on-chain `updatedAt`, `null` without a record. */
  readonly newestUpdatedAt: string | null;
  /** Rows with `refresh.possible`. */
  readonly refreshable: number;
  /** Rows with a refresh assessment (`refresh` not `null`). */
  readonly refreshAssessed: number;
  /** Assessed rows that cannot be refreshed, by what stands in the way. */
  readonly refreshBlockers: Readonly<Partial<Record<RefreshBlocker, number>>>;
}

/** A {@link RowTally} that rows are added to. */
export interface RowTallyBuilder extends RowTally {
  /** Counts one row. */
  add(row: DriftRow): void;
}

/**
 * Starts a tally of rows at zero.
 *
 * @returns The tally; `add` counts a row.
 */
export function createRowTally(): RowTallyBuilder {
  const byStatus = countByStatus([]);
  const flips = { passToFail: 0, failToPass: 0 };
  const refreshBlockers: Partial<Record<RefreshBlocker, number>> = {};
  let agents = 0;
  let oldest: string | null = null;
  let newest: string | null = null;
  let refreshable = 0;
  let refreshAssessed = 0;
  return {
    get agents() {
      return agents;
    },
    byStatus,
    flips,
    get oldestUpdatedAt() {
      return oldest;
    },
    get newestUpdatedAt() {
      return newest;
    },
    get refreshable() {
      return refreshable;
    },
    get refreshAssessed() {
      return refreshAssessed;
    },
    refreshBlockers,
    add(row) {
      agents++;
      byStatus[row.status]++;
      if (row.decision.flipped) {
        if (row.decision.onchain) flips.passToFail++;
        else flips.failToPass++;
      }
      const at = row.onchain?.updatedAt;
      if (at !== undefined) {
        // ISO-8601 times of one form: their string order is their time order (as the sort of buildReport had it).
        if (oldest === null || at < oldest) oldest = at;
        if (newest === null || at > newest) newest = at;
      }
      if (row.refresh) {
        refreshAssessed++;
        if (row.refresh.possible) refreshable++;
        if (row.refresh.blocker) refreshBlockers[row.refresh.blocker] = (refreshBlockers[row.refresh.blocker] ?? 0) + 1;
      }
    },
  };
}

/**
 * Tallies rows.
 *
 * @param rows - The rows.
 * @returns Their tally.
 */
export function tallyRows(rows: Iterable<DriftRow>): RowTally {
  const tally = createRowTally();
  for (const row of rows) tally.add(row);
  return tally;
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
  /** The projected cost of the signed fetches (see {@link DriftReport.projection}). */
  readonly projection?: FetchProjection;
  readonly generatedAt: Date;
  /** How many agents may go unverified before the run fails (default {@link DEFAULT_ERROR_LIMIT}, 1 %). */
  readonly errorLimit?: ErrorLimit;
  /** Present when the run stopped before fetching everything it selected (`--max-duration`). */
  readonly partial?: PartialRun;
  /** With a state file: its history of nights (see {@link DriftReport.state}). */
  readonly state?: DriftStateHistory;
  /** What changed since the previous night; `null` without a state file (see {@link DriftReport.sinceLastNight}). */
  readonly sinceLastNight?: SinceLastNight | null;
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
  return { ...buildReportHead(tallyRows(rows), context), agents: sortRows(rows) };
}

/**
 * Builds the JSON report without its rows, from their tally: the report of a run whose rows were not kept. Its keys
 * come in the order of {@link buildReport}'s, `agents` aside (which comes last there).
 *
 * @param tally - The tally of every row.
 * @param context - Source, rule, encoding check, triage summary, notes, projection, time and error limit.
 * @returns The report's head.
 * @throws `InvalidArgumentError` for an invalid `errorLimit` (see `checkErrorLimit`).
 */
export function buildReportHead(tally: RowTally, context: ReportContext): DriftReportHead {
  const byStatus = { ...tally.byStatus };
  const summary: DriftReport["summary"] = {
    agents: tally.agents,
    byStatus,
    flips: { passToFail: tally.flips.passToFail, failToPass: tally.flips.failToPass },
    oldestUpdatedAt: tally.oldestUpdatedAt,
    newestUpdatedAt: tally.newestUpdatedAt,
    encoding: context.encoding,
    ...(context.triage ? { triage: context.triage } : {}),
    unverified: evaluateErrorLimit(byStatus, tally.agents, context.errorLimit ?? DEFAULT_ERROR_LIMIT),
    refreshable: tally.refreshable,
    ...(context.partial ? { partial: context.partial } : {}),
  };
  const sinceLastNight = context.sinceLastNight;
  return {
    version: 1,
    generatedAt: context.generatedAt.toISOString(),
    verdict: verdictOf({ summary, sinceLastNight }),
    source: context.source,
    decisionRule: context.decisionRule,
    maxAgeSeconds: context.maxAgeSeconds,
    summary,
    ...(sinceLastNight !== undefined ? { sinceLastNight } : {}),
    actions: actionsOf(byStatus),
    ...(context.notes && context.notes.length > 0 ? { notes: [...context.notes] } : {}),
    ...(context.projection ? { projection: context.projection } : {}),
    ...(context.state ? { state: context.state } : {}),
    ...(context.runtime ? { runtime: context.runtime } : {}),
  };
}

/**
 * What to do about each status that has rows, in the order of {@link DRIFT_STATUSES} ({@link DRIFT_STATUS_ACTIONS}).
 *
 * @param byStatus - Rows per status.
 * @returns The action of each status with at least one row.
 */
export function actionsOf(byStatus: Readonly<Record<DriftStatus, number>>): Partial<Record<DriftStatus, string>> {
  return Object.fromEntries(DRIFT_STATUSES.filter((s) => byStatus[s] > 0).map((s) => [s, DRIFT_STATUS_ACTIONS[s]]));
}

/** A row's agent (its `agentId` is a decimal string, as every row the kit builds carries). */
function agentOfRow(row: DriftRow): AgentRef {
  return { chain: row.chain, chainId: row.chainId, agentId: BigInt(row.agentId), registry: row.registry };
}
