/**
 * The `trustgate` command line: `trustgate drift [options]`, `trustgate doctor --api <url> [options]`,
 * `trustgate accept …` (a baseline of known problems, `accept-command.ts`), `trustgate refresh --from <report>`
 * (pushes fresh attestations to an attested oracle, `refresh-command.ts`, with its own exit codes), `trustgate watch`
 * (follows the chain as a service until SIGTERM, `watch-command.ts`), `trustgate --help`, `trustgate --version`.
 * `doctor` is described in `doctor-command.ts`.
 *
 * `trustgate` with no command prints the help on stderr and exits 2 (a usage error); `trustgate help drift`
 * and `trustgate drift --help` print the drift help. `trustgate drift --demo` starts the embedded environment
 * (a local Base chain and a local signing trust service, from the harness, loaded lazily because it brings up
 * Hardhat) for the parts `--rpc`/`--api` do not name, says so on stderr, and closes it at the end whatever
 * happens (see `demo.ts`).
 *
 * Exit codes: after a scan, `exitCodeOf` in `src/drift/report.ts` decides (the one rule): 4 when the run
 * could not verify enough to be trusted (more agents in `error` or `missing-attestation` than `--max-errors`
 * allows, default 1 % of the scanned agents, or no agent scanned at all) — 4 wins over 3; else 3 for at least
 * one decision flip or invalid attestation; else 0. A report document that cannot be written after the scan keeps
 * that code when it is 3 or 4 and makes a 0 a 1 (`exitCodeAfterWrites` in `write-outputs.ts`); the summary and the
 * verdict line are printed first, then one line per document not written. Without a report: 2 for a usage or configuration error
 * found before the scan, 1 for an unexpected failure (`exitCodeForError` in `error-exit.ts`), 130 when Ctrl-C
 * interrupts a run (`interrupt.ts`: one line on stderr says whether `--state` lets it continue). `doctor` numbers
 * alike: 3 when a check differs (wins over 4), 4 when one could not be made, else 0; 2 and 1 as for drift.
 *
 * `trustgate drift … --refresh`: once the scan's documents are written, its report (every row, kept for it) goes to
 * the refresh's own run (`refreshFromReport` of `refresh-command.ts`), pushing to `--attested-oracle`. The exit code is
 * the larger of the scan's (above) and the refresh's (0, 3 when a due attestation was not pushed): 4 when either
 * stopped short, else 3 when the scan found a flip or an invalid attestation or an attestation was not pushed, else 0.
 * A refresh that cannot start (no `DEPLOYER_PRIVATE_KEY`, a mainnet without `--confirm-mainnet`) is 2, after the
 * scan's documents are written.
 *
 * @packageDocumentation
 */
import type { DriftConfig } from "../drift/config.js";
import type { DriftHooks } from "../drift/run.js";
import type { DriftReport, DriftReportHead, DriftRow } from "../drift/types.js";
import { exitCodeOf } from "../drift/verdict.js";
import { InvalidArgumentError } from "../errors.js";
import { type DemoLoader, demoNotice, loadDemoEnvironment } from "./demo.js";
import type { EmbeddedEnvironment, StartEmbeddedEnvironment } from "./harness-exports.js";
import { parseDriftArgs } from "./drift-args.js";
import { resolveDriftConfig } from "./drift-config.js";

export type { EmbeddedEnvironment, StartEmbeddedEnvironment } from "./harness-exports.js";
import { exitCodeForError, formatError } from "./error-exit.js";
import { formatProjection } from "./format-projection.js";
import { onInterrupt } from "./interrupt.js";
import { doctorCommand, type DoctorCommandDependencies } from "./doctor-command.js";
import { ACCEPT_HELP, DOCTOR_HELP, DRIFT_HELP, MAIN_HELP, REFRESH_HELP, WATCH_HELP } from "./help.js";
import { type WatchCommandDependencies, watchCommand } from "./watch-command.js";
import { type RefreshCommandDependencies, refreshCommand } from "./refresh-command.js";
import { refreshAfterDrift } from "./drift-refresh.js";
import { acceptCommand } from "./accept-command.js";
import { type CliIo, isFlagSet, processIo } from "./io.js";
import { createProgressBar, shouldShowProgress } from "./progress.js";
import { createReportStream } from "./report-stream.js";
import { guardStdout } from "./stdout-guard.js";
import { TRUSTGATE_VERSION } from "../generated/version.js";
import { checkOutputTargets, exitCodeAfterWrites, stdoutIsTaken, writeStreamedOutputs } from "./write-outputs.js";
import { checkFileTarget } from "./file-target.js";
import { readBaselineFile } from "./baseline-file.js";
import { readRefreshReportFile } from "./refresh-report-file.js";

