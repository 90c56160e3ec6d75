/**
 * A drift run's two circuit breakers (`circuit-breaker.ts`): one on the service's API, one on the RPC, each opening
 * after `maxNetworkFailures` consecutive network failures. The run reads them in three places: the `fetch` each client
 * uses, the scan's reason to start no more signed fetches (the rows left get one cause: which endpoint stopped
 * answering, when, and why), and the report's partial-run record and note.
 *
 * @packageDocumentation
 */
import { type BreakerTrip, createCircuitBreaker, describeTrip } from "./circuit-breaker.js";
import type { PartialRun } from "./types.js";

/** The run's breakers (see the module notes). */
export interface EndpointBreakers {
  /** The `fetch` of the API client. */
  readonly apiFetch: typeof globalThis.fetch;
  /** The `fetch` of the chain client. */
  readonly rpcFetch: typeof globalThis.fetch;
  /** The first breaker that opened, with its endpoint; `undefined` while both are closed. */
  trip(): { readonly endpoint: "service" | "rpc"; readonly trip: BreakerTrip } | undefined;
  /**
   * The scan's reason to start no more signed fetches: the row message of the agents left once a breaker opened, or
   * `null`.
   */
  stopReason(): string | null;
}

/**
 * Creates a run's breakers.
 *
 * @param options - The threshold (0: never open), whether a state file lets the next run continue, and the clock.
 * @returns The breakers.
 */
export function createEndpointBreakers(options: {
  readonly maxNetworkFailures: number;
  readonly resumable: boolean;
  readonly now: () => Date;
}): EndpointBreakers {
  const api = createCircuitBreaker({ endpoint: "the service", threshold: options.maxNetworkFailures, now: options.now });
  const rpc = createCircuitBreaker({ endpoint: "the RPC", threshold: options.maxNetworkFailures, now: options.now });
  // Looked up at each call, so that a `fetch` replaced after the run started (a test's, a proxy agent's) is the one used.
  const globalFetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init);
  const trip = () =>
    api.trip ? { endpoint: "service" as const, trip: api.trip } : rpc.trip ? { endpoint: "rpc" as const, trip: rpc.trip } : undefined;
  return {
    apiFetch: api.wrap(globalFetch),
    rpcFetch: rpc.wrap(globalFetch),
    trip,
    stopReason() {
      const open = trip();
      if (!open) return null;
      return (
        `not fetched: ${describeTrip(open.trip)}, and the run stopped asking` +
        (options.resumable ? "; run it again with the same --state to continue" : "")
      );
    },
  };
}

/**
 * The partial-run record of a run stopped by a breaker.
 *
 * @param open - The breaker that opened.
 * @param notFetched - Selected signed attestations not fetched.
 * @param resumable - Whether a state file holds the run's progress.
 * @returns The record.
 */
export function endpointStoppedRun(
  open: NonNullable<ReturnType<EndpointBreakers["trip"]>>,
  notFetched: number,
  resumable: boolean,
): PartialRun {
  return {
    reason: "endpoint-stopped",
    stopped: {
      endpoint: open.endpoint,
      at: open.trip.stoppedAnsweringAt.toISOString(),
      failures: open.trip.failures,
      cause: open.trip.cause,
    },
    notFetched,
    resumable,
  };
}

/**
 * The one-phrase account of a stopped endpoint, for the note and the verdict: `the service stopped answering at … (5
 * consecutive network failures; the last: connect ECONNREFUSED 127.0.0.1:8787)`.
 *
 * @param stopped - The partial run's `stopped`.
 * @returns The phrase.
 */
export function describeStoppedEndpoint(stopped: NonNullable<PartialRun["stopped"]>): string {
  return describeTrip({
    endpoint: stopped.endpoint === "service" ? "the service" : "the RPC",
    stoppedAnsweringAt: new Date(stopped.at),
    failures: stopped.failures,
    cause: stopped.cause,
  });
}
