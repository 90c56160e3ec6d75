/**
 * Value parsers of the options both commands have (`trustgate drift`, `trustgate doctor`): the chain and service
 * URLs, the API key (flag or environment), the tier and sybil encodings, the per-request time limit, a non-blank file
 * name, and how a kit error about one flag's value becomes a usage error naming that flag.
 *
 * @packageDocumentation
 */
import { createTrustEncoding, type TrustEncoding } from "../config/encodings.js";
import { InvalidArgumentError, TrustgateError } from "../errors.js";
import { parseEndpointUrl } from "../security/endpoint-url.js";
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
 * `--tier-encoding`: comma-separated tier names by on-chain code, a permutation of the known names.
 *
 * @param text - The value given.
 * @returns The names, by code.
 * @throws {@link InvalidArgumentError} naming `--tier-encoding` when the list is not a permutation of the known names.
 */
export function parseTierEncoding(text: string): TrustEncoding["tiers"] {
  return withFlag("--tier-encoding", () => createTrustEncoding({ tiers: nameList(text) as TrustEncoding["tiers"] })).tiers;
}

/**
 * `--sybil-encoding`: comma-separated sybil severity names by on-chain code, a permutation of the known names.
 *
 * @param text - The value given.
 * @returns The names, by code.
 * @throws {@link InvalidArgumentError} naming `--sybil-encoding` when the list is not a permutation of the known names.
 */
export function parseSybilEncoding(text: string): TrustEncoding["sybilSeverities"] {
  return withFlag("--sybil-encoding", () => createTrustEncoding({ sybilSeverities: nameList(text) as TrustEncoding["sybilSeverities"] }))
    .sybilSeverities;
}

/**
 * The encoding of `--tier-encoding` and `--sybil-encoding` as parsed: the one not given keeps the kit's default.
 *
 * @param tiers - Parsed `--tier-encoding`, if given.
 * @param sybilSeverities - Parsed `--sybil-encoding`, if given.
 * @returns The encoding.
 */
export function encodingOf(
  tiers: TrustEncoding["tiers"] | undefined,
  sybilSeverities: TrustEncoding["sybilSeverities"] | undefined,
): TrustEncoding {
  return createTrustEncoding({ ...(tiers !== undefined ? { tiers } : {}), ...(sybilSeverities !== undefined ? { sybilSeverities } : {}) });
}

/** `--rpc`: an http(s) or ws(s) URL; a key in its path is accepted (shown redacted), credentials, a query or a fragment are not. */
export function parseRpcUrl(text: string): string {
  return parseEndpointUrl(text, { name: "--rpc", protocols: ["http:", "https:", "ws:", "wss:"] });
}

/** `--api`: an http(s) URL without credentials, query or fragment, without trailing slashes. */
export function parseApiUrl(text: string): string {
  return parseEndpointUrl(text, { name: "--api", protocols: ["http:", "https:"] }).replace(/\/+$/, "");
}

/**
 * `--issuer`: an http(s) URL without trailing slashes. It is written whole into reports and state files, so
 * credentials, a query or a fragment are refused.
 */
export function parseIssuerUrl(text: string): string {
  return parseEndpointUrl(text, { name: "--issuer", protocols: ["http:", "https:"] }).replace(/\/+$/, "");
}

/**
 * A value that must not be blank (a file name, for instance), trimmed.
 *
 * @param flag - The flag, as written (`--json`).
 * @param text - The value given.
 * @param what - What the flag needs, for the message.
 * @returns The value, trimmed.
 * @throws {@link InvalidArgumentError} `<flag> needs <what>` for a blank value.
 */
export function parseNonBlank(flag: string, text: string, what = 'a file name or "-"'): string {
  if (text.trim() === "") throw new InvalidArgumentError(`${flag} needs ${what}`);
  // No file name or other value holds a NUL: the system would refuse it later, with a less clear message.
  if (text.includes("\u0000")) throw new InvalidArgumentError(`${flag} cannot contain a NUL character`);
  return text.trim();
}

function nameList(text: string): string[] {
  return text.split(",").map((name) => name.trim().toLowerCase());
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

/**
 * A positive number (`--rate`).
 *
 * @param flag - The option, for the message.
 * @param text - The value given.
 * @returns The number.
 * @throws {@link InvalidArgumentError} for anything but a positive decimal number.
 */
export function parsePositive(flag: string, text: string): number {
  const value = Number(text.trim());
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(`${flag} must be a positive number, got "${text}"`);
  }
  return value;
}

/**
 * `--events-from`: `auto` (from the oracle's deployment block when it can be found and the span is small enough,
 * see `src/drift/onchain-enumeration.ts`), `off` (or `none`), or a block number.
 *
 * @param text - The value given.
 * @returns The block, `"auto"` or `"off"`.
 * @throws {@link InvalidArgumentError} for anything else.
 */
export function parseEventsFrom(text: string): bigint | "auto" | "off" {
  const value = text.trim().toLowerCase();
  if (value === "auto") return "auto";
  if (value === "off" || value === "none") return "off";
  if (!/^\d+$/.test(value)) {
    throw new InvalidArgumentError(`--events-from must be a block number, "auto" or "off", got "${text}"`);
  }
  return BigInt(value);
}
