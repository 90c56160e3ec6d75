/**
 * `trustgate refresh`: brings an `AttestedTrustOracle` in line with the service by pushing fresh signed attestations
 * for the rows of a drift report that are due, and nothing else. The report is one source of four (`--from`, `--watch`,
 * `--state`, `--gate`; `refresh-source-args.ts` and `src/refresh/source.ts`); `trustgate drift … --refresh` hands its
 * own report to {@link refreshFromReport}, the same run (`src/refresh/plan.ts` decides what is due;
 * `src/refresh/send.ts` sends). `--dry-run` prints the plan and sends nothing; the plan a dry run prints is the one a
 * real run at the same clock sends. Given `--rpc`, the dry run also prices the plan at the chain's current fee (it
 * reads the fees, sends nothing, needs no key).
 *
 * Output: the plan as a table (then, for a run that sends, what each attestation became) on stdout, or on stderr when
 * `--json -` takes stdout; the JSON report ({@link RefreshReport}) to the file `--json` names.
 *
 * Exit codes: 0 when everything due was pushed (or is already current on the oracle), or a dry run; 3 when some due
 * attestation was not pushed (refused by the oracle's pre-check, its kid revoked, or the service gave none that
 * verified); 4 when the run stopped short: the fee ceiling (`--max-fee-per-gas`) or the budget (`--budget`) stopped
 * it (what was not sent then reported as `stopped`), or the fresh drift run of `--watch`, `--state` or `--gate` could
 * not verify enough agents (the drift job's own exit 4: what is due is not all known; what was found due is still
 * pushed); 2 on a usage error (a bad option, an unreadable report, a mainnet without `--confirm-mainnet`); 1 for an
 * unexpected failure.
 *
 * @packageDocumentation
 */
import { writeFile } from "node:fs/promises";
import type { DriftReport } from "../drift/types.js";
import { exitCodeOf } from "../drift/verdict.js";
import type { RefreshCostEstimate } from "../refresh/fees.js";
import { planRefresh, type RefreshPlan } from "../refresh/plan.js";
import type { RefreshInputReport } from "../refresh/report-input.js";
import { type RefreshDriftRunner, resolveRefreshSource } from "../refresh/source.js";
import { checkFileTarget } from "./file-target.js";
import { formatRefreshPlan } from "./format-refresh-plan.js";
import { REFRESH_HELP } from "./help.js";
import type { CliIo } from "./io.js";
import { parseRefreshArgs, type RefreshRunArgs } from "./refresh-args.js";
import type { EstimateRefreshCostFunction, SendRefreshFunction } from "./refresh-connect.js";
import { refreshSourceOf } from "./refresh-source-args.js";

/** The JSON `trustgate refresh --json` writes. */
export interface RefreshReport {
  /** Report format version. */
  readonly version: 1;
  /** `dry-run` (nothing sent) or `sent`. */
  readonly mode: "dry-run" | "sent";
  /** Where the rows came from: the source, what it read, and the exit code of the fresh drift run it made, if any. */
  readonly source: {
    readonly kind: RefreshRunArgs["source"]["kind"];
    readonly notes: readonly string[];
    readonly driftExitCode?: number;
  };
  /** The plan. */
  readonly plan: RefreshPlan;
  /** What was sent and what each attestation became (mode `sent` only). */
  readonly sent?: unknown;
  /** The plan's cost at the chain's current fee (a dry run given `--rpc`). */
  readonly cost?: Omit<RefreshCostEstimate, "summary">;
  /** The run's exit code. */
  readonly exitCode: number;
}

/** What {@link refreshCommand} and {@link refreshFromReport} call, replaceable in tests. */
export interface RefreshCommandDependencies {
  /** The clock; default the system clock. */
  readonly now?: () => Date;
  /** The sender; default `sendFromArgs`, loaded when a run sends. */
  readonly send?: SendRefreshFunction;
  /** The dry run's pricing of the plan (given `--rpc`); default `estimateCostFromArgs`, loaded when needed. */
  readonly estimateCost?: EstimateRefreshCostFunction;
  /** The fresh drift run of `--watch`, `--state` and `--gate`; default `runDrift`. */
  readonly runDrift?: RefreshDriftRunner;
}

/**
 * Runs `trustgate refresh <argv>`.
 *
 * @param argv - The arguments after `refresh`.
 * @param cli - Streams and environment.
 * @param deps - The clock, the sender and the drift run.
 * @returns The exit code (see the module notes).
 * @throws {@link InvalidArgumentError} for a bad option, a report or watch list that cannot be read, or a `--json`
 *   target that cannot be written; `ConfigurationError` for a state, gate or drift run that cannot be used.
 */
