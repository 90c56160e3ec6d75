/**
 * The gate's decision as plain TypeScript: the same rules, in the same order, as `TrustGated` and
 * `TrustPolicyLib` on-chain, one entry per condition ({@link TRUST_POLICY_CONDITIONS}), each with its decision
 * edge. The drift job uses it to tell which gate decisions would change and, from the edges, which agents are close
 * enough to a limit to fetch a signed attestation for; the property test proves it equal to the contract.
 *
 * @packageDocumentation
 */

import type { TrustRecord } from "./trust-record.js";

/**
 * Lowest score of each tier, as published by the service (docs/service-api.md).
 *
 * @example
 * ```ts
 * import { TIER_MIN_SCORE } from "trustgate";
 *
 * // a gate that admits the "developing" tier and up
 * const policy = { minScore: TIER_MIN_SCORE.developing, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: false };
 * ```
 */
export const TIER_MIN_SCORE = { established: 75, developing: 51, limited: 30 } as const;

/** Highest score a well-formed oracle answer may carry; larger values are treated as malformed. */
export const MAX_SCORE = 100;

/** A gate policy, as `TrustGated.trustPolicy()` returns it. */
export interface TrustPolicy {
  readonly minScore: number;
  readonly maxSybilSeverity: number;
  /** Oldest accepted record, in seconds. */
  readonly maxAge: number;
  readonly requireController: boolean;
}

/**
 * Why a gate refuses an agent, in the order of the on-chain `TrustRefusal` enum (index = enum value).
 * `None` means the agent passes.
 *
 * @example
 * ```ts
 * import { evaluateTrustPolicy, TRUST_REFUSALS } from "trustgate";
 *
 * const tally = new Map(TRUST_REFUSALS.map((refusal) => [refusal, 0]));
 * const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: false };
 * const refusal = evaluateTrustPolicy({ score: 40, tier: 1, sybilSeverity: 0, updatedAt: 1_780_000_000 }, policy, 1_780_003_600);
 * tally.set(refusal, (tally.get(refusal) ?? 0) + 1);
 * ```
 */
export const TRUST_REFUSALS = [
  "None",
  "OracleUnavailable",
  "OracleMalformedResponse",
  "RecordMissing",
  "RecordFromFuture",
  "RecordStale",
  "ScoreTooLow",
  "SybilSeverityTooHigh",
  "AgentIdentityUnavailable",
  "NotAgentController",
] as const;

/** One value of {@link TRUST_REFUSALS}. */
export type TrustRefusal = (typeof TRUST_REFUSALS)[number];

/** What is known of the account's control of the agent, for policies that require it. */
export type ControllerStatus = "controller" | "not-controller" | "unknown-agent";

/** A refusal a policy condition gives: every {@link TrustRefusal} but `None`. */
export type TrustPolicyRefusal = Exclude<TrustRefusal, "None">;

/**
 * Whether a record sits at a condition's decision edge: so close to the condition's limit that the service's next
 * scoring, or a little time, could flip the gate's decision on it.
 *
 * @param record - The oracle record (present: `updatedAt > 0`).
 * @param policy - The gate policy.
 * @param now - The current time in Unix seconds.
 * @param scoreMargin - Score distance from `minScore` that counts as near.
 * @returns True at the edge.
 */
export type TrustPolicyEdge = (record: TrustRecord, policy: TrustPolicy, now: number, scoreMargin: number) => boolean;

/** One condition of a gate policy. */
export interface TrustPolicyCondition {
  /** Whether the condition refuses the record (the conditions before it let it through). */
  readonly refuses: (record: TrustRecord, policy: TrustPolicy, now: number, controller: ControllerStatus) => boolean;
  /**
   * Its decision edge, or `null` for a condition with none: one that looks at whether something is there (a record,
   * a well-formed answer, the caller's control of the agent) rather than at a value near a limit.
   */
  readonly edge: TrustPolicyEdge | null;
}

/** Share of `maxAge` past which a record's age is at the staleness edge (the last tenth before the limit, and after). */
const AGE_EDGE_SHARE = 0.9;

/**
 * The conditions of a gate policy, by the refusal each gives, in the order `TrustGated` checks them (the order of
 * {@link TRUST_REFUSALS}): a new condition is one entry here, with its decision edge.
 */
