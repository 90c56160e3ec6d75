/**
 * What changed since the previous night (`--state`): tonight's problems — decision flips in either direction and
 * invalid attestations, the rows that make a run exit 3 (`problemOf`) — against the problems the state kept from the
 * last completed night, each classified once:
 *
 * - `new`: not seen the night before (every problem, when the state records no previous night);
 * - `persisting`: seen the night before too (same agent, same problem), with the nights in a row;
 * - `accepted`: covered by a baseline entry (`--accept`) that has not expired, new or not;
 * - `resolved`: last night's problem, gone from tonight's row, which verified (any status but `error` and
 *   `missing-attestation`); a problem whose agent tonight could not be verified, or has no row, is `unverified`
 *   instead: neither resolved nor persisting, and kept for the next night with its nights as they were.
 *
 * A flip that turns around (pass→fail one night, fail→pass the next) is a new problem, and the old one resolved; so is
 * a flip that becomes an invalid attestation. The rows stream past (`createProblemCollector` keeps only the
 * problems and the statuses of last night's agents), so that 150,000 rows need no more than their problems.
 *
 * @packageDocumentation
 */
import { agentKey, formatAgentRef } from "../agent/agent-ref.js";
import { type DriftBaseline, baselineMatch } from "./baseline.js";
import type { StoredProblem } from "./state/schema.js";
import {
  type AcceptedProblem,
  DRIFT_STATUS_ACTIONS,
  type DriftProblem,
  type DriftRow,
  type DriftStatus,
  type ExpiredAcceptance,
  type PersistingProblem,
  type SinceLastNight,
} from "./types.js";

/** The order of each list: the dangerous direction first. */
const PROBLEM_ORDER: readonly DriftProblem[] = ["pass-to-fail", "invalid-attestation", "fail-to-pass"];

/**
 * The problem a row shows, if any: an invalid attestation, else a decision flip in its direction.
 *
 * @param row - A row.
 * @returns `invalid-attestation`, `pass-to-fail`, `fail-to-pass`, or `null`.
 */
export function problemOf(row: Pick<DriftRow, "status" | "decision">): DriftProblem | null {
  if (row.status === "invalid-attestation") return "invalid-attestation";
  if (!row.decision.flipped) return null;
  return row.decision.onchain === true ? "pass-to-fail" : "fail-to-pass";
}

/** Tonight's problems, and tonight's status of each agent that had one last night. */
export interface NightProblems {
  /** By `agentKey`: the problem and the row's status. */
  readonly problems: ReadonlyMap<string, { readonly problem: DriftProblem; readonly status: DriftStatus; readonly agent: string }>;
  /** By `agentKey`, for the agents of last night's problems: tonight's status. */
  readonly statuses: ReadonlyMap<string, DriftStatus>;
}

/** Gathers a night's problems from its rows as they stream past. */
export interface ProblemCollector extends NightProblems {
  /** Looks at one row. */
  add(row: DriftRow): void;
}

/**
 * Starts gathering a night's problems.
 *
 * @param previous - Last night's problems (their agents' statuses tonight are kept too).
 * @returns The collector.
 */
export function createProblemCollector(previous: readonly StoredProblem[]): ProblemCollector {
  const watched = new Set(previous.map((p) => p.agent));
  const problems = new Map<string, { problem: DriftProblem; status: DriftStatus; agent: string }>();
  const statuses = new Map<string, DriftStatus>();
  return {
    problems,
    statuses,
    add(row) {
      const key = agentKey(row);
      if (watched.has(key)) statuses.set(key, row.status);
      const problem = problemOf(row);
      if (problem !== null) problems.set(key, { problem, status: row.status, agent: formatAgentRef(row) });
    },
  };
}

/** What {@link classifySinceLastNight} needs. */
export interface SinceLastNightInputs {
  /** Last night's problems as the state kept them; `null` when it records none (no previous night). */
  readonly previous: readonly StoredProblem[] | null;
  /** When the previous night started; `null` without one. */
  readonly previousNight: string | null;
  /** Tonight's problems and last night's agents' statuses. */
  readonly tonight: NightProblems;
  /** When tonight's run started (the first night of a new problem). */
  readonly startedAt: Date;
  /** The clock, for the baseline's expiry. */
  readonly now: Date;
  /** `--accept`, if given. */
  readonly baseline?: DriftBaseline | undefined;
  /** `--fail-on` (default `any`). */
  readonly failOn?: "new" | "any" | undefined;
}

