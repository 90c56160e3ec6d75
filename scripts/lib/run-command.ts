import { messageOf, TrustgateError } from "../../src/errors.js";

/**
 * Runs a command-line script's `main` and sets the exit code: its result, or 2 on any error, printed as one line
 * (the kit's errors as their message; a bad flag followed by the usage), or whole with `TRUSTGATE_DEBUG` set.
 *
 * @param main - The script; resolves to its exit code.
 * @param usage - The usage text, printed after a flag the parser refused.
 */
export function runCommand(main: () => Promise<number>, usage: string): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (process.env.TRUSTGATE_DEBUG) console.error(error);
      else if (error instanceof TrustgateError) console.error(error.message);
      else if ((error as { code?: unknown } | null)?.code?.toString().startsWith("ERR_PARSE_ARGS"))
        console.error(`${messageOf(error)}\n\n${usage}`);
      else console.error(`Error: ${messageOf(error)}`);
      process.exitCode = 2;
    },
  );
}