export const TRUST_POLICY_CONDITIONS: { readonly [R in TrustPolicyRefusal]: TrustPolicyCondition } = {
  OracleUnavailable: { refuses: () => false, edge: null }, // the oracle call reverted: a record in hand was read
  OracleMalformedResponse: { refuses: (record) => record.score > MAX_SCORE, edge: null },
  RecordMissing: { refuses: (record) => record.updatedAt === 0, edge: null },
  RecordFromFuture: { refuses: (record, _policy, now) => record.updatedAt > now, edge: null },
  RecordStale: {
    refuses: (record, policy, now) => now - record.updatedAt > policy.maxAge,
    edge: (record, policy, now) => now - record.updatedAt > policy.maxAge * AGE_EDGE_SHARE,
  },
  ScoreTooLow: {
    refuses: (record, policy) => record.score < policy.minScore,
    edge: (record, policy, _now, margin) => Math.abs(record.score - policy.minScore) <= margin,
  },
  SybilSeverityTooHigh: {
    refuses: (record, policy) => record.sybilSeverity > policy.maxSybilSeverity,
    edge: (record, policy) => record.sybilSeverity === policy.maxSybilSeverity,
  },
  AgentIdentityUnavailable: {
    refuses: (_record, policy, _now, controller) => policy.requireController && controller === "unknown-agent",
    edge: null,
  },
  NotAgentController: {
    refuses: (_record, policy, _now, controller) => policy.requireController && controller === "not-controller",
    edge: null,
  },
};

/** The refusals of {@link TRUST_POLICY_CONDITIONS}, in the order they are checked. */
const CONDITION_ORDER = TRUST_REFUSALS.filter((refusal): refusal is TrustPolicyRefusal => refusal !== "None");

/**
 * The conditions at whose decision edge a record sits (see {@link TrustPolicyCondition.edge}), in the order they are
 * checked.
 *
 * @param record - The oracle record (present).
 * @param policy - The gate policy.
 * @param now - The current time in Unix seconds.
 * @param scoreMargin - Score distance from `minScore` that counts as near.
 * @returns The refusals of the conditions at their edge; empty when none is.
 */
export function trustPolicyEdges(record: TrustRecord, policy: TrustPolicy, now: number, scoreMargin: number): TrustPolicyRefusal[] {
  return CONDITION_ORDER.filter((refusal) => TRUST_POLICY_CONDITIONS[refusal].edge?.(record, policy, now, scoreMargin) === true);
}

/** What {@link evaluateTrustPolicy} throws: nothing; every outcome is a {@link TrustRefusal}. */
export type EvaluateTrustPolicyErrorType = never;

/**
 * Evaluates a record against a policy at time `now` (seconds), exactly as `TrustGated` does: record
 * present, not from the future, not older than `maxAge`, score at least `minScore`, sybil severity at most
 * `maxSybilSeverity`, then (only if the policy requires it) the controller check.
 *
 * @param record - The oracle record (`updatedAt === 0` when the oracle holds none).
 * @param policy - The gate policy.
 * @param now - The current time in Unix seconds (the block timestamp on-chain).
 * @param controller - Whether the acting account controls the agent; consulted only when required.
 * @returns The first refusal that applies, or `"None"`.
 *
 * @example
 * ```ts
 * import { evaluateTrustPolicy } from "trustgate";
 *
 * const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: false };
 * const now = Math.floor(Date.now() / 1000);
 * const record = { score: 62, tier: 2, sybilSeverity: 1, updatedAt: now - 3600 }; // as the oracle stores it
 * console.log(evaluateTrustPolicy(record, policy, now)); // "None": the gate would let the agent through
 * console.log(evaluateTrustPolicy({ ...record, score: 40 }, policy, now)); // "ScoreTooLow"
 * ```
 */
export function evaluateTrustPolicy(
  record: TrustRecord,
  policy: TrustPolicy,
  now: number,
  controller: ControllerStatus = "controller",
): TrustRefusal {
  return CONDITION_ORDER.find((refusal) => TRUST_POLICY_CONDITIONS[refusal].refuses(record, policy, now, controller)) ?? "None";
}
