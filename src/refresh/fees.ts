/**
 * The fees a refresh transaction offers: EIP-1559 (type-2) `maxFeePerGas` and `maxPriorityFeePerGas` from the chain
 * (viem's `estimateFeesPerGas`: the next block's base fee with headroom, and the node's suggested tip), held under a
 * ceiling (`--max-fee-per-gas`), and raised for the replacement of a stuck transaction.
 *
 * The ceiling is compared with what a transaction pays now: the latest block's base fee plus the tip. Above it, the
 * run stops before sending anything more. At or under it, `maxFeePerGas` is the estimate, lowered to the ceiling when
 * the estimate's headroom goes over it, so that no transaction can ever pay more per gas than the ceiling.
 *
 * @packageDocumentation
 */
import type { PublicClient } from "viem";

/** The fees of one EIP-1559 transaction, in wei per gas. */
export interface RefreshFees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

/** What {@link chainFees} found: the fees to offer, or why the ceiling stops the run. */
export type ChainFeesResult =
  { readonly fees: RefreshFees; readonly stop?: undefined } | { readonly stop: string; readonly fees?: undefined };

/**
 * A replacement's raise over the transaction it replaces, in eighths: nodes (geth, Hardhat, reth) accept a
 * replacement with the same nonce only when both fees are at least 10 % higher; 12.5 % (1/8) clears that.
 */
export const REPLACEMENT_RAISE_EIGHTHS = 1n;

/**
 * Reads the chain's fees and holds them under the ceiling (see the module notes).
 *
 * @param client - A public client of the chain.
 * @param maxFeePerGas - The ceiling, in wei per gas; absent: none.
 * @returns The fees, or `stop` with the fee, the ceiling and what they mean.
 */
export async function chainFees(client: PublicClient, maxFeePerGas?: bigint): Promise<ChainFeesResult> {
  const estimate = await client.estimateFeesPerGas({ chain: null, type: "eip1559" });
  if (maxFeePerGas === undefined) return { fees: estimate };
  const block = await client.getBlock({ blockTag: "latest" });
  const baseFee = block.baseFeePerGas ?? 0n;
  const current = baseFee + estimate.maxPriorityFeePerGas;
  if (current > maxFeePerGas) {
    return {
      stop: `the chain's fee is ${formatGwei(current)} (base fee ${formatGwei(baseFee)} and tip ${formatGwei(estimate.maxPriorityFeePerGas)}), over the ceiling --max-fee-per-gas ${formatGwei(maxFeePerGas)}`,
    };
  }
  return {
    fees: {
      maxFeePerGas: estimate.maxFeePerGas > maxFeePerGas ? maxFeePerGas : estimate.maxFeePerGas,
      maxPriorityFeePerGas: estimate.maxPriorityFeePerGas,
    },
  };
}

/**
 * The fees of a replacement: both raised by {@link REPLACEMENT_RAISE_EIGHTHS} eighths (rounded up), and at least the
 * chain's current fees.
 *
 * @param fees - The fees of the transaction it replaces.
 * @param current - The chain's fees now (`estimateFeesPerGas`).
 * @param maxFeePerGas - The ceiling; absent: none.
 * @returns The raised fees, or `null` when the raise would go over the ceiling.
 */
export function raisedFees(fees: RefreshFees, current: RefreshFees, maxFeePerGas?: bigint): RefreshFees | null {
  const raise = (value: bigint) => value + (value * REPLACEMENT_RAISE_EIGHTHS + 7n) / 8n;
  const tip = max(raise(fees.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const fee = max(max(raise(fees.maxFeePerGas), current.maxFeePerGas), tip);
  if (maxFeePerGas !== undefined && fee > maxFeePerGas) return null;
  return { maxFeePerGas: fee, maxPriorityFeePerGas: tip };
}

/**
 * An amount of wei per gas for people: in gwei with up to 9 decimals (`1.5 gwei`), or in wei under 1 gwei.
 *
 * @param wei - Wei per gas.
 * @returns The text.
 */
export function formatGwei(wei: bigint): string {
  if (wei < 1_000_000_000n) return `${wei} wei`;
  const whole = wei / 1_000_000_000n;
  const fraction = (wei % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${whole}${fraction ? `.${fraction}` : ""} gwei`;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
