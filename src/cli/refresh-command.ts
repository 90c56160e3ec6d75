/**
 * `trustgate refresh`: brings an `AttestedTrustOracle` in line with the service by pushing fresh signed attestations
 * for the rows of a drift report that are due, and nothing else (`src/refresh/plan.ts` decides what is due;
 * `src/refresh/send.ts` sends). `--dry-run` prints the plan and sends nothing; the plan a dry run prints is the one a
 * real run at the same clock sends. Given `--rpc`, the dry run also prices the plan at the chain's current fee (it
 * reads the fees, sends nothing, needs no key).
 *
 * Output: the plan as a table (then, for a run that sends, what each attestation became) on stdout, or on stderr when
 * `--json -` takes stdout; the JSON report ({@link RefreshReport}) to the file `--json` names.
 *
 * Exit codes: 0 when everything due was pushed (or is already current on the oracle), or a dry run; 3 when some due
 * attestation was not pushed (refused by the oracle's pre-check, its kid revoked, or the service gave none that
 * verified); 2 on a usage error (a bad option, an unreadable report, a mainnet without `--confirm-mainnet`); 1 for an
 * unexpected failure; 4 when the fee ceiling (`--max-fee-per-gas`) or the budget (`--budget`) stopped the run, what was
 * not sent then reported as `stopped`.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { planRefresh, type RefreshPlan } from "../refresh/plan.js";
import { readRefreshInputReport } from "../refresh/report-input.js";
import { formatRefreshPlan } from "./format-refresh-plan.js";
import { REFRESH_HELP } from "./help.js";
import type { CliIo } from "./io.js";
import { parseRefreshArgs } from "./refresh-args.js";
import type { EstimateRefreshCostFunction, SendRefreshFunction } from "./refresh-connect.js";
import type { RefreshCostEstimate } from "../refresh/fees.js";
import { checkFileTarget } from "./file-target.js";
import { writeFile } from "node:fs/promises";

/** The JSON `trustgate refresh --json` writes. */
export interface RefreshReport {
  /** Report format version. */
  readonly version: 1;
  /** `dry-run` (nothing sent) or `sent`. */
  readonly mode: "dry-run" | "sent";
  /** The plan. */
  readonly plan: RefreshPlan;
  /** What was sent and what each attestation became (mode `sent` only). */
  readonly sent?: unknown;
  /** The plan's cost at the chain's current fee (a dry run given `--rpc`). */
  readonly cost?: Omit<RefreshCostEstimate, "summary">;
  /** The run's exit code. */
  readonly exitCode: number;
}

/**
 * Runs `trustgate refresh <argv>`.
 *
 * @param argv - The arguments after `refresh`.
 * @param cli - Streams and environment.
 * @param deps - The clock and the sender (default: `sendFromArgs`, loaded when a run sends).
 * @returns The exit code (see the module notes).
 * @throws {@link InvalidArgumentError} for a bad option, a report that cannot be read, or a `--json` target that
 *   cannot be written.
 */
export async function refreshCommand(
  argv: readonly string[],
  cli: CliIo,
  deps: { readonly now?: () => Date; readonly send?: SendRefreshFunction; readonly estimateCost?: EstimateRefreshCostFunction } = {},
): Promise<number> {
  const args = parseRefreshArgs(argv, { env: cli.env });
  if (args.kind === "help") {
    cli.stdout.write(REFRESH_HELP);
    return 0;
  }
  if (args.json !== undefined && args.json !== "-") await checkFileTarget("--json", args.json);
  let text: string;
  try {
    text = readFileSync(args.from, "utf8");
  } catch (error) {
    throw new InvalidArgumentError(`--from ${args.from}: cannot read the drift report (${messageOf(error)})`);
  }
  const input = readRefreshInputReport(text, `--from ${args.from}`);
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
    report = { version: 1, mode: "dry-run", plan, ...(cost ? { cost: figures as Omit<RefreshCostEstimate, "summary"> } : {}), exitCode: 0 };
  } else {
    const send = deps.send ?? (await import("./refresh-connect.js")).sendFromArgs;
    const result = await send(plan, args, cli.env);
    people.write(result.text);
    report = { version: 1, mode: "sent", plan, sent: result.json, exitCode: result.exitCode };
  }
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (args.json === "-") cli.stdout.write(json);
  else if (args.json !== undefined) await writeFile(args.json, json);
  return report.exitCode;
}
