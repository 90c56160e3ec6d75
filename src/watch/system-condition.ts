/**
 * The shape of a condition that is about no agent (the oracle's silence, the service's health): no agent, no row's
 * sides or decisions, and evidence that is not an agent check's (no block, transaction or attestation), only the facts
 * its kind states. One home for it, so that each such condition says only what is its own.
 *
 * @packageDocumentation
 */
import type { AlertKind, Condition } from "./types.js";

/** What a condition about no agent says of its own. */
export interface SystemConditionInput {
  readonly kind: AlertKind;
  readonly id: string;
  /** One line a person reads. */
  readonly summary: string;
  /** The facts of the kind, one line each. */
  readonly details: readonly string[];
  /** The oracle's own time the condition is about (ISO-8601), if any. */
  readonly recordUpdatedAt?: string | null;
}

/**
 * A condition about no agent.
 *
 * @param input - Its kind, id, summary, facts and, for the oracle, its own time.
 * @returns The condition, with no agent, sides or decisions, and only those facts as evidence.
 */
export function systemCondition(input: SystemConditionInput): Condition {
  return {
    kind: input.kind,
    id: input.id,
    agent: null,
    summary: input.summary,
    before: null,
    after: null,
    decision: null,
    evidence: {
      blockNumber: null,
      transactionHash: null,
      kid: null,
      issuedAt: null,
      expiresAt: null,
      recordUpdatedAt: input.recordUpdatedAt ?? null,
      details: input.details,
    },
  };
}
