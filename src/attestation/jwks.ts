/**
 * JWKS resolution and caching for attestation verification.
 *
 * A {@link JwksResolver} maps a `kid` to an imported ES256 key. One resolver is meant to serve many
 * verifications (the drift job verifies thousands with one):
 *
 * - keys are imported once per fetched key set and reused;
 * - a remote key set is cached for `cacheMaxAgeMs` (default 10 min), after which it is fetched again;
 * - a `kid` missing from a cached set triggers a new fetch only when `cooldownMs` (default 30 s) has passed
 *   since the last successful fetch, so a key added by rotation is found, while tokens with unknown kids
 *   cannot make the resolver fetch in a loop;
 * - after a failed fetch, no new fetch is attempted for `failureCooldownMs` (default 10 s), and concurrent
 *   lookups share one fetch in flight;
 * - a key set that cannot be fetched yields `jwks-unavailable`, never a key: an expired cache is not used.
 *
 * Redirects are not followed (like jose's `createRemoteJWKSet`): configure the final JWKS URL. The body is read
 * through the kit's bounded body reader: a key set over {@link MAX_JWKS_RESPONSE_BYTES} (1 MiB), announced or
 * streamed, is not read, and the fetch counts as failed. The URL is named redacted in every message and in
 * {@link JwksResolver.source}; a URL with credentials (`user:pass@`) is refused.
 *
 * @packageDocumentation
 */
import type { JSONWebKeySet, JWK } from "jose";
import { InvalidArgumentError, JwksUnavailableError, ResponseTooLargeError } from "../errors.js";
import { MAX_JWKS_RESPONSE_BYTES, readBoundedText } from "../security/bounded-body.js";
import { redactUrl } from "../security/redact-url.js";
import { importVerificationKey, type VerificationKey } from "./public-key.js";
import { networkCauseOf } from "../util/network-cause.js";

/** The key of a `kid`, or why there is none. */
export type JwksKeyLookup =
  { ok: true; key: VerificationKey } | { ok: false; reason: "key-not-found" | "jwks-unavailable"; message: string };

/** Counters of a resolver, for monitoring and tests. */
export interface JwksResolverStats {
  /** HTTP fetches started (0 for a local key set). */
  readonly fetches: number;
  /** Fetches that failed. */
  readonly failures: number;
}

/** Resolves key ids to ES256 verification keys. Create one with {@link createJwksResolver}. */
export interface JwksResolver {
  /** The JWKS URL as messages name it (redacted: see `redactUrl`), or `"local"` for a key set given in memory. */
  readonly source: string;
  /**
   * Finds the key of a `kid`, fetching the key set when the cache rules allow it. Never throws.
   *
   * @param kid - Key id from the attestation.
   */
  getKey(kid: string): Promise<JwksKeyLookup>;
  /**
   * The answer {@link JwksResolver.getKey} would give right now without fetching anything, or `undefined` when it
   * might fetch (an unknown `kid`, an expired cache). Optional: verification calls it first, so that a key
   * already held costs no promise, and calls `getKey` when it is absent or answers `undefined`.
   *
   * @param kid - Key id from the attestation.
   */
  peekKey?(kid: string): JwksKeyLookup | undefined;
  /**
   * Fetches the key set now, ignoring the cooldowns (no-op for a local key set).
   *
   * @throws {@link JwksUnavailableError} when the fetch fails.
   */
  reload(): Promise<void>;
  /** The key set currently cached (a copy), if any. */
  jwks(): JSONWebKeySet | undefined;
  /** Fetch counters. */
  readonly stats: JwksResolverStats;
}

/** Options of {@link createJwksResolver}: exactly one of `url` and `keys`. */
export interface JwksResolverParameters {
  /** URL of a remote JWKS (http or https). */
  url?: string | URL;
  /** A key set held in memory (a JWKS object or its `keys` array). */
  keys?: JSONWebKeySet | readonly JWK[];
  /** Minimum time between two fetches caused by an unknown `kid`, in ms (default 30,000). */
  cooldownMs?: number;
  /** Time after which a fetched key set is no longer used and is fetched again, in ms (default 600,000). */
  cacheMaxAgeMs?: number;
  /** Time after a failed fetch during which no new fetch is attempted, in ms (default 10,000). */
  failureCooldownMs?: number;
  /** Timeout of one fetch (request and body), in ms (default 5,000). */
  timeoutMs?: number;
  /** `fetch` implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Clock in ms since the epoch (default `Date.now`); lets tests move time without waiting. */
  clock?: () => number;
}

