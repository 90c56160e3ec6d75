/**
 * The gate's decision as plain TypeScript: the same rules, in the same order, as `TrustGated` and
 * `TrustPolicyLib` on-chain. The drift job uses it to tell which gate decisions would change, and the
 * property test proves it equal to the contract.
 *
 * @packageDocumentation
 */

/** Lowest score of each tier, as published by the service (docs/service-api.md). */
export const TIER_MIN_SCORE = { established: 75, developing: 51, limited: 30 } as const;

/** Highest score a well-formed oracle answer may carry; larger values are treated as malformed. */
export const MAX_SCORE = 100;

/** An oracle record as `getScore` returns it; `updatedAt` is a Unix time in seconds, 0 when absent. */
export interface OracleRecord {
  readonly score: number;
  readonly tier: number;
  readonly sybilSeverity: number;
  readonly updatedAt: number;
}

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
 */
export function evaluateTrustPolicy(
  record: OracleRecord,
  policy: TrustPolicy,
  now: number,
  controller: ControllerStatus = "controller",
): TrustRefusal {
  if (record.score > MAX_SCORE) return "OracleMalformedResponse";
  if (record.updatedAt === 0) return "RecordMissing";
  if (record.updatedAt > now) return "RecordFromFuture";
  if (now - record.updatedAt > policy.maxAge) return "RecordStale";
  if (record.score < policy.minScore) return "ScoreTooLow";
  if (record.sybilSeverity > policy.maxSybilSeverity) return "SybilSeverityTooHigh";
  if (!policy.requireController) return "None";
  if (controller === "unknown-agent") return "AgentIdentityUnavailable";
  return controller === "controller" ? "None" : "NotAgentController";
}
