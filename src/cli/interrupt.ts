/**
 * Ctrl-C during `trustgate drift`: the run stops at once with exit code 130 (128 + SIGINT, what shells expect) and
 * one line on stderr saying so, and whether the work is kept. With `--state`, every signed answer is in the state
 * file's journal as it arrives, and the interruption itself is recorded there before the process exits (the command
 * line aborts the run first: `runDrift` writes a `stop` line), so running the same command again with the same file
 * continues where it stopped, and says the run was interrupted rather than killed; without it, nothing is kept.
 *
 * @packageDocumentation
 */
import type { CliStream } from "./io.js";

/** The exit code of an interrupted run: 128 + SIGINT (2). */
export const INTERRUPTED_EXIT_CODE = 130;

/**
 * The line printed when a run is interrupted.
 *
 * @param stateFile - The run's `--state` file, if any.
 * @returns The line, with its `trustgate: ` prefix and newline.
 */
export function interruptedLine(stateFile: string | undefined): string {
  const next =
    stateFile === undefined
      ? "nothing was saved (with --state <file>, running again continues where it stopped)"
      : `run the same command again with --state ${stateFile} to continue where it stopped`;
  return `trustgate: interrupted; ${next}\n`;
}

/** What {@link onInterrupt} does when Ctrl-C comes, replaceable in tests. */
export interface InterruptOptions {
  /** Where the line goes. */
  readonly stderr: CliStream;
  /** The run's `--state` file, if any. */
  readonly stateFile: string | undefined;
  /** Called first, e.g. to end the progress bar's line. */
  readonly before?: () => void;
  /** Ends the process; default `process.exit`. */
  readonly exit?: (code: number) => void;
}

/**
 * Handles Ctrl-C (SIGINT) for the rest of a run: prints {@link interruptedLine} and exits 130.
 *
 * @param options - Where to write, the state file, what to do first, how to exit.
 * @returns A function that removes the handler (the default behaviour comes back).
 */
export function onInterrupt(options: InterruptOptions): () => void {
  const handler = () => {
    options.before?.();
    options.stderr.write(interruptedLine(options.stateFile));
    (options.exit ?? ((code: number) => process.exit(code)))(INTERRUPTED_EXIT_CODE);
  };
  process.once("SIGINT", handler);
  return () => process.removeListener("SIGINT", handler);
}
