/**
 * The HTTP transport of the API client: `fetch` with a time limit on every attempt, a client-side rate
 * limiter (one per path where a path has its own limit) that follows the limits each response announces
 * (`X-RateLimit-*`, `RateLimit-*`), retries with exponential backoff and full jitter on network errors,
 * time-outs and 5xx, and `429` or `503` honoured by waiting `Retry-After` (seconds or an HTTP date) before
 * retrying. Every response body is read through the bounded body reader (at most `maxResponseBytes`, default
 * {@link MAX_API_RESPONSE_BYTES}; a larger one fails at once with {@link ResponseTooLargeError}, never retried),
 * scrubbed of the API key before anything else is done with it, and parsed as JSON; failures become the kit's typed
 * errors ({@link HttpRequestError}, {@link RateLimitedError}, {@link TimeoutError}, {@link NetworkError},
 * {@link InvalidResponseError}). The API key is sent as `Authorization: Bearer <key>` and never appears in an
 * error, not even in one's `body`, nor in a response's: a service that echoes it gets `***` back. Redirects are
 * followed within the request's origin only, at most {@link MAX_REDIRECTS}; any other is refused with
 * {@link RedirectRefusedError}, naming its redacted target.
 *
 * `fetch`, the clock, `sleep` and the jitter source are injectable for tests.
 *
 * @packageDocumentation
 */
import { DEFAULT_API_URL } from "../config/service.js";
import {
  HttpRequestError,
  InvalidArgumentError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  RedirectRefusedError,
  ResponseTooLargeError,
  TimeoutError,
} from "../errors.js";
import { MAX_API_RESPONSE_BYTES, readBoundedText } from "../security/bounded-body.js";
import { redactUrl } from "../security/redact-url.js";
import { createSecretScrubber, scrubSecretsDeep } from "../security/secrets.js";
import { isEmptyAnnouncement, parseRateLimitHeaders, type RateLimitAnnouncement } from "./rate-limit-headers.js";
import { type Clock, type RateLimiter, type Sleep, systemClock, systemSleep } from "./rate-limiter.js";
import { errorBodySchema } from "../published/index.js";
import { networkCauseOf } from "../util/network-cause.js";
import { TRUSTGATE_VERSION } from "../generated/version.js";

/** The default `User-Agent` header. */
export const DEFAULT_USER_AGENT = `trustgate/${TRUSTGATE_VERSION}`;

/** Default time limit of one attempt, in milliseconds. */
const DEFAULT_TIMEOUT_MS = 15_000;

/** Retry policy of the transport. */
export interface RetryParameters {
  /**
   * Retries after the first attempt on network errors, time-outs and 5xx (default 3). A `503` with
   * `Retry-After` waits that long instead of the backoff.
   */
  retries?: number;
  /** Retries after `429 Too Many Requests` (default 3). */
  rateLimitRetries?: number;
  /** Base of the exponential backoff, in milliseconds (default 250). */
  baseDelayMs?: number;
  /** Cap of one backoff delay, in milliseconds (default 8 000). */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the transport waits for, in milliseconds (default 120 000). A longer one fails at
   * once (a `429` with {@link RateLimitedError}, a `503` with {@link HttpRequestError}) rather than blocking the
   * caller.
   */
  maxRetryAfterMs?: number;
}

/** The retry policy with every default filled in. */
export type ResolvedRetryOptions = Required<RetryParameters>;

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /** Base URL of the service (default {@link DEFAULT_API_URL}). A path prefix is kept. */
  baseUrl?: string;
  /** API key, sent as `Authorization: Bearer <key>`. */
  apiKey?: string | undefined;
  /** Time limit of one attempt (request and body), in milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Most bytes read from one response body (default {@link MAX_API_RESPONSE_BYTES}). */
  maxResponseBytes?: number;
  /** Retry policy, or just the number of retries on network errors, time-outs and 5xx. */
  retries?: number | RetryParameters;
  /** Limiter every attempt goes through (but those to `pathRateLimiters`' paths); none when undefined. */
  rateLimiter?: RateLimiter | undefined;
  /**
   * Limiters of paths with a limit of their own (for example `/api/risk-terms`), by path: requests to such a
   * path go through its limiter instead of `rateLimiter`, and its responses' announcements update it alone.
   */
  pathRateLimiters?: Readonly<Record<string, RateLimiter>> | undefined;
  /** `fetch` implementation (default the global one). */
  fetch?: typeof globalThis.fetch;
  /** Clock, for `Retry-After` dates and pauses (default `Date.now`). */
  now?: Clock;
  /** Sleep, for backoff and `Retry-After` waits (default `setTimeout`). */
  sleep?: Sleep;
  /** Random source in `[0, 1)` for the jitter (default `Math.random`). */
  random?: () => number;
  /** `User-Agent` header (default {@link DEFAULT_USER_AGENT}). */
  userAgent?: string;
}