/** Default minimum time between fetches caused by an unknown `kid`, in ms. */
const DEFAULT_JWKS_COOLDOWN_MS = 30_000;
/** Default maximum age of a cached key set, in ms. */
const DEFAULT_JWKS_CACHE_MAX_AGE_MS = 600_000;
/** Default time without fetches after a failed fetch, in ms. */
const DEFAULT_JWKS_FAILURE_COOLDOWN_MS = 10_000;
/** Default timeout of one JWKS fetch, in ms. */
const DEFAULT_JWKS_TIMEOUT_MS = 5_000;

/** Imported keys of one key set: each kid with its key, or why its entry is unusable. */
type KeyTable = Map<string, { ok: true; key: VerificationKey } | { ok: false; problem: string }>;

/**
 * Creates a JWKS resolver for a remote URL or an in-memory key set.
 *
 * @param options - `url` or `keys`, and the cache settings.
 * @returns The resolver.
 * @throws {@link InvalidArgumentError} for a missing or ambiguous source, a non-http(s) URL, a key set that
 * is not a JWKS, or a negative/non-numeric duration.
 *
 * @example
 * ```ts
 * import { createJwksResolver, createTrustApiClient, verifyTrustAttestation } from "trustgate";
 *
 * // one resolver for many verifications: the key set is fetched once, then cached
 * const jwks = createJwksResolver({ url: "https://rnwy.com/.well-known/jwks.json" });
 * const api = createTrustApiClient();
 * const checks = await Promise.all([16907, 1380].map((id) => api.trustCheck({ id, chain: "base" })));
 * const verdicts = await Promise.all(checks.map((check) => verifyTrustAttestation(check, { jwks })));
 * ```
 */
export function createJwksResolver(options: JwksResolverParameters): JwksResolver {
  if ((options.url === undefined) === (options.keys === undefined)) {
    throw new InvalidArgumentError("createJwksResolver needs exactly one of `url` and `keys`");
  }
  if (options.keys !== undefined) return new LocalJwksResolver(options.keys);
  return new RemoteJwksResolver(parseJwksUrl(options.url!), {
    cooldownMs: duration("cooldownMs", options.cooldownMs, DEFAULT_JWKS_COOLDOWN_MS),
    cacheMaxAgeMs: duration("cacheMaxAgeMs", options.cacheMaxAgeMs, DEFAULT_JWKS_CACHE_MAX_AGE_MS),
    failureCooldownMs: duration("failureCooldownMs", options.failureCooldownMs, DEFAULT_JWKS_FAILURE_COOLDOWN_MS),
    timeoutMs: duration("timeoutMs", options.timeoutMs, DEFAULT_JWKS_TIMEOUT_MS),
    fetch: options.fetch ?? globalThis.fetch,
    headers: options.headers ?? {},
    clock: options.clock ?? Date.now,
  });
}

/** Where verification gets its keys: a resolver, a JWKS URL, or a key set held in memory. */
export type JwksSource = JwksResolver | string | URL | JSONWebKeySet;

const sharedByUrl = new Map<string, JwksResolver>();
const sharedByKeySet = new WeakMap<object, JwksResolver>();

/**
 * The resolver of a {@link JwksSource}. A resolver is returned as is; a URL or a key set object gets a
 * resolver with default settings that is shared by every verification given the same URL (or the same
 * object), so that its cache works across calls.
 *
 * @param source - The source.
 * @returns Its resolver.
 * @throws {@link InvalidArgumentError} when `source` is none of the accepted kinds.
 */
