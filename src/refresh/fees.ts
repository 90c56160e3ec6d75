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
import { formatEther, type PublicClient } from "viem";

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

/** What a plan would cost at the chain's current fee (the dry run's figures). */
export interface RefreshCostEstimate {
  /** The plan's gas estimate (its batches' sum). */
  readonly estimatedGas: string;
  /** The latest block's base fee and the suggested tip, wei per gas (decimal). */
  readonly baseFeePerGas: string;
  readonly maxPriorityFeePerGas: string;
  /** The `maxFeePerGas` the run would offer now (under the ceiling), wei per gas (decimal). */
  readonly maxFeePerGas: string;
  /** `estimatedGas × (base fee + tip)`: the cost at the current fee, in wei (decimal). */
  readonly costWei: string;
  /** `estimatedGas × maxFeePerGas`: the most it can cost at these fees, what a budget is checked against (decimal). */
  readonly maxCostWei: string;
  /** Why the ceiling would stop the run now, when it would. */
  readonly overCeiling?: string;
  /** One line for people. */
  readonly summary: string;
}

/**
 * Prices a plan's gas estimate at the chain's current fee (for the dry run: it reads the chain, sends nothing).
 *
 * @param client - A public client of the chain.
 * @param estimatedGas - The plan's gas estimate.
 * @param maxFeePerGas - The ceiling; absent: none.
 * @returns The figures and a line for people.
 */
export async function estimateRefreshCost(client: PublicClient, estimatedGas: number, maxFeePerGas?: bigint): Promise<RefreshCostEstimate> {
  const estimate = await client.estimateFeesPerGas({ chain: null, type: "eip1559" });
  const block = await client.getBlock({ blockTag: "latest" });
  const baseFee = block.baseFeePerGas ?? 0n;
  const found = await chainFees(client, maxFeePerGas);
  const offered = found.fees?.maxFeePerGas ?? maxFeePerGas ?? estimate.maxFeePerGas;
  const gas = BigInt(estimatedGas);
  const current = baseFee + estimate.maxPriorityFeePerGas;
  const summary =
    `Cost at the current fee: ${gas.toLocaleString("en-US")} gas (the plan's estimate) × ${formatGwei(current)} ` +
    `(base fee ${formatGwei(baseFee)} and tip ${formatGwei(estimate.maxPriorityFeePerGas)}) = ${formatEther(gas * current)} ETH; ` +
    `at most ${formatEther(gas * offered)} ETH at the max fee ${formatGwei(offered)}` +
    (found.stop !== undefined ? `. The run would stop now: ${found.stop}` : "");
  return {
    estimatedGas: gas.toString(),
    baseFeePerGas: baseFee.toString(),
    maxPriorityFeePerGas: estimate.maxPriorityFeePerGas.toString(),
    maxFeePerGas: offered.toString(),
    costWei: (gas * current).toString(),
    maxCostWei: (gas * offered).toString(),
    ...(found.stop !== undefined ? { overCeiling: found.stop } : {}),
    summary,
  };
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
