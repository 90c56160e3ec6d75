/**
 * Client-side rate limiter for the trust service: at most N requests in any 60-second window. N starts as
 * configured, or at the kit's assumed limit (30 per minute anonymous, 300 with an API key; {@link RATE_LIMITS}: no
 * source publishes these), and then follows what the service announces in its responses
 * ({@link RateLimiter.announce}, fed by the transport from `X-RateLimit-*` / `RateLimit-*` headers), lower or
 * higher, but never above a configured `cap`.
 *
 * It is a sliding-window log: the times of the last N grants are kept, and a request is granted at time
 * `t` only when fewer than N grants fall in `(t − 60 s, t]`. So any half-open window `[s, s + 60 s)` holds
 * at most N grants, and, unlike a fixed per-minute bucket, no burst of 2N can straddle a minute boundary.
 * Waiters are served first come, first served. {@link RateLimiter.pauseUntil} holds every request back
 * until a time, for when the service answers `429` (or `503`) with `Retry-After`. When the service says fewer
 * requests remain than the limiter counted (another process sharing the key), the difference counts as used
 * until the announced reset.
 *
 * Time is injectable (`now`, `sleep`), so tests drive it with a simulated clock.
 *
 * @packageDocumentation
 */
import { RATE_LIMITS } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";
import type { RateLimitAnnouncement } from "./rate-limit-headers.js";

/** Reads the current time, in milliseconds since the Unix epoch. */
export type Clock = () => number;

/**
 * Waits the given number of milliseconds. When `signal` aborts, the wait may end early (the default sleep
 * does; a simulated one may ignore it).
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default {@link Clock}: `Date.now`. */
export const systemClock: Clock = () => Date.now();

/** The default {@link Sleep}: a `setTimeout` promise, cleared and resolved early when `signal` aborts. */
export const systemSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Where the limit in force comes from. */
export type RateLimitSource =
  /** Chosen by whether an API key is used (the service's documented limits), nothing announced yet. */
  | "default"
  /** Set by the caller (`limit`), or held down to the caller's `cap` although the service announced more. */
  | "configured"
  /** Announced by the service. */
  | "announced";

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests allowed per window to start with (default: `defaults.anonymous`, or `defaults.withApiKey` with `hasApiKey`). */
  limit?: number;
  /** Picks the default `limit`: `defaults.withApiKey` when true, `defaults.anonymous` otherwise. */
  hasApiKey?: boolean;
  /** The starting limits the default `limit` is taken from (default {@link RATE_LIMITS}: 30 and 300, assumed). */
  defaults?: { readonly anonymous: number; readonly withApiKey: number };
  /**
   * Hard cap: the limit never goes above it, whatever the service announces (default: none). A `limit` above
   * the cap starts at the cap.
   */
  cap?: number;
  /** Follow the limits the service announces (default true); false keeps the limit fixed. */
  adaptive?: boolean;
  /** Window length in milliseconds (default 60 000). */
  windowMs?: number;
  /** Clock (default `Date.now`). */
  now?: Clock;
  /** Sleep (default `setTimeout`). */
  sleep?: Sleep;
}

/** The rate a limiter keeps to, as {@link RateLimiter.rate} reports it and {@link RateLimiter.onChange} announces. */
export interface RateInForce {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** `limit` as requests per minute (`limit × 60 000 / windowMs`), for projections. */
  perMinute: number;
  /** Where `limit` comes from. */
  source: RateLimitSource;
  /** The hard cap, if one is configured. */
  cap: number | undefined;
  /** The service's last announced limit, as announced (its own window), if any. */
  announced: { limit: number; windowMs: number } | undefined;
}

