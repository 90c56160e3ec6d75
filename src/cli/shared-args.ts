/**
 * Argument parsing shared by the commands (`trustgate drift`, `trustgate doctor`): the API key (flag or
 * environment), the tier and sybil encodings, the per-request time limit, and how a kit error about one flag's
 * value becomes a usage error naming that flag.
 *
 * @packageDocumentation
 */
import { createTrustEncoding, type TrustEncoding } from "../config/encodings.js";
import { InvalidArgumentError, TrustgateError } from "../errors.js";
import { parseDuration } from "./duration.js";

/** Environment variable read for the API key when `--api-key` is not given. */
export const API_KEY_ENV = "TRUSTGATE_API_KEY";

/** Largest `--timeout`: one hour. */
export const MAX_TIMEOUT_MS = 3_600_000;

/**
 * `--timeout`: a duration (`30s`, `2m`, plain seconds) or milliseconds (`500ms`), from 1 ms to one hour.
 *
 * @param text - The value given.
 * @returns Milliseconds.
 * @throws {@link InvalidArgumentError} naming `--timeout`.
 */
export function parseTimeout(text: string): number {
  const trimmed = text.trim().toLowerCase();
  const ms = /^(\d+)ms$/.exec(trimmed);
  const value = ms ? Number(ms[1]) : withFlag("--timeout", () => parseDuration(trimmed)) * 1000;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new InvalidArgumentError(`--timeout must be from 1ms to 1h, got "${text}"`);
  }
  return value;
}

/**
 * The API key: `--api-key`, else {@link API_KEY_ENV} (an empty variable counts as unset). The value is never quoted
 * in a message.
 *
 * @param flag - `--api-key`, if given.
 * @param fromEnv - The environment variable's value, if set.
 * @returns The key, trimmed, or `undefined`.
 * @throws {@link InvalidArgumentError} for an empty `--api-key`.
 */
export function parseApiKey(flag: string | undefined, fromEnv: string | undefined): string | undefined {
  if (flag !== undefined) {
    if (flag.trim() === "") throw new InvalidArgumentError("--api-key is empty");
    return flag.trim();
  }
  const key = fromEnv?.trim();
  return key ? key : undefined;
}

/**
 * `--tier-encoding` and `--sybil-encoding`: comma-separated names by on-chain code, each a permutation of the known
 * names; the one not given keeps the kit's default.
 *
 * @param tiers - `--tier-encoding`, if given.
 * @param sybil - `--sybil-encoding`, if given.
 * @returns The encoding.
 * @throws {@link InvalidArgumentError} naming the flag when a list is not a permutation of the known names.
 */
export function parseEncoding(tiers: string | undefined, sybil: string | undefined): TrustEncoding {
  const list = (text: string) => text.split(",").map((name) => name.trim().toLowerCase());
  const overrides: Partial<{ tiers: string[]; sybilSeverities: string[] }> = {};
  if (tiers !== undefined) overrides.tiers = list(tiers);
  if (sybil !== undefined) overrides.sybilSeverities = list(sybil);
  const flag =
    tiers !== undefined && sybil !== undefined
      ? "--tier-encoding/--sybil-encoding"
      : tiers !== undefined
        ? "--tier-encoding"
        : "--sybil-encoding";
  return withFlag(flag, () => createTrustEncoding(overrides as Partial<TrustEncoding>));
}

/**
 * Runs `parse`, prefixing the message of a kit error with the flag it concerns.
 *
 * @param flag - The flag, as written (`--max-age`).
 * @param parse - Parses the flag's value.
 * @returns What `parse` returns.
 * @throws {@link InvalidArgumentError} `<flag>: <message>` for a kit error; any other error unchanged.
 */
export function withFlag<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof TrustgateError)) throw error;
    throw new InvalidArgumentError(`${flag}: ${error.shortMessage}`, {
      cause: error,
      ...(error.details !== undefined ? { details: error.details } : {}),
    });
  }
}
