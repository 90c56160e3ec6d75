/**
 * Size limits of a deployless Multicall3 call. Such an `eth_call` has no `to`: its data is viem's deployless
 * wrapper, Multicall3's creation code and the `aggregate3` calldata, and nodes refuse it as init code when it is
 * larger than EIP-3860's limit (49,152 bytes on every chain since Shanghai; Hardhat and geth check it in
 * `eth_call` too). The reader therefore cuts deployless chunks by size as well as by count.
 *
 * @packageDocumentation
 */
import { deploylessCallViaBytecodeBytecode, size, type Hex } from "viem";
import { MULTICALL3_CREATION_CODE } from "./multicall3-creation-code.js";

/** EIP-3860's limit on init code, in bytes: `2 * 24,576`. */
export const MAX_INIT_CODE_BYTES = 49_152;

const WORD = 32;
const padded = (bytes: number): number => Math.ceil(bytes / WORD) * WORD;

/**
 * Largest `aggregate3` calldata, in bytes, that fits a deployless call: the init-code limit minus the wrapper's
 * code, the ABI encoding of its `(bytes code, bytes data)` constructor arguments (two offsets, two lengths), the
 * padded creation code, and the padding of the calldata itself.
 */
export const DEPLOYLESS_AGGREGATE3_MAX_BYTES =
  MAX_INIT_CODE_BYTES -
  size(deploylessCallViaBytecodeBytecode) -
  4 * WORD -
  padded(size(MULTICALL3_CREATION_CODE)) -
  (WORD - 1);

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
