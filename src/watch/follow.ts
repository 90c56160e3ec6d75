/**
 * Following the chain for `trustgate watch`: each poll reads the head, makes sure the last block it processed is still
 * on the chain (else it walks back to the common ancestor: a reorg, with the changes the dropped blocks had carried),
 * then processes the confirmed blocks after it, a bounded range at a time, and reports the oracle's (and the attested
 * oracle's) events in them as {@link OracleChange}s, in log order.
 *
 * What it keeps, so that memory stays flat however long it runs:
 *
 * - the most recent processed blocks it read (number, hash, time and the changes they carried), at most
 *   `recentDepth` of them: what a reorg is checked against and what it reports as dropped;
 * - the map of record keys to agents (`record-keys.ts`: one entry per record key named, bounded by the population, not
 *   by time), so that `RecordUpdated` and `RecordSignedBy`, which carry only the key, name their agent.
 *
 * Headers read: the last block of each poll's range, every block a change is in (its hash and time go with the
 * change), and every block within `recentDepth` of the confirmed tip, so that the kept hashes are contiguous where
 * reorgs happen; the first poll also reads the block before the first one it processes (the common ancestor, should
 * that one be dropped). A catch-up far behind the head reads only the last block and the blocks with changes.
 *
 * A reorg's common ancestor is the newest kept block still on the chain: the exact fork point near the tip, where the
 * kept blocks are contiguous; a lower bound where a catch-up kept only some blocks (every block after it is processed
 * again, so nothing is missed). A reorg deeper than the blocks kept is an error (the follower cannot say which changes
 * it reported were undone): every poll rejects with it, position unchanged, until the watch is restarted from a block
 * before the fork.
 *
 * A saved position keeps the recent blocks' hashes only: a follower resumed from it reads their changes again at
 * creation (one log range, the kept blocks'), so that a reorg dropping them still reports what they carried. Blocks a
 * reorg dropped while the watch was down are gone before it can read them: that reorg reports its common ancestor and
 * depth, and no dropped changes.
 *
 * @packageDocumentation
 */
import { type Address, getAddress, type Hex } from "viem";
import { getBlock, getBlockNumber } from "viem/actions";
import type { AgentRef } from "../agent/agent-ref.js";
import { InvalidArgumentError, OracleReadError } from "../errors.js";
import type { AnyClient } from "../oracle/client.js";
import { scanLogs } from "../oracle/log-scan.js";
import { redactUrl, redactUrlsIn } from "../security/redact-url.js";
import { failureWithCause } from "../util/network-cause.js";
import { ATTESTED_ORACLE_EVENTS, compareLogOrder, decodeOracleChange, ORACLE_EVENTS, type OracleLog } from "./oracle-events.js";
import { agentOfRecordEvent, createRecordKeyMap } from "./record-keys.js";
import type { BlockRef, FollowerPosition, FollowStep, OracleChange, Reorg } from "./types.js";

/** Blocks per poll by default (one `eth_getLogs` range at most, per contract). */
export const DEFAULT_FOLLOW_BLOCK_RANGE = 2_000n;

/** Processed blocks kept for reorgs by default. */
export const DEFAULT_FOLLOW_RECENT_DEPTH = 128;

/** Headers read at once. */
const HEADER_CONCURRENCY = 8;

/** What {@link createChainFollower} takes. */
export interface ChainFollowerParameters {
  /** A viem client of the oracle's chain. */
  readonly client: AnyClient;
  /** The reference oracle (or the Base oracle): its `RecordAdded`, `RecordUpdated` and `RecordRemoved`. */
  readonly oracle: Address;
  /** An `AttestedTrustOracle`, also followed when given: its record, attestation and signing-key events. */
  readonly attestedOracle?: Address;
  /** Blocks on top of a block before it is processed: a block is processed once `head - number >= confirmations`. */
  readonly confirmations: number;
  /** Resume after a saved position, or start at a block (the first one processed). */
  readonly start: FollowerPosition | { readonly fromBlock: bigint };
  /** Replay `RecordAdded` from this block, at creation, up to the block before the first one processed, to learn keys. */
  readonly keysFromBlock?: bigint;
  /** Keys known otherwise (computed from the listing, say). */
  readonly keys?: Iterable<readonly [Hex, AgentRef]>;
  /** Most blocks one poll processes (and so one `eth_getLogs` range); default {@link DEFAULT_FOLLOW_BLOCK_RANGE}. */
  readonly maxBlockRange?: bigint;
  /** Processed blocks whose hash and changes are kept for reorgs; default {@link DEFAULT_FOLLOW_RECENT_DEPTH}. */
  readonly recentDepth?: number;
  /** Stops the reads at creation (the key replay, a saved position's kept blocks), and every poll. */
  readonly signal?: AbortSignal;
  /**
   * The endpoint named in errors (redacted); default the client's HTTP URL, or its transport's name. Give it when the
   * client's transport does not carry the URL (a custom or fallback transport).
   */
  readonly endpoint?: string;
}