/** A query-string value; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | bigint | undefined | null;

/** One request to the service. */
export interface HttpRequest {
  /** HTTP method (default `GET`). */
  method?: "GET" | "POST";
  /** Path, starting with `/` (for example `/api/trust-check`). */
  path: string;
  /** Query parameters. */
  query?: Readonly<Record<string, QueryValue>>;
  /** JSON body (POST). */
  body?: unknown;
  /** Aborts the request (and its retries) when signalled; the abort reason is thrown as is. */
  signal?: AbortSignal;
}

/**
 * The rate-limit headers of a response (`X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`, or
 * their IETF draft forms), as {@link parseRateLimitHeaders} reads them.
 */
export type RateLimitHeaders = RateLimitAnnouncement;

/** A successful (2xx) response. */
export interface HttpResponse {
  /** HTTP status. */
  status: number;
  /** URL of the request, without credentials. */
  url: string;
  /** Response headers. */
  headers: Headers;
  /** Parsed JSON body; `undefined` when the body was empty. */
  body: unknown;
  /** Rate-limit headers (fields absent when not announced). */
  rateLimit: RateLimitHeaders;
  /** Attempts made, including the first. */
  attempts: number;
}

/** The transport: one method that sends a request with limits, retries and a time limit. */
export interface HttpTransport {
  /** Base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The limiter in use, if any (for every path without a limiter of its own). */
  readonly rateLimiter: RateLimiter | undefined;
  /**
   * The limiter requests to `path` go through: the path's own, else {@link HttpTransport.rateLimiter}.
   *
   * @param path - A request path, for example `/api/risk-terms`.
   * @returns The limiter, or `undefined` when there is none.
   */
  rateLimiterFor(path: string): RateLimiter | undefined;
  /** The retry policy in use. */
  readonly retry: ResolvedRetryOptions;
  /** The time limit of one attempt, in milliseconds. */
  readonly timeoutMs: number;
  /**
   * Sends a request.
   *
   * @param request - Method, path, query and body.
   * @returns The 2xx response with its parsed JSON body.
   * @throws {@link HttpRequestError} for a non-2xx status (after retries for 5xx, or at once for a `503`
   *   whose `Retry-After` is longer than the longest wait allowed),
   *   {@link RateLimitedError} when 429 persists, {@link TimeoutError}, {@link NetworkError},
   *   {@link InvalidResponseError} when a 2xx body is not JSON, {@link ResponseTooLargeError} when a body is over
   *   the limit (at once, without retrying).
   */
  request(request: HttpRequest): Promise<HttpResponse>;
}

/**
 * Resolves a retry option to a full policy.
 *
 * @param retries - Number of retries, or a policy.
 * @returns The policy with defaults filled in.
 * @throws {@link InvalidArgumentError} for negative or non-integer counts and delays.
 */
