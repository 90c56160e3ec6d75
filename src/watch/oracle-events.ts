/**
 * The oracle events the watch follows, and their decoding into {@link OracleChange}s: the reference oracle's (and the
 * Base oracle's) `RecordAdded`, `RecordUpdated`, `RecordRemoved`; the attested oracle's `RecordAdded`,
 * `RecordUpdated`, `RecordSignedBy`, `SigningKeySet`, `SigningKeyRevoked`. A log is read generously (any case of hex)
 * and trusted strictly: one whose fields do not decode as its event is refused with the reason, never passed on half.
 *
 * @packageDocumentation
 */
import { type Address, getAbiItem, getAddress, type Hex } from "viem";
import { attestedTrustOracleAbi, trustScoreOracleAbi } from "../oracle/abi.js";
import { agentOfRecordEvent, isRecordKey, type RecordKeyMap } from "./record-keys.js";
import type { BlockRef, OracleChange, OracleChangeKind } from "./types.js";

/** The reference oracle's followed events. */
export const ORACLE_EVENTS = [
  getAbiItem({ abi: trustScoreOracleAbi, name: "RecordAdded" }),
  getAbiItem({ abi: trustScoreOracleAbi, name: "RecordUpdated" }),
  getAbiItem({ abi: trustScoreOracleAbi, name: "RecordRemoved" }),
] as const;

/** The attested oracle's followed events. */
export const ATTESTED_ORACLE_EVENTS = [
  getAbiItem({ abi: attestedTrustOracleAbi, name: "RecordAdded" }),
  getAbiItem({ abi: attestedTrustOracleAbi, name: "RecordUpdated" }),
  getAbiItem({ abi: attestedTrustOracleAbi, name: "RecordSignedBy" }),
  getAbiItem({ abi: attestedTrustOracleAbi, name: "SigningKeySet" }),
  getAbiItem({ abi: attestedTrustOracleAbi, name: "SigningKeyRevoked" }),
] as const;

const KIND_OF_EVENT: Readonly<Record<string, OracleChangeKind>> = {
  RecordAdded: "record-added",
  RecordUpdated: "record-updated",
  RecordRemoved: "record-removed",
  RecordSignedBy: "record-signed-by",
  SigningKeySet: "signing-key-set",
  SigningKeyRevoked: "signing-key-revoked",
};

/** A log as viem's `getLogs` hands it, decoded or not. */
export interface OracleLog {
  readonly address: Address;
  readonly blockNumber: bigint | null;
  readonly blockHash: Hex | null;
  readonly transactionHash: Hex | null;
  readonly logIndex: number | null;
  readonly eventName?: string;
  readonly args?: unknown;
}

/**
 * Orders logs as the chain did: by block, then by index in the block.
 *
 * @param a - A log.
 * @param b - Another.
 * @returns Negative when `a` comes first.
 */
export function compareLogOrder(a: OracleLog, b: OracleLog): number {
  const [x, y] = [a.blockNumber ?? -1n, b.blockNumber ?? -1n];
  return x < y ? -1 : x > y ? 1 : (a.logIndex ?? -1) - (b.logIndex ?? -1);
}

/**
 * Decodes a followed event. A `RecordAdded` or `RecordRemoved` teaches `keys` its key's agent; a `RecordUpdated` or
 * `RecordSignedBy` is named from it (`agent: null` when the key is unknown).
 *
 * @param log - The log.
 * @param block - Its block, as read.
 * @param keys - The record keys known.
 * @returns The change, or why the log does not decode (one line).
 */
export function decodeOracleChange(log: OracleLog, block: BlockRef, keys: RecordKeyMap): OracleChange | { readonly problem: string } {
  const kind = log.eventName === undefined ? undefined : KIND_OF_EVENT[log.eventName];
  const args = (log.args ?? {}) as {
    key?: unknown;
    agentId?: unknown;
    chainId?: unknown;
    registry?: unknown;
    record?: unknown;
    kid?: unknown;
  };
  const malformed = (what: string) => ({
    problem: `the log ${log.logIndex} of block ${block.number} from ${log.address} does not decode as ${log.eventName ?? "a followed event"}: ${what}`,
  });
  if (kind === undefined) return malformed("not a followed event");
  if (log.transactionHash === null || log.logIndex === null) return malformed("no transaction or log index");
  const keyed = kind !== "signing-key-set" && kind !== "signing-key-revoked";
  const key = keyed ? args.key : null;
  if (keyed && !isRecordKey(key)) return malformed("no record key");
  let agent = null;
  if (kind === "record-added" || kind === "record-removed") {
    const { agentId, chainId, registry } = args;
    if (typeof agentId !== "bigint" || typeof chainId !== "bigint" || typeof registry !== "string") return malformed("no agent");
    agent = keys.learn(key as Hex, agentOfRecordEvent(agentId, chainId, registry));
  } else if (keyed) {
    agent = keys.agentOf(key as Hex);
  }
  if ((kind === "record-updated" || kind === "record-added") && typeof args.record !== "bigint") return malformed("no record");
  if ((kind === "record-signed-by" || !keyed) && typeof args.kid !== "string") return malformed("no key id");
  return {
    kind,
    contract: getAddress(log.address),
    key: keyed ? ((key as Hex).toLowerCase() as Hex) : null,
    agent,
    kid: keyed ? null : (args.kid as string),
    kidHash: kind === "record-signed-by" ? ((args.kid as string).toLowerCase() as Hex) : null,
    record: kind === "record-updated" || kind === "record-added" ? (args.record as bigint) : null,
    block,
    transactionHash: log.transactionHash,
    logIndex: log.logIndex,
  };
}
