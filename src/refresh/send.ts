/**
 * Sends a refresh plan to an `AttestedTrustOracle`: for each batch of the plan, a fresh signed attestation per agent
 * from the service (the drift report carries none: they expire within a day), verified against the issuer's keys; an
 * `eth_call` of `submitJwsAttestations` with that attestation alone, which drops, before anything is sent, what the
 * oracle would refuse (the contract's error decoded: a revoked kid, dates out of order, …) and what it would treat as
 * a no-op (stored count 0: a record at least as new is already there); then one `submitJwsAttestations` transaction
 * with the rest, whose receipt says, per attestation, whether it was stored (a `RecordAdded` or `RecordUpdated` of
 * its record key) or turned out a no-op (another writer came first).
 *
 * So one bad attestation never sinks the others of its batch, and nothing is pushed that changes nothing. The chain
 * must be the one the drift report read, and a mainnet (Ethereum, Base) needs `confirmMainnet`: both are checked
 * before the first request to the service.
 *
 * Spending is bounded: EIP-1559 fees from the chain under a ceiling (`maxFeePerGas`, `fees.ts`) and a budget in wei
 * or gas (`budget.ts`). When the chain's fee is over the ceiling before a batch, or a transaction's estimate does not
 * fit what is left of the budget, the run stops there: nothing more is fetched or sent, and every attestation not
 * sent yet is `stopped` with the reason. Transactions go out under one nonce manager, a stuck one is replaced, and
 * a receipt counts after `confirmations` blocks (`transaction.ts`). Each send and each receipt is written to the
 * journal first (`journal.ts`), which a rerun settles before anything else, so a killed run resumes without pushing
 * an attestation twice.
 *
 * @packageDocumentation
 */
