/**
 * The drift report: what `trustgate drift` prints as JSON. Field names and status values are pinned (other
 * programs parse them); new fields may be added.
 *
 * @packageDocumentation
 */

import type { OracleReaderMode } from "../oracle/reader-mode.js";
import type { UnverifiedSummary } from "./error-limit.js";

/** Status of one agent's row, from the most to the least alarming family. */
export type DriftStatus =
  "in-sync" | "drifted" | "stale-onchain" | "missing-onchain" | "missing-attestation" | "invalid-attestation" | "error";

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
  /** Sybil severity name; the service's `null` (no sybil signal) is shown as `none`. */
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
  /**
   * ISO-8601 time the service computed the attested score: the signed `issuedAt` of a v2 attestation, or the
   * listing's `updatedAt` for a row compared with the listing (`attested.kid` null); `null` when unknown (no
   * attested data, a v1 attestation, a listing without times).
   */
  readonly attestedComputedAt: string | null;
  /**
   * Whether the attested score was computed after the on-chain record's `updatedAt` (the last nightly
   * refresh), in whole seconds: `true` means a difference is a change since the last refresh; `false` means
   * the chain should already carry that computation, so a difference is a disagreement about the same
   * computation; `null` when either time is unknown.
   */
  readonly computedAfterRefresh: boolean | null;
  /** attested score − on-chain score, when both are known. */
  readonly scoreDelta: number | null;
  readonly decision: DecisionPair;
  /** Why the row is not in sync, or what went wrong. */
  readonly reason?: string;
}

/** Counts of decision flips in each direction. */
export interface DecisionFlips {
  /** The gate admits the agent on-chain, but would refuse it on the service's current data. */
  readonly passToFail: number;
  /** The gate refuses the agent on-chain, but would admit it on the service's current data. */
  readonly failToPass: number;
}

/** Whether on-chain (score, tier code) pairs agree with the tier encoding in use. */
export interface EncodingCheck {
  /** The tier names by code that were assumed. */
  readonly tiers: readonly string[];
  /** The sybil severity names by code that were assumed. */
  readonly sybilSeverities: readonly string[];
  /** Records checked (those with a record). */
  readonly checked: number;
  /** Records whose tier code, decoded, is not the tier of their score (or is outside the encoding). */
  readonly contradictions: number;
  /** True when no checked record contradicts the encoding. */
  readonly consistent: boolean;
  /** Up to five contradicting records, `chain:id:registry score=… tierCode=…`. */
  readonly examples: readonly string[];
  /** Tier codes observed for each score-derived tier, e.g. `{ established: [3] }`. */
  readonly observed: Readonly<Record<string, readonly number[]>>;
}

/** What triage did in an `--all` scan. */
export interface TriageSummary {
  /** Agents listed by the service. */
  readonly listed: number;
  /** Signed attestations fetched. */
  readonly signedFetches: number;
  /** Signed fetches avoided (listed agents compared with the listing only). */
  readonly fetchesSaved: number;
  /** Why agents were fetched: count per reason. */
  readonly reasons: Readonly<Record<string, number>>;
  /** Fraction of agents fetched at random as an audit of the listing. */
  readonly auditFraction: number;
  /** Listed scores that a signed attestation then contradicted (a listing that lies). */
  readonly listingContradictions: number;
  /**
   * The search for on-chain records the listing lacks (`--events-from`, default `auto`): the first block
   * replayed (`null` when not looked for), the records the oracle's events say it holds, how many of those the
   * listing lacks (`notListed`), `error` when the replay failed, `skipped` (why) when nothing was replayed.
   */
  readonly onchainEnumeration?: {
    readonly fromBlock: string | null;
    readonly records: number;
    readonly notListed?: number;
    readonly error?: string;
    readonly skipped?: string;
  };
}

/** The JSON report. */
export interface DriftReport {
  /** Report format version. */
  readonly version: 1;
  readonly generatedAt: string;
  readonly source: {
    readonly rpc: string;
    readonly oracle: string;
    readonly api: string;
    readonly issuer: string;
    readonly chainId: number;
    readonly blockNumber: string | null;
    /**
     * How the oracle was read: `multicall3`, or on a chain without it `deployless-multicall3` or `eth-call`
     * (then `notes` says so). Absent in reports built without reading a chain.
     */
    readonly readerMode?: OracleReaderMode;
  };
  /** The decision rule, e.g. `score >= 51`. */
  readonly decisionRule: string;
  readonly maxAgeSeconds: number;
  readonly summary: {
    readonly agents: number;
    readonly byStatus: Readonly<Record<DriftStatus, number>>;
    readonly flips: DecisionFlips;
    readonly oldestUpdatedAt: string | null;
    readonly newestUpdatedAt: string | null;
    readonly encoding: EncodingCheck;
    readonly triage?: TriageSummary;
    /**
     * Agents the run could not verify (`error` or `missing-attestation`) against the `--max-errors` limit;
     * `exceeded` makes the run exit 4 (see `exitCodeOf`).
     */
    readonly unverified: UnverifiedSummary;
  };
  /**
   * Things about the run itself that a reader of the report should know, one sentence each (for example that
   * Multicall3 is not deployed on the chain and how the oracle was read instead). Absent when there are none.
   */
  readonly notes?: readonly string[];
  /** Where the run's time went (not a pinned field: informational). */
  readonly runtime?: DriftRuntime;
  /** Rows, most severe first (flips first). */
  readonly agents: readonly DriftRow[];
}

/** Where a run's time went, in milliseconds, and how many trust-check requests it made. */
export interface DriftRuntime {
  readonly totalMs: number;
  readonly listingMs: number;
  readonly onchainMs: number;
  /** Wall time of the attestation stage (requests and verification, overlapped). */
  readonly attestationsMs: number;
  /** Summed time of trust-check requests (concurrent requests overlap). */
  readonly requestMs: number;
  /** Summed time of attestation verification. */
  readonly verifyMs: number;
  readonly serviceRequests: number;
}
