/**
 * Options shared by the API client and the MCP client, and how they become one {@link HttpTransport}
 * (base URL, key, time limit, retries and the rate limiter chosen by key presence).
 *
 * @packageDocumentation
 */
import { RATE_LIMITS } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";
import { createHttpTransport, type HttpTransport, type RetryOptions } from "./http.js";
import { type Clock, createRateLimiter, type RateLimiter, type Sleep } from "./rate-limiter.js";

/** Options of `createTrustApiClient` and `createTrustMcpClient`. */
export interface TrustApiClientOptions {
  /** Base URL of the service (default `https://rnwy.com`). */
  baseUrl?: string;
  /** API key, sent as `Authorization: Bearer <key>`; raises the default rate limit from 30 to 300/min. */
  apiKey?: string | undefined;
  /** Time limit of one attempt, in milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Retries on network errors, time-outs and 5xx (default 3), or a full retry policy. */
  retries?: number | RetryOptions;
  /**
   * Requests per minute allowed by the client-side limiter (default 30, or 300 with `apiKey`), a limiter
   * to share between clients, or `false` for none.
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
export function rateLimiterFromOptions(options: TrustApiClientOptions): RateLimiter | undefined {
  const { rateLimit } = options;
  if (rateLimit === false) return undefined;
  if (typeof rateLimit === "object" && rateLimit !== null) return rateLimit;
  if (rateLimit !== undefined && (!Number.isSafeInteger(rateLimit) || rateLimit < 1)) {
    throw new InvalidArgumentError(`rateLimit must be a positive integer (requests per minute) or false, got ${String(rateLimit)}`);
  }
  const hasKey = options.apiKey !== undefined && options.apiKey !== "";
  return createRateLimiter({
    limit: rateLimit ?? (hasKey ? RATE_LIMITS.withApiKey : RATE_LIMITS.anonymous),
    ...(options.now ? { now: options.now } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
}

/**
 * Builds the transport for client options, or returns the one given.
 *
 * @param options - Client options, or `{ transport }`.
 * @returns The transport.
 * @throws {@link InvalidArgumentError} for bad options.
 */
export function transportFromOptions(options: TrustApiClientOptions | TransportOption): HttpTransport {
  if ("transport" in options && options.transport) return options.transport;
  const o = options as TrustApiClientOptions;
  return createHttpTransport({
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    apiKey: o.apiKey,
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.retries !== undefined ? { retries: o.retries } : {}),
    rateLimiter: rateLimiterFromOptions(o),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.userAgent !== undefined ? { userAgent: o.userAgent } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.sleep ? { sleep: o.sleep } : {}),
    ...(o.random ? { random: o.random } : {}),
  });
}
