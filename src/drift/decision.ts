/**
 * Which gate decision the drift job evaluates on each side: `score >= threshold` (the way consumers that
 * call `meetsThreshold` gate), or the exact policy of a deployed `TrustGated` gate (score, sybil severity,
 * record age; the controller check concerns the caller, not the record, and is left out).
 *
 * @packageDocumentation
 */
import { evaluateTrustPolicy, type TrustPolicy } from "../policy.js";

/** A decision rule. */
export type DecisionRule =
  | { readonly kind: "threshold"; readonly threshold: number }
  | { readonly kind: "gate"; readonly gate: string; readonly policy: TrustPolicy };

/** The values a decision looks at. */
export interface DecisionInput {
  readonly score: number;
  /** Sybil severity code under the encoding in use; `undefined` when unknown. */
  readonly sybilSeverityCode: number | undefined;
  /** Unix seconds of the data. */
  readonly updatedAtSeconds: number;
}

/**
 * Whether a record passes the rule at `nowSeconds`.
 *
 * @param rule - Threshold or gate policy.
 * @param input - The record's values.
 * @param nowSeconds - Current time in Unix seconds.
 * @returns True when the gate would admit the agent.
 */
export function decide(rule: DecisionRule, input: DecisionInput, nowSeconds: number): boolean {
  if (rule.kind === "threshold") return input.score >= rule.threshold;
  // An unknown sybil code must not pass a gate: treat it as the worst severity.
  const sybilSeverity = input.sybilSeverityCode ?? Number.MAX_SAFE_INTEGER;
  const refusal = evaluateTrustPolicy(
    { score: input.score, tier: 0, sybilSeverity, updatedAt: input.updatedAtSeconds },
    { ...rule.policy, requireController: false },
    nowSeconds,
  );
  return refusal === "None";
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
