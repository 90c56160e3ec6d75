/**
 * Turns the errors of `node:util` `parseArgs` (strict mode) into one-line {@link InvalidArgumentError}s
 * that name the option, suggest the closest known one, and point at `--help`.
 *
 * @packageDocumentation
 */

import { InvalidArgumentError } from "../errors.js";
import { closestName } from "../util/suggest.js";

/** Options whose values are secrets. */
const SECRET_OPTIONS: ReadonlySet<string> = new Set(["--api-key"]);

/**
 * Translates an error thrown by `parseArgs`.
 *
 * @param error - What `parseArgs` threw.
 * @param argv - The arguments it parsed (to find the token after an option that lacks a value).
 * @param known - Long option names the command accepts, without dashes.
 * @param command - The command, for the `--help` hint (e.g. `trustgate drift`).
 * @returns An {@link InvalidArgumentError}, or `error` itself when it is not a `parseArgs` error.
 */
export function translateParseArgsError(error: unknown, argv: readonly string[], known: readonly string[], command: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const hint = `see ${command} --help`;
  const option = /'(?:-[A-Za-z], )?(--?[^\s',]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) {
    const suggestion = option.startsWith("--") ? closestName(option.slice(2), known) : undefined;
    return new InvalidArgumentError(`Unknown option ${option}${suggestion ? ` (did you mean --${suggestion}?)` : ` (${hint})`}`, {
      cause: error,
    });
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    if (/does not take an argument/.test(message)) {
      return new InvalidArgumentError(`Option ${option} does not take a value`, { cause: error });
    }
    const next = argv[argv.indexOf(option) + 1];
    // A secret is never echoed, not even in a hint.
    const shown = SECRET_OPTIONS.has(option) ? "<value>" : next;
    const dashHint =
      next !== undefined && /^-\d/.test(next) ? ` (to give a value starting with "-", write ${option}=${shown})` : ` (${hint})`;
    return new InvalidArgumentError(`Option ${option} needs a value${dashHint}`, { cause: error });
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    const value = /'([^']*)'/.exec(message)?.[1];
    return new InvalidArgumentError(`Unexpected argument "${value === undefined ? "?" : shownPositional(value)}" (${hint})`, {
      cause: error,
    });
  }
  return error;
}

/**
 * A positional argument as quoted in a message: an option written after `--` with its value (`--api-key=<key>`) is
 * shown without the value, which may be a secret.
 */
function shownPositional(value: string): string {
  const option = /^(--?[^=\s]+)=/.exec(value);
  return option ? `${option[1]}=<value>` : value;
}
