/**
 * The drift report: what `trustgate drift` prints as JSON. Field names and status values are pinned (other
 * programs parse them); new fields may be added.
 *
 * @packageDocumentation
 */

/** Status of one agent's row, from the most to the least alarming family. */
export type DriftStatus =
  | "in-sync"
  | "drifted"
  | "stale-onchain"
  | "missing-onchain"
  | "missing-attestation"
  | "invalid-attestation"
  | "error";

/** Every status, in report order of severity (worst first). */
export const DRIFT_STATUSES: readonly DriftStatus[] = [
  "invalid-attestation",
  "error",
  "drifted",
  "stale-onchain",
  "missing-onchain",
  "missing-attestation",
  "in-sync",
];

/** The on-chain side of a row. */
export interface OnchainSide {
  readonly score: number;
  /** Tier name under the encoding in use, or `code:<n>` when the code is outside it. */
  readonly tier: string;
  /** Sybil severity name under the encoding in use, or `code:<n>`. */
  readonly sybilSeverity: string;
  /** ISO-8601 time of the record. */
  readonly updatedAt: string;
}

/** The attested side of a row (from a verified signed attestation, or the service's listing in triage). */
export interface AttestedSide {
  readonly score: number;
  readonly tier: string;
  readonly sybilSeverity: string;
  /** ISO-8601 time the service signed (or listed) the data. */
  readonly attestedAt: string;
  /** Key id that signed it; `null` when the data comes from the unsigned listing. */
  readonly kid: string | null;
}

/** The gate decision on each side and whether it flips. */
export interface DecisionPair {
  /** Whether the gate admits the agent on its on-chain record now (`null` when unknown). */
  readonly onchain: boolean | null;
  /** Whether the gate would admit it on the attested data (`null` when unknown). */
  readonly attested: boolean | null;
  /** True when both are known and differ. */
  readonly flipped: boolean;
}

/** One agent's row. */
export interface DriftRow {
  readonly chain: string;
  readonly chainId: number | null;
  readonly agentId: string;
  readonly registry: string;
  readonly status: DriftStatus;
  readonly onchain: OnchainSide | null;
  readonly attested: AttestedSide | null;
  /** attested score − on-chain score, when both are known. */
  readonly scoreDelta: number | null;
  readonly decision: DecisionPair;
  /** Why the row is not in sync, or what went wrong. */
  readonly reason?: string;
}