function resolveRetryOptions(retries: number | RetryParameters | undefined): ResolvedRetryOptions {
  const given: RetryParameters = typeof retries === "number" ? { retries } : (retries ?? {});
  const resolved: ResolvedRetryOptions = {
    retries: given.retries ?? 3,
    rateLimitRetries: given.rateLimitRetries ?? 3,
    baseDelayMs: given.baseDelayMs ?? 250,
    maxDelayMs: given.maxDelayMs ?? 8_000,
    maxRetryAfterMs: given.maxRetryAfterMs ?? 120_000,
  };
  for (const key of ["retries", "rateLimitRetries"] as const) {
    if (!Number.isSafeInteger(resolved[key]) || resolved[key] < 0) {
      throw new InvalidArgumentError(`retry option "${key}" must be a non-negative integer, got ${String(resolved[key])}`);
    }
  }
  for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) {
      throw new InvalidArgumentError(`retry option "${key}" must be a non-negative number, got ${String(resolved[key])}`);
    }
  }
  return resolved;
}

/**
 * The delay before retry number `retry` (0 for the first retry): exponential backoff with full jitter,
 * `random() × min(maxDelayMs, baseDelayMs × 2^retry)`.
 *
 * @param retry - Index of the retry, from 0.
 * @param policy - Base and cap.
 * @param random - Random source in `[0, 1)`.
 * @returns The delay in milliseconds.
 */
