/**
 * `refreshAttestedOracle`: the pusher of the kit, as a library — what `trustgate refresh` runs. It keeps an
 * `AttestedTrustOracle` in line with the service the way Pyth's price pusher keeps its feeds: the drift job is the
 * detector (its JSON report says, per agent, what the oracle answers, what the service signs, whether the gate's
 * decision flips, and whether a signed attestation could refresh the record: `row.refresh`), and this module pushes.
 *
 * How it sits in the kit's layers (data flows one way, nothing here imports the command line or the harness):
 *
 * | step | module | reads |
 * |---|---|---|
 * | choose the rows (one source) | `source.ts` (`watch-list.ts`, `state-agents.ts`, `gate-agents.ts`) | a drift report as it is; or a fresh drift run (`runDrift`, a list reading the attested oracle) over a watch list, the agents of the drift job's state file, or the agents a gate's oracles hold records of under its agent domain |
 * | read the drift report | `report-input.ts` | the JSON `trustgate drift --json` writes (or a `DriftReport` from `runDrift`) |
 * | plan: what is due, why, in which batches | `plan.ts` | `row.refresh` (src/drift's assessment: never a no-op), `row.decision`, `row.onchain`, `row.scoreDelta` |
 * | fetch a fresh attestation per due agent | `send.ts` | the API client (`src/api`), `verifyTrustAttestation` and `toAttestationCall` (`src/attestation`) |
 * | pre-check each alone, send each batch | `send.ts` | `submitJwsAttestations` of the attested oracle's ABI (`src/generated`), the mainnet guard (`src/deploy/sender.ts`) |
 * | fees under a ceiling, raised for a replacement | `fees.ts` | the chain's `estimateFeesPerGas` and latest base fee |
 * | the run's budget in wei or gas | `budget.ts` | each transaction's estimate, then its receipt |
 * | nonces, replacement of a stuck transaction, confirmations | `transaction.ts` | the sender's pending count, receipts, block numbers |
 * | the journal that makes a run resumable | `journal.ts` | its own file, written atomically |
 * | word it, exit code | `src/cli/refresh-*.ts` | the plan and the send outcome |
 *
 * Like Pyth's pusher, the decision (the plan) is a pure function apart from the chain, so the dry run shows exactly
 * what the run sends; unlike it, a batch is never sent with an element the chain would refuse: the contract's batch
 * reverts whole on a refused element, so each attestation is first simulated alone (`eth_call`), and a no-op (a record
 * at least as new is there) is dropped too.
 *
 * The command's JSON report (`trustgate refresh --json`): `{ version: 1, mode: "dry-run" | "sent", source, plan,
 * cost?, sent?, exitCode }`, where `source` is `{ kind, notes, driftExitCode? }` (the source, what it read, and the
 * exit code of its fresh drift run), `plan` is {@link RefreshPlan}, `cost` the dry run's price of the plan at the
 * current fee, and `sent` is {@link RefreshSendOutcome} (each attestation's outcome, every transaction of the journal
 * with each hash sent and its fees, what stopped the run). Its exit codes: 0 when everything due was stored or is
 * already current (and for a dry run), 3 when some due attestation was refused (a revoked kid included), not fetched,
 * or had its nonce taken by another sender, 4 when the run stopped short (the fee ceiling, `maxFeePerGas`, or the
 * budget stopped it; or a source's fresh drift run could not verify enough agents, so what is due is not all known),
 * 2 for a usage error (a mainnet without `--confirm-mainnet` included), 1 for an unexpected failure. `trustgate drift
 * … --refresh` exits with the larger of the scan's code and the refresh's.
 *
 * Safe to kill and rerun: with a `journal`, every transaction is recorded before it is sent and its outcome after its
 * receipt; a rerun settles what the journal has in flight and pushes no agent it has stored or in flight. A
 * transaction the journal has in flight is waited for, not replaced, by the rerun (the journal keeps no signed
 * attestation); one the node no longer knows, its nonce unused, counts as dropped and its agents are pushed again.
 *
 * The plan stays pure: its cost at the current fee is priced apart (`estimateRefreshCost` of `fees.ts`, what the
 * command's dry run prints given `--rpc`).
 *
 * Around it: this function's package entry, `trustgate/refresh` (`entry.ts`), and the drift page's section of a
 * night's refreshes (`trustgate drift --html … --refresh-report refresh.json`: `night-refreshes.ts` reads the
 * command's JSON report back, `src/report-html/refresh-section.ts` writes the section).
 *
 * The read the pushes make cheap: a deployment with this pusher running may deploy `HeldFirstAttestedTrustOracle`
 * (`attestedOracle.heldFirstRecordMaxAge` in `deploy/config.json`), whose gated read of a pushed record costs 1.07× a
 * gate reading the Base oracle (docs/onchain-attestations.md, "The gated read").
 *
 * Not built yet: reading an oracle's read policy (`heldFirstRecordMaxAge()`, 0 for the default) here or in the drift
 * job, so that a held record is pushed before it passes that age.
 *
 * @packageDocumentation
 */
