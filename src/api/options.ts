/**
 * Options shared by the API client and the MCP client, and how they become one {@link HttpTransport}
 * (base URL, key, time limit, retries, and the rate limiters: one for the service's paths, one for
 * `POST /api/risk-terms`, which the service counts apart; each starts at the documented limit for the key's
 * presence, or at the configured one, and then follows what the service announces).
 *
 * @packageDocumentation
 */
import { RATE_LIMITS, RISK_TERMS_RATE_LIMITS } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";
import { createHttpTransport, type HttpTransport, type RetryParameters } from "./http.js";
import { type Clock, createRateLimiter, type RateLimiter, type Sleep } from "./rate-limiter.js";

/** Options of `createTrustApiClient` and `createTrustMcpClient`. */
export interface TrustApiClientParameters {
  /** Base URL of the service (default `https://rnwy.com`). */
  baseUrl?: string;
  /** API key, sent as `Authorization: Bearer <key>`; raises the starting rate limit from 30 to 300/min (both assumed). */
  apiKey?: string | undefined;
  /** Time limit of one attempt, in milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Retries on network errors, time-outs and 5xx (default 3), or a full retry policy. */
  retries?: number | RetryParameters;
  /**
   * Most bytes read from one response body (default `MAX_API_RESPONSE_BYTES`, 8 MiB); a larger body fails at once
   * with `ResponseTooLargeError`, never retried.
   */
  maxResponseBytes?: number;
  /**
   * The client-side limiter. Default: it starts at the kit's assumed limit (30/min, or 300 with `apiKey`:
   * {@link RATE_LIMITS}, no source publishes them; `/api/risk-terms` 5 or 60, as SKILL.md publishes) and follows the
   * limit the service announces in its responses, lower or higher. A number: requests per minute to start at and a hard cap (an announced lower limit is followed,
   * a higher one is not). A limiter: shared between clients for every path but `/api/risk-terms` (which keeps
   * its own). `false`: no limiter at all.
   */
  rateLimit?: number | RateLimiter | false;
  /** `fetch` implementation (default the global one). */
  fetch?: typeof globalThis.fetch;
  /** `User-Agent` header (default `trustgate/<version>`). */
  userAgent?: string;
  /** Clock (default `Date.now`); for tests. */
  now?: Clock;
  /** Sleep (default `setTimeout`); for tests. */
  sleep?: Sleep;
  /** Random source of the backoff jitter (default `Math.random`); for tests. */
  random?: () => number;
}

/** Options that reuse an existing transport (and so its limiter) instead of making one. */
export interface TransportOption {
  /** The transport to send requests through. */
  transport: HttpTransport;
}

/**
 * The rate limiter an options object asks for.
 *
 * @param options - Client options.
 * @returns The limiter, or `undefined` when `rateLimit` is `false`.
 * @throws {@link InvalidArgumentError} for a limit that is not a positive integer.
 */
export function rateLimiterFromOptions(options: TrustApiClientParameters): RateLimiter | undefined {
  const { rateLimit } = options;
  if (rateLimit === false) return undefined;
  if (typeof rateLimit === "object" && rateLimit !== null) return rateLimit;
  return limiterFor(options, RATE_LIMITS, checkedCap(rateLimit));
}

/**
 * The rate limiter of `POST /api/risk-terms` an options object asks for: its own count, starting at 5/min
 * anonymous or 60 with a key ({@link RISK_TERMS_RATE_LIMITS}), never above a numeric `rateLimit`.
 *
 * @param options - Client options.
 * @returns The limiter, or `undefined` when `rateLimit` is `false`.
 * @throws {@link InvalidArgumentError} for a limit that is not a positive integer.
 */
function riskTermsRateLimiterFromOptions(options: TrustApiClientParameters): RateLimiter | undefined {
  const { rateLimit } = options;
  if (rateLimit === false) return undefined;
  const cap = typeof rateLimit === "object" && rateLimit !== null ? undefined : checkedCap(rateLimit);
  return createRateLimiter({
    hasApiKey: options.apiKey !== undefined && options.apiKey !== "",
    defaults: RISK_TERMS_RATE_LIMITS,
    ...(cap === undefined ? {} : { cap }),
    ...clockOf(options),
  });
}

/** The path with a limit of its own. */
const RISK_TERMS_PATH = "/api/risk-terms";

function limiterFor(options: TrustApiClientParameters, documented: typeof RATE_LIMITS, cap: number | undefined): RateLimiter {
  const hasKey = options.apiKey !== undefined && options.apiKey !== "";
  return createRateLimiter({
    ...(cap === undefined ? { hasApiKey: hasKey, defaults: documented } : { limit: cap, cap }),
    ...clockOf(options),
  });
}

function checkedCap(rateLimit: number | undefined): number | undefined {
  if (rateLimit !== undefined && (!Number.isSafeInteger(rateLimit) || rateLimit < 1)) {
    throw new InvalidArgumentError(`rateLimit must be a positive integer (requests per minute) or false, got ${String(rateLimit)}`);
  }
  return rateLimit;
}

function clockOf(options: TrustApiClientParameters): { now?: Clock; sleep?: Sleep } {
  return { ...(options.now ? { now: options.now } : {}), ...(options.sleep ? { sleep: options.sleep } : {}) };
}

/**
 * Builds the transport for client options, or returns the one given.
 *
 * @param options - Client options, or `{ transport }`.
 * @returns The transport.
 * @throws {@link InvalidArgumentError} for bad options.
 */
export function transportFromOptions(options: TrustApiClientParameters | TransportOption): HttpTransport {
  if ("transport" in options && options.transport) return options.transport;
  const o = options as TrustApiClientParameters;
  return createHttpTransport({
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    apiKey: o.apiKey,
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.retries !== undefined ? { retries: o.retries } : {}),
    ...(o.maxResponseBytes !== undefined ? { maxResponseBytes: o.maxResponseBytes } : {}),
    rateLimiter: rateLimiterFromOptions(o),
    ...riskTermsLimiters(o),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.userAgent !== undefined ? { userAgent: o.userAgent } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
    ...(o.random ? { random: o.random } : {}),
  });
}

function riskTermsLimiters(options: TrustApiClientParameters): { pathRateLimiters?: Record<string, RateLimiter> } {
  const limiter = riskTermsRateLimiterFromOptions(options);
  return limiter ? { pathRateLimiters: { [RISK_TERMS_PATH]: limiter } } : {};
}
