/**
 * The command line's input and output for a test: what `main` writes to stdout and stderr is kept, the environment is
 * only what the test gives, and the output is not a terminal.
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
 * @param env - The environment `main` sees; default none.
 * @returns The io and its two texts.
 */
export function capturedIo(env: Readonly<Record<string, string | undefined>> = {}): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (c: string) => out.push(c) }, stderr: { write: (c: string) => err.push(c) }, env, isTTY: false },
    stdout: () => out.join(""),
    stderr: () => err.join(""),
  };
}
