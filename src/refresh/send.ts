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
 * Not yet here (the next steps): fee ceilings and a budget, replacement of a stuck transaction, waiting for
 * more than one confirmation, and a state file that makes a killed run resumable.
 *
 * @packageDocumentation
 */
import { type Address, type Hash, type Hex, parseEventLogs } from "viem";
import type { TrustCheckParameters } from "../api/client.js";
import type { JwksResolver } from "../attestation/jwks.js";
import { toAttestationCall } from "../attestation/onchain-call.js";
import { verifyTrustAttestation } from "../attestation/verify.js";
import { MAINNET_CHAIN_IDS } from "../deploy/sender.js";
import { ConfigurationError, HttpRequestError, messageOf } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import type { AttestedOracleClients } from "../oracle/attested-oracle.js";
import { describeContractError } from "../oracle/revert-reason.js";
import type { RefreshPlan, RefreshPlanEntry } from "./plan.js";

/**
 * What became of one due attestation:
 *
 * | outcome | meaning |
 * |---|---|
 * | `stored` | sent, and its receipt holds its record's `RecordAdded` or `RecordUpdated` |
 * | `already-current` | the pre-check said the oracle would store nothing (a record at least as new is there): not sent |
 * | `no-op` | sent, but its receipt stores nothing for it (another writer came first between pre-check and block) |
 * | `refused` | the pre-check reverted: the oracle refuses it (`error` names the contract's error): not sent |
 * | `not-fetched` | the service gave no attestation that verified, or one that cannot be submitted in a batch: not sent |
 */
export type RefreshAttestationOutcome = "stored" | "already-current" | "no-op" | "refused" | "not-fetched";

/** One due attestation's outcome. */
export interface RefreshAttestationResult {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The plan's batch it belonged to. */
  readonly batch: number;
  readonly outcome: RefreshAttestationOutcome;
  /** The key id it was signed under, when one was fetched. */
  readonly kid?: string;
  /** Why, for `refused` (the contract's error with its values) and `not-fetched`. */
  readonly error?: string;
  /** The transaction that carried it (`stored`, `no-op`). */
  readonly transaction?: Hash;
}

/** One `submitJwsAttestations` transaction. */
export interface RefreshTransaction {
  /** The plan's batch. */
  readonly batch: number;
  readonly hash: Hash;
  /** Attestations it carried. */
  readonly attestations: number;
  /** Of them, stored. */
  readonly stored: number;
  /** Gas used (decimal). */
  readonly gasUsed: string;
  /** Price paid per gas, in wei (decimal). */
  readonly effectiveGasPrice: string;
  /** `gasUsed × effectiveGasPrice`, in wei (decimal). */
  readonly costWei: string;
}

