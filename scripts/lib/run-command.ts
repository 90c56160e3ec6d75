import { inspect } from "node:util";
import { messageOf, TrustgateError } from "../../src/errors.js";
import { printableText } from "../../src/security/printable.js";

/**
 * Runs a command-line script's `main` and sets the exit code: its result, or 2 on any error, printed as one line
 * (the kit's errors as their message; a bad flag followed by the usage), or whole with `TRUSTGATE_DEBUG` set.
 * Whatever is printed goes through `printableText` (a library's error, viem's among them, names the RPC URL whole,
 * with a provider's key in its path).
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
      if (process.env.TRUSTGATE_DEBUG) printError(inspect(error, { depth: 8 }));
      else if (error instanceof TrustgateError) printError(error.message);
      else if ((error as { code?: unknown } | null)?.code?.toString().startsWith("ERR_PARSE_ARGS"))
        console.error(`${printableText(messageOf(error))}\n\n${usage}`);
      else printError(`Error: ${messageOf(error)}`);
      process.exitCode = 2;
    },
  );
}

function printError(text: string): void {
  console.error(printableText(text));
}
