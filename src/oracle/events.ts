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
   * Most blocks per `eth_getLogs` request (default 10,000, a common node limit). A request the node refuses, or
   * whose answer is too large, is split in halves until it passes.
   */
  readonly blockRange?: number;
  /**
   * About how many logs one request should bring (default 2,000): the range starts at one block and follows the
   * density of the events seen so far — twice as wide after an answer with none, narrower after a crowded one —
   * within `blockRange`, so that a node without a limit on its answers (a local node holding a bulk publish of
   * 150,000 records) never sends them all in one answer that would have to be held whole.
   */
  readonly targetLogs?: number;
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
  const maxStep = BigInt(Math.max(1, options.blockRange ?? 10_000));
  const targetLogs = BigInt(Math.max(1, Math.floor(options.targetLogs ?? 2_000)));
  // Keyed by the record key as a number: compact, and not the string viem decoded it as, which a long replay would
  // otherwise hold once per record (150,000 records: tens of megabytes).
  const held = new Map<bigint, TrustRecordKey>();
  const logsBetween = (from: bigint, to: bigint) =>
    getLogs(client, { address: oracle, events: [recordAdded, recordRemoved], fromBlock: from, toBlock: to });
  /** Replays the logs of `[from, to]` (in halves when the node refuses); returns how many there were. */
  const replay = async (from: bigint, to: bigint): Promise<number> => {
    let logs: Awaited<ReturnType<typeof logsBetween>>;
    try {
      logs = await logsBetween(from, to);
    } catch (error) {
      if (from === to) throw error;
      const middle = from + (to - from) / 2n;
      return (await replay(from, middle)) + (await replay(middle + 1n, to));
    }
    for (const log of logs) {
      const { key, agentId, chainId, registry } = log.args as { key: string; agentId: bigint; chainId: bigint; registry: string };
      if (log.eventName === "RecordAdded") held.set(BigInt(key), { agentId, chainId: Number(chainId), registry });
      else held.delete(BigInt(key));
    }
    return logs.length;
  };
  let step = 1n;
  for (let from = options.fromBlock ?? 0n; from <= toBlock;) {
    const to = from + step - 1n < toBlock ? from + step - 1n : toBlock;
    const found = BigInt(await replay(from, to));
    const span = to - from + 1n;
    from = to + 1n;
    // The next range: about `targetLogs` at the density just seen, at most twice as wide, within 1..maxStep.
    const wanted = found === 0n ? span * 2n : (span * targetLogs) / found;
    step = [wanted, span * 2n, maxStep].reduce((a, b) => (b < a ? b : a));
    if (step < 1n) step = 1n;
  }
  return [...held.values()];
}