export function backoffDelay(
  retry: number,
  policy: Pick<ResolvedRetryOptions, "baseDelayMs" | "maxDelayMs">,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Parses a `Retry-After` header: delay-seconds (`"120"`, also a decimal) or an HTTP date.
 *
 * @param value - The header value.
 * @param now - Current time in ms since epoch, for an HTTP date.
 * @returns The delay in milliseconds (0 for a date in the past), or `undefined` when absent or unparsable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Creates the transport.
 *
 * @param options - Base URL, key, time limit, retries, limiter, and injectable `fetch`/clock/sleep.
 * @returns The transport.
 * @throws {@link InvalidArgumentError} for a bad base URL, time limit, body limit or retry policy.
 */
export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? DEFAULT_API_URL);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidArgumentError(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  const apiKey = options.apiKey === undefined || options.apiKey === "" ? undefined : options.apiKey;
  if (apiKey !== undefined && /[\s]/.test(apiKey)) {
    throw new InvalidArgumentError("apiKey must not contain whitespace");
  }
  const maxResponseBytes = options.maxResponseBytes ?? MAX_API_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) {
    throw new InvalidArgumentError(`maxResponseBytes must be a positive integer, got ${String(maxResponseBytes)}`);
  }
  const retry = resolveRetryOptions(options.retries);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? systemClock;
  const sleep = options.sleep ?? systemSleep;
  const random = options.random ?? Math.random;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const defaultLimiter = options.rateLimiter;
  const pathLimiters = new Map(Object.entries(options.pathRateLimiters ?? {}).map(([path, limiter]) => [normalizePath(path), limiter]));
  const rateLimiterFor = (path: string): RateLimiter | undefined => pathLimiters.get(normalizePath(path)) ?? defaultLimiter;
  const scrub = createSecretScrubber([apiKey]);

  async function request(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method ?? "GET";
    const url = buildUrl(baseUrl, req.path, req.query);
    const limiter = rateLimiterFor(req.path);
    const safeUrl = scrub(redactUrl(url));
    const read = { method, url: safeUrl };
    const headers: Record<string, string> = { accept: "application/json", "user-agent": userAgent };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    let payload: string | undefined;
    if (req.body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(req.body);
    }

    let failures = 0; // network errors, time-outs, 5xx
    let rateLimited = 0; // 429s
    for (let attempt = 1; ; attempt++) {
      req.signal?.throwIfAborted();
      if (limiter) await limiter.acquire();
      req.signal?.throwIfAborted();
      const outcome = await attemptOnce(url, read, headers, payload, req.signal);
      const announced = outcome.kind === "response" ? announcementOf(outcome.status, outcome.headers, now()) : undefined;
      if (limiter && announced && !isEmptyAnnouncement(announced)) limiter.announce(announced);

      if (outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300) {
        return {
          status: outcome.status,
          url: safeUrl,
          headers: outcome.headers,
          body: parseSuccessBody(outcome.text, outcome.status, method, safeUrl, apiKey),
          rateLimit: announced ?? {},
          attempts: attempt,
        };
      }

      if (outcome.kind === "response" && outcome.status === 429) {
        const errorParams = { ...errorParamsOf(outcome.status, method, safeUrl, outcome.text, apiKey), attempts: attempt };
        const retryAfterMs = parseRetryAfter(outcome.headers.get("retry-after"), now());
        if (rateLimited >= retry.rateLimitRetries) throw new RateLimitedError(errorParams, retryAfterMs);
        if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfterMs) {
          throw new RateLimitedError(errorParams, retryAfterMs, {
            details: `Retry-After exceeds the longest wait allowed (${retry.maxRetryAfterMs} ms)`,
          });
        }
        const delay = retryAfterMs ?? backoffDelay(rateLimited, retry, random);
        rateLimited++;
        limiter?.pauseUntil(now() + delay);
        await sleep(delay);
        continue;
      }

      const retryable = outcome.kind !== "response" || outcome.status >= 500;
      // A 503 may say when to come back; a wait longer than allowed fails at once, like a 429's.
      const unavailableFor =
        outcome.kind === "response" && outcome.status === 503 ? parseRetryAfter(outcome.headers.get("retry-after"), now()) : undefined;
      if (unavailableFor !== undefined && unavailableFor > retry.maxRetryAfterMs) {
        throw new HttpRequestError(
          { ...errorParamsOf(503, method, safeUrl, outcome.kind === "response" ? outcome.text : "", apiKey), attempts: attempt },
          { details: `Retry-After (${unavailableFor} ms) exceeds the longest wait allowed (${retry.maxRetryAfterMs} ms)` },
        );
      }
      if (retryable && failures < retry.retries) {
        if (unavailableFor !== undefined) {
          limiter?.pauseUntil(now() + unavailableFor);
          await sleep(unavailableFor);
        } else {
          await sleep(backoffDelay(failures, retry, random));
        }
        failures++;
        continue;
      }

      if (outcome.kind === "timeout") {
        throw new TimeoutError({ method, url: safeUrl, timeoutMs, attempts: attempt });
      }
      if (outcome.kind === "network") {
        const reason = networkCauseOf(outcome.error);
        throw new NetworkError(
          { method, url: safeUrl, attempts: attempt, reason: reason === undefined ? undefined : scrub(reason) },
          { cause: outcome.error, details: scrub(describeNetworkError(outcome.error)) },
        );
      }
      throw new HttpRequestError({ ...errorParamsOf(outcome.status, method, safeUrl, outcome.text, apiKey), attempts: attempt });
    }
  }

  type Outcome =
    { kind: "response"; status: number; headers: Headers; text: string } | { kind: "timeout" } | { kind: "network"; error: unknown };

  async function attemptOnce(
    url: string,
    read: { method: string; url: string },
    headers: Record<string, string>,
    payload: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await fetchFollowingSameOrigin(url, read, headers, payload, controller.signal);
      // Scrubbed before anything looks at it: parsed, cut, quoted or kept in an error.
      const text = scrub(await readBoundedText(response, { ...read, maxBytes: maxResponseBytes }));
      return { kind: "response", status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ResponseTooLargeError || error instanceof RedirectRefusedError) throw error;
      if (timedOut) return { kind: "timeout" };
      return { kind: "network", error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * One request, following redirects within the request's origin only (at most {@link MAX_REDIRECTS}): a
   * redirect elsewhere would carry the request, its key among its headers, to a host the user did not name, and
   * its answer would be reported under the URL they did. A `303`, or a `301`/`302` of a `POST`, continues as a
   * `GET` without the body, as `fetch` itself does.
   */
  async function fetchFollowingSameOrigin(
    url: string,
    read: { method: string; url: string },
    headers: Record<string, string>,
    payload: string | undefined,
    signal: AbortSignal,
  ): Promise<Response> {
    const origin = new URL(url).origin;
    let target = url;
    let method = read.method;
    let body = payload;
    for (let redirects = 0; ; redirects++) {
      const response = await fetchImpl(target, {
        method,
        headers: body === undefined ? withoutContentType(headers) : headers,
        ...(body === undefined ? {} : { body }),
        signal,
        redirect: "manual",
      });
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
      if (location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const next = URL.canParse(location, target) ? new URL(location, target) : undefined;
      const refuse = (why: string) =>
        new RedirectRefusedError(
          { method: read.method, url: read.url, status: response.status, location: next ? scrub(redactUrl(next)) : "<invalid URL>" },
          why,
        );
      if (!next || (next.protocol !== "http:" && next.protocol !== "https:")) throw refuse("not an http(s) URL");
      if (next.origin !== origin) throw refuse(`another origin than ${origin}; only same-origin redirects are followed`);
      if (redirects >= MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects`);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
      target = next.href;
    }
  }

  return { baseUrl, rateLimiter: defaultLimiter, rateLimiterFor, retry, timeoutMs, request };
}

/** Most redirects one request follows (all within its origin). */
export const MAX_REDIRECTS = 5;

/** The statuses that redirect when they carry a `Location`. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The headers without `content-type`, for a request that no longer has a body. */
function withoutContentType(headers: Record<string, string>): Record<string, string> {
  const { "content-type": _dropped, ...rest } = headers;
  return rest;
}

function normalizeBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new InvalidArgumentError("baseUrl is not a valid URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new InvalidArgumentError(`baseUrl must be http(s), got "${parsed.protocol}"`);
  }
  // `fetch` refuses URLs with credentials, and a key in the URL would end up in logs: use `apiKey`.
  if (parsed.username || parsed.password) {
    throw new InvalidArgumentError("baseUrl must not contain credentials; pass the key as apiKey");
  }
  if (parsed.search || parsed.hash) {
    throw new InvalidArgumentError("baseUrl must not have a query or fragment; pass the key as apiKey");
  }
  return parsed.origin + parsed.pathname.replace(/\/+$/, "");
}

function buildUrl(baseUrl: string, path: string, query: Readonly<Record<string, QueryValue>> | undefined): string {
  const url = new URL(baseUrl + (path.startsWith("/") ? path : `/${path}`));
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** The parsed body of a 2xx response; its text is already scrubbed, its strings are scrubbed once more after parsing. */
function parseSuccessBody(text: string, status: number, method: string, url: string, apiKey: string | undefined): unknown {
  if (text.trim() === "") return undefined;
  try {
    return scrubSecretsDeep(JSON.parse(text) as unknown, [apiKey]);
  } catch (error) {
    throw new InvalidResponseError(
      `${method} ${url} returned a body that is not JSON (HTTP ${status})`,
      { url, issues: [`body starts with: ${JSON.stringify(text.slice(0, 80))}`] },
      { cause: error },
    );
  }
}

/**
 * What an error says about a non-2xx response. The text is already scrubbed; a secret written with JSON escapes
 * (`\u0041…`) only appears once parsed, so the parsed body is scrubbed again before anything keeps it.
 */
function errorParamsOf(status: number, method: string, url: string, text: string, apiKey: string | undefined) {
  let body: unknown;
  try {
    body = text.trim() === "" ? undefined : scrubSecretsDeep(JSON.parse(text) as unknown, [apiKey]);
  } catch {
    body = undefined;
  }
  const parsed = errorBodySchema.safeParse(body);
  return {
    status,
    method,
    url,
    body,
    errorCode: parsed.success ? parsed.data.error.code : undefined,
    errorMessage: parsed.success ? parsed.data.error.message : undefined,
  };
}

/**
 * What a response announces about the rate limit. On a `429` or `503`, `Retry-After` is when the service takes
 * requests again, so the quota it says is used up comes back no later than that.
 */
function announcementOf(status: number, headers: Headers, now: number): RateLimitAnnouncement {
  const announced = parseRateLimitHeaders(headers, { now });
  if (status === 429 || status === 503) {
    const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
    if (
      retryAfter !== undefined &&
      announced.remaining !== undefined &&
      (announced.resetMs === undefined || announced.resetMs > retryAfter)
    ) {
      announced.resetMs = retryAfter;
    }
  }
  return announced;
}

/** A path as limiters are keyed: a leading slash, no trailing one. */
function normalizePath(path: string): string {
  const withSlash = path.startsWith("/") ? path : `/${path}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, "") : withSlash;
}

function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === "string" ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(": ") || "unknown network error";
}