export async function refreshCommand(argv: readonly string[], cli: CliIo, deps: RefreshCommandDependencies = {}): Promise<number> {
  const args = parseRefreshArgs(argv, { env: cli.env });
  if (args.kind === "help") {
    cli.stdout.write(REFRESH_HELP);
    return 0;
  }
  if (args.json !== undefined && args.json !== "-") await checkFileTarget("--json", args.json);
  const resolved = await resolveRefreshSource(refreshSourceOf(args), {
    ...(deps.runDrift ? { runDrift: deps.runDrift } : {}),
    ...(deps.now ? { hooks: { now: deps.now } } : {}),
  });
  for (const note of resolved.notes) cli.stderr.write(`trustgate: ${note}\n`);
  const source = {
    kind: args.source.kind,
    notes: resolved.notes,
    ...(resolved.drift ? { driftExitCode: exitCodeOf(resolved.drift) } : {}),
  };
  return (await refreshFromReport(resolved.report, args, cli, deps, source)).exitCode;
}

/**
 * Plans a refresh from a drift report, prints the plan, sends it unless `--dry-run`, and writes the JSON report: the
 * run of `trustgate refresh` once its source is resolved, and of `trustgate drift … --refresh` after the scan.
 *
 * @param input - The drift report.
 * @param args - The run's arguments (push rules, endpoints, `--dry-run`, `--confirm-mainnet`, `--json`).
 * @param cli - Streams and environment.
 * @param deps - The clock and the sender.
 * @param source - What the report's `source` says; a `driftExitCode` of 4 (the fresh drift run could not verify
 *   enough) makes an exit code of 0 a 4.
 * @returns The refresh's exit code (0, 3 or 4, see the module notes) and its JSON report.
 * @throws `ConfigurationError` from the sender before anything is sent (no key, no attested oracle, a mainnet without
 *   `--confirm-mainnet`).
 */
export async function refreshFromReport(
  input: RefreshInputReport | DriftReport,
  args: RefreshRunArgs,
  cli: CliIo,
  deps: RefreshCommandDependencies,
  source: RefreshReport["source"],
): Promise<{ readonly exitCode: number; readonly report: RefreshReport }> {
  const plan = planRefresh(input, { ...args.plan, now: (deps.now ?? (() => new Date()))() });
  const people = args.json === "-" ? cli.stderr : cli.stdout;
  people.write(formatRefreshPlan(plan));

  let report: RefreshReport;
  if (args.dryRun) {
    let cost: RefreshCostEstimate | undefined;
    if (args.rpcUrl !== undefined && plan.totals.batches > 0) {
      const estimate = deps.estimateCost ?? (await import("./refresh-connect.js")).estimateCostFromArgs;
      cost = await estimate(plan, args);
      people.write(`${cost.summary}\n`);
    }
    people.write("Dry run: nothing sent.\n");
    const { summary: _summary, ...figures } = cost ?? { summary: "" };
    report = {
      version: 1,
      mode: "dry-run",
      source,
      plan,
      ...(cost ? { cost: figures as Omit<RefreshCostEstimate, "summary"> } : {}),
      exitCode: unknownDue(0, source),
    };
  } else {
    const send = deps.send ?? (await import("./refresh-connect.js")).sendFromArgs;
    const result = await send(plan, args, cli.env);
    people.write(result.text);
    const unverified = unverifiedSkips(plan);
    if (unverified.length > 0) {
      people.write(
        `Not pushed: ${unverified.length} agent${unverified.length === 1 ? "" : "s"} out of line with no attestation that verified (${unverified.map((s) => `${s.agent} ${s.status}`).join(", ")}): see the plan's skipped rows\n`,
      );
    }
    const exitCode = result.exitCode === 0 && unverified.length > 0 ? 3 : result.exitCode;
    report = { version: 1, mode: "sent", source, plan, sent: result.json, exitCode: unknownDue(exitCode, source) };
  }
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (args.json === "-") cli.stdout.write(json);
  else if (args.json !== undefined) await writeFile(args.json, json);
  return { exitCode: report.exitCode, report };
}

/**
 * The rows skipped because the service's attestation did not verify (`invalid-attestation`, or an `error` fetching
 * it): the pusher could not bring them in line, so a run that sends is not green (exit 3). A row whose agent the
 * service holds no attestation for (`missing-attestation`) is not one of them: there is nothing to push.
 */
function unverifiedSkips(plan: RefreshPlan): RefreshPlan["skipped"] {
  return plan.skipped.filter(
    (skip) => skip.skip === "no-attestation" && (skip.status === "invalid-attestation" || skip.status === "error"),
  );
}

/** A fresh drift run that could not verify enough leaves what is due unknown: a run that is otherwise clean says so with 4. */
function unknownDue(exitCode: number, source: RefreshReport["source"]): number {
  return source.driftExitCode === 4 && exitCode === 0 ? 4 : exitCode;
}