export function resolveJwksSource(source: JwksSource): JwksResolver {
  if (isJwksResolver(source)) return source;
  if (typeof source === "string" || source instanceof URL) {
    const url = parseJwksUrl(source).toString();
    let resolver = sharedByUrl.get(url);
    if (!resolver) {
      resolver = createJwksResolver({ url });
      sharedByUrl.set(url, resolver);
    }
    return resolver;
  }
  if (typeof source === "object" && source !== null && Array.isArray((source as JSONWebKeySet).keys)) {
    let resolver = sharedByKeySet.get(source);
    if (!resolver) {
      resolver = createJwksResolver({ keys: source });
      sharedByKeySet.set(source, resolver);
    }
    return resolver;
  }
  throw new InvalidArgumentError("Option `jwks` must be a JWKS URL, a JWKS object ({ keys: [...] }) or a JwksResolver", {
    details: `Got: ${source === null ? "null" : typeof source}`,
  });
}

/**
 * Whether a value is a {@link JwksResolver}.
 *
 * @param value - Any value.
 * @returns `true` for an object with `getKey` and `reload` functions.
 */
export function isJwksResolver(value: unknown): value is JwksResolver {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as JwksResolver).getKey === "function" &&
    typeof (value as JwksResolver).reload === "function"
  );
}

class LocalJwksResolver implements JwksResolver {
  readonly source = "local";
  readonly stats: JwksResolverStats = { fetches: 0, failures: 0 };
  readonly #jwks: JSONWebKeySet;
  readonly #table: KeyTable;

  constructor(keys: JSONWebKeySet | readonly JWK[]) {
    // `keys` may be a parsed document of any shape (`null` included): anything but a key set is refused, never a TypeError.
    const list = Array.isArray(keys) ? keys : typeof keys === "object" && keys !== null ? (keys as JSONWebKeySet).keys : undefined;
    if (!Array.isArray(list)) throw new InvalidArgumentError("`keys` must be a JWKS ({ keys: [...] }) or an array of JWKs");
    this.#jwks = { keys: structuredClone([...list]) };
    this.#table = buildKeyTable(this.#jwks);
  }

