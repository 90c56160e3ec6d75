/**
 * Reading a contract's logs over a long block range: ranges sized to the density of the events (so that a node
 * without a limit on its answers never sends a bulk publish in one answer), split in halves when the node refuses a
 * range. What the oracle's event readers share.
 *
 * @packageDocumentation
 */
import type { AbiEvent, Address, BlockNumber, GetLogsReturnType } from "viem";
import { getBlockNumber, getLogs } from "viem/actions";
import type { AnyClient } from "./client.js";

/** The block range and request size of a log scan. */
export interface LogScanOptions {
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

/**
 * Calls `onLogs` with the logs of `events` emitted by `address`, range by range in block order.
 *
 * @param client - A viem client of the chain.
 * @param address - The contract.
 * @param events - The ABI items of the events to read.
 * @param onLogs - Receives each range's logs, in block and log order.
 * @param options - Block range and request size.
 * @throws The node's error for a single block it refuses.
 */
export async function scanLogs<const events extends readonly AbiEvent[]>(
  client: AnyClient,
  address: Address,
  events: events,
  onLogs: (logs: GetLogsReturnType<undefined, events>) => void,
  options: LogScanOptions = {},
): Promise<void> {
  const toBlock = options.toBlock ?? (await getBlockNumber(client));
  const maxStep = BigInt(Math.max(1, options.blockRange ?? 10_000));
  const targetLogs = BigInt(Math.max(1, Math.floor(options.targetLogs ?? 2_000)));
  /** Reads the logs of `[from, to]` (in halves when the node refuses); returns how many there were. */
  const read = async (from: bigint, to: bigint): Promise<number> => {
    let logs: GetLogsReturnType<undefined, events>;
    try {
      logs = (await getLogs(client, { address, events, fromBlock: from, toBlock: to })) as GetLogsReturnType<undefined, events>;
    } catch (error) {
      if (from === to) throw error;
      const middle = from + (to - from) / 2n;
      return (await read(from, middle)) + (await read(middle + 1n, to));
    }
    onLogs(logs);
    return logs.length;
  };
  let step = 1n;
  for (let from = options.fromBlock ?? 0n; from <= toBlock;) {
    const to = from + step - 1n < toBlock ? from + step - 1n : toBlock;
    const found = BigInt(await read(from, to));
    const span = to - from + 1n;
    from = to + 1n;
    // The next range: about `targetLogs` at the density just seen, at most twice as wide, within 1..maxStep.
    const wanted = found === 0n ? span * 2n : (span * targetLogs) / found;
    step = [wanted, span * 2n, maxStep].reduce((a, b) => (b < a ? b : a));
    if (step < 1n) step = 1n;
  }
}
