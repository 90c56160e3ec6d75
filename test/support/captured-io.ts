/**
 * The command line's input and output for a test: what `main` writes to stdout and stderr is kept, no environment
 * variable is read, and the output is not a terminal.
 */
import type { CliIo } from "../../src/cli/io";

/** A {@link CliIo} that keeps what is written, with the two texts so far. */
export interface CapturedIo {
  /** What to give `main`. */
  readonly io: CliIo;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/**
 * Creates a {@link CapturedIo}.
 *
 * @returns The io and its two texts.
 */
export function capturedIo(): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (c: string) => out.push(c) }, stderr: { write: (c: string) => err.push(c) }, env: {}, isTTY: false },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}
