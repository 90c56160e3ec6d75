/**
 * Benchmark of the API client's rate limiter: drives it with many requests and reports the most requests
 * granted in any window against the configured limit, the throughput it sustained, and how fast the
 * limiter itself runs.
 *
 * - Simulated (default): a simulated clock whose `sleep` moves time on at once, so hours of traffic run in
 *   milliseconds and the figures are exact.
 * - Real: the real clock and `setTimeout`, with the window scaled down (`windowMs`, default 500 ms) so that
 *   a run takes a few seconds; timer slack makes it a check of behaviour under real scheduling.
 *
 * Figures, not assertions: `npm run bench` prints them.
 */
import { createRateLimiter } from "../../src/api/rate-limiter.js";
import { createRng } from "../../src/harness/prng.js";

/** Options of {@link measureRateLimiter}. */
export interface RateLimiterBenchOptions {
  /** Requests allowed per window. */
  limitPerMinute: number;
  /** Requests to drive through the limiter. */
  requests: number;
  /** Simulated clock (default true). */
  simulated?: boolean;
  /** Window length; default 60 000 ms simulated, 500 ms real. */
  windowMs?: number;
  /**
   * How requests arrive: all at once (`"burst"`, default), or at random times (exponential gaps) at
   * `offeredPerWindow` requests per window on average (`"random"`).
   */
  arrival?: "burst" | "random";
  /** Offered load for `"random"` arrivals, in requests per window (default 3 × the limit). */
  offeredPerWindow?: number;
  /** Seed of the random arrivals (default 1). */
  seed?: number;
}

/** Figures of one run. */
export interface RateLimiterBenchResult {
  /** Configured limit per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** Requests driven. */
  requests: number;
  /** Most grants observed in any window `[s, s + windowMs)`. */
  maxInAnyWindow: number;
  /** `maxInAnyWindow ≤ limit`. */
  withinLimit: boolean;
  /** Time from the first to the last grant, by the limiter's clock. */
  spanMs: number;
  /** Grants per window sustained over the run. */
  throughputPerWindow: number;
  /** Real time the run took, in milliseconds. */
  wallMs: number;
  /** Real acquires per second the limiter handled (its own overhead; meaningful for simulated runs). */
  acquiresPerSecond: number;
}

/**
 * Drives a rate limiter and measures it.
 *
 * @param options - Limit, number of requests, clock and arrival pattern.
 * @returns The figures.
 */
export async function measureRateLimiter(options: RateLimiterBenchOptions): Promise<RateLimiterBenchResult> {
  const simulated = options.simulated ?? true;
  const windowMs = options.windowMs ?? (simulated ? 60_000 : 500);
  const arrival = options.arrival ?? "burst";
  const offered = options.offeredPerWindow ?? options.limitPerMinute * 3;

  let t = 0;
  const clock = simulated
    ? {
        now: () => t,
        sleep: async (ms: number) => {
          t += Math.max(0, ms);
        },
      }
    : { now: () => performance.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms))) };
  const limiter = createRateLimiter({ limit: options.limitPerMinute, windowMs, ...clock });

  const grants: number[] = [];
  const rng = createRng(options.seed ?? 1);
  const random = (): number => rng.next();
  const started = performance.now();
  if (arrival === "burst") {
    grants.push(...(await Promise.all(Array.from({ length: options.requests }, () => limiter.acquire()))));
  } else {
    const meanGapMs = windowMs / offered;
    const pending: Promise<number>[] = [];
    for (let i = 0; i < options.requests; i++) {
      const gap = -Math.log(1 - random()) * meanGapMs;
      if (simulated) t += gap;
      else await clock.sleep(gap);
      pending.push(limiter.acquire());
      // Let granted acquires settle so the simulated clock reflects their waits before the next arrival.
      if (simulated) await Promise.resolve();
    }
    grants.push(...(await Promise.all(pending)));
  }
  const wallMs = performance.now() - started;

  const maxIn = maxInAnyWindow(grants, windowMs);
  const spanMs = grants.length ? Math.max(...grants) - Math.min(...grants) : 0;
  return {
    limit: options.limitPerMinute,
    windowMs,
    requests: options.requests,
    maxInAnyWindow: maxIn,
    withinLimit: maxIn <= options.limitPerMinute,
    spanMs,
    throughputPerWindow: spanMs > 0 ? (grants.length - 1) / (spanMs / windowMs) : grants.length,
    wallMs,
    acquiresPerSecond: wallMs > 0 ? (options.requests / wallMs) * 1000 : Infinity,
  };
}

/**
 * The most timestamps in any half-open window `[s, s + windowMs)`.
 *
 * @param times - Timestamps.
 * @param windowMs - Window length.
 * @returns The count.
 */
export function maxInAnyWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (j < i) j = i;
    while (j < sorted.length && sorted[j]! < sorted[i]! + windowMs) j++;
    max = Math.max(max, j - i);
  }
  return max;
}
