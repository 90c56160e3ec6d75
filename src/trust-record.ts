/**
 * The one record type of the kit: an oracle record as `getScore` returns it and `TrustGated` stores and evaluates
 * it (the Solidity struct `TrustRecord`). The reader returns it (`readTrustRecord`), the policy evaluates it
 * (`evaluateTrustPolicy`) and the drift job compares it. Tier and sybil severity are the on-chain codes, the time
 * is Unix seconds, because those are what a gate compares; the named converters give a name (`tierName`,
 * `sybilSeverityName` in `config/encodings.ts`) or a `Date` ({@link updatedAtDate}) where one is wanted, and back
 * (`tierCode`, `sybilSeverityCode`, {@link unixSeconds}).
 *
 * @packageDocumentation
 */

/** An oracle record: what `getScore(agentId, chainId, registry)` returns for one agent. */
export interface TrustRecord {
  /** Score as stored (0 when the oracle holds no record). */
  readonly score: number;
  /** Tier code as stored; `tierName(record.tier, encoding)` names it. */
  readonly tier: number;
  /** Sybil severity code as stored; `sybilSeverityName(record.sybilSeverity, encoding)` names it. */
  readonly sybilSeverity: number;
  /** When the record was written, in Unix seconds; 0 when the oracle holds no record ({@link updatedAtDate}). */
  readonly updatedAt: number;
}

/**
 * When a record was written, as a `Date`.
 *
 * @param record - The record (or anything with its `updatedAt`).
 * @returns The time of `updatedAt`, or `null` when it is 0 (the oracle holds no record).
 *
 * @example
 * ```ts
 * import { updatedAtDate } from "trustgate";
 *
 * console.log(updatedAtDate({ updatedAt: 1_767_225_600 })?.toISOString()); // "2026-01-01T00:00:00.000Z"
 * console.log(updatedAtDate({ updatedAt: 0 })); // null: no record
 * ```
 */
export function updatedAtDate(record: Pick<TrustRecord, "updatedAt">): Date | null {
  return record.updatedAt === 0 ? null : new Date(record.updatedAt * 1000);
}

/**
 * A time in whole Unix seconds, as the chain stores it (`updatedAt`) and the policy compares it (`now`).
 *
 * @param time - The time.
 * @returns Its Unix time in seconds, rounded down.
 */
export function unixSeconds(time: Date): number {
  return Math.floor(time.getTime() / 1000);
}