/** A snapshot of a limiter's state. */
export interface RateLimiterState extends RateInForce {
  /** Requests counted in the current window (ending now), including any the service said were used elsewhere. */
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
  /** Requests allowed per window, now (it changes when the service announces another limit). */
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
  /**
   * Takes in what a response announced: its limit replaces the one in force (converted to this limiter's
   * window by rate, and never above `cap`), and a `remaining` lower than the limiter's own count makes the
   * difference count as used until `resetMs` (at most one window). Ignored when the limiter is not adaptive;
   * absent fields change nothing.
   *
   * @param announcement - What the response announced (see `parseRateLimitHeaders`).
   */
  announce(announcement: RateLimitAnnouncement): void;
  /** The rate in force now. */
  rate(): RateInForce;
  /**
   * Calls `listener` whenever the rate in force changes (limit or source).
   *
   * @param listener - Receives the new rate.
   * @returns A function that removes the listener.
   */
  onChange(listener: (rate: RateInForce) => void): () => void;
  /** The current state. */
  state(): RateLimiterState;
}

/**
 * Creates a sliding-window rate limiter.
 *
 * @param options - Limit (or whether an API key is used), cap, window, clock and sleep.
 * @returns The limiter.
 * @throws {@link InvalidArgumentError} when `limit` or `cap` is not a positive integer or `windowMs` not positive.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ hasApiKey: true }); // 300 per minute until the service says otherwise
 * limiter.onChange((rate) => console.log(`now ${rate.perMinute}/min (${rate.source})`));
 * await limiter.acquire();
 * ```
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const defaults = options.defaults ?? RATE_LIMITS;
  const cap = options.cap;
  if (cap !== undefined && (!Number.isSafeInteger(cap) || cap < 1)) {
    throw new InvalidArgumentError(`Rate-limit cap must be a positive integer, got ${String(cap)}`);
  }
  const initial = options.limit ?? (options.hasApiKey ? defaults.withApiKey : defaults.anonymous);
  const windowMs = options.windowMs ?? 60_000;
  if (!Number.isSafeInteger(initial) || initial < 1) {
    throw new InvalidArgumentError(`Rate limit must be a positive integer, got ${String(initial)}`);
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new InvalidArgumentError(`Rate-limit window must be a positive number of milliseconds, got ${String(windowMs)}`);
  }
  const now = options.now ?? systemClock;
  const sleep = options.sleep ?? systemSleep;
  const adaptive = options.adaptive ?? true;

  let limit = cap === undefined ? initial : Math.min(initial, cap);
  let source: RateLimitSource = options.limit !== undefined || limit < initial ? "configured" : "default";
  let announced: RateInForce["announced"];
  const listeners = new Set<(rate: RateInForce) => void>();

  /** Grant times inside the current window, oldest first (a queue with a moving head). */
  let grants: number[] = [];
  let head = 0;
  /**
   * Requests the service counted that this limiter did not (from an announced `remaining`), against the
   * service's limit `elsewhereLimit`, until `elsewhereUntil`.
   */
  let elsewhere = 0;
  let elsewhereLimit = Infinity;
  let elsewhereUntil = -Infinity;
  let pausedUntil = -Infinity;
  let waiting = 0;
  let tail: Promise<unknown> = Promise.resolve();
  /** Aborted (and replaced) when the limit rises or counted requests are released, to wake a sleeping waiter. */
  let wake = new AbortController();

  const prune = (t: number): void => {
    while (head < grants.length && grants[head]! <= t - windowMs) head++;
    if (head > 1024 && head * 2 > grants.length) {
      grants = grants.slice(head);
      head = 0;
    }
  };
  const own = (t: number): number => {
    prune(t);
    return grants.length - head;
  };
  const used = (t: number): number => own(t) + (t < elsewhereUntil ? elsewhere : 0);
  /** Requests that may be made at `t` by the limit in force and, while it holds, by the service's own count. */
  const room = (t: number): number => {
    const mine = own(t);
    const byLimit = limit - mine;
    return t < elsewhereUntil ? Math.min(byLimit, elsewhereLimit - elsewhere - mine) : byLimit;
  };

  /** Sleeps `ms`, or less when the limiter is woken (see `wake`). */
  const nap = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const signal = wake.signal;
      const done = (): void => {
        signal.removeEventListener("abort", done);
        resolve();
      };
      signal.addEventListener("abort", done);
      sleep(ms, signal).then(done, done);
    });
  const wakeWaiters = (): void => {
    wake.abort();
    wake = new AbortController();
  };

  /** Grants one request, waiting as long as needed. Only ever runs one at a time (see `acquire`). */
  const grant = async (): Promise<number> => {
    for (;;) {
      const t = now();
      if (t < pausedUntil) {
        await nap(waitFor(pausedUntil - t));
        continue;
      }
      if (room(t) > 0) {
        grants.push(t);
        return t;
      }
      // Room comes back when the oldest own grant leaves the window, or when the requests counted elsewhere expire.
      let next = Infinity;
      if (head < grants.length) next = grants[head]! + windowMs;
      if (t < elsewhereUntil && elsewhere > 0) next = Math.min(next, elsewhereUntil);
      await nap(waitFor((next === Infinity ? t + windowMs : next) - t));
    }
  };

  const rate = (): RateInForce => ({
    limit,
    windowMs,
    perMinute: (limit * 60_000) / windowMs,
    source,
    cap,
    announced: announced === undefined ? undefined : { ...announced },
  });

  return {
    get limit() {
      return limit;
    },
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
      if (waiting > 0 || t < pausedUntil || room(t) <= 0) return false;
      grants.push(t);
      return true;
    },
    pauseUntil(time) {
      if (Number.isFinite(time) && time > pausedUntil) pausedUntil = time;
    },
    announce(announcement) {
      if (!adaptive) return;
      const t = now();
      const before = { limit, source };
      const announcedWindow = validWindow(announcement.windowMs) ?? windowMs;
      const announcedLimit = positive(announcement.limit);
      if (announcedLimit !== undefined) {
        announced = { limit: announcedLimit, windowMs: announcedWindow };
        // Another window is converted by rate; at least one request per window.
        const perWindow =
          announcedWindow === windowMs ? announcedLimit : Math.max(1, Math.floor((announcedLimit * windowMs) / announcedWindow));
        limit = cap === undefined ? perWindow : Math.min(perWindow, cap);
        source = limit === perWindow ? "announced" : "configured";
      }
      const remaining = nonNegative(announcement.remaining);
      let released = false;
      if (remaining !== undefined && announcedWindow === windowMs) {
        // The service's count in its window against the limiter's own: the difference was used elsewhere.
        const serviceLimit = announcedLimit ?? (announced?.windowMs === windowMs ? announced.limit : limit);
        const extra = Math.max(0, serviceLimit - remaining - own(t));
        const reset = nonNegative(announcement.resetMs);
        const wasElsewhere = t < elsewhereUntil ? elsewhere : 0;
        elsewhere = extra;
        elsewhereLimit = serviceLimit;
        elsewhereUntil = extra > 0 ? t + Math.min(reset ?? windowMs, windowMs) : -Infinity;
        released = extra < wasElsewhere;
      }
      const changed = limit !== before.limit || source !== before.source;
      if (released || limit > before.limit) wakeWaiters();
      if (changed) {
        const current = rate();
        for (const listener of [...listeners]) {
          try {
            listener(current);
          } catch {
            // A listener's failure is its own; the limiter goes on.
          }
        }
      }
    },
    rate,
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    state() {
      const t = now();
      const inWindow = used(t);

      const paused = t < pausedUntil;
      return {
        ...rate(),
        used: inWindow,
        available: paused ? 0 : Math.max(0, room(t)),
        waiting,
        pausedUntil: paused ? pausedUntil : undefined,
      };
    },
  };
}

function positive(value: number | undefined): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

function nonNegative(value: number | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function validWindow(value: number | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * A wait as passed to `sleep`: whole milliseconds, at least 1, so that the clock always moves on (with a
 * fractional clock, `t + (target − t)` can round to just below `target`, and a zero wait would spin).
 */
function waitFor(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}
