/**
 * A circuit breaker for an endpoint that died mid-run (the service, or the RPC): after `threshold` consecutive network
 * failures (a connection refused or reset, a request that timed out: no answer at all, whatever its status), the
 * breaker opens and every later request fails at once, without connecting, with the last failure as its cause. The
 * scan then starts no more signed fetches: the agents left become `error` rows with one cause, the run is partial
 * (exit 4) within seconds of the death, and with `--state` the next run continues where it stopped. Without it, each
 * request would retry with backoff against a dead endpoint, for minutes.
 *
 * It sits in the `fetch` the endpoint's client uses (the API client's `fetch` option, viem's `fetchFn`), so it sees
 * every attempt, retries included. Any answer, even an error status, closes the streak: an endpoint that answers is
 * not dead.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { networkCauseOf } from "../util/network-cause.js";

/**
 * Consecutive network failures of one endpoint after which a drift run stops asking it (`maxNetworkFailures`,
 * `--max-network-failures`). Five: a single refused connection or time-out is retried as before, while a dead endpoint
 * stops the run after a handful of attempts.
 */
export const DEFAULT_MAX_NETWORK_FAILURES = 5;

/** When and why a breaker opened. */
export interface BreakerTrip {
  /** The endpoint, as messages name it: `the service` or `the RPC`. */
  readonly endpoint: string;
  /** When the first failure of the streak that opened it came: when the endpoint stopped answering. */
  readonly stoppedAnsweringAt: Date;
  /** The consecutive failures that opened it. */
  readonly failures: number;
  /** The last failure's cause, in one line (`connect ECONNREFUSED 127.0.0.1:8787`). */
  readonly cause: string;
}

/** A circuit breaker for one endpoint (see the module notes). */
export interface CircuitBreaker {
  /** Present once the breaker opened. */
  readonly trip: BreakerTrip | undefined;
  /**
   * A `fetch` that goes through the breaker.
   *
   * @param fetchFn - The `fetch` to guard.
   * @returns The guarded `fetch`.
   */
  wrap(fetchFn: typeof globalThis.fetch): typeof globalThis.fetch;
}

/** Options of {@link createCircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** The endpoint, as messages name it: `the service`, `the RPC`. */
  readonly endpoint: string;
  /** Consecutive network failures that open the breaker; 0 never opens it. */
  readonly threshold: number;
  /** Clock; default the system clock. */
  readonly now?: () => Date;
}

/**
 * Creates a circuit breaker.
 *
 * @param options - The endpoint's name, the threshold and the clock.
 * @returns The breaker.
 * @throws {@link InvalidArgumentError} for a threshold that is not an integer >= 0.
 */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  checkMaxNetworkFailures(options.threshold);
  const now = options.now ?? (() => new Date());
  let streak = 0;
  let streakStartedAt: Date | undefined;
  let trip: BreakerTrip | undefined;
  let lastError: unknown;
  return {
    get trip() {
      return trip;
    },
    wrap(fetchFn) {
      return async (input, init) => {
        if (trip) throw new CircuitOpenError(trip, lastError);
        try {
          const response = await fetchFn(input, init);
          streak = 0;
          streakStartedAt = undefined;
          return response;
        } catch (error) {
          lastError = error;
          streakStartedAt ??= now();
          streak++;
          if (options.threshold > 0 && streak >= options.threshold && !trip) {
            trip = {
              endpoint: options.endpoint,
              stoppedAnsweringAt: streakStartedAt,
              failures: streak,
              cause: networkCauseOf(error) ?? (error instanceof Error ? error.message : String(error)),
            };
          }
          throw error;
        }
      };
    },
  };
}

/**
 * Checks a `maxNetworkFailures` value.
 *
 * @param value - The value.
 * @returns The same value.
 * @throws {@link InvalidArgumentError} for anything but an integer >= 0.
 */
export function checkMaxNetworkFailures(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`maxNetworkFailures must be an integer >= 0 (0: never stop asking), got ${String(value)}`);
  }
  return value;
}

/**
 * What a trip says, in one phrase: `the service stopped answering at 2026-11-29T04:25:03.000Z (5 consecutive network
 * failures; the last: connect ECONNREFUSED 127.0.0.1:8787)`.
 *
 * @param trip - The trip.
 * @returns The phrase.
 */
export function describeTrip(trip: BreakerTrip): string {
  return `${trip.endpoint} stopped answering at ${trip.stoppedAnsweringAt.toISOString()} (${trip.failures} consecutive network failures; the last: ${trip.cause})`;
}

/** The error of a request refused by an open breaker: its cause is the last real failure (whose code it carries on). */
class CircuitOpenError extends Error {
  constructor(trip: BreakerTrip, cause: unknown) {
    super(`not sent: ${describeTrip(trip)}`, { cause });
    this.name = "CircuitOpenError";
  }
}