/**
 * Classifies tonight's problems against last night's (see the module notes).
 *
 * @param inputs - Last night's problems, tonight's, the start, the clock, the baseline and `--fail-on`.
 * @returns The report's `sinceLastNight`, and the problems to keep in the state for the next night.
 */
export function classifySinceLastNight(inputs: SinceLastNightInputs): {
  readonly sinceLastNight: SinceLastNight;
  readonly next: StoredProblem[];
} {
  const { tonight, baseline } = inputs;
  const previous = new Map((inputs.previous ?? []).map((p) => [p.agent, p]));
  const now = inputs.now.getTime();
  const fresh: PersistingProblem[] = [];
  const persisting: PersistingProblem[] = [];
  const accepted: AcceptedProblem[] = [];
  const resolved: PersistingProblem[] = [];
  const unverified: PersistingProblem[] = [];
  const next: StoredProblem[] = [];

  for (const [key, { problem, status, agent }] of tonight.problems) {
    const before = previous.get(key);
    const same = before !== undefined && before.problem === problem;
    const nights = same ? before.nights + 1 : 1;
    const since = same ? before.since : inputs.startedAt.toISOString();
    next.push({ agent: key, problem, since, nights });
    const entry: PersistingProblem = { agent, problem, status, action: DRIFT_STATUS_ACTIONS[status], nights, since };
    const cover = baseline ? baselineMatch(baseline, key, problem, now) : undefined;
    if (cover) accepted.push({ ...entry, reason: cover.reason, until: cover.until });
    else if (same) persisting.push(entry);
    else fresh.push(entry);
  }
  for (const [key, before] of previous) {
    const still = tonight.problems.get(key);
    if (still !== undefined && still.problem === before.problem) continue;
    const status = tonight.statuses.get(key) ?? null;
    const entry: PersistingProblem = {
      agent: agentOfKey(key),
      problem: before.problem,
      status,
      // No row tonight: the agent went unverified, as an error row does.
      action: DRIFT_STATUS_ACTIONS[status ?? "error"],
      nights: before.nights,
      since: before.since,
    };
    if (status === null || status === "error" || status === "missing-attestation") {
      unverified.push(entry);
      // Kept for the next night, unless tonight shows the agent with another problem (then that one is tracked).
      if (still === undefined) next.push(before);
    } else resolved.push(entry);
  }
  const expired: ExpiredAcceptance[] = baseline
    ? baseline.entries
        .filter((e) => e.until.getTime() <= now)
        .map((e) => ({ agent: agentOfKey(e.key), problem: e.problem, reason: e.reason, until: e.until.toISOString() }))
    : [];
  // The gate admitting an agent the service no longer vouches for comes first, then invalid attestations; then the
  // longest-lasting; then by agent.
  const order = (a: { agent: string; problem: DriftProblem; nights?: number }, b: typeof a) =>
    PROBLEM_ORDER.indexOf(a.problem) - PROBLEM_ORDER.indexOf(b.problem) ||
    (b.nights ?? 0) - (a.nights ?? 0) ||
    a.agent.localeCompare(b.agent);
  return {
    sinceLastNight: {
      previousNight: inputs.previousNight,
      failOn: inputs.failOn ?? "any",
      new: fresh.sort(order),
      persisting: persisting.sort(order),
      resolved: resolved.sort(order),
      accepted: accepted.sort(order),
      unverified: unverified.sort(order),
      expired: expired.sort(order),
    },
    next,
  };
}

/** `chain:registry:id` (the state's key) as the reports name agents, `chain:id:registry`. */
function agentOfKey(key: string): string {
  const [chain, registry, agentId] = key.split(":");
  return chain !== undefined && registry !== undefined && agentId !== undefined ? formatAgentRef({ chain, registry, agentId }) : key;
}