  async getKey(kid: string): Promise<JwksKeyLookup> {
    return lookup(this.#table, kid, this.source);
  }

  peekKey(kid: string): JwksKeyLookup {
    return lookup(this.#table, kid, this.source);
  }

  async reload(): Promise<void> {}

  jwks(): JSONWebKeySet {
    return structuredClone(this.#jwks);
  }
}

interface RemoteSettings {
  cooldownMs: number;
  cacheMaxAgeMs: number;
  failureCooldownMs: number;
  timeoutMs: number;
  fetch: typeof fetch;
  headers: Record<string, string>;
  clock: () => number;
}

class RemoteJwksResolver implements JwksResolver {
  readonly source: string;
  readonly #url: URL;
  readonly #settings: RemoteSettings;
  #cache: { jwks: JSONWebKeySet; table: KeyTable; fetchedAt: number } | undefined;
  #failure: { at: number; message: string } | undefined;
  #inFlight: Promise<string | undefined> | undefined;
  #fetches = 0;
  #failures = 0;

  constructor(url: URL, settings: RemoteSettings) {
    this.#url = url;
    this.source = redactUrl(url);
    this.#settings = settings;
  }

  get stats(): JwksResolverStats {
    return { fetches: this.#fetches, failures: this.#failures };
  }

  jwks(): JSONWebKeySet | undefined {
    return this.#cache ? structuredClone(this.#cache.jwks) : undefined;
  }

  peekKey(kid: string): JwksKeyLookup | undefined {
    const cache = this.#cache;
    if (!cache || this.#settings.clock() - cache.fetchedAt >= this.#settings.cacheMaxAgeMs) return undefined;
    const entry = cache.table.get(kid);
    return entry?.ok ? entry : undefined;
  }

  async getKey(kid: string): Promise<JwksKeyLookup> {
    const now = this.#settings.clock();
    const cache = this.#cache;
    if (cache && now - cache.fetchedAt < this.#settings.cacheMaxAgeMs) {
      const entry = cache.table.get(kid);
      if (entry?.ok) return entry;
      if (now - cache.fetchedAt < this.#settings.cooldownMs) return lookup(cache.table, kid, this.source);
    }
    const problem = await this.#refresh(false);
    if (problem !== undefined) {
      return { ok: false, reason: "jwks-unavailable", message: `JWKS ${this.source} is unavailable: ${problem}` };
    }
    return lookup(this.#cache!.table, kid, this.source);
  }

  async reload(): Promise<void> {
    const problem = await this.#refresh(true);
    if (problem !== undefined) throw new JwksUnavailableError(this.source, `JWKS unavailable: ${problem}`);
  }

  /** Fetches the key set unless a fetch is in flight or failed recently; resolves to the problem, if any. */
  #refresh(force: boolean): Promise<string | undefined> {
    if (this.#inFlight) return this.#inFlight;
    const failure = this.#failure;
    const now = this.#settings.clock();
    if (!force && failure && now - failure.at < this.#settings.failureCooldownMs) {
      const waitS = Math.ceil((this.#settings.failureCooldownMs - (now - failure.at)) / 1000);
      return Promise.resolve(`${failure.message} (not retried for another ${waitS} s)`);
    }
    this.#inFlight = this.#fetchOnce().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #fetchOnce(): Promise<string | undefined> {
    this.#fetches++;
    try {
      const jwks = await this.#download();
      this.#cache = { jwks, table: buildKeyTable(jwks), fetchedAt: this.#settings.clock() };
      this.#failure = undefined;
      return undefined;
    } catch (error) {
      this.#failures++;
      const message = describeFetchError(error, this.#settings.timeoutMs);
      this.#failure = { at: this.#settings.clock(), message };
      return message;
    }
  }

  async #download(): Promise<JSONWebKeySet> {
    const response = await this.#settings.fetch(this.#url, {
      method: "GET",
      headers: { accept: "application/json, application/jwk-set+json", ...this.#settings.headers },
      redirect: "manual",
      signal: AbortSignal.timeout(this.#settings.timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get("location");
      throw new Error(
        response.status >= 300 && response.status < 400
          ? `HTTP ${response.status} redirect${location ? ` to ${redactUrl(URL.canParse(location, this.#url.href) ? new URL(location, this.#url) : "")}` : ""} not followed; configure the final JWKS URL`
          : `HTTP ${response.status}`,
      );
    }
    const text = await readBoundedText(response, { method: "GET", url: this.source, maxBytes: MAX_JWKS_RESPONSE_BYTES });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error("response is not JSON");
    }
    if (typeof body !== "object" || body === null || !Array.isArray((body as JSONWebKeySet).keys)) {
      throw new Error('response is not a JWKS (no "keys" array)');
    }
    return body as JSONWebKeySet;
  }
}

function buildKeyTable(jwks: JSONWebKeySet): KeyTable {
  const table: KeyTable = new Map();
  for (const jwk of jwks.keys) {
    if (typeof jwk !== "object" || jwk === null || typeof jwk.kid !== "string") continue;
    const previous = table.get(jwk.kid);
    if (previous?.ok) continue; // The first usable entry of a kid wins.
    const imported = importVerificationKey(jwk);
    table.set(jwk.kid, imported.ok ? imported : { ok: false, problem: `key "${jwk.kid}" ${imported.problem}` });
  }
  return table;
}

function lookup(table: KeyTable, kid: string, source: string): JwksKeyLookup {
  const entry = table.get(kid);
  if (entry?.ok) return entry;
  const known = [...table.keys()].join(", ") || "none";
  return {
    ok: false,
    reason: "key-not-found",
    message: entry ? `JWKS ${source}: ${entry.problem}` : `JWKS ${source} has no key with kid "${kid}" (kids: ${known})`,
  };
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof ResponseTooLargeError) {
    return `the key set is larger than ${error.limitBytes} bytes${error.declaredBytes === undefined ? "" : ` (Content-Length ${error.declaredBytes})`}; it was not read`;
  }
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return `timed out after ${timeoutMs} ms`;
  // The socket's or TLS layer's own words (`connect ECONNREFUSED …`), as the RPC and the API report them.
  const cause = networkCauseOf(error) ?? err?.cause?.message;
  return `${err?.message ?? String(error)}${cause ? ` (${cause})` : ""}`;
}

function parseJwksUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError("The JWKS URL is not a valid URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new InvalidArgumentError(`JWKS URL "${redactUrl(parsed)}" must use http or https`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new InvalidArgumentError(`JWKS URL "${redactUrl(parsed)}" must not contain credentials (user:password@)`);
  }
  return parsed;
}

function duration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new InvalidArgumentError(`Option \`${name}\` must be a non-negative number of milliseconds`, {
      details: `Got: ${String(value)}`,
    });
  }
  return value;
}
