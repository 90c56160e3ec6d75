/**
 * Publishes oracle records into a `TrustScoreOracle` on a development node, in batches, as the service's
 * nightly publisher would: `publish(ScoreUpdate[])` transactions sent with `eth_sendTransaction` from an
 * account the node unlocks, each waited for until mined.
 *
 * @packageDocumentation
 */

import { createPublicClient, createWalletClient, defineChain, type Hex } from "viem";
import { DevnetError, InvalidArgumentError } from "../../errors.js";
import { parseAddress } from "../../inputs/address.js";
import { trustScoreOracleAbi } from "../../oracle/abi.js";
import type { Eip1193Requester } from "./multicall3.js";
import { describeContractError, revertDecodingTransport } from "./revert-transport.js";

/** Largest batch {@link publishTrustRecords} sends: 500 new records use about 14.4 M gas, under the EIP-7825 cap. */
export const MAX_PUBLISH_BATCH = 500;

/**
 * Batch size {@link publishTrustRecords} uses by default. Measured on Hardhat's in-process network (EDR), 3,000
 * new records: batches of 200 publish in about 0.4 s and grow the process by about 150 MB; batches of 500 take
 * about 0.8 s and grow it by about 520 MB (EDR's memory per transaction grows faster than its size).
 */
export const DEFAULT_PUBLISH_BATCH = 200;

/** One record to publish, with the oracle's codes (see `src/config/encodings.ts` for the names). */
export interface OracleRecordInput {
  /** Agent id in its registry. */
  readonly agentId: bigint | number;
  /** Chain the agent is registered on. */
  readonly chainId: bigint | number;
  /** Registry name (`erc8004`, `olas`, …). */
  readonly registry: string;
  /** Score, 0–100. */
  readonly score: number;
  /** Tier code, 0–3. */
  readonly tier: number;
  /** Sybil severity code, 0–4. */
  readonly sybilSeverity: number;
  /** Time of the scoring: a Date, or Unix seconds; not after the block it is published in. */
  readonly updatedAt: Date | number | bigint;
}

/** Options of {@link publishTrustRecords}. */
export interface PublishTrustRecordsParameters {
  /** The oracle. */
  readonly oracle: string;
  /** Sender: an account the node signs for (or impersonates) that holds `PUBLISHER_ROLE`. */
  readonly publisher: string;
  /** The records, published in order. */
  readonly records: readonly OracleRecordInput[];
  /** Records per transaction, 1–{@link MAX_PUBLISH_BATCH}; default {@link DEFAULT_PUBLISH_BATCH}. */
  readonly batchSize?: number | undefined;
}

/** What {@link publishTrustRecords} did. */
export interface PublishTrustRecordsResult {
  /** Records sent. */
  readonly records: number;
  /** Transaction hashes, one per batch, in order. */
  readonly transactions: readonly Hex[];
  /** Block of the last batch (`undefined` when there was nothing to publish). */
  readonly blockNumber: bigint | undefined;
}

/**
 * Publishes records in batches (default {@link DEFAULT_PUBLISH_BATCH}, at most {@link MAX_PUBLISH_BATCH}), one
 * transaction after the other, each waited for until mined.
 * A batch is all or nothing (the oracle's rule); the first batch that fails stops the publishing.
 *
 * @param provider - EIP-1193 provider of a development node (Hardhat, Anvil).
 * @param options - Oracle, publisher, records, batch size.
 * @returns The transactions sent.
 * @throws {@link InvalidArgumentError} for a bad address, batch size or date; {@link DevnetError} when a batch is
 *   refused (the oracle's decoded error in the message, the viem error as `cause`) or is mined reverted.
 */
export async function publishTrustRecords(
  provider: Eip1193Requester,
  options: PublishTrustRecordsParameters,
): Promise<PublishTrustRecordsResult> {
  const oracle = parseAddress(options.oracle, "oracle");
  const publisher = parseAddress(options.publisher, "publisher");
  const batchSize = options.batchSize ?? DEFAULT_PUBLISH_BATCH;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MAX_PUBLISH_BATCH) {
    throw new InvalidArgumentError(`batchSize must be an integer from 1 to ${MAX_PUBLISH_BATCH}, got ${batchSize}`);
  }
  const updates = options.records.map(toScoreUpdate);
  if (updates.length === 0) return { records: 0, transactions: [], blockNumber: undefined };

  const chainId = Number(await provider.request({ method: "eth_chainId" }));
  const chain = defineChain({
    id: chainId,
    name: `Development chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const transport = revertDecodingTransport(provider);
  const wallet = createWalletClient({ account: publisher, chain, transport });
  const reader = createPublicClient({ chain, transport, pollingInterval: 20 });

  const transactions: Hex[] = [];
  let blockNumber: bigint | undefined;
  const batches = Math.ceil(updates.length / batchSize);
  for (let b = 0; b < batches; b++) {
    const batch = updates.slice(b * batchSize, (b + 1) * batchSize);
    const where = `batch ${b + 1} of ${batches} (records ${b * batchSize}–${b * batchSize + batch.length - 1})`;
    let hash: Hex;
    try {
      hash = await wallet.writeContract({ address: oracle, abi: trustScoreOracleAbi, functionName: "publish", args: [batch] });
    } catch (error) {
      throw new DevnetError(`Publishing ${where} to ${oracle} failed: ${describeContractError(error)}`, { cause: error });
    }
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new DevnetError(`Publishing ${where} to ${oracle} was mined reverted (${hash})`);
    transactions.push(hash);
    blockNumber = receipt.blockNumber;
  }
  return { records: updates.length, transactions, blockNumber };
}

/** A record as the oracle's `ScoreUpdate` tuple takes it. */
interface ScoreUpdate {
  agentId: bigint;
  chainId: bigint;
  registry: string;
  score: number;
  tier: number;
  sybilSeverity: number;
  updatedAt: number;
}

function toScoreUpdate(record: OracleRecordInput, index: number): ScoreUpdate {
  const { updatedAt } = record;
  let seconds: number;
  if (updatedAt instanceof Date) seconds = Math.floor(updatedAt.getTime() / 1000);
  else seconds = Number(updatedAt);
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new InvalidArgumentError(`records[${index}].updatedAt is not a valid time: ${String(updatedAt)}`);
  }
  return {
    agentId: BigInt(record.agentId),
    chainId: BigInt(record.chainId),
    registry: record.registry,
    score: record.score,
    tier: record.tier,
    sybilSeverity: record.sybilSeverity,
    updatedAt: seconds,
  };
}
