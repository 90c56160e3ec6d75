/**
 * Client-side rate limiter for the trust service: at most N requests in any 60-second window (30 per
 * minute anonymous, 300 with an API key; {@link RATE_LIMITS}).
 *
 * It is a sliding-window log: the times of the last N grants are kept, and a request is granted at time
 * `t` only when fewer than N grants fall in `(t − 60 s, t]`. So any half-open window `[s, s + 60 s)` holds
 * at most N grants, and, unlike a fixed per-minute bucket, no burst of 2N can straddle a minute boundary.
 * Waiters are served first come, first served. {@link RateLimiter.pauseUntil} holds every request back
 * until a time, for when the service answers `429` with `Retry-After`.
 *
 * Time is injectable (`now`, `sleep`), so tests drive it with a simulated clock.
 *
 * @packageDocumentation
 */
import { RATE_LIMITS } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";

/** Reads the current time, in milliseconds since the Unix epoch. */
export type Clock = () => number;

/** Waits the given number of milliseconds. */
export type Sleep = (ms: number) => Promise<void>;

/** The default {@link Clock}: `Date.now`. */
export const systemClock: Clock = () => Date.now();

/** The default {@link Sleep}: a `setTimeout` promise. */
export const systemSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed per window (default: 30, or 300 with `hasApiKey`). */
  limit?: number;
  /** Picks the default `limit`: {@link RATE_LIMITS}`.withApiKey` when true, `.anonymous` otherwise. */
  hasApiKey?: boolean;
  /** Window length in milliseconds (default 60 000). */
  windowMs?: number;
  /** Clock (default `Date.now`). */
  now?: Clock;
  /** Sleep (default `setTimeout`). */
  sleep?: Sleep;
}

/** A snapshot of a limiter's state. */
export interface RateLimiterState {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** Requests granted in the current window (ending now). */
  used: number;
  /** Requests that could be granted right now without waiting (0 while paused). */
  available: number;
  /** Requests waiting in {@link RateLimiter.acquire}. */
  waiting: number;
  /** Time (ms since epoch) until which requests are held back, if a pause is in force. */
  pausedUntil: number | undefined;
}

/** A sliding-window rate limiter (see the module notes). */
export interface RateLimiter {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
  /**
   * Waits until a request may be made, then counts it. Callers are served in call order.
   *
   * @returns The time (ms since epoch, by the limiter's clock) at which the request was granted.
   */
  acquire(): Promise<number>;
  /**
   * Counts a request and returns true if it may be made right now (no pause, nobody waiting, room in the
   * window); returns false and counts nothing otherwise.
   */
  tryAcquire(): boolean;
  /**
   * Holds every request back until `time` (ms since epoch). A later call can extend a pause, never
   * shorten it.
   *
   * @param time - End of the pause.
   */
  pauseUntil(time: number): void;
  /** The current state. */
  state(): RateLimiterState;
}

/**
 * Creates a sliding-window rate limiter.
 *
 * @param options - Limit (or whether an API key is used), window, clock and sleep.
 * @returns The limiter.
 * @throws {@link InvalidArgumentError} when `limit` is not a positive integer or `windowMs` not positive.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ hasApiKey: true }); // 300 per minute
 * await limiter.acquire();
 * ```
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const limit = options.limit ?? (options.hasApiKey ? RATE_LIMITS.withApiKey : RATE_LIMITS.anonymous);
  const windowMs = options.windowMs ?? 60_000;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidArgumentError(`Rate limit must be a positive integer, got ${String(limit)}`);
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new InvalidArgumentError(`Rate-limit window must be a positive number of milliseconds, got ${String(windowMs)}`);
  }
  const now = options.now ?? systemClock;
  const sleep = options.sleep ?? systemSleep;

  /** Grant times inside the current window, oldest first (a queue with a moving head). */
  let grants: number[] = [];
  let head = 0;
  let pausedUntil = -Infinity;
  let waiting = 0;
  let tail: Promise<unknown> = Promise.resolve();

  const prune = (t: number): void => {
    while (head < grants.length && grants[head]! <= t - windowMs) head++;
    if (head > 1024 && head * 2 > grants.length) {
      grants = grants.slice(head);
      head = 0;
    }
  };
  const used = (t: number): number => {
    prune(t);
    return grants.length - head;
  };

  /** Grants one request, waiting as long as needed. Only ever runs one at a time (see `acquire`). */
  const grant = async (): Promise<number> => {
    for (;;) {
      const t = now();
      if (t < pausedUntil) {
        await sleep(waitFor(pausedUntil - t));
        continue;
      }
      if (used(t) < limit) {
        grants.push(t);
        return t;
      }
      // The oldest grant in the window leaves it at `oldest + windowMs`.
      await sleep(waitFor(grants[head]! + windowMs - t));
    }
  };

  return {
    limit,
    windowMs,
    acquire() {
      waiting++;
      const ticket = tail.then(grant).finally(() => {
        waiting--;
      });
      tail = ticket.catch(() => undefined);
      return ticket;
    },
    tryAcquire() {
      const t = now();
      if (waiting > 0 || t < pausedUntil || used(t) >= limit) return false;
      grants.push(t);
      return true;
    },
    pauseUntil(time) {
      if (Number.isFinite(time) && time > pausedUntil) pausedUntil = time;
    },
    state() {
      const t = now();
      const inWindow = used(t);
      const paused = t < pausedUntil;
      return {
        limit,
        windowMs,
        used: inWindow,
        available: paused ? 0 : Math.max(0, limit - inWindow),
        waiting,
        pausedUntil: paused ? pausedUntil : undefined,
      };
    },
  };
}

/**
 * A wait as passed to `sleep`: whole milliseconds, at least 1, so that the clock always moves on (with a
 * fractional clock, `t + (target − t)` can round to just below `target`, and a zero wait would spin).
 */
function waitFor(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}
