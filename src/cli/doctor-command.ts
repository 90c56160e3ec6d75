/**
 * `trustgate doctor`: runs the doctor (`src/doctor/`) against the service of `--api` (and the chain of `--rpc`),
 * prints the table, writes the JSON where `--json` says, and exits with the report's code (0 every check holds, 3
 * one differs, 4 one could not be checked; 2 for a usage error before any check, and, as `trustgate drift` does, 2
 * in one line when the service never answered at all: every request to it failed below HTTP, so nothing could be
 * checked and the table would only repeat that twenty times). The `onchain-submit` check's local
 * chain comes from the harness, loaded only when that check runs; without Hardhat installed, the check could not be
 * made and says what to install.
 *
 * @packageDocumentation
 */
import { writeFile } from "node:fs/promises";
import type { SubmissionSimulatorSource } from "../doctor/checks/onchain-submit.js";
import { formatDoctorJson, formatDoctorTable } from "../doctor/format.js";
import { type DoctorConfig, type DoctorDependencies, runDoctor } from "../doctor/run.js";
import type { DoctorReport } from "../doctor/report.js";
import { HARDHAT_INSTALL_HINT } from "./demo.js";
import { parseDoctorArgs } from "./doctor-args.js";
import { type HarnessLoader, isHardhatInstalled, loadHarnessExport } from "./harness-loader.js";
import { DOCTOR_HELP } from "./help.js";
import type { CliIo } from "./io.js";
import { guardStdout } from "./stdout-guard.js";
import { TRUSTGATE_VERSION } from "../generated/version.js";
import { checkOutputTargets } from "./write-outputs.js";
import { ConfigurationError } from "../errors.js";
import { redactUrl } from "../security/redact-url.js";
import { failureWithCause } from "../util/network-cause.js";

/** Why `onchain-submit` could not be checked without Hardhat (the install command included). */
export const DOCTOR_NEEDS_HARDHAT = `the local chain needs the optional peer dependency hardhat: ${HARDHAT_INSTALL_HINT}`;

/** Runs the doctor (the signature of `runDoctor`). */
export type RunDoctorFunction = (config: DoctorConfig, deps?: DoctorDependencies) => Promise<DoctorReport>;

/** What {@link doctorCommand} calls, replaceable in tests. */
export interface DoctorCommandDependencies {
  /** Default `runDoctor` of `src/doctor/`. */
  readonly runDoctor?: RunDoctorFunction;
  /** How the harness (and its `startSubmissionSimulator`) is found; default `trustgate/harness`. */
  readonly harnessLoader?: HarnessLoader;
  /** Clock; default the system clock. */
  readonly now?: () => Date;
}

/**
 * The local chain of `onchain-submit`: the harness's `startSubmissionSimulator`, imported when the check starts it;
 * or, without Hardhat, the reason the check could not be made.
 *
 * @param loader - How the harness is found.
 * @returns The source.
 */
export function harnessSubmissionSimulator(loader: HarnessLoader = {}): SubmissionSimulatorSource {
  if (!isHardhatInstalled(loader)) return { unavailable: DOCTOR_NEEDS_HARDHAT };
  return {
    start: async (options) => {
      const start = await loadHarnessExport("startSubmissionSimulator", loader);
      return start(options);
    },
  };
}

/**
 * A `fetch` that counts the answers (any status) and the failures below HTTP of the requests made through it, and keeps
 * the last failure's cause: whether the service answered at all.
 */
function watchAnswers(): { readonly fetch: typeof globalThis.fetch; answers: number; failures: number; cause: string | undefined } {
  const watched = {
    answers: 0,
    failures: 0,
    cause: undefined as string | undefined,
    fetch: (async (input, init) => {
      try {
        const response = await globalThis.fetch(input, init);
        watched.answers++;
        return response;
      } catch (error) {
        watched.failures++;
        watched.cause = failureWithCause(error);
        throw error;
      }
    }) as typeof globalThis.fetch,
  };
  return watched;
}

/**
 * Runs `trustgate doctor <argv>`.
 *
 * @param argv - The arguments after `doctor`.
 * @param cli - Streams, environment and terminal facts.
 * @param deps - Replacements for tests.
 * @returns The exit code: 0, 3 or 4 (see the module notes).
 * @throws {@link InvalidArgumentError} for a usage error, {@link ConfigurationError} when the service never answered
 *   (the caller prints it and exits 2).
 */
export async function doctorCommand(argv: readonly string[], cli: CliIo, deps: DoctorCommandDependencies = {}): Promise<number> {
  const args = parseDoctorArgs(argv, { env: cli.env });
  if (args.kind === "help") {
    cli.stdout.write(DOCTOR_HELP);
    return 0;
  }
  await checkOutputTargets({ json: args.json });
  const jsonToStdout = args.json === "-";
  const watched = watchAnswers();
  const restoreConsole = guardStdout(cli.stderr, jsonToStdout);
  let report: DoctorReport;
  try {
    const run = deps.runDoctor ?? runDoctor;
    report = await run(args.config, {
      fetch: watched.fetch,
      submissionSimulator: harnessSubmissionSimulator(deps.harnessLoader),
      version: TRUSTGATE_VERSION,
      ...(deps.now ? { now: deps.now } : {}),
    });
  } finally {
    restoreConsole();
  }
  if (watched.answers === 0 && watched.failures > 0) {
    throw new ConfigurationError(`Cannot reach the service at ${redactUrl(args.config.apiUrl)}`, {
      details: watched.cause ?? "no answer to any request",
    });
  }
  const table = formatDoctorTable(report, { columns: jsonToStdout ? undefined : cli.columns });
  if (args.json !== undefined && !jsonToStdout) await writeFile(args.json, formatDoctorJson(report));
  if (jsonToStdout) {
    cli.stdout.write(formatDoctorJson(report));
    cli.stderr.write(table);
  } else {
    cli.stdout.write(table);
  }
  return report.summary.exitCode;
}
