/**
 * The block a read is made at, as viem's `call` and `getCode` take it.
 *
 * @packageDocumentation
 */
import type { BlockTag } from "viem";

/** A pinned block number, a block tag, or neither (the node's latest). */
export type BlockParameters = { blockNumber: bigint } | { blockTag: BlockTag } | Record<string, never>;

/**
 * The block parameters of a read: the number when pinned, else the tag, else none.
 *
 * @param blockNumber - A pinned block number, if any (it wins over the tag).
 * @param blockTag - A block tag, if any.
 * @returns The parameters to spread into a viem action.
 */
export function blockParameters(blockNumber: bigint | undefined, blockTag: BlockTag | undefined): BlockParameters {
  if (blockNumber !== undefined) return { blockNumber };
  if (blockTag !== undefined) return { blockTag };
  return {};
}
