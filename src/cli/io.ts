/**
 * What the command line writes to and reads from: two output streams, the environment, and whether a
 * person is watching. Injected so that tests can capture everything.
 *
 * @packageDocumentation
 */

/** A writable text stream (`process.stdout`, `process.stderr`, or a test double). */
export interface CliStream {
  /** Writes a chunk of text. */
  write(chunk: string): unknown;
}

/** The command line's surroundings. */
export interface CliIo {
  /** Where results go: the table and summary, or only the JSON with `--json -`. */
  readonly stdout: CliStream;
  /** Where notices, the progress bar and error messages go. */
  readonly stderr: CliStream;
  /** Environment variables (`TRUSTGATE_API_KEY`, `CI`, `TRUSTGATE_DEBUG`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stderr is a terminal: the progress bar is drawn only then. */
  readonly isTTY: boolean;
  /** Width of the terminal on stdout, when stdout is one: the table's reason column is fitted to it. */
  readonly columns?: number | undefined;
}

/**
 * The process's own streams and environment.
 *
 * @returns The real {@link CliIo}.
 */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    isTTY: process.stderr.isTTY === true,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
}

/**
 * Whether the environment says the program runs under continuous integration: `CI` set to anything but
 * an empty string, `0` or `false`.
 *
 * @param env - Environment variables.
 * @returns True under CI.
 */
export function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  return isFlagSet(env, "CI");
}

/**
 * Whether an environment flag such as `TRUSTGATE_DEBUG` is on (set, and not empty, `0` or `false`).
 *
 * @param env - Environment variables.
 * @param name - Variable name.
 * @returns True when on.
 */
export function isFlagSet(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}
