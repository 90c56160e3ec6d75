/**
 * The shapes the parts of `trustgate watch` hand each other. The watch is a long-running process over the same kit
 * as the drift job: it follows the chain, checks each record written against a fresh signed attestation under the
 * drift job's rules, watches the oracle's heartbeat and the service's health, and raises alerts (webhook, Slack),
 * metrics (Prometheus) and health answers.
 *
 * | part | module | takes | gives |
 * |---|---|---|---|
 * | follow the chain | `follow.ts` | a viem client, the oracle (and attested oracle), `--confirmations`, the position | {@link FollowStep}s: confirmed blocks, {@link OracleChange}s, reorgs |
 * | check agents | `check.ts` | the drift job's scan (`scanAgents`), its API client (limiter) and JWKS resolver | {@link AgentCheck}s: a `DriftRow` and its problem |
 * | audit between writes | `audit-walk.ts` | the population, the share of the rate limit it may spend | the next agents to check |
 * | heartbeat | `heartbeat.ts` | the oracle's last write (its own time), a {@link WriteCadence} | a {@link Condition} while silent |
 * | service health | `service-health.ts` | the API, its JWKS and the accepted kids | a {@link Condition} while unhealthy |
 * | alerts: dedup, reminders, resolved | `alert-book.ts` | {@link Condition}s raised and cleared | {@link AlertMessage}s to send |
 * | alerts: delivery | `webhook.ts` | {@link AlertMessage}s | signed POSTs, retries, the dead-letter file |
 * | metrics and health | `metrics.ts`, `server.ts` | what the loop did | `/metrics`, `/healthz`, `/readyz` |
 * | the state between runs | `state.ts` | the follower's position, the alert book, the last write | one JSON file, written atomically |
 * | the loop | `watch.ts` | all of the above | `runWatch` |
 *
 * Data flows one way: the follower and the audit name agents, the checker turns them into rows, conditions go to the
 * alert book, the book's messages go to delivery; metrics observe each step. Nothing here imports `src/cli/`.
 *
 * @packageDocumentation
 */
import type { Address, Hex } from "viem";
import type { AgentRef } from "../agent/agent-ref.js";
import type { AttestedSide, DriftProblem, DriftRow, OnchainSide } from "../drift/types.js";

/** A block the watch has processed: enough to notice that a reorg dropped it. */
export interface BlockRef {
  readonly number: bigint;
  readonly hash: Hex;
  /** The block's timestamp, seconds since the epoch. */
  readonly timestamp: number;
}

/**
 * What an oracle event says happened. The reference oracle and the attested oracle emit `RecordAdded` (key, agent
 * id, chain id, registry, packed record), `RecordUpdated` (key, packed record) and the reference oracle `RecordRemoved`; the attested
 * oracle also `RecordSignedBy` (key, `keccak256(kid)`: the kid is an indexed string), `SigningKeySet` and
 * `SigningKeyRevoked` (kid).
 */
export type OracleChangeKind =
  "record-added" | "record-updated" | "record-removed" | "record-signed-by" | "signing-key-set" | "signing-key-revoked";

/** One oracle event, confirmed, with where it was seen. */
export interface OracleChange {
  readonly kind: OracleChangeKind;
  /** The contract that emitted it (the oracle or the attested oracle). */
  readonly contract: Address;
  /** The record key; `null` for the key events (`signing-key-set`, `signing-key-revoked`). */
  readonly key: Hex | null;
  /**
   * The agent the record belongs to: from the event (`record-added`, `record-removed`) or from the follower's map of
   * keys (`record-updated`, `record-signed-by`); `null` when no event the follower has seen names the key's agent.
   */
  readonly agent: AgentRef | null;
  /** The kid of a key event; `null` otherwise (`record-signed-by` carries only its hash: `kidHash`). */
  readonly kid: string | null;
  /** `keccak256(kid)` of a `record-signed-by`; `null` otherwise. */
  readonly kidHash: Hex | null;
  /** The packed record a `record-added` or `record-updated` stores; `null` otherwise. */
  readonly record: bigint | null;
  readonly block: BlockRef;
  readonly transactionHash: Hex;
  readonly logIndex: number;
}

/** A reorg the follower found: blocks it had processed are no longer on the chain. */
export interface Reorg {
  /** The last block both chains share. */
  readonly commonAncestor: bigint;
  /** How many processed blocks were dropped. */
  readonly depth: number;
  /** The changes the dropped blocks had carried (their agents must be checked again on the new chain). */
  readonly dropped: readonly OracleChange[];
}

/** What one poll of the follower found. */
export interface FollowStep {
  /** The chain's head when polled. */
  readonly head: bigint;
  /** The newest confirmed block now processed (`head - confirmations`); `null` when none is new. */
  readonly confirmed: BlockRef | null;
  /** The confirmed changes since the last step, in log order (after a reorg: those of the new chain). */
  readonly changes: readonly OracleChange[];
  /** A reorg found by this poll, or `null`. */
  readonly reorg: Reorg | null;
  /** Whether the follower has processed every confirmed block (a poll processes a bounded range). */
  readonly caughtUp: boolean;
}