/** A follower of the chain: see the module notes. */
export interface ChainFollower {
  /**
   * Reads the head, checks for a reorg, and processes the next confirmed blocks (at most `maxBlockRange`).
   *
   * @param signal - Stops the poll (rejecting with the signal's reason); the position is then unchanged.
   * @returns What the poll found.
   * @throws {@link OracleReadError} naming the endpoint and the cause when the node fails or answers a block it just
   *   answered otherwise twice in a row, or when a reorg is deeper than the blocks kept; the position is unchanged, so
   *   the next poll tries the same range again.
   */
  poll(signal?: AbortSignal): Promise<FollowStep>;
  /** Where the follower is (a copy), or `null` until a block was processed (when started at a block). */
  position(): FollowerPosition | null;
  /**
   * The agent of a record key, as an event or {@link ChainFollower.learn} named it.
   *
   * @param key - The record key.
   * @returns The agent, or `null` when none named it.
   */
  agentOf(key: Hex): AgentRef | null;
  /**
   * Learns a record key's agent named otherwise (the listing, the audit).
   *
   * @param key - The record key, `keccak256(abi.encodePacked(agentId, chainId, registry))`.
   * @param agent - Its agent.
   * @throws {@link InvalidArgumentError} when `key` is not a 32-byte hex value.
   */
  learn(key: Hex, agent: AgentRef): void;
}

/** A processed block kept for reorgs. `changes` is empty for the blocks restored from a saved position. */
interface KeptBlock extends BlockRef {
  readonly changes: readonly OracleChange[];
}

/** A header as read. */
interface Header extends BlockRef {
  readonly parentHash: Hex;
}

/** The chain answered one block two ways within a poll. */
class ChainMovedError extends Error {}

/**
 * Creates a chain follower; with `keysFromBlock`, first replays the oracles' `RecordAdded` events up to the block
 * before the first one it will process, to learn the agents of the keys written before; resuming a saved position,
 * reads the changes of its kept blocks again.
 *
 * @param parameters - The client, the oracles, the confirmations, where to start, the keys known.
 * @returns The follower.
 * @throws {@link InvalidArgumentError} for a negative confirmation count, block range or depth, or a saved position
 *   whose recent blocks are not in order before its last; {@link OracleReadError} naming the endpoint when the key
 *   replay, or the read of a saved position's kept blocks, fails.
 */
