/**
 * How the command line reports an error: the exit code it calls for and the message on stderr.
 *
 * - usage and configuration errors (bad flag or value, unknown chain, chain or API unreachable before the
 *   scan): exit 2, one line;
 * - anything else (the scan itself failed): exit 1, one line, with the stack and causes when
 *   `TRUSTGATE_DEBUG` is set.
 *
 * Every line printed goes through `printableText`: URLs redacted (a library's message may name an endpoint whole)
 * and control characters removed (it may quote a service).
 *
 * @packageDocumentation
 */
import { TrustgateError } from "../errors.js";
import { printableText } from "../security/printable.js";

/** Error codes that mean the user must change the invocation or the environment: exit 2. */
const USAGE_CODES: ReadonlySet<string> = new Set(["INVALID_ARGUMENT", "UNKNOWN_CHAIN", "CONFIGURATION"]);

/**
 * The exit code of an error.
 *
 * @param error - What was thrown.
 * @returns 2 for an `InvalidArgumentError`, `UnknownChainError` or `ConfigurationError`; 1 otherwise.
 */
export function exitCodeForError(error: unknown): 1 | 2 {
  return error instanceof TrustgateError && USAGE_CODES.has(error.code) ? 2 : 1;
}

/**
 * The message printed on stderr for an error, starting with `trustgate: `.
 *
 * @param error - What was thrown.
 * @param debug - Whether to add the stack trace and the chain of causes (unexpected errors only).
 * @returns One line (several with `debug` for an unexpected error), ending with a newline.
 */
export function formatError(error: unknown, debug = false): string {
  return printableText(formatErrorText(error, debug));
}

function formatErrorText(error: unknown, debug: boolean): string {
  if (exitCodeForError(error) === 2) {
    const e = error as TrustgateError;
    const details = e.details && !e.details.includes("\n") ? ` (${e.details})` : "";
    return `trustgate: ${oneLine(e.shortMessage)}${details}\n`;
  }
  const headline = error instanceof TrustgateError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  let text = `trustgate: unexpected error: ${oneLine(headline)}\n`;
  if (!debug) return `${text}(set TRUSTGATE_DEBUG=1 for the stack trace)\n`;
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    text += depth === 0 ? "" : "Caused by: ";
    text += `${current instanceof Error ? (current.stack ?? current.message) : String(current)}\n`;
    current = current instanceof Error ? current.cause : undefined;
  }
  return text;
}

function oneLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
