/**
 * The block in which a contract's code first appears, found by bisecting `eth_getCode` over historical
 * blocks: about log2(head) requests (25 on Base). Needs a node that serves historical state (an archive node,
 * Hardhat, anvil); a pruned node refuses the old blocks and the search fails with its error.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { getCode } from "viem/actions";
import type { AnyClient } from "./client.js";

/**
 * The first block at which `address` has code, at or before `atBlock`.
 *
 * @param client - A viem client of the chain.
 * @param address - The contract.
 * @param atBlock - A block at which the contract has code (the scan's pinned block).
 * @returns The deployment block (the first block whose state holds the code).
 * @throws The node's error when it cannot serve a historical block; an `Error` when there is no code at `atBlock`.
 */
export async function findDeploymentBlock(client: AnyClient, address: Address, atBlock: bigint): Promise<bigint> {
  const hasCode = async (blockNumber: bigint) => {
    const code = await getCode(client, { address, blockNumber });
    return code !== undefined && code !== "0x";
  };
  if (!(await hasCode(atBlock))) throw new Error(`no code at ${address} at block ${atBlock}`);
  let low = 0n;
  let high = atBlock;
  while (low < high) {
    const middle = (low + high) / 2n;
    if (await hasCode(middle)) high = middle;
    else low = middle + 1n;
  }
  return low;
}
