/**
 * The typed result of reading one oracle record, and how each outcome of a read (an answer, a revert, a failed
 * request) becomes one.
 *
 * @packageDocumentation
 */
import type { Abi, Address, Hex } from "viem";
import { OracleReadError } from "../errors.js";
import type { TrustRecord } from "../trust-record.js";
import { decodeScoreAnswer, describeRevert } from "./decode.js";
import { formatRecordKey, type TrustRecordKey } from "./record-key.js";
import { failureWithCause } from "../util/network-cause.js";

/** What every result carries, whether the read succeeded or not. */
export interface TrustRecordResultBase {
  /** The record's key. */
  readonly key: TrustRecordKey;
  /** The oracle that was read. */
  readonly oracle: Address;
  /** The block the record was read at; `undefined` when read at a block tag without pinning a number. */
  readonly blockNumber: bigint | undefined;
}

/**
 * A record read successfully (which includes "the oracle holds no record for this key": `hasScore` false, every
 * value 0). It is a {@link TrustRecord}, so `evaluateTrustPolicy` takes it as it is.
 */
export interface TrustRecordRead extends TrustRecordResultBase, TrustRecord {
  readonly ok: true;
  /** Whether the oracle holds a record (`updatedAt != 0`). */
  readonly hasScore: boolean;
}

/** A record that could not be read; `error` says why. */
export interface TrustRecordReadFailure extends TrustRecordResultBase {
  readonly ok: false;
  /** Why the read failed (code `ORACLE_READ_FAILED`). */
  readonly error: OracleReadError;
}

/** The outcome of reading one record. */
export type TrustRecordResult = TrustRecordRead | TrustRecordReadFailure;

/** What turning an outcome into a result needs besides the key and oracle. */
export interface RecordContext {
  /** Errors used to name revert reasons. */
  readonly errorsAbi: Abi;
  /** The block read at, if pinned. */
  readonly blockNumber: bigint | undefined;
}

/**
 * The result for a `getScore` call that returned `data`.
 *
 * @param key - The record's key.
 * @param oracle - The oracle called.
 * @param data - The raw answer.
 * @param context - Errors abi and block.
 * @returns A successful read, or a failure when the answer is empty (`no-data`) or malformed.
 */
export function resultFromAnswer(key: TrustRecordKey, oracle: Address, data: Hex, context: RecordContext): TrustRecordResult {
  if (data === "0x") {
    return failure(key, oracle, context, {
      failure: "no-data",
      reason: "the call returned no data",
      details: `Is there a contract at ${oracle} on this chain? A call to an address without code succeeds and returns nothing.`,
    });
  }
  const answer = decodeScoreAnswer(data);
  if ("malformed" in answer) {
    return failure(key, oracle, context, { failure: "malformed", reason: `malformed answer: ${answer.malformed}`, data });
  }
  return {
    ok: true,
    key,
    oracle,
    blockNumber: context.blockNumber,
    hasScore: answer.updatedAt !== 0,
    score: answer.score,
    tier: answer.tier,
    sybilSeverity: answer.sybilSeverity,
    updatedAt: answer.updatedAt,
  };
}

/**
 * The result for a `getScore` call that reverted with `revertData`.
 *
 * @param key - The record's key.
 * @param oracle - The oracle called.
 * @param revertData - The revert data (`0x` when none).
 * @param context - Errors abi and block.
 * @returns A failure whose error names the revert reason.
 */
export function resultFromRevert(key: TrustRecordKey, oracle: Address, revertData: Hex, context: RecordContext): TrustRecordReadFailure {
  const reason = describeRevert(revertData, context.errorsAbi);
  return failure(key, oracle, context, { failure: "reverted", reason: `reverted: ${reason}`, revertReason: reason, data: revertData });
}

/**
 * The result for a record whose request failed as a whole (RPC error, timeout, no Multicall3…).
 *
 * @param key - The record's key.
 * @param oracle - The oracle that was to be called.
 * @param what - What failed, for the message (for example `Multicall3 batch 2 of 5 (500 records)`).
 * @param cause - The underlying error.
 * @param context - Block.
 * @returns A failure carrying `cause`.
 */
export function resultFromRequestFailure(
  key: TrustRecordKey,
  oracle: Address,
  what: string,
  cause: unknown,
  context: RecordContext,
): TrustRecordReadFailure {
  return failure(key, oracle, context, {
    failure: "request-failed",
    reason: `${what} failed: ${failureWithCause(cause)}`,
    cause,
  });
}

function failure(
  key: TrustRecordKey,
  oracle: Address,
  context: RecordContext,
  params: {
    failure: OracleReadError["failure"];
    reason: string;
    revertReason?: string;
    data?: Hex;
    details?: string;
    cause?: unknown;
  },
): TrustRecordReadFailure {
  const error = new OracleReadError(
    { oracle, failure: params.failure, revertData: params.data, reason: params.revertReason },
    `Reading ${formatRecordKey(key)} from the trust oracle failed: ${params.reason}`,
    {
      details: params.details,
      cause: params.cause,
      metaMessages: context.blockNumber === undefined ? [] : [`block: ${context.blockNumber}`],
    },
  );
  return { ok: false, key, oracle, blockNumber: context.blockNumber, error };
}
