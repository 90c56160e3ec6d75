/**
 * The projected cost of a scan's signed fetches ({@link FetchProjection}, `report.projection`): known once triage
 * has chosen them, computed before the first is sent, at the rate the client's limiter keeps to then. Without an API
 * key the client keeps to 30 requests a minute (the assumed limit, until the service announces one), so a keyless `--all` of 150,000 agents (about 42,000
 * signed fetches) would run for about a day: the command line says so before the fetches start.
 *
 * @packageDocumentation
 */
import type { RateLimiter } from "../api/rate-limiter.js";
import { RATE_LIMITS } from "../config/service.js";
import type { FetchProjection } from "./types.js";

/**
 * The rate a limiter keeps to now, in requests per minute: its limit per window, scaled to a minute. Read when it is
 * needed, not once: a limiter that follows the service's announced limit changes it.
 *
 * @param limiter - The client's limiter (`api.transport.rateLimiter`), or `undefined` when it has none.
 * @returns Requests per minute, or `null` without a limiter.
 */
export function ratePerMinuteOf(limiter: Pick<RateLimiter, "limit" | "windowMs"> | undefined): number | null {
  if (!limiter || !(limiter.limit > 0) || !(limiter.windowMs > 0)) return null;
  return (limiter.limit * 60_000) / limiter.windowMs;
}

/** What {@link projectFetches} needs. */
export interface ProjectFetchesInput {
  /** Signed fetches triage selected. */
  readonly signedFetches: number;
  /** The rate in force (see {@link ratePerMinuteOf}); `null` without a limiter. */
  readonly ratePerMinute: number | null;
  /** Whether the requests carry an API key. */
  readonly apiKey: boolean;
  /** Whether the rate was set by hand (`--rate`, `config.ratePerMinute`): then a key would not change it. */
  readonly rateConfigured: boolean;
  /** The rate a key gets (default {@link RATE_LIMITS}`.withApiKey`, 300). */
  readonly keyedRatePerMinute?: number;
}

/**
 * Projects the duration of the signed fetches.
 *
 * @param input - Fetch count, rate in force, key and whether the rate was configured.
 * @returns The projection; for example 600 fetches at 30 a minute: 1,200 seconds, and with a key (300 a minute) 120.
 */
export function projectFetches(input: ProjectFetchesInput): FetchProjection {
  const keyed = input.keyedRatePerMinute ?? RATE_LIMITS.withApiKey;
  const rate = input.ratePerMinute;
  const keyWouldHelp = !input.apiKey && !input.rateConfigured && rate !== null && rate < keyed;
  return {
    signedFetches: input.signedFetches,
    ratePerMinute: rate,
    projectedSeconds: rate === null ? null : secondsAt(input.signedFetches, rate),
    apiKey: input.apiKey,
    withApiKey: keyWouldHelp ? { ratePerMinute: keyed, projectedSeconds: secondsAt(input.signedFetches, keyed) } : null,
  };
}

/** Seconds `requests` take at `perMinute`, rounded up. */
function secondsAt(requests: number, perMinute: number): number {
  return Math.ceil((requests * 60) / perMinute);
}