/**
 * Runs a drift job (the signature of `runDrift` from `src/drift/run.ts`). The command line asks it to hand each
 * row to `hooks.onRow` and keep none (`keepRows: false`); a stand-in that returns its rows in the report instead is
 * written the same way.
 */
export type RunDriftFunction = (config: DriftConfig, hooks?: DriftHooks) => Promise<DriftReport | DriftReportHead>;

/** What {@link main} calls, replaceable in tests. */
export interface MainDependencies {
  /** Default: `runDrift` from `src/drift/run.ts`, imported when a run starts. */
  readonly runDrift?: RunDriftFunction;
  /** Default: `startDemoDriftEnvironment` from the package's `trustgate/harness` entry, loaded only for `--demo`. */
  readonly startEmbedded?: StartEmbeddedEnvironment;
  /** How `--demo` finds Hardhat and the harness when `startEmbedded` is not given (see `demo.ts`). */
  readonly demoLoader?: DemoLoader;
  /** Clock, for the default audit seed and the run; default the system clock. */
  readonly now?: () => Date;
  /** Replacements for `trustgate doctor` (its run, how it finds the harness). */
  readonly doctor?: Omit<DoctorCommandDependencies, "now">;
  /** Replacements for `trustgate refresh` and `drift --refresh` (the sender, the fresh drift run of a source). */
  readonly refresh?: Omit<RefreshCommandDependencies, "now">;
  /** Replacements for `trustgate watch` (the loop, the stop signals). */
  readonly watch?: Omit<WatchCommandDependencies, "now">;
}

/** The commands, as messages list them. */
const COMMANDS = "drift, doctor, accept, refresh, watch";

/**
 * Runs the command line.
 *
 * @param argv - Arguments after the program name (`process.argv.slice(2)`).
 * @param io - Streams, environment and terminal facts (default: the process's own).
 * @param deps - Replacements of the run and the embedded environment, for tests.
 * @returns The exit code: 0, 3, 4, 2 or 1 (see the module notes). Never throws.
 */
export async function main(argv: readonly string[], io: Partial<CliIo> = {}, deps: MainDependencies = {}): Promise<number> {
  const cli: CliIo = { ...processIo(), ...io };
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      cli.stderr.write(MAIN_HELP);
      return 2;
    }
    if (command === "--help" || command === "-h" || command === "help") {
      if (rest.length === 0) cli.stdout.write(MAIN_HELP);
      else if (rest.length === 1 && rest[0] === "drift") cli.stdout.write(DRIFT_HELP);
      else if (rest.length === 1 && rest[0] === "doctor") cli.stdout.write(DOCTOR_HELP);
      else if (rest.length === 1 && rest[0] === "accept") cli.stdout.write(ACCEPT_HELP);
      else if (rest.length === 1 && rest[0] === "refresh") cli.stdout.write(REFRESH_HELP);
      else if (rest.length === 1 && rest[0] === "watch") cli.stdout.write(WATCH_HELP);
      else throw new InvalidArgumentError(noHelpMessage(rest));
      return 0;
    }
    if (command === "--version") {
      cli.stdout.write(`${TRUSTGATE_VERSION}\n`);
      return 0;
    }
    if (command === "doctor") return await doctorCommand(rest, cli, { ...deps.doctor, ...(deps.now ? { now: deps.now } : {}) });
    if (command === "accept") return await acceptCommand(rest, cli, deps.now);
    if (command === "refresh") return await refreshCommand(rest, cli, { ...(deps.now ? { now: deps.now } : {}), ...deps.refresh });
    if (command === "watch") return await watchCommand(rest, cli, { ...(deps.now ? { now: deps.now } : {}), ...deps.watch });
    if (command !== "drift") {
      const hint = command.startsWith("-") ? "give the command first: trustgate drift [options]" : `commands: ${COMMANDS}`;
      throw new InvalidArgumentError(`Unknown command ${shownCommand(command)}(${hint}; see trustgate --help)`);
    }
    return await driftCommand(rest, cli, deps);
  } catch (error) {
    cli.stderr.write(formatError(error, isFlagSet(cli.env, "TRUSTGATE_DEBUG")));
    return exitCodeForError(error);
  }
}

/**
 * How an unknown command is quoted: an option without its value (`--api-key=<key>` given before the command is
 * shown as `--api-key`: the value may be a secret), a word as it is, anything else not at all.
 */
function shownCommand(command: string): string {
  const name = command.startsWith("-") ? command.split("=")[0]! : command;
  return /^-{0,2}[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}$/.test(name) ? `"${name}" ` : "";
}

/**
 * The message for `trustgate help <args>` that names no known command. It quotes a single word only: the arguments
 * may be a whole invocation, `--api-key <key>` included, and a secret is never echoed.
 */