import type { RefreshInputReport } from "./report-input.js";
import { resolveRefreshSource, type RefreshDriftRunner, type RefreshSource } from "./source.js";
import { planRefresh, type RefreshPlan, type RefreshPlanOptions } from "./plan.js";
import { type RefreshSendOutcome, sendRefreshPlan, type SendRefreshOptions } from "./send.js";

/** What {@link refreshAttestedOracle} takes: the push rules and batch size, and where to push. */
export interface RefreshAttestedOracleOptions extends RefreshPlanOptions, Omit<SendRefreshOptions, "now"> {
  /** Plan only, send nothing (`--dry-run`); default false. */
  readonly dryRun?: boolean;
}

/** What {@link refreshAttestedOracle} returns. */
export interface RefreshAttestedOracleResult {
  /** What was due, why, and the batches. */
  readonly plan: RefreshPlan;
  /** What was sent and what each attestation became; absent for a dry run. */
  readonly sent?: RefreshSendOutcome;
}

/**
 * Plans a refresh from a drift report, or from a source that makes one ({@link RefreshSource}: a watch list, a drift
 * state's agents, a gate's agents, each by a fresh drift run), and, unless `dryRun`, sends it (see the module notes).
 *
 * @param report - The drift report (`readRefreshInputReport` of its JSON, or `runDrift`'s report), or a source.
 * @param options - Push rules (`maxAgeSeconds`, `minChange`, `gasLimit`, clock), clients, attested oracle, service,
 *   issuer and keys, `confirmMainnet`, `dryRun`.
 * @returns The plan, and what was sent.
 * @throws `InvalidArgumentError` for a push rule out of range; `ConfigurationError` for a mainnet without
 *   `confirmMainnet` or a chain other than the report's, or a source that cannot be resolved (`resolveRefreshSource`),
 *   before anything is sent.
 *
 * @example
 * A keeper script beside the nightly drift job: it reads last night's report and pushes what is due. The key comes
 * from the environment and is never printed.
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { type Address, createPublicClient, createWalletClient, type Hex, http, type PublicClient } from "viem";
 * import { privateKeyToAccount } from "viem/accounts";
 * import { base } from "viem/chains";
 * import { createJwksResolver, createTrustApiClient } from "trustgate";
 * import { readRefreshInputReport, refreshAttestedOracle } from "trustgate/refresh";
 *
 * const file = process.env.DRIFT_REPORT ?? "report.json"; // written by `trustgate drift --json report.json`
 * const apiUrl = process.env.TRUSTGATE_API_URL ?? "https://rnwy.com";
 * const transport = http(process.env.BASE_RPC_URL ?? "http://127.0.0.1:8545");
 * const account = privateKeyToAccount(process.env.DEPLOYER_PRIVATE_KEY as Hex);
 *
 * const report = readRefreshInputReport(await readFile(file, "utf8"), file);
 * const { plan, sent } = await refreshAttestedOracle(report, {
 *   clients: {
 *     wallet: createWalletClient({ account, chain: base, transport }),
 *     public: createPublicClient({ chain: base, transport }) as PublicClient,
 *   },
 *   attestedOracle: process.env.ATTESTED_ORACLE as Address,
 *   api: createTrustApiClient({ baseUrl: apiUrl }),
 *   issuer: new URL(apiUrl).origin,
 *   jwks: createJwksResolver({ url: `${apiUrl}/.well-known/jwks.json` }),
 *   confirmMainnet: true, // Base is a mainnet: say so, or nothing is sent
 *   minChange: 5,
 * });
 * const totals = sent?.totals;
 * console.log(`${plan.totals.due} due: ${totals?.stored} stored, ${totals?.refused} refused, in ${totals?.transactions} transactions`);
 * ```
 */
export async function refreshAttestedOracle(
  report: RefreshInputReport | RefreshSource,
  options: RefreshAttestedOracleOptions & { readonly runDrift?: RefreshDriftRunner },
): Promise<RefreshAttestedOracleResult> {
  const input =
    "kind" in report ? (await resolveRefreshSource(report, options.runDrift ? { runDrift: options.runDrift } : {})).report : report;
  const plan = planRefresh(input, options);
  if (options.dryRun === true) return { plan };
  const { now, runDrift: _runDrift, ...rest } = options;
  const sent = await sendRefreshPlan(plan, { ...rest, ...(now ? { now: () => now } : {}) });
  return { plan, sent };
}