import { type Address, encodeFunctionData, type Hash, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import type { TrustCheckParameters } from "../api/client.js";
import type { JwksResolver } from "../attestation/jwks.js";
import { toAttestationCall } from "../attestation/onchain-call.js";
import { verifyTrustAttestation } from "../attestation/verify.js";
import { MAINNET_CHAIN_IDS } from "../deploy/sender.js";
import { ConfigurationError, HttpRequestError, messageOf } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import type { AttestedOracleClients } from "../oracle/attested-oracle.js";
import { describeContractError } from "../oracle/revert-reason.js";
import { openBudgetAccount, type RefreshBudget } from "./budget.js";
import { chainFees, type RefreshFees } from "./fees.js";
import { type JournalAttestationOutcome, type JournalTransaction, openRefreshJournal } from "./journal.js";
import type { RefreshPlan, RefreshPlanEntry } from "./plan.js";
import {
  type NonceManager,
  openNonceManager,
  type SentAttempt,
  sendTransaction,
  settleTransaction,
  type TransactionSettings,
} from "./transaction.js";

/**
 * What became of one due attestation:
 *
 * | outcome | meaning |
 * |---|---|
 * | `stored` | sent, and its receipt holds its record's `RecordAdded` or `RecordUpdated` |
 * | `already-current` | the pre-check said the oracle would store nothing (a record at least as new is there): not sent |
 * | `no-op` | sent, but its receipt stores nothing for it (another writer came first between pre-check and block) |
 * | `refused` | the pre-check reverted: the oracle refuses it (`error` names the contract's error; a revoked kid says so): not sent; or its batch transaction reverted |
 * | `not-fetched` | the service gave no attestation that verified, or one that cannot be submitted in a batch: not sent |
 * | `replaced` | sent, but its nonce was consumed by a transaction the run did not send: not stored by this run |
 * | `stopped` | not sent (or left pending): the fee ceiling or the budget stopped the run first (`stop` says which) |
 */
export type RefreshAttestationOutcome = "stored" | "already-current" | "no-op" | "refused" | "not-fetched" | "replaced" | "stopped";

/** Every {@link RefreshAttestationOutcome}, in the order the totals list them. */
export const REFRESH_ATTESTATION_OUTCOMES: readonly RefreshAttestationOutcome[] = [
  "stored",
  "already-current",
  "no-op",
  "refused",
  "not-fetched",
  "replaced",
  "stopped",
];

/** What stopped a run: the fee ceiling (`maxFeePerGas`) or the budget. */
export type RefreshStopReason = "fee-ceiling" | "budget";

/** One due attestation's outcome. */
export interface RefreshAttestationResult {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The plan's batch it belonged to. */
  readonly batch: number;
  readonly outcome: RefreshAttestationOutcome;
  /** The key id it was signed under, when one was fetched. */
  readonly kid?: string;
  /** Why, for `refused` (the contract's error with its values), `not-fetched`, `replaced` and `stopped`. */
  readonly error?: string;
  /** What stopped it (`stopped`). */
  readonly stop?: RefreshStopReason;
  /** The transaction that carried it (`stored`, `no-op`, `replaced`, and `stopped` when left pending). */
  readonly transaction?: Hash;
  /** Whether an earlier run of the same journal sent it (this run only settled it, or found it settled). */
  readonly fromJournal?: boolean;
}

/** One `submitJwsAttestations` transaction (one nonce). */
export interface RefreshTransaction {
  /** The plan's batch. */
  readonly batch: number;
  readonly nonce: number;
  /** The hash that was mined, else the last one sent. */
  readonly hash: Hash;
  /** Every hash sent for its nonce (the first, then each replacement), with its fees. */
  readonly sent: readonly SentAttempt[];
  /**
   * `success` or `reverted` (mined), `replaced` (its nonce consumed by another), `dropped` (known to no node, its
   * nonce unused), `pending` (left unmined by a stop).
   */
  readonly status: "success" | "reverted" | "replaced" | "dropped" | "pending";
  /** Attestations it carried. */
  readonly attestations: number;
  /** Of them, stored. */
  readonly stored: number;
  /** Gas used (decimal; 0 unless mined). */
  readonly gasUsed: string;
  /** Price paid per gas, in wei (decimal; 0 unless mined). */
  readonly effectiveGasPrice: string;
  /** `gasUsed × effectiveGasPrice`, in wei (decimal). */
  readonly costWei: string;
  /** Whether an earlier run of the same journal sent it. */
  readonly fromJournal: boolean;
}

/** What {@link sendRefreshPlan} returns. */
export interface RefreshSendOutcome {
  /** The attested oracle written to. */
  readonly attestedOracle: Address;
  readonly chainId: number;
  /** The sender. */
  readonly from: Address;
  /** The journal file, when the run kept one. */
  readonly journal?: string;
  /** Every due attestation, in the plan's order. */
  readonly attestations: readonly RefreshAttestationResult[];
  /** Every transaction of the journal (an earlier run's included, `fromJournal`), in the order sent. */
  readonly transactions: readonly RefreshTransaction[];
  /** What stopped the run, when something did. */
  readonly stopped?: { readonly reason: RefreshStopReason; readonly detail: string };
  /** Outcomes counted; `transactions`, `gasUsed` and `costWei` count this run's transactions only. */
  readonly totals: Readonly<Record<RefreshAttestationOutcome, number>> & {
    readonly transactions: number;
    readonly gasUsed: string;
    readonly costWei: string;
  };
}

/**
 * Where the sender fetches each due agent's fresh attestation: the service's signed trust check. A `TrustApiClient`
 * (`createTrustApiClient`) is one; the body it returns is verified before anything is sent.
 */
export interface RefreshAttestationSource {
  /** One agent's signed trust-check response. */
  trustCheck(params: TrustCheckParameters): Promise<unknown>;
}

/** What {@link sendRefreshPlan} needs. */
export interface SendRefreshOptions extends TransactionSettings {
  /** The sender's wallet client and a public client of the same chain. */
  readonly clients: AttestedOracleClients;
  /** The attested oracle to push to. */
  readonly attestedOracle: Address;
  /** The service to fetch fresh attestations from. */
  readonly api: RefreshAttestationSource;
  /** The issuer the attestations must name, and its keys. */
  readonly issuer: string;
  readonly jwks: JwksResolver;
  /** The key ids an attestation may be signed under; default the kit's trust kids (`TRUST_ATTESTATION_KIDS`). */
  readonly acceptedKids?: readonly string[];
  /** Allow sending on a mainnet ({@link MAINNET_CHAIN_IDS}); default false. */
  readonly confirmMainnet?: boolean;
  /** The run's budget, in wei or gas; default none. */
  readonly budget?: RefreshBudget;
  /** The journal file (read first when it exists, written at each send and receipt); default none (not resumable). */
  readonly journal?: string;
  /** Clock of the verifier (an attestation expired at it is not sent); default now. */
  readonly now?: () => Date;
  /** Called after each transaction is settled (progress). */
  readonly onTransaction?: (transaction: RefreshTransaction) => void;
}

/** A due attestation that passed the pre-check. */
interface Ready {
  readonly entry: RefreshPlanEntry;
  readonly kid: string;
  readonly jws: Hex;
}

/**
 * Sends a refresh plan (see the module notes): the journal's transactions in flight settled first; then batch by
 * batch, the fee ceiling checked, fresh attestations fetched and verified, each pre-checked alone with `eth_call`, the
 * rest sent in one `submitJwsAttestations` transaction within the budget, its receipt decoded.
 *
 * @param plan - The plan (`planRefresh`).
 * @param options - Clients, attested oracle, service, issuer and keys, mainnet confirmation, fee ceiling, budget,
 *   replacement delay, confirmations, journal.
 * @returns Each attestation's outcome and each transaction (one a batch; two or more when `eth_estimateGas` puts a
 *   batch over the plan's gas limit, which is then split in halves).
 * @throws {@link ConfigurationError} before anything is fetched or sent when the chain is a mainnet without
 *   `confirmMainnet`, another chain than the drift report's, or the journal is another oracle's, chain's or sender's;
 *   viem's error when a transaction cannot be sent or the node fails.
 */
export async function sendRefreshPlan(plan: RefreshPlan, options: SendRefreshOptions): Promise<RefreshSendOutcome> {
  const { clients, attestedOracle } = options;
  const chainId = await clients.public.getChainId();
  if (chainId !== plan.from.chainId) {
    throw new ConfigurationError(
      `The chain of the RPC is ${chainId}, the drift report's is ${plan.from.chainId}: refresh the oracle the report read, on its chain`,
    );
  }
  if (MAINNET_CHAIN_IDS.has(chainId) && options.confirmMainnet !== true) {
    throw new ConfigurationError(`Chain ${chainId} is a mainnet: nothing is sent there without --confirm-mainnet (confirmMainnet)`);
  }
  const account = clients.wallet.account;
  const journal = openRefreshJournal(options.journal, { attestedOracle, chainId, from: account.address });
  const results = new Map<string, RefreshAttestationResult>();
  const budget = openBudgetAccount(options.budget);
  let stopped: { reason: RefreshStopReason; detail: string } | undefined;

  // What an earlier run of the journal sent: settle what is in flight, and keep its agents from being pushed again.
  const earlier = new Set(journal.content.transactions);
  for (const sent of journal.content.transactions) {
    if (sent.state !== "in-flight") {
      resultsOf(sent);
    } else {
      const settled = await settleTransaction(clients, sent.nonce, sent.sent, options);
      if (settled.kind === "stopped") throw new Error("unreachable: settling without replacement never stops");
      await recordSettled(sent, settled.kind === "mined" ? settled.receipt : settled.kind);
    }
  }
  const pending = new Set<string>();
  for (const sent of journal.content.transactions) {
    if (sent.report !== plan.from.generatedAt || (sent.state !== "mined" && sent.state !== "in-flight")) continue;
    for (const agent of sent.agents) if (sent.outcomes?.[agent] !== "refused") pending.add(agent);
  }

  let nonces: NonceManager | undefined; // opened at the first send: nothing is asked of the wallet before
  for (const batch of plan.batches) {
    const entries = plan.due.filter((entry) => entry.batch === batch.index && !pending.has(entry.agent));
    if (entries.length === 0) continue;
    let fees: RefreshFees | undefined;
    if (stopped === undefined) {
      const found = await chainFees(clients.public, options.maxFeePerGas);
      if (found.stop !== undefined) stopped = { reason: "fee-ceiling", detail: found.stop };
      else fees = found.fees;
    }
    if (stopped !== undefined || fees === undefined) {
      for (const entry of entries) stop(entry, batch.index);
      continue;
    }
    const ready: Ready[] = [];
    for (const entry of entries) {
      const fetched = await freshAttestation(entry, options);
      if ("error" in fetched) {
        results.set(entry.agent, { agent: entry.agent, batch: batch.index, outcome: "not-fetched", error: fetched.error });
        continue;
      }
      try {
        const { result: stored } = await clients.public.simulateContract({
          address: attestedOracle,
          abi: attestedTrustOracleAbi,
          functionName: "submitJwsAttestations",
          args: [[fetched.kid], [fetched.jws]],
          account,
        });
        if (stored === 0n) {
          results.set(entry.agent, { agent: entry.agent, batch: batch.index, outcome: "already-current", kid: fetched.kid });
          continue;
        }
      } catch (error) {
        results.set(entry.agent, {
          agent: entry.agent,
          batch: batch.index,
          outcome: "refused",
          kid: fetched.kid,
          error: refusalOf(error, fetched.kid),
        });
        continue;
      }
      ready.push({ entry, kid: fetched.kid, jws: fetched.jws });
    }
    if (ready.length === 0) continue;
    await sendChunk(ready, batch.index, fees);
  }

  function stop(entry: RefreshPlanEntry, batchIndex: number, transaction?: Hash): void {
    results.set(entry.agent, {
      agent: entry.agent,
      batch: batchIndex,
      outcome: "stopped",
      stop: stopped!.reason,
      error: stopped!.detail,
      ...(transaction ? { transaction } : {}),
    });
  }

  /**
   * Sends attestations that passed the pre-check in one transaction, after `eth_estimateGas`: a chunk estimated over
   * the plan's gas limit is split in two halves, each sent the same way (the plan's estimates are upper bounds
   * measured on the devnet, so this is rare). The budget is checked first, the journal written before the send.
   */
  async function sendChunk(ready: readonly Ready[], batchIndex: number, fees: RefreshFees): Promise<void> {
    if (stopped !== undefined) {
      for (const { entry } of ready) stop(entry, batchIndex);
      return;
    }
    const call = {
      address: attestedOracle,
      abi: attestedTrustOracleAbi,
      functionName: "submitJwsAttestations",
      args: [ready.map((r) => r.kid), ready.map((r) => r.jws)],
      account,
    } as const;
    const gas = await clients.public.estimateContractGas(call);
    if (gas > BigInt(plan.settings.gasLimit) && ready.length > 1) {
      const half = Math.ceil(ready.length / 2);
      await sendChunk(ready.slice(0, half), batchIndex, fees);
      await sendChunk(ready.slice(half), batchIndex, fees);
      return;
    }
    const overBudget = budget.check(gas, fees.maxFeePerGas);
    if (overBudget !== null) {
      stopped = { reason: "budget", detail: overBudget };
      for (const { entry } of ready) stop(entry, batchIndex);
      return;
    }
    const record: JournalTransaction = {
      report: plan.from.generatedAt,
      batch: batchIndex,
      nonce: (nonces ??= await openNonceManager(clients.public, account.address)).take(),
      agents: ready.map((r) => r.entry.agent),
      kids: ready.map((r) => r.kid),
      chainIds: ready.map((r) => r.entry.chainId),
      sent: [],
      state: "in-flight",
    };
    journal.content.transactions.push(record);
    const { settled } = await sendTransaction(
      clients,
      { to: attestedOracle, data: encodeFunctionData(call), gas },
      record.nonce,
      fees,
      options,
      (attempts) => {
        record.sent = [...attempts];
        journal.save();
      },
    );
    if (settled.kind === "stopped") {
      stopped = { reason: "fee-ceiling", detail: settled.reason };
      for (const { entry } of ready) stop(entry, batchIndex, record.sent.at(-1)!.hash);
      return;
    }
    await recordSettled(record, settled.kind === "mined" ? settled.receipt : settled.kind);
  }

  /** Each agent's outcome from a settled transaction of the journal. */
  function resultsOf(record: JournalTransaction): void {
    if (record.report !== plan.from.generatedAt) return; // another report's: this plan's rows are decided afresh
    const fromJournal = earlier.has(record) ? { fromJournal: true } : {};
    record.agents.forEach((agent, i) => {
      const batch = plan.due.find((e) => e.agent === agent)?.batch ?? record.batch;
      if (record.state === "mined") {
        const outcome = record.outcomes![agent]!;
        results.set(agent, {
          agent,
          batch,
          outcome,
          kid: record.kids[i]!,
          transaction: record.receipt!.hash,
          ...(outcome === "refused" ? { error: "the batch transaction was mined but reverted" } : {}),
          ...fromJournal,
        });
      } else if (record.state === "replaced") {
        results.set(agent, {
          agent,
          batch,
          outcome: "replaced",
          kid: record.kids[i]!,
          transaction: record.sent.at(-1)!.hash,
          error: `its transaction's nonce ${record.nonce} was consumed by a transaction this run did not send: not stored by it`,
          ...fromJournal,
        });
      }
    });
  }

  /** Decodes a settled transaction's outcomes into the journal (written) and the results. */
  async function recordSettled(record: JournalTransaction, receipt: TransactionReceipt | "replaced" | "dropped"): Promise<void> {
    const fromJournal = earlier.has(record);
    if (typeof receipt === "string") {
      record.state = receipt;
    } else {
      const written = new Set<string>();
      if (receipt.status === "success") {
        for (const log of parseEventLogs({
          abi: attestedTrustOracleAbi,
          logs: receipt.logs,
          eventName: ["RecordAdded", "RecordUpdated"],
        })) {
          if (log.address.toLowerCase() === attestedOracle.toLowerCase()) written.add(log.args.key.toLowerCase());
        }
      }
      const outcomes: Record<string, JournalAttestationOutcome> = {};
      for (const [i, agent] of record.agents.entries()) {
        const [, agentId, registry] = splitAgent(agent);
        const key = await clients.public.readContract({
          address: attestedOracle,
          abi: attestedTrustOracleAbi,
          functionName: "recordKey",
          args: [BigInt(agentId), BigInt(record.chainIds[i] ?? 0), registry],
        });
        outcomes[agent] = written.has(key.toLowerCase()) ? "stored" : receipt.status === "success" ? "no-op" : "refused";
      }
      record.state = "mined";
      record.outcomes = outcomes;
      record.receipt = {
        hash: receipt.transactionHash,
        status: receipt.status,
        blockNumber: receipt.blockNumber.toString(),
        gasUsed: receipt.gasUsed.toString(),
        effectiveGasPrice: receipt.effectiveGasPrice.toString(),
        costWei: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
      };
      if (!fromJournal) budget.charge(receipt.gasUsed, receipt.effectiveGasPrice);
    }
    journal.save();
    resultsOf(record);
    options.onTransaction?.(transactionOf(record, fromJournal));
  }

  const attestations = plan.due.filter((entry) => results.has(entry.agent)).map((entry) => results.get(entry.agent)!);
  const count = (outcome: RefreshAttestationOutcome) => attestations.filter((r) => r.outcome === outcome).length;
  const ordered = journal.content.transactions.map((record) => transactionOf(record, earlier.has(record)));
  const thisRun = ordered.filter((t) => !t.fromJournal);
  return {
    attestedOracle,
    chainId,
    from: account.address,
    ...(journal.path !== undefined ? { journal: journal.path } : {}),
    attestations,
    transactions: ordered,
    ...(stopped !== undefined ? { stopped } : {}),
    totals: {
      ...(Object.fromEntries(REFRESH_ATTESTATION_OUTCOMES.map((outcome) => [outcome, count(outcome)])) as Record<
        RefreshAttestationOutcome,
        number
      >),
      transactions: thisRun.length,
      gasUsed: thisRun.reduce((sum, t) => sum + BigInt(t.gasUsed), 0n).toString(),
      costWei: thisRun.reduce((sum, t) => sum + BigInt(t.costWei), 0n).toString(),
    },
  };
}

/** A journal's transaction as the outcome reports it. */
function transactionOf(record: JournalTransaction, fromJournal: boolean): RefreshTransaction {
  const receipt = record.receipt;
  return {
    batch: record.batch,
    nonce: record.nonce,
    hash: receipt?.hash ?? record.sent.at(-1)!.hash,
    sent: record.sent,
    status: receipt?.status ?? (record.state === "replaced" || record.state === "dropped" ? record.state : "pending"),
    attestations: record.agents.length,
    stored: Object.values(record.outcomes ?? {}).filter((o) => o === "stored").length,
    gasUsed: receipt?.gasUsed ?? "0",
    effectiveGasPrice: receipt?.effectiveGasPrice ?? "0",
    costWei: receipt?.costWei ?? "0",
    fromJournal,
  };
}

/** The pre-check's refusal in words: the contract's error, and for a revoked kid, which kid and what it means. */
function refusalOf(error: unknown, kid: string): string {
  const described = describeContractError(error);
  if (described.startsWith("RevokedSigningKey")) {
    return `revoked kid: the oracle has revoked the key "${kid}" the attestation is signed under (${described}); it is not pushed`;
  }
  return described;
}

/** `chain:id:registry` in its parts (a registry may hold colons). */
function splitAgent(agent: string): [string, string, string] {
  const [chain, agentId, ...registry] = agent.split(":");
  return [chain!, agentId!, registry.join(":")];
}

/** Fetches and verifies one agent's attestation, and builds its JWS call; never throws. */
async function freshAttestation(
  entry: RefreshPlanEntry,
  options: SendRefreshOptions,
): Promise<{ kid: string; jws: Hex } | { error: string }> {
  let body: unknown;
  try {
    body = await options.api.trustCheck({ id: BigInt(entry.agentId), chain: entry.chain, registry: entry.registry });
  } catch (error) {
    const status = error instanceof HttpRequestError ? ` (HTTP ${error.status})` : "";
    return { error: `the service gave no attestation${status}: ${messageOf(error)}` };
  }
  let verdict: Awaited<ReturnType<typeof verifyTrustAttestation>>;
  try {
    verdict = await verifyTrustAttestation(body, {
      issuer: options.issuer,
      jwks: options.jwks,
      ...(options.acceptedKids ? { acceptedKids: options.acceptedKids } : {}),
      ...(options.now ? { now: options.now() } : {}),
      expected: { agentId: entry.agentId, chain: entry.chain, registry: entry.registry },
    });
  } catch (error) {
    return { error: `the attestation could not be verified: ${messageOf(error)}` };
  }
  if (!verdict.valid) return { error: `the attestation does not verify (${verdict.reason}): ${verdict.message}` };
  try {
    const call = toAttestationCall(body, verdict, { chainSlugs: "unchecked" });
    if (call.form !== "jws" || call.jws === undefined) {
      return { error: "the service's response carries no JWS: only JWS attestations are sent in a batch (submitJwsAttestations)" };
    }
    return { kid: call.kid, jws: call.jws };
  } catch (error) {
    return { error: `the attestation cannot be submitted on-chain: ${messageOf(error)}` };
  }
}
