/**
 * Which gate decision the drift job evaluates on each side: `score >= threshold` (the way consumers that
 * call `meetsThreshold` gate), or the exact policy of a deployed `TrustGated` gate (score, sybil severity,
 * record age; the controller check concerns the caller, not the record, and is left out).
 *
 * @packageDocumentation
 */
import { evaluateTrustPolicy, type TrustPolicy } from "../policy.js";
import type { TrustRecord } from "../trust-record.js";

/** A decision rule. */
export type DecisionRule =
  | { readonly kind: "threshold"; readonly threshold: number }
  | { readonly kind: "gate"; readonly gate: string; readonly policy: TrustPolicy };

/**
 * Whether a record passes the rule at `nowSeconds`. The on-chain side is the record read; the service's side is the
 * record it stands for (`statedRecord`, where a name the encoding lacks carries a code above every limit).
 *
 * @param rule - Threshold or gate policy.
 * @param record - The record (present: `updatedAt > 0`).
 * @param nowSeconds - Current time in Unix seconds.
 * @returns True when the gate would admit the agent.
 */
export function decide(rule: DecisionRule, record: TrustRecord, nowSeconds: number): boolean {
  if (rule.kind === "threshold") return record.score >= rule.threshold;
  return evaluateTrustPolicy(record, { ...rule.policy, requireController: false }, nowSeconds) === "None";
}

/**
 * A one-line description of a rule, for reports.
 *
 * @param rule - The rule.
 * @returns For example `score >= 51` or `gate 0x… (minScore 51, maxSybilSeverity 2, maxAge 36h)`.
 */
export function describeRule(rule: DecisionRule): string {
  if (rule.kind === "threshold") return `score >= ${rule.threshold}`;
  const p = rule.policy;
  return `gate ${rule.gate} (minScore ${p.minScore}, maxSybilSeverity ${p.maxSybilSeverity}, maxAge ${p.maxAge}s)`;
}
