/**
 * Enumerating the records an oracle holds from its events. The reference oracle (`TrustScoreOracle`) announces
 * each key with `RecordAdded` and its removal with `RecordRemoved`; replaying them gives the set of keys held.
 * An oracle that emits other events (the live one's events are not published) simply yields no keys.
 *
 * @packageDocumentation
 */
import { type Address, getAbiItem } from "viem";
import { trustScoreOracleAbi } from "./abi.js";
import type { AnyClient } from "./client.js";
import { type LogScanOptions, scanLogs } from "./log-scan.js";
import type { TrustRecordKey } from "./record-key.js";

/** Options of {@link listOracleKeys}: the block range and request size of the scan. */
export type ListOracleKeysOptions = LogScanOptions;

const recordAdded = getAbiItem({ abi: trustScoreOracleAbi, name: "RecordAdded" });
const recordRemoved = getAbiItem({ abi: trustScoreOracleAbi, name: "RecordRemoved" });

/**
 * The keys an oracle holds, by replaying its `RecordAdded` / `RecordRemoved` events in block order.
 *
 * @param client - A viem client of the oracle's chain.
 * @param oracle - The oracle address.
 * @param options - Block range and request size.
 * @returns The keys held at `toBlock`, in order of first appearance.
 */
export async function listOracleKeys(client: AnyClient, oracle: Address, options: ListOracleKeysOptions = {}): Promise<TrustRecordKey[]> {
  // Keyed by the record key as a number: compact, and not the string viem decoded it as, which a long replay would
  // otherwise hold once per record (150,000 records: tens of megabytes).
  const held = new Map<bigint, TrustRecordKey>();
  await scanLogs(
    client,
    oracle,
    [recordAdded, recordRemoved],
    (logs) => {
      for (const log of logs) {
        const { key, agentId, chainId, registry } = log.args as { key: string; agentId: bigint; chainId: bigint; registry: string };
        if (log.eventName === "RecordAdded") held.set(BigInt(key), { agentId, chainId: Number(chainId), registry });
        else held.delete(BigInt(key));
      }
    },
    options,
  );
  return [...held.values()];
}