export async function createChainFollower(parameters: ChainFollowerParameters): Promise<ChainFollower> {
  const { client } = parameters;
  const oracle = getAddress(parameters.oracle);
  const attestedOracle = parameters.attestedOracle === undefined ? undefined : getAddress(parameters.attestedOracle);
  const confirmations = parameters.confirmations;
  if (!Number.isSafeInteger(confirmations) || confirmations < 0) {
    throw new InvalidArgumentError(`confirmations must be a whole number of blocks, 0 or more, got ${confirmations}`);
  }
  const maxBlockRange = parameters.maxBlockRange ?? DEFAULT_FOLLOW_BLOCK_RANGE;
  if (maxBlockRange < 1n) throw new InvalidArgumentError(`maxBlockRange must be at least 1 block, got ${maxBlockRange}`);
  const recentDepth = parameters.recentDepth ?? DEFAULT_FOLLOW_RECENT_DEPTH;
  if (!Number.isSafeInteger(recentDepth) || recentDepth < 1) {
    throw new InvalidArgumentError(`recentDepth must be a whole number of blocks, 1 or more, got ${recentDepth}`);
  }
  const endpoint = endpointOf(client, parameters.endpoint);
  const keys = createRecordKeyMap();
  for (const [key, agent] of parameters.keys ?? []) keys.learn(key, agent);

  let recent: KeptBlock[] = [];
  let first: bigint;
  if ("fromBlock" in parameters.start) {
    first = parameters.start.fromBlock;
    if (first < 0n) throw new InvalidArgumentError(`fromBlock must not be negative, got ${first}`);
  } else {
    recent = restoredBlocks(parameters.start, recentDepth);
    first = parameters.start.last.number + 1n;
  }

  const failed = (what: string, error: unknown): OracleReadError =>
    new OracleReadError(
      { oracle, failure: "request-failed" },
      `Following the oracle ${oracle} at ${endpoint} failed: ${what}: ${redactUrlsIn(failureWithCause(error))}`,
      { cause: error },
    );

  if (parameters.keysFromBlock !== undefined && parameters.keysFromBlock < first) {
    const range = { fromBlock: parameters.keysFromBlock, toBlock: first - 1n, blockRange: Number(maxBlockRange) };
    try {
      for (const contract of attestedOracle === undefined ? [oracle] : [oracle, attestedOracle]) {
        parameters.signal?.throwIfAborted();
        await scanLogs(
          client,
          contract,
          [ORACLE_EVENTS[0]],
          (logs) => {
            for (const log of logs) {
              const { key, agentId, chainId, registry } = log.args as { key?: Hex; agentId?: bigint; chainId?: bigint; registry?: string };
              if (key === undefined || agentId === undefined || chainId === undefined || typeof registry !== "string") continue;
              keys.learn(key, agentOfRecordEvent(agentId, chainId, registry));
            }
          },
          range,
        );
      }
    } catch (error) {
      if (parameters.signal?.aborted) throw error;
      throw failed(`replaying RecordAdded from block ${parameters.keysFromBlock} to ${first - 1n}`, error);
    }
  }

  /** The chain's block at a number, or `null` when the chain has none there (yet, or after a reorg). */
  const readHeader = async (number: bigint): Promise<Header | null> => {
    let block;
    try {
      block = await getBlock(client, { blockNumber: number, includeTransactions: false });
    } catch (error) {
      if ((error as { name?: unknown }).name === "BlockNotFoundError") return null;
      throw failed(`eth_getBlockByNumber(${number})`, error);
    }
    if (block.hash === null || block.number === null) return null;
    return { number: block.number, hash: block.hash, timestamp: Number(block.timestamp), parentHash: block.parentHash };
  };

  const readHeaders = async (numbers: readonly bigint[], stopIfAborted: () => void): Promise<Map<bigint, Header>> => {
    const headers = new Map<bigint, Header>();
    for (let i = 0; i < numbers.length; i += HEADER_CONCURRENCY) {
      stopIfAborted();
      const batch = numbers.slice(i, i + HEADER_CONCURRENCY);
      const read = await Promise.all(batch.map(readHeader));
      for (const [j, header] of read.entries()) {
        // A block the head covers that the node does not have: it moved under the poll.
        if (header === null) throw new ChainMovedError(`block ${batch[j]} is gone`);
        headers.set(header.number, header);
      }
    }
    return headers;
  };

  const readLogs = async (contract: Address, events: typeof ORACLE_EVENTS | typeof ATTESTED_ORACLE_EVENTS, from: bigint, to: bigint) => {
    const found: OracleLog[] = [];
    try {
      await scanLogs(
        client,
        contract,
        events,
        (logs) => {
          for (const log of logs as readonly OracleLog[]) found.push(log);
        },
        {
          fromBlock: from,
          toBlock: to,
          blockRange: Number(maxBlockRange),
        },
      );
    } catch (error) {
      throw failed(`eth_getLogs of ${contract} for blocks ${from}–${to}`, error);
    }
    return found;
  };

  const changeOf = (log: OracleLog, block: BlockRef): OracleChange => {
    const change = decodeOracleChange(log, block, keys);
    if (!("problem" in change)) return change;
    throw new OracleReadError({ oracle, failure: "malformed" }, `Following the oracle ${oracle} at ${endpoint} failed: ${change.problem}`);
  };

  /** The followed events of both contracts in `[from, to]`, in log order. */
  const readAllLogs = async (from: bigint, to: bigint, stopIfAborted: () => void): Promise<OracleLog[]> => {
    const logs = await readLogs(oracle, ORACLE_EVENTS, from, to);
    stopIfAborted();
    if (attestedOracle !== undefined) for (const log of await readLogs(attestedOracle, ATTESTED_ORACLE_EVENTS, from, to)) logs.push(log);
    stopIfAborted();
    return logs.sort(compareLogOrder);
  };

  const attempt = async (stopIfAborted: () => void): Promise<{ step: FollowStep; kept: KeptBlock[] }> => {
    let head: bigint;
    try {
      head = await getBlockNumber(client, { cacheTime: 0 });
    } catch (error) {
      throw failed("eth_blockNumber", error);
    }
    stopIfAborted();

    // Is the last processed block still the chain's? Else walk back to the newest kept block that is.
    let base = recent;
    let reorg: Reorg | null = null;
    const last = recent.at(-1);
    if (last !== undefined) {
      const now = await readHeader(last.number);
      if (now?.hash !== last.hash) {
        let ancestor = -1;
        let ancestorHeader: Header | null = null;
        for (let i = recent.length - 2; i >= 0; i--) {
          stopIfAborted();
          const header = await readHeader(recent[i]!.number);
          if (header?.hash === recent[i]!.hash) {
            ancestor = i;
            ancestorHeader = header;
            break;
          }
        }
        if (ancestor < 0) {
          throw new OracleReadError(
            { oracle, failure: "request-failed" },
            `Following the oracle ${oracle} at ${endpoint} failed: a reorg dropped every block the follower keeps (the last ${recent.length} processed, from block ${recent[0]!.number} to ${last.number}; recentDepth ${recentDepth}), so it cannot say which changes it reported were undone`,
            { details: "Restart the watch from a block before the fork (or keep more blocks with a larger recentDepth)" },
          );
        }
        const dropped = recent.slice(ancestor + 1);
        // A block restored from a saved position carries no time: the header just read gives it.
        base = [...recent.slice(0, ancestor), { ...recent[ancestor]!, timestamp: ancestorHeader!.timestamp }];
        reorg = {
          commonAncestor: recent[ancestor]!.number,
          depth: Number(last.number - recent[ancestor]!.number),
          dropped: dropped.flatMap((block) => block.changes),
        };
        // The dropped changes named their agents: keep knowing them (a key's agent does not depend on the chain).
        for (const change of reorg.dropped) if (change.key !== null && change.agent !== null) keys.learn(change.key, change.agent);
      }
    }

    const from = base.length > 0 ? base.at(-1)!.number + 1n : first;
    const tip = head - BigInt(confirmations);
    if (tip < from) {
      return { step: { head, confirmed: null, changes: [], reorg, caughtUp: true }, kept: base };
    }
    const to = from + maxBlockRange - 1n < tip ? from + maxBlockRange - 1n : tip;

    const logs = await readAllLogs(from, to, stopIfAborted);

    const wanted = new Set<bigint>([to]);
    // The first poll also keeps the block before the first one processed: the common ancestor of a reorg of that one.
    if (base.length === 0 && from > 0n) wanted.add(from - 1n);
    for (const log of logs) wanted.add(log.blockNumber!);
    const nearTip = tip - BigInt(recentDepth) + 1n;
    for (let n = nearTip > from ? nearTip : from; n <= to; n++) wanted.add(n);
    const numbers = [...wanted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const headers = await readHeaders(numbers, stopIfAborted);

    // The headers read must chain to each other and to the block before the range, and every log must be in them.
    const previous = base.at(-1);
    for (const header of headers.values()) {
      const parent = header.number - 1n === previous?.number ? previous : headers.get(header.number - 1n);
      if (parent !== undefined && parent.hash !== header.parentHash) throw new ChainMovedError(`block ${header.number}'s parent changed`);
    }
    const changesByBlock = new Map<bigint, OracleChange[]>();
    const changes: OracleChange[] = [];
    // One block reference per block, shared by its changes.
    const refs = new Map<bigint, BlockRef>();
    for (const log of logs) {
      const header = headers.get(log.blockNumber!)!;
      if (log.blockHash !== header.hash) throw new ChainMovedError(`block ${header.number} has a log of another hash`);
      let ref = refs.get(header.number);
      if (ref === undefined) refs.set(header.number, (ref = { number: header.number, hash: header.hash, timestamp: header.timestamp }));
      const change = changeOf(log, ref);
      changes.push(change);
      const inBlock = changesByBlock.get(header.number);
      if (inBlock === undefined) changesByBlock.set(header.number, [change]);
      else inBlock.push(change);
    }
    const added: KeptBlock[] = numbers.map((n) => {
      const { number, hash, timestamp } = headers.get(n)!;
      return { number, hash, timestamp, changes: changesByBlock.get(n) ?? [] };
    });
    const kept = [...base, ...added].slice(-recentDepth);
    const confirmed = kept.at(-1)!;
    return {
      step: {
        head,
        confirmed: { number: confirmed.number, hash: confirmed.hash, timestamp: confirmed.timestamp },
        changes,
        reorg,
        caughtUp: to === tip,
      },
      kept,
    };
  };

  // A saved position has its kept blocks' hashes, not their changes: read them again, so that a reorg dropping those
  // blocks reports what they carried. A block no longer the chain's gets none (the next poll finds the reorg).
  if (recent.length > 0) {
    const logs = await readAllLogs(recent[0]!.number, recent.at(-1)!.number, () => parameters.signal?.throwIfAborted());
    const kept = new Map(recent.map((block) => [block.number, block]));
    const recovered = new Map<bigint, { ref: BlockRef; changes: OracleChange[] }>();
    for (const log of logs) {
      const block = kept.get(log.blockNumber!);
      if (block === undefined || block.hash !== log.blockHash) continue;
      let found = recovered.get(block.number);
      if (found === undefined) {
        const header = await readHeader(block.number);
        if (header?.hash !== block.hash) continue;
        found = { ref: { number: header.number, hash: header.hash, timestamp: header.timestamp }, changes: [] };
        recovered.set(block.number, found);
      }
      found.changes.push(changeOf(log, found.ref));
    }
    recent = recent.map((block) => {
      const found = recovered.get(block.number);
      return found === undefined ? block : { ...found.ref, changes: found.changes };
    });
  }

  return {
    async poll(signal) {
      // Checked between reads (no combined signal: one made per poll would hang listeners on the long-lived one).
      const stopIfAborted = (): void => {
        parameters.signal?.throwIfAborted();
        signal?.throwIfAborted();
      };
      stopIfAborted();
      let result: { step: FollowStep; kept: KeptBlock[] } | undefined;
      for (let tries = 1; result === undefined; tries++) {
        try {
          result = await attempt(stopIfAborted);
        } catch (error) {
          if (!(error instanceof ChainMovedError)) throw error;
          if (tries >= 2) {
            throw new OracleReadError(
              { oracle, failure: "request-failed" },
              `Following the oracle ${oracle} at ${endpoint} failed: the chain moved under two polls in a row (${error.message})`,
              { details: "The node answered a block one way, then another within the same poll: the next poll tries again" },
            );
          }
        }
      }
      recent = result.kept;
      return result.step;
    },
    position() {
      const last = recent.at(-1);
      if (last === undefined) return null;
      return {
        last: { number: last.number, hash: last.hash, timestamp: last.timestamp },
        recent: recent.map(({ number, hash }) => ({ number, hash })),
      };
    },
    agentOf(key) {
      return keys.agentOf(key);
    },
    learn(key, agent) {
      keys.learn(key, agent);
    },
  };
}

/** The kept blocks of a saved position: its recent blocks (in order, before its last) and its last, at most `depth`. */
function restoredBlocks(position: FollowerPosition, depth: number): KeptBlock[] {
  const { last } = position;
  const blocks: KeptBlock[] = [];
  for (const block of position.recent) {
    if (block.number >= last.number) {
      if (block.number === last.number && block.hash === last.hash) continue;
      throw new InvalidArgumentError(`the saved position's recent block ${block.number} is not before its last block ${last.number}`);
    }
    if (blocks.length > 0 && block.number <= blocks.at(-1)!.number) {
      throw new InvalidArgumentError(
        `the saved position's recent blocks are not in order (${blocks.at(-1)!.number}, then ${block.number})`,
      );
    }
    // A restored block's time is not saved; a reorg that falls back to it reads it again.
    blocks.push({ number: block.number, hash: block.hash, timestamp: 0, changes: [] });
  }
  blocks.push({ ...last, changes: [] });
  return blocks.slice(-depth);
}

/** The endpoint errors name: the one given, the client's HTTP URL, or the transport's name; redacted. */
function endpointOf(client: AnyClient, given: string | undefined): string {
  const url = given ?? (client.transport as { url?: unknown }).url;
  if (typeof url === "string" && url !== "") return redactUrl(url);
  return `the ${client.transport.name ?? client.transport.type} transport`;
}
