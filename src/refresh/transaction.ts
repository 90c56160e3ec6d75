/**
 * One refresh transaction from send to counted receipt: the run's nonces, assigned locally from the sender's pending
 * transaction count (one nonce manager for the run, so that two batches never share a nonce and a replacement reuses
 * its own); EIP-1559 (type-2) transactions; the replacement of a transaction not mined within `replaceAfterSeconds`
 * (the same nonce, both fees raised, never over the ceiling); and `confirmations` blocks before the receipt counts.
 *
 * A transaction is settled by the receipt of any of the hashes sent for its nonce (the first or a replacement). When
 * the nonce is consumed by a transaction none of them is (another writer of the same key, or a replacement made
 * outside the run), it is settled as `replaced`, with no receipt. When it may not be replaced (a rerun settling a
 * journal's transaction) and the node knows none of its hashes while the nonce is unused, it is settled as `dropped`
 * (evicted from the mempool, or the node restarted): nothing of it can land any more.
 *
 * @packageDocumentation
 */
import {
  keccak256,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { AttestedOracleClients } from "../oracle/attested-oracle.js";
import { chainFees, formatGwei, raisedFees, type RefreshFees } from "./fees.js";

/** One hash sent for a nonce, with the fees it offered. */
export interface SentAttempt {
  readonly hash: Hash;
  /** Wei per gas (decimal). */
  readonly maxFeePerGas: string;
  /** Wei per gas (decimal). */
  readonly maxPriorityFeePerGas: string;
}

/** How a transaction was settled. */
export type SettledTransaction =
  | { readonly kind: "mined"; readonly hash: Hash; readonly receipt: TransactionReceipt }
  | { readonly kind: "replaced" }
  | { readonly kind: "dropped" }
  | { readonly kind: "stopped"; readonly reason: string };

/** What the run's transactions share. */
export interface TransactionSettings {
  /** The fee ceiling, wei per gas. */
  readonly maxFeePerGas?: bigint;
  /** Seconds without a receipt before a transaction is replaced; default {@link DEFAULT_REPLACE_AFTER_SECONDS}. */
  readonly replaceAfterSeconds?: number;
  /** Blocks, the receipt's included, before a receipt counts; default 1. */
  readonly confirmations?: number;
  /** Milliseconds between two looks for a receipt; default 1000. */
  readonly pollingIntervalMs?: number;
}

/** Default seconds a transaction may stay unmined before it is replaced. */
export const DEFAULT_REPLACE_AFTER_SECONDS = 120;

/** The run's nonces: the next one to use, assigned locally. */
export interface NonceManager {
  /** The next nonce, taken. */
  take(): number;
}

/**
 * Starts the run's nonces at the sender's pending transaction count.
 *
 * @param client - A public client.
 * @param address - The sender.
 * @returns The nonce manager.
 */
export async function openNonceManager(client: PublicClient, address: Address): Promise<NonceManager> {
  let next = await client.getTransactionCount({ address, blockTag: "pending" });
  return { take: () => next++ };
}

/**
 * Sends one transaction with a given nonce and fees, and settles it (see the module notes).
 *
 * @param clients - The sender's wallet client and a public client.
 * @param request - Target, calldata and gas limit.
 * @param nonce - Its nonce (from the {@link NonceManager}).
 * @param fees - Its first fees (`chainFees`).
 * @param settings - Ceiling, replacement delay, confirmations.
 * @param onSent - Called with every hash (the first and each replacement), with all so far: for a local account
 *   after signing and before sending (a journal then never misses a transaction that reached a node), for a node's
 *   account right after sending.
 * @returns How it was settled, and every hash sent.
 */
export async function sendTransaction(
  clients: AttestedOracleClients,
  request: { readonly to: Address; readonly data: Hex; readonly gas: bigint },
  nonce: number,
  fees: RefreshFees,
  settings: TransactionSettings,
  onSent: (attempts: readonly SentAttempt[]) => void | Promise<void>,
): Promise<{ settled: SettledTransaction; attempts: readonly SentAttempt[] }> {
  const attempts: SentAttempt[] = [];
  const send = async (offered: RefreshFees) => {
    const transaction = {
      account: clients.wallet.account,
      chain: clients.wallet.chain,
      to: request.to,
      data: request.data,
      gas: request.gas,
      nonce,
      type: "eip1559",
      maxFeePerGas: offered.maxFeePerGas,
      maxPriorityFeePerGas: offered.maxPriorityFeePerGas,
    } as const;
    const attempt = (hash: Hash): SentAttempt => ({
      hash,
      maxFeePerGas: offered.maxFeePerGas.toString(),
      maxPriorityFeePerGas: offered.maxPriorityFeePerGas.toString(),
    });
    if (clients.wallet.account.type === "local") {
      // signed first, so that the journal has the hash before the transaction can reach any node
      const serializedTransaction = await clients.wallet.signTransaction(transaction);
      attempts.push(attempt(keccak256(serializedTransaction)));
      await onSent(attempts);
      await clients.wallet.sendRawTransaction({ serializedTransaction });
    } else {
      // a node's account signs as it sends: the hash is known only then
      attempts.push(attempt(await clients.wallet.sendTransaction(transaction)));
      await onSent(attempts);
    }
  };
  await send(fees);
  const settled = await settleTransaction(clients, nonce, attempts, settings, async (raised) => send(raised));
  return { settled, attempts };
}

/**
 * Waits for the receipt of any hash sent for a nonce, replacing it (when `replace` is given) each time
 * `replaceAfterSeconds` pass without one; then waits for the confirmations.
 *
 * @param clients - The sender's wallet client and a public client.
 * @param nonce - The nonce.
 * @param attempts - The hashes sent for it, with their fees (a replacement is appended by `replace`).
 * @param settings - Ceiling, replacement delay, confirmations.
 * @param replace - Sends a replacement with the given fees; absent: never replace.
 * @returns How it was settled.
 */
export async function settleTransaction(
  clients: AttestedOracleClients,
  nonce: number,
  attempts: readonly SentAttempt[],
  settings: TransactionSettings,
  replace?: (fees: RefreshFees) => Promise<void>,
): Promise<SettledTransaction> {
  const client = clients.public;
  const address = clients.wallet.account.address;
  const poll = settings.pollingIntervalMs ?? 1000;
  const replaceAfterMs = (settings.replaceAfterSeconds ?? DEFAULT_REPLACE_AFTER_SECONDS) * 1000;
  let lastSent = Date.now();
  for (;;) {
    const mined = await receiptOfAny(client, attempts);
    if (mined) {
      await waitForConfirmations(client, mined.receipt, settings.confirmations ?? 1, poll);
      return { kind: "mined", ...mined };
    }
    if ((await client.getTransactionCount({ address, blockTag: "latest" })) > nonce) {
      // consumed: one last look, in case ours was mined between the two reads
      const late = await receiptOfAny(client, attempts);
      if (late) {
        await waitForConfirmations(client, late.receipt, settings.confirmations ?? 1, poll);
        return { kind: "mined", ...late };
      }
      return { kind: "replaced" };
    }
    if (!replace && !(await anyKnown(client, attempts))) return { kind: "dropped" };
    if (replace && Date.now() - lastSent >= replaceAfterMs) {
      const last = attempts.at(-1)!;
      const current = await chainFees(client);
      const previous = { maxFeePerGas: BigInt(last.maxFeePerGas), maxPriorityFeePerGas: BigInt(last.maxPriorityFeePerGas) };
      const raised = raisedFees(previous, current.fees!, settings.maxFeePerGas);
      if (raised === null) {
        return {
          kind: "stopped",
          reason: `transaction ${last.hash} (nonce ${nonce}) was not mined within ${replaceAfterMs / 1000} s, and raising its fees by 12.5 % would go over the ceiling --max-fee-per-gas ${formatGwei(settings.maxFeePerGas!)}: it is left pending`,
        };
      }
      await replace(raised);
      lastSent = Date.now();
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, poll));
  }
}

async function receiptOfAny(
  client: PublicClient,
  attempts: readonly SentAttempt[],
): Promise<{ hash: Hash; receipt: TransactionReceipt } | null> {
  for (const { hash } of [...attempts].reverse()) {
    try {
      return { hash, receipt: await client.getTransactionReceipt({ hash }) };
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
  }
  return null;
}

async function anyKnown(client: PublicClient, attempts: readonly SentAttempt[]): Promise<boolean> {
  for (const { hash } of attempts) {
    try {
      await client.getTransaction({ hash });
      return true;
    } catch (error) {
      if (!(error instanceof TransactionNotFoundError)) throw error;
    }
  }
  return false;
}

async function waitForConfirmations(client: PublicClient, receipt: TransactionReceipt, confirmations: number, poll: number): Promise<void> {
  while ((await client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n < BigInt(confirmations)) {
    await new Promise((resolve) => setTimeout(resolve, poll));
  }
}
