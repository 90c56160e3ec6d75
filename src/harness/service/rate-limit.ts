/**
 * The local service's rate limit: a sliding one-minute window per caller, the caller being its API key
 * (`Authorization: Bearer <key>`) or, without one, its client address. Like the real service: 30
 * requests/minute anonymous, 300 with a key. Every decision carries what the service announces in its
 * headers ({@link rateLimitHeaders}): the caller's limit, what remains and when the window frees a request.
 *
 * @packageDocumentation
 */
import { RATE_LIMITS, RISK_TERMS_RATE_LIMITS } from "../../config/service.js";
import { InvalidArgumentError } from "../../errors.js";

/** Rate-limit settings. */
export interface RateLimitParameters {
  /** Requests per minute without a key. */
  readonly anonymousPerMinute: number;
  /** Requests per minute per API key. */
  readonly keyedPerMinute: number;
  /** Keys accepted; a request with any other key counts as anonymous. Default: any key is accepted. */
  readonly apiKeys?: readonly string[];
  /** Name of the policy in the `RateLimit-Policy` and `RateLimit` headers (default `"default"`). */
  readonly policy?: string;
}

/** The default settings: 30 anonymous, 300 keyed, any key accepted. */
export const DEFAULT_RATE_LIMIT: RateLimitParameters = {
  anonymousPerMinute: RATE_LIMITS.anonymous,
  keyedPerMinute: RATE_LIMITS.withApiKey,
};

/** The default settings of `POST /api/risk-terms`: 5 anonymous, 60 keyed (counted apart from the others). */
export const DEFAULT_RISK_TERMS_RATE_LIMIT: RateLimitParameters = {
  anonymousPerMinute: RISK_TERMS_RATE_LIMITS.anonymous,
  keyedPerMinute: RISK_TERMS_RATE_LIMITS.withApiKey,
};

/** The outcome of a rate-limit check. */
export interface RateLimitDecision {
  /** Whether the request may proceed. */
  readonly allowed: boolean;
  /** The caller's limit per window (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the current window after this one (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** When refused: whole seconds until a request would be accepted (`Retry-After`), at least 1. */
  readonly retryAfterSeconds: number;
  /**
   * Whole seconds until the oldest request in the window leaves it, so one more is allowed (`X-RateLimit-Reset`,
   * delta seconds; 0 with nothing in the window).
   */
  readonly resetSeconds: number;
  /** Length of the window in seconds (`w` of `RateLimit-Policy`). */
  readonly windowSeconds: number;
  /** The policy's name (`RateLimit-Policy`). */
  readonly policy: string;
  /** `key:<key>` or `addr:<client address>`. */
  readonly identity: string;
  /** Whether the caller counts as keyed (an accepted API key). */
  readonly keyed: boolean;
}

/** Length of the window, in milliseconds. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** A sliding-window-log rate limiter on an injectable clock. */
export class SlidingWindowRateLimiter {
  readonly #options: RateLimitParameters;
  readonly #now: () => Date;
  readonly #apiKeys: ReadonlySet<string> | undefined;
  readonly #log = new Map<string, number[]>();

  /**
   * @param options - Limits and accepted keys.
   * @param now - Clock.
   * @throws {@link InvalidArgumentError} when a limit is not a positive integer.
   */
  constructor(options: RateLimitParameters, now: () => Date = () => new Date()) {
    for (const [name, value] of [
      ["anonymousPerMinute", options.anonymousPerMinute],
      ["keyedPerMinute", options.keyedPerMinute],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new InvalidArgumentError(`rateLimit.${name} must be a positive integer, got ${value}`);
      }
    }
    this.#options = options;
    this.#now = now;
    this.#apiKeys = options.apiKeys ? new Set(options.apiKeys) : undefined;
  }

  /**
   * Who a request counts against, and that caller's limit.
   *
   * @param authorization - The `Authorization` header, if any.
   * @param clientAddress - The client's address.
   * @returns Identity and limit.
   */
  identify(authorization: string | undefined, clientAddress: string): { identity: string; limit: number; keyed: boolean } {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    const key = match?.[1];
    if (key !== undefined && (this.#apiKeys === undefined || this.#apiKeys.has(key))) {
      return { identity: `key:${key}`, limit: this.#options.keyedPerMinute, keyed: true };
    }
    return { identity: `addr:${clientAddress}`, limit: this.#options.anonymousPerMinute, keyed: false };
  }

  /**
   * Counts a request if the caller is under its limit.
   *
   * @param authorization - The `Authorization` header, if any.
   * @param clientAddress - The client's address.
   * @returns The decision; a refused request is not counted.
   */
  consume(authorization: string | undefined, clientAddress: string): RateLimitDecision {
    return this.#check(authorization, clientAddress, true);
  }

  /**
   * The caller's state without counting a request (for responses outside the limited paths).
   *
   * @param authorization - The `Authorization` header, if any.
   * @param clientAddress - The client's address.
   * @returns The decision as if checked, without counting.
   */
  peek(authorization: string | undefined, clientAddress: string): RateLimitDecision {
    return this.#check(authorization, clientAddress, false);
  }

  #check(authorization: string | undefined, clientAddress: string, count: boolean): RateLimitDecision {
    const { identity, limit, keyed } = this.identify(authorization, clientAddress);
    const common = { limit, identity, keyed, windowSeconds: RATE_LIMIT_WINDOW_MS / 1000, policy: this.#options.policy ?? "default" };
    const now = this.#now().getTime();
    const windowStart = now - RATE_LIMIT_WINDOW_MS;
    let log = this.#log.get(identity);
    if (log) {
      let drop = 0;
      while (drop < log.length && log[drop]! <= windowStart) drop++;
      if (drop > 0) log.splice(0, drop);
    } else {
      log = [];
    }
    if (log.length >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((log[0]! + RATE_LIMIT_WINDOW_MS - now) / 1000));
      return { ...common, allowed: false, remaining: 0, retryAfterSeconds, resetSeconds: retryAfterSeconds };
    }
    if (count) {
      log.push(now);
      if (!this.#log.has(identity)) {
        if (this.#log.size >= 10_000) this.#sweep(windowStart);
        this.#log.set(identity, log);
      }
    }
    const resetSeconds = log.length === 0 ? 0 : Math.max(1, Math.ceil((log[0]! + RATE_LIMIT_WINDOW_MS - now) / 1000));
    return { ...common, allowed: true, remaining: limit - log.length, retryAfterSeconds: 0, resetSeconds };
  }

  /** Forgets callers with no request in the window. */
  #sweep(windowStart: number): void {
    for (const [identity, log] of this.#log) {
      if (log.length === 0 || log[log.length - 1]! <= windowStart) this.#log.delete(identity);
    }
  }
}

/**
 * The headers that announce a decision: `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`
 * (delta seconds), and the IETF draft's `RateLimit-Policy: "<policy>";q=<limit>;w=<window>` with
 * `RateLimit: "<policy>";r=<remaining>;t=<reset>`.
 *
 * @param rate - The decision.
 * @returns The headers.
 */
export function rateLimitHeaders(rate: RateLimitDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(rate.limit),
    "X-RateLimit-Remaining": String(rate.remaining),
    "X-RateLimit-Reset": String(rate.resetSeconds),
    "RateLimit-Policy": `"${rate.policy}";q=${rate.limit};w=${rate.windowSeconds}`,
    RateLimit: `"${rate.policy}";r=${rate.remaining};t=${rate.resetSeconds}`,
  };
}