/** What {@link sendRefreshPlan} returns. */
export interface RefreshSendOutcome {
  /** The attested oracle written to. */
  readonly attestedOracle: Address;
  readonly chainId: number;
  /** The sender. */
  readonly from: Address;
  /** Every due attestation, in the plan's order. */
  readonly attestations: readonly RefreshAttestationResult[];
  /** Every transaction sent, in order. */
  readonly transactions: readonly RefreshTransaction[];
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
export interface SendRefreshOptions {
  /** The sender's wallet client and a public client of the same chain. */
  readonly clients: AttestedOracleClients;
  /** The attested oracle to push to. */
  readonly attestedOracle: Address;
  /** The service to fetch fresh attestations from. */
  readonly api: RefreshAttestationSource;
  /** The issuer the attestations must name, and its keys. */
  readonly issuer: string;
  readonly jwks: JwksResolver;
  /** Allow sending on a mainnet ({@link MAINNET_CHAIN_IDS}); default false. */
  readonly confirmMainnet?: boolean;
  /** Clock of the verifier (an attestation expired at it is not sent); default now. */
  readonly now?: () => Date;
  /** Called after each transaction's receipt (progress, a state file). */
  readonly onTransaction?: (transaction: RefreshTransaction) => void;
}

/** A due attestation that passed the pre-check. */
interface Ready {
  readonly entry: RefreshPlanEntry;
  readonly kid: string;
  readonly jws: Hex;
}

/**
 * Sends a refresh plan (see the module notes): batch by batch, fresh attestations fetched and verified, each
 * pre-checked alone with `eth_call`, the rest sent in one `submitJwsAttestations` transaction, its receipt decoded.
 *
 * @param plan - The plan (`planRefresh`).
 * @param options - Clients, attested oracle, service, issuer and keys, mainnet confirmation.
 * @returns Each attestation's outcome and each transaction (one a batch; two or more when `eth_estimateGas` puts a
 *   batch over the plan's gas limit, which is then split in halves).
 * @throws {@link ConfigurationError} before anything is fetched or sent when the chain is a mainnet without
 *   `confirmMainnet`, or another chain than the drift report's; viem's error when a transaction cannot be sent or its
 *   receipt is not found.
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
  const results = new Map<string, RefreshAttestationResult>();
  const transactions: RefreshTransaction[] = [];

  for (const batch of plan.batches) {
    const entries = plan.due.filter((entry) => entry.batch === batch.index);
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
          error: describeContractError(error),
        });
        continue;
      }
      ready.push({ entry, kid: fetched.kid, jws: fetched.jws });
    }
    if (ready.length === 0) continue;
    await sendChunk(ready, batch.index);
  }

  /**
   * Sends attestations that passed the pre-check in one transaction, after `eth_estimateGas`: a chunk estimated over
   * the plan's gas limit is split in two halves, each sent the same way (the plan's estimates are upper bounds
   * measured on the devnet, so this is rare).
   */
  async function sendChunk(ready: readonly Ready[], batchIndex: number): Promise<void> {
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
      await sendChunk(ready.slice(0, half), batchIndex);
      await sendChunk(ready.slice(half), batchIndex);
      return;
    }
    const hash = await clients.wallet.writeContract({ ...call, gas, chain: clients.wallet.chain });
    const receipt = await clients.public.waitForTransactionReceipt({ hash });
    const written = new Set<string>();
    if (receipt.status === "success") {
      for (const log of parseEventLogs({ abi: attestedTrustOracleAbi, logs: receipt.logs, eventName: ["RecordAdded", "RecordUpdated"] })) {
        if (log.address.toLowerCase() === attestedOracle.toLowerCase()) written.add(log.args.key.toLowerCase());
      }
    }
    let stored = 0;
    for (const { entry, kid } of ready) {
      const key = await clients.public.readContract({
        address: attestedOracle,
        abi: attestedTrustOracleAbi,
        functionName: "recordKey",
        args: [BigInt(entry.agentId), BigInt(entry.chainId ?? 0), entry.registry],
      });
      const outcome = written.has(key.toLowerCase()) ? "stored" : receipt.status === "success" ? "no-op" : "refused";
      if (outcome === "stored") stored++;
      results.set(entry.agent, {
        agent: entry.agent,
        batch: batchIndex,
        outcome,
        kid,
        transaction: hash,
        ...(outcome === "refused" ? { error: "the batch transaction was mined but reverted" } : {}),
      });
    }
    const transaction: RefreshTransaction = {
      batch: batchIndex,
      hash,
      attestations: ready.length,
      stored,
      gasUsed: receipt.gasUsed.toString(),
      effectiveGasPrice: receipt.effectiveGasPrice.toString(),
      costWei: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
    };
    transactions.push(transaction);
    options.onTransaction?.(transaction);
  }

  const attestations = plan.due.map((entry) => results.get(entry.agent)!);
  const count = (outcome: RefreshAttestationOutcome) => attestations.filter((r) => r.outcome === outcome).length;
  return {
    attestedOracle,
    chainId,
    from: account.address,
    attestations,
    transactions,
    totals: {
      stored: count("stored"),
      "already-current": count("already-current"),
      "no-op": count("no-op"),
      refused: count("refused"),
      "not-fetched": count("not-fetched"),
      transactions: transactions.length,
      gasUsed: transactions.reduce((sum, t) => sum + BigInt(t.gasUsed), 0n).toString(),
      costWei: transactions.reduce((sum, t) => sum + BigInt(t.costWei), 0n).toString(),
    },
  };
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
