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
 * | word it, exit code | `src/cli/refresh-*.ts` | the plan and the send outcome |
 *
 * Like Pyth's pusher, the decision (the plan) is a pure function apart from the chain, so the dry run shows exactly
 * what the run sends; unlike it, a batch is never sent with an element the chain would refuse: the contract's batch
 * reverts whole on a refused element, so each attestation is first simulated alone (`eth_call`), and a no-op (a record
 * at least as new is there) is dropped too.
 *
 * The command's JSON report (`trustgate refresh --json`): `{ version: 1, mode: "dry-run" | "sent", source, plan,
 * sent?, exitCode }`, where `source` is `{ kind, notes, driftExitCode? }` (the source, what it read, and the exit code
 * of its fresh drift run), `plan` is {@link RefreshPlan} and `sent` is {@link RefreshSendOutcome}. Its exit codes: 0
 * when everything due was stored or is already current (and for a dry run), 3 when some due attestation was refused or
 * not fetched, 4 when a source's fresh drift run could not verify enough agents (what is due is then not all known; a
 * budget or fee ceiling that stops a run will say 4 too, not built yet), 2 for a usage error (a mainnet without
 * `--confirm-mainnet` included), 1 for an unexpected failure. `trustgate drift … --refresh` exits with the larger of
 * the scan's code and the refresh's.
 *
 * Not built yet (the next steps of issue 33): EIP-1559 fee ceilings (`--max-fee-per-gas`) and a `--budget`, one nonce
 * manager with replacement of a stuck transaction, `--confirmations`, the state file that makes a killed run
 * resumable without pushing twice, the keystore, the page's section, and a package entry for this function.
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