/** Where the follower is: what the state file keeps so that a restart resumes with no block missed or read twice. */
export interface FollowerPosition {
  /** The last block processed; the next poll starts after it. */
  readonly last: BlockRef;
  /** Hashes of the most recent processed blocks (newest last), to find a reorg's common ancestor. */
  readonly recent: readonly { readonly number: bigint; readonly hash: Hex }[];
}

/** Why an agent is checked. */
export type CheckTrigger =
  | { readonly kind: "change"; readonly change: OracleChange }
  | { readonly kind: "reorg"; readonly reorg: Reorg }
  | { readonly kind: "audit" };

/** One agent checked: its drift row (the drift job's statuses and decision) and the problem it shows. */
export interface AgentCheck {
  readonly agent: AgentRef;
  readonly row: DriftRow;
  /** `problemOf(row)`: the problems the drift report's "since last night" counts; `null` when none. */
  readonly problem: DriftProblem | null;
  readonly trigger: CheckTrigger;
  /** The block the record was read at. */
  readonly blockNumber: bigint;
  /**
   * The signed `expiry` of the attestation the check fetched and verified (ISO-8601); `null` when it verified without
   * one, absent when no attestation verified (an alert's evidence: the attestation's signed times).
   */
  readonly attestationExpiresAt?: string | null;
}

/** The oracle's write cadence: when the next write is due after the last one. */
export type WriteCadence =
  /** A write every day at this time of day (UTC), with a grace period (`--expect-write "03:00 UTC daily"`). */
  | { readonly kind: "daily"; readonly atSecondOfDayUtc: number; readonly graceSeconds: number }
  /** At most this long between writes (`--max-silence 26h`). */
  | { readonly kind: "max-silence"; readonly seconds: number };

/**
 * What an alert is about:
 *
 * - `pass-to-fail`, `fail-to-pass`, `invalid-attestation`: an agent's problem, as the drift report's "since last night"
 *   counts them (`problemOf`);
 * - `oracle-silent`: no write from the oracle within its cadence (keyed on the oracle's own times);
 * - `record-stale`: a record older than `--max-age` (the drift job's `stale-onchain`);
 * - `service-unhealthy`: the service does not answer, its JWKS cannot be read, or lacks an accepted kid;
 * - `signing-key-revoked`: the attested oracle revoked a key.
 */
export type AlertKind = DriftProblem | "oracle-silent" | "record-stale" | "service-unhealthy" | "signing-key-revoked";

/** Where an alert's facts come from. */
export interface AlertEvidence {
  /** The block the facts were read at. */
  readonly blockNumber: string | null;
  /** The transaction that wrote the record, when a change triggered the check. */
  readonly transactionHash: Hex | null;
  /** The signed attestation's kid, and its signed times (ISO-8601). */
  readonly kid: string | null;
  readonly issuedAt: string | null;
  readonly expiresAt: string | null;
  /** The oracle's own time of the record (ISO-8601), or of its last write for `oracle-silent`. */
  readonly recordUpdatedAt: string | null;
  /** Free-form facts of the kind (the silence's deadline, the service's failure), one line each. */
  readonly details: readonly string[];
}

/** A problem the watch sees now. Raised again while it persists; the alert book deduplicates by `id`. */
export interface Condition {
  readonly kind: AlertKind;
  /**
   * The identity of the problem: the same persisting problem has the same id, run after run (an agent's problem:
   * `<kind>:<agentKey>`, as "since last night" identifies it; the oracle's silence: `oracle-silent:<oracle>`).
   */
  readonly id: string;
  /** The agent (`formatAgentRef`), or `null` for the oracle's and the service's conditions. */
  readonly agent: string | null;
  /** One line a person reads. */
  readonly summary: string;
  /** The on-chain record (before) and the signed attestation (after), when an agent's row had them. */
  readonly before: OnchainSide | null;
  readonly after: AttestedSide | null;
  /** The gate's decision on each side, when known. */
  readonly decision: { readonly onchain: boolean | null; readonly attested: boolean | null } | null;
  readonly evidence: AlertEvidence;
}

/** What a message says of its condition. */
export type AlertState = "firing" | "reminder" | "resolved";

/** One alert to deliver: a condition, its state, and when it began. */
export interface AlertMessage extends Condition {
  readonly state: AlertState;
  /** When the condition was first raised (ISO-8601). */
  readonly since: string;
  /** When this message was made (ISO-8601). */
  readonly at: string;
  /** A link or path to the night's drift report, when configured (`--report-link`). */
  readonly report: string | null;
}

/** A condition the alert book holds as outstanding (raised, not yet resolved): what the state file keeps of it. */
export interface OutstandingAlert {
  readonly condition: Condition;
  /** When it was first raised (ISO-8601). */
  readonly since: string;
  /** When its last message (firing or reminder) was made (ISO-8601). */
  readonly lastSentAt: string;
}

/** The result of delivering one message. */
export type DeliveryResult =
  | { readonly delivered: true; readonly attempts: number }
  | { readonly delivered: false; readonly attempts: number; readonly reason: string; readonly deadLettered: boolean };
