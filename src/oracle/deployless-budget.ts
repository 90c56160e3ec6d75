/**
 * Size limits of a deployless Multicall3 call, which cut the reader's deployless chunks by size as well as by
 * count. Such an `eth_call` has no `to`: it is a contract creation whose init code is viem's deployless
 * wrapper, Multicall3's creation code and the `aggregate3` calldata, and whose constructor returns Multicall3's
 * answer as the created contract's code. Nodes (Hardhat, geth) check both ends in `eth_call` as in a
 * transaction:
 *
 * - the init code must not pass EIP-3860's 49,152 bytes: this bounds the calldata;
 * - the returned code must not pass EIP-170's 24,576 bytes: this bounds the answer, 256 bytes per `getScore`
 *   record (95 records).
 *
 * An oracle that answers more than `getScore`'s four words makes its chunk's answer larger than planned; if
 * that passes the limit, the node refuses the chunk and each of its records carries that error.
 *
 * @packageDocumentation
 */
import { deploylessCallViaBytecodeBytecode, type Hex, size } from "viem";
import { MULTICALL3_CREATION_CODE } from "./multicall3-creation-code.js";

/** EIP-3860's limit on init code, in bytes: `2 * 24,576`. */
export const MAX_INIT_CODE_BYTES = 49_152;

/** EIP-170's limit on the code a creation returns, in bytes. */
export const MAX_CODE_BYTES = 24_576;

const WORD = 32;
const padded = (bytes: number): number => Math.ceil(bytes / WORD) * WORD;

/**
 * Largest `aggregate3` calldata, in bytes, that fits a deployless call: the init-code limit minus the wrapper's
 * code, the ABI encoding of its `(bytes code, bytes data)` constructor arguments (two offsets, two lengths), the
 * padded creation code, and the padding of the calldata itself.
 */
export const DEPLOYLESS_AGGREGATE3_MAX_BYTES =
  MAX_INIT_CODE_BYTES - size(deploylessCallViaBytecodeBytecode) - 4 * WORD - padded(size(MULTICALL3_CREATION_CODE)) - (WORD - 1);

/**
 * Most records in one deployless call: `aggregate3`'s answer (an offset and a length, then per record an
 * offset, `success`, the offset and length of `returnData`, and `getScore`'s four words) must fit
 * {@link MAX_CODE_BYTES}.
 */
export const DEPLOYLESS_MAX_RECORDS = Math.floor((MAX_CODE_BYTES - 2 * WORD) / (4 * WORD + 4 * WORD));

/** Bytes of `aggregate3` calldata besides its calls: selector, offset of the array, its length. */
export const AGGREGATE3_FIXED_BYTES = 4 + 2 * WORD;

/**
 * Bytes one call adds to `aggregate3` calldata: its offset in the array, the `(address, bool, bytes)` head
 * (target, allowFailure, offset of the bytes), the length of the bytes and the bytes padded to whole words.
 *
 * @param callData - The call's calldata.
 * @returns Its size in the encoded `aggregate3` calldata.
 */
export function aggregate3CallBytes(callData: Hex): number {
  return 5 * WORD + padded(size(callData));
}
