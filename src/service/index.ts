/**
 * The kit's local signing service: an embedded stand-in for the trust service's HTTP API
 * (docs/service-api.md), on loopback plain HTTP, serving a synthetic population and signing attestations
 * exactly as the real service does (ES256, JWKS, `sig` and `jws`). With rate limiting and fault injection
 * for tests.
 *
 * @example
 * ```ts
 * const service = await startTrustService({ population: createPopulation({ seed: 7, size: 500 }) });
 * const res = await fetch(`${service.url}/api/trust-check?id=1&chain=base`);
 * await service.close();
 * ```
 *
 * @packageDocumentation
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AttestationSigningKey } from "../attestation/sign.js";
import { InvalidArgumentError, TrustgateError } from "../errors.js";
import type { ServiceContext } from "./context.js";
import { FaultInjector, type FaultSpec } from "./faults.js";
import { resolveServiceKeys } from "./keys.js";
import { createRequestListener, type ServiceStats } from "./pipeline.js";
import { createPopulation, type Population } from "./population.js";
import { DEFAULT_RATE_LIMIT, SlidingWindowRateLimiter, type RateLimitOptions } from "./rate-limit.js";
import { ServiceSigner } from "./signer.js";

export type { FaultKind, FaultSpec } from "./faults.js";
export { FAULT_KINDS } from "./faults.js";
export type { RateLimitOptions } from "./rate-limit.js";
export {
  DEFAULT_POPULATION_AT,
  DEFAULT_POPULATION_CHAINS,
  DEFAULT_POPULATION_REGISTRIES,
  TIER_BOUNDARIES,
  agentKey,
  createPopulation,
} from "./population.js";
export type {
  AdvanceOptions,
  AdvancedPopulation,
  AgentBadges,
  AgentChange,
  AgentRecordState,
  AgentRef,
  Population,
  PopulationAgent,
  PopulationChanges,
  PopulationOptions,
} from "./population.js";
export { DEFAULT_MCP_KID, DEFAULT_TRUST_KID, UNPUBLISHED_KIDS, loadOrCreateKeyFile, saveKeyFile } from "./keys.js";
export type { KeyFileContent, ServiceKeys } from "./keys.js";
export { decodeCursor, encodeCursor } from "./cursor.js";
export { MCP_PROTOCOL_VERSIONS, MCP_TOOL_NAMES } from "./endpoints/mcp.js";

/** Options of {@link startTrustService}. */
export interface TrustServiceOptions {
  /** Port; default 0 (an ephemeral port). */
  port?: number;
  /** Host to listen on; default `127.0.0.1`. */
  host?: string;
  /** Data served; default `createPopulation({ seed: 1, size: 2000 })`. */
  population?: Population;
  /**
   * Signing keys: the first signs trust-check and wallet-score attestations; the one with kid `rnwy-mcp-v1`
   * (generated when absent) signs MCP attestations; all are published in the JWKS. Default: a generated
   * `rnwy-trust-v2` key and a generated `rnwy-mcp-v1` key.
   */
  signingKeys?: AttestationSigningKey[];
  /** Load private JWKs from this JSON file (`{ "keys": [...] }`), creating it on first start. Not with `signingKeys`. */
  keyFile?: string;
  /** `attestation.issuer`; default the service's own origin (`http://127.0.0.1:<port>`). */
  issuer?: string;
  /** Limits per minute (default 30 anonymous / 300 keyed, any Bearer key accepted unless `apiKeys`), or `false`. */
  rateLimit?: { anonymousPerMinute: number; keyedPerMinute: number; apiKeys?: readonly string[] } | false;
  /** Clock (issue times, rate-limit windows); default the system clock. */
  now?: () => Date;
}

/** A running local service. */
export interface RunningTrustService {
  /** Origin of the service, for example `http://127.0.0.1:54321`. */
  readonly url: string;
  /** Issuer written into attestations. */
  readonly issuer: string;
  /** The population served. */
  readonly population: Population;
  /**
   * Replaces the population served (for example with an advanced one), from the next request on.
   *
   * @param population - The new population.
   */
  setPopulation(population: Population): void;
  /**
   * Adds a fault (see {@link FaultSpec}).
   *
   * @param fault - The fault.
   * @throws {@link InvalidArgumentError} for an invalid fault.
   */
  injectFault(fault: FaultSpec): void;
  /** Removes every fault. */
  clearFaults(): void;
  /** Request counters since the start. */
  stats(): { requests: number; byPath: Record<string, number>; rateLimited: number };
  /** Stops the service, ending open connections (including `slow` ones). */
  close(): Promise<void>;
}

/**
 * Starts the local signing service on loopback plain HTTP.
 *
 * @param options - Port, host, data, keys, issuer, rate limit and clock.
 * @returns The running service.
 * @throws {@link InvalidArgumentError} for invalid options; {@link TrustgateError} (`NETWORK_ERROR`) when the
 *   port cannot be bound.
 */
export async function startTrustService(options: TrustServiceOptions = {}): Promise<RunningTrustService> {
  const port = options.port ?? 0;
  const host = options.host ?? "127.0.0.1";
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  if (options.issuer !== undefined && !URL.canParse(options.issuer)) {
    throw new InvalidArgumentError(`issuer must be an absolute URL, got "${options.issuer}"`);
  }
  const now = options.now ?? (() => new Date());
  const keys = await resolveServiceKeys({
    ...(options.signingKeys ? { signingKeys: options.signingKeys } : {}),
    ...(options.keyFile ? { keyFile: options.keyFile } : {}),
  });
  let population = options.population ?? createPopulation({ seed: 1, size: 2000 });
  const limiter =
    options.rateLimit === false
      ? undefined
      : new SlidingWindowRateLimiter({ ...DEFAULT_RATE_LIMIT, ...(options.rateLimit as RateLimitOptions | undefined) }, now);
  const faults = new FaultInjector();
  const stats: ServiceStats = { requests: 0, byPath: {}, rateLimited: 0 };
  const closing = new AbortController();
  let context: ServiceContext | undefined;

  const server = createServer(
    createRequestListener({
      context: () => {
        if (!context) throw new Error("service not ready");
        return context;
      },
      limiter,
      faults,
      stats,
      closing: closing.signal,
    }),
  );
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  const issuer = options.issuer ?? url;
  const signer = new ServiceSigner(keys, faults, issuer);
  context = {
    get population() {
      return population;
    },
    signer,
    issuer,
    now,
  };

  let closed: Promise<void> | undefined;
  return {
    url,
    issuer,
    get population() {
      return population;
    },
    setPopulation(next) {
      population = next;
    },
    injectFault: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    stats: () => ({ requests: stats.requests, byPath: { ...stats.byPath }, rateLimited: stats.rateLimited }),
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(new TrustgateError("NETWORK_ERROR", `Cannot listen on ${host}:${port}`, { cause: error, details: error.message }));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}