function noHelpMessage(rest: readonly string[]): string {
  const [topic] = rest;
  if (rest.length === 1 && topic !== undefined && /^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(topic)) {
    return `No help for "${topic}" (commands: ${COMMANDS})`;
  }
  return `help takes one command name, got ${rest.length} argument${rest.length === 1 ? "" : "s"} (commands: ${COMMANDS}; see trustgate --help)`;
}

async function driftCommand(argv: readonly string[], cli: CliIo, deps: MainDependencies): Promise<number> {
  const args = parseDriftArgs(argv, { env: cli.env, ...(deps.now ? { now: deps.now } : {}) });
  if (args.kind === "help") {
    cli.stdout.write(DRIFT_HELP);
    return 0;
  }
  await checkOutputTargets(args.output);
  if (args.settings.state !== undefined) await checkFileTarget("--state", args.settings.state);
  if (args.refresh?.json !== undefined && args.refresh.json !== "-") await checkFileTarget("--refresh-json", args.refresh.json);
  const baseline = args.accept === undefined ? undefined : readBaselineFile(args.accept);
  const refreshes = args.output.refreshReport === undefined ? undefined : readRefreshReportFile(args.output.refreshReport);
  const notice = (text: string) => {
    if (!args.output.quiet) cli.stderr.write(`trustgate: ${text}\n`);
  };

  let embedded: EmbeddedEnvironment | undefined;
  const restoreConsole = guardStdout(cli.stderr, stdoutIsTaken(args.output));
  const progress = createProgressBar({
    stream: cli.stderr,
    enabled: shouldShowProgress({ isTTY: cli.isTTY, ci: args.output.ci, jsonToStdout: args.output.json === "-", quiet: args.output.quiet }),
  });
  // Rows go to disk as they are produced; the documents are written from there at the end (see report-stream.ts).
  const rows = createReportStream({
    json: args.output.json,
    markdown: args.output.markdown,
    markdownRows: args.output.markdownRows,
    html: args.output.html,
    refreshes,
    tableRows: args.output.tableRows,
    stdout: cli.stdout,
  });
  // Ctrl-C aborts the run first (the state file records the interruption at once), then the process exits 130.
  const interrupt = new AbortController();
  const stopHandlingInterrupt = onInterrupt({
    stderr: cli.stderr,
    stateFile: args.settings.state,
    before: () => {
      progress.finish();
      interrupt.abort(new Error("interrupted (Ctrl-C)"));
    },
  });
  try {
    if (args.embedded.chain || args.embedded.api) {
      const start = deps.startEmbedded ?? (await loadDemoEnvironment(deps.demoLoader));
      notice(demoNotice(args));
      embedded = await start(deps.now ? { now: deps.now() } : {});
    }
    const config = { ...resolveDriftConfig(args, embedded), ...(baseline ? { baseline } : {}) };
    // --refresh plans from every row of the report: they are kept besides being streamed to the documents.
    const kept: DriftRow[] | undefined = args.refresh ? [] : undefined;
    const run = deps.runDrift ?? (await import("../drift/run.js")).runDrift;
    const result = await run(config, {
      onProgress: (p) => progress.update(p),
      onProjection: (projection) => {
        progress.finish();
        for (const line of formatProjection(projection)) notice(line);
      },
      onRow: (row) => {
        rows.add(row);
        kept?.push(row);
      },
      keepRows: false,
      signal: interrupt.signal,
      ...(deps.now ? { now: deps.now } : {}),
    });
    progress.finish();
    const { agents, ...head } = result as DriftReport;
    if (agents && rows.count === 0) for (const row of agents) rows.add(row);
    if (agents && kept?.length === 0) kept.push(...agents);
    const failed = await writeStreamedOutputs(rows, head, {
      output: args.output,
      stdout: cli.stdout,
      stderr: cli.stderr,
      columns: cli.columns,
    });
    const scanned = exitCodeAfterWrites(exitCodeOf(head), failed);
    if (!args.refresh || !kept) return scanned;
    const refreshed = await refreshAfterDrift(
      { ...head, agents: kept },
      config,
      args.refresh,
      stdoutIsTaken(args.output) ? { ...cli, stdout: cli.stderr } : cli,
      {
        ...deps.refresh,
        ...(deps.now ? { now: deps.now } : {}),
      },
    );
    return Math.max(scanned, refreshed);
  } finally {
    stopHandlingInterrupt();
    rows.close();
    progress.finish();
    restoreConsole();
    if (embedded) {
      try {
        await embedded.close();
      } catch (error) {
        if (isFlagSet(cli.env, "TRUSTGATE_DEBUG"))
          cli.stderr.write(`trustgate: closing the embedded environment failed: ${String(error)}\n`);
      }
    }
  }
}
