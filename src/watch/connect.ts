/**
 * The watch's connection to the chain and the service, made once when the process starts: the drift job's preflight
 * (the chain answers, the oracle or attested oracle holds its contract, the decision rule, the issuer's keys) and the
 * drift job's settings checks, then ONE service client and ONE JWKS resolver for the whole process. Every check the
 * watch makes goes through that client, so its rate limiter is the only gate on the service's rate limit (the change
 * checks, the slow audit and the health check share it), and through that resolver, so the key set is cached once.
 *
 * Unlike a drift run, the connection has no circuit breakers that stop asking an endpoint for good: a long-running
 * watch asks again at its next poll, and counts failures by cause instead.
 *
 * @packageDocumentation
 */
import type { PublicClient } from "viem";
import { createTrustApiClient, type TrustApiClient } from "../api/client.js";
import type { JwksResolver } from "../attestation/jwks.js";
import type { DecisionRule } from "../drift/decision.js";
import type { DriftScanOptions } from "../drift/pipeline.js";
import { preflight } from "../drift/preflight.js";
import { runSettingsOf } from "../drift/run-settings.js";
import { newServiceStats } from "../drift/stages/fetch-verify.js";
import type { AttestedOracleSource } from "../drift/types.js";
import { type WatchServiceConfig, watchServiceSettings } from "./config.js";

/**
 * Signed fetches in flight at most when the watch checks several agents at once (a night's write, a reorg). The
 * client's rate limiter sets the pace; this only bounds what waits on it at one time.
 */
export const DEFAULT_WATCH_CONCURRENCY = 4;

/** What the watch holds for its whole life: the chain, the one service client, the one key resolver, the rule. */
export interface WatchConnection {
  /** The chain client (the drift preflight's: retries and the configured time-out). */
  readonly chain: PublicClient;
  /** The chain's id, from the preflight. */
  readonly chainId: number;
  /** The chain's head when the preflight ran. */
  readonly blockNumber: bigint;
  /** ONE client for the process: its limiter is the rate limit's only gate. */
  readonly api: TrustApiClient;
  /** ONE resolver: the JWKS cache. */
  readonly jwks: JwksResolver;
  /** The decision rule: a threshold, or the gate's policy read at the preflight's block. */
  readonly rule: DecisionRule;
  /** The attested oracle read instead of the oracle, and its upstream; `undefined` without `attestedOracle`. */
  readonly attested: AttestedOracleSource | undefined;
  /** The drift scan's options, but what each check sets itself (its block, and the hooks of a drift run). */
  readonly scan: Omit<
    DriftScanOptions,
    "blockNumber" | "onRow" | "keepRows" | "checkpoint" | "stopReason" | "onFetchesPlanned" | "onProgress"
  >;
}

/** Options of {@link connectWatch}. */
export interface ConnectWatchOptions {
  /** Clock of the attestation checks (signed times, expiry) and of record staleness; default the system clock. */
  readonly now?: () => Date;
  /** `fetch` of the chain client's requests (the watch times them for its metrics); default the global one. */
  readonly rpcFetch?: typeof fetch;
  /** `fetch` of the service client's requests; default the global one. */
  readonly apiFetch?: typeof fetch;
  /** Signed fetches in flight at most; default {@link DEFAULT_WATCH_CONCURRENCY}. */
  readonly concurrency?: number;
}

/**
 * Connects the watch: checks the settings as the drift job does, runs the drift preflight, and makes the one service
 * client and the scan options every check uses.
 *
 * @param config - The chain, the oracle (or attested oracle), the service, the rule and the limits.
 * @param options - Clock, `fetch` and concurrency.
 * @returns The connection.
 * @throws `InvalidArgumentError` for an invalid setting (`readChunkSize`), and `ConfigurationError` when the RPC or
 *   the JWKS does not answer, or an address lacks its contract, before anything is checked: the watch does not start
 *   half connected.
 */
export async function connectWatch(config: WatchServiceConfig, options: ConnectWatchOptions = {}): Promise<WatchConnection> {
  const concurrency = options.concurrency ?? DEFAULT_WATCH_CONCURRENCY;
  // The drift job's own checks of these settings, with an empty list for the scope a watch does not have.
  const service = watchServiceSettings(config);
  const settings = runSettingsOf({ ...service, scope: { kind: "list", agents: [] }, concurrency });
  const checked = await preflight({ ...settings.preflight, ...(options.rpcFetch ? { rpcFetch: options.rpcFetch } : {}) });
  const api = createTrustApiClient({ ...settings.service, ...(options.apiFetch ? { fetch: options.apiFetch } : {}) });
  const now = options.now ?? (() => new Date());
  const { issuer, ...scan } = settings.scan;
  return {
    chain: checked.chain,
    chainId: checked.chainId,
    blockNumber: checked.blockNumber,
    api,
    jwks: checked.jwks,
    rule: checked.rule,
    attested: checked.attested,
    scan: {
      ...scan,
      chain: checked.chain,
      api,
      attestations: {
        issuer,
        jwks: checked.jwks,
        now,
        stats: newServiceStats(),
        ...(config.acceptedKids ? { acceptedKids: config.acceptedKids } : {}),
      },
      rule: checked.rule,
      readerMode: checked.reader.mode,
      now,
    },
  };
}
