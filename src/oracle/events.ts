/**
 * Enumerating the records an oracle holds from its events. The reference oracle (`TrustScoreOracle`) announces
 * each key with `RecordAdded` and its removal with `RecordRemoved`; replaying them gives the set of keys held.
 * An oracle that emits other events (the live one's events are not published) simply yields no keys.
 *
 * @packageDocumentation
 */
import { type Address, type BlockNumber, getAbiItem } from "viem";
import { getBlockNumber, getLogs } from "viem/actions";
import { trustScoreOracleAbi } from "./abi.js";
import type { AnyClient } from "./client.js";
import type { TrustRecordKey } from "./record-key.js";

/** Options of {@link listOracleKeys}. */
export interface ListOracleKeysOptions {
  /** First block to scan (default 0). */
  readonly fromBlock?: BlockNumber;
  /** Last block to scan (default the latest). */
  readonly toBlock?: BlockNumber;
  /**
   * Blocks per `eth_getLogs` request (default 10,000, a common node limit). A request the node refuses, or
   * whose answer is too large, is split in halves until it passes.
   */
  readonly blockRange?: number;
}

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
  const toBlock = options.toBlock ?? (await getBlockNumber(client));
  const step = BigInt(Math.max(1, options.blockRange ?? 10_000));
  const held = new Map<string, TrustRecordKey>();
  const logsBetween = (from: bigint, to: bigint) =>
    getLogs(client, { address: oracle, events: [recordAdded, recordRemoved], fromBlock: from, toBlock: to });
  const replay = async (from: bigint, to: bigint): Promise<void> => {
    let logs: Awaited<ReturnType<typeof logsBetween>>;
    try {
      logs = await logsBetween(from, to);
    } catch (error) {
      if (from === to) throw error;
      const middle = from + (to - from) / 2n;
      await replay(from, middle);
      await replay(middle + 1n, to);
      return;
    }
    for (const log of logs) {
      const { key, agentId, chainId, registry } = log.args as { key: string; agentId: bigint; chainId: bigint; registry: string };
      if (log.eventName === "RecordAdded") held.set(key, { agentId, chainId: Number(chainId), registry });
      else held.delete(key);
    }
  };
  for (let from = options.fromBlock ?? 0n; from <= toBlock; from += step) {
    await replay(from, from + step - 1n < toBlock ? from + step - 1n : toBlock);
  }
  return [...held.values()];
}
