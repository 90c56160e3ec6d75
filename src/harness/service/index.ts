/**
 * The kit's local signing service: an embedded stand-in for the trust service's HTTP API
 * (docs/service-api.md), on loopback plain HTTP, serving a synthetic population and signing attestations
 * exactly as the real service does (ES256, JWKS, `sig` and `jws`). With rate limiting and fault injection
 * for tests. Its bodies are typed with the kit's response types (`TrustCheck`, `Attestation`, `RiskTerms`, …,
 * from `trustgate`): the service has no shapes of its own.
 *
 * @example
 * ```ts
 * import { createPopulation, startTrustService } from "trustgate/service";
 *
 * const service = await startTrustService({ population: createPopulation({ seed: 7, size: 500 }) });
 * const res = await fetch(`${service.url}/api/trust-check?id=1&chain=base`);
 * await service.close();
 * ```
 *
 * @packageDocumentation
 * @module trustgate/service
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { jwksUrlOf } from "../../config/service.js";
import { InvalidArgumentError, TrustgateError } from "../../errors.js";
import type { AttestationSigningKey } from "../signing.js";
import type { ServiceContext, SignedTrustVersion } from "./context.js";
import type { ServiceDeviations } from "./deviations.js";
import { FaultInjector, type FaultSpec } from "./faults.js";
import { resolveServiceKeys } from "./keys.js";
import { createRequestListener, type RequestStats } from "./pipeline.js";
import { createPopulation, type Population } from "./population.js";
import { DEFAULT_RATE_LIMIT, DEFAULT_RISK_TERMS_RATE_LIMIT, SlidingWindowRateLimiter } from "./rate-limit.js";
import { ServiceSigner } from "./signer.js";

export type { SignedTrustVersion } from "./context.js";
export { decodeCursor, encodeCursor } from "./cursor.js";
export type { ServiceDeviations } from "./deviations.js";
export { MCP_PROTOCOL_VERSIONS, MCP_TOOL_NAMES } from "./endpoints/mcp.js";
export type { FaultKind, FaultSpec } from "./faults.js";
export { FAULT_KINDS } from "./faults.js";
export type { KeyFileContent, ServiceKeys } from "./keys.js";
export {
  DEFAULT_MCP_KID,
  DEFAULT_TRUST_KID,
  DEFAULT_TRUST_V1_KID,
  DEFAULT_WALLET_KID,
  loadOrCreateKeyFile,
  saveKeyFile,
  UNPUBLISHED_KIDS,
} from "./keys.js";
export type { RequestStats } from "./pipeline.js";
export type {
  AdvancedPopulation,
  AdvanceParameters,
  AgentBadges,
  AgentChange,
  AgentRecordState,
  Population,
  PopulationAgent,
  PopulationChanges,
  PopulationKey,
  PopulationParameters,
} from "./population.js";
export {
  agentKey,
  createPopulation,
  DEFAULT_POPULATION_AT,
  DEFAULT_POPULATION_CHAINS,
  DEFAULT_POPULATION_REGISTRIES,
  TIER_BOUNDARIES,
} from "./population.js";
export type { RateLimitParameters } from "./rate-limit.js";

/** Options of {@link startTrustService}. */
export interface TrustServiceParameters {
  /** Port; default 0 (an ephemeral port). */
  port?: number;
  /** Host to listen on; default `127.0.0.1`. */
  host?: string;
  /** Data served; default `createPopulation({ seed: 1, size: 2000 })`. */
  population?: Population;
  /**
   * Signing keys: the first signs v2 trust-check attestations; the ones with kids `rnwy-trust-v1`,
   * `rnwy-wallet-v1` and `rnwy-mcp-v1` (each generated when absent) sign legacy trust-checks, wallet scores
   * and MCP attestations; all are published in the JWKS. Default: four generated keys with those kids and
   * `rnwy-trust-v2`.
   */
  signingKeys?: AttestationSigningKey[];
  /** Load private JWKs from this JSON file (`{ "keys": [...] }`), creating it on first start. Not with `signingKeys`. */
  keyFile?: string;
  /**
   * `attestation.issuer`: an absolute http(s) URL (insumer spec: `https://rnwy.com`) or `did:web:<host>` (a2a
   * crosswalk: `did:web:rnwy.com`); default the service's own origin (`http://127.0.0.1:<port>`). The
   * attestations' `jwks` is `<issuer>/.well-known/jwks.json` for a URL, the service's own JWKS for a DID.
   */
  issuer?: string;
  /**
   * Limits per minute (default 30 anonymous / 300 keyed, any Bearer key accepted unless `apiKeys`), with the
   * separate limit of `POST /api/risk-terms` (default 5 / 60), or `false` for none. Every answer announces
   * the caller's limit on its path (`X-RateLimit-Limit`, `-Remaining`, `-Reset` in delta seconds, and the IETF
   * draft's `RateLimit-Policy` / `RateLimit`).
   */
  rateLimit?:
    | {
        anonymousPerMinute: number;
        keyedPerMinute: number;
        apiKeys?: readonly string[];
        riskTerms?: { anonymousPerMinute: number; keyedPerMinute: number };
      }
    | false;
  /**
   * Which signed block and key `/api/trust-check` answers with in `attestation`: `v2` (default; kid
   * `rnwy-trust-v2`, block with `owner`, `issuedAt`, `verifiedAt`, `expiry`) or the legacy `v1` (kid
   * `rnwy-trust-v1`, block with `attestedAt`).
   */
  trustAttestationVersion?: SignedTrustVersion;
  /**
   * The kid-migration window: while it is open, `/api/trust-check?wallet=` answers carry both `attestation`
   * (v2) and `attestationV1` (v1). `true` keeps it open, `false` (default) closed; `{ from?, until }` opens it
   * from `from` (default always) to before `until` on the service's clock.
   */
  kidMigration?: boolean | { from?: Date; until: Date };
  /** Clock (issue times, rate-limit windows); default the system clock. */
  now?: () => Date;
  /**
   * Ways to differ from the documented service, for tests of `trustgate doctor` (see {@link ServiceDeviations}):
   * trust-check signing, the signed block, the JWKS, any answer's fields. Default none.
   */
  deviations?: ServiceDeviations;
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
  stats(): RequestStats;
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
export async function startTrustService(options: TrustServiceParameters = {}): Promise<RunningTrustService> {
  const port = options.port ?? 0;
  const host = options.host ?? "127.0.0.1";
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  if (options.issuer !== undefined && !isHttpUrl(options.issuer) && !/^did:web:[^:\s]+$/.test(options.issuer)) {
    throw new InvalidArgumentError(`issuer must be an absolute http(s) URL or did:web:<host>, got "${options.issuer}"`);
  }
  const trustAttestationVersion = options.trustAttestationVersion ?? "v2";
  if (trustAttestationVersion !== "v2" && trustAttestationVersion !== "v1") {
    throw new InvalidArgumentError(`trustAttestationVersion must be "v2" or "v1", got ${JSON.stringify(trustAttestationVersion)}`);
  }
  const kidMigrationOpen = migrationWindow(options.kidMigration);
  const now = options.now ?? (() => new Date());
  const keys = await resolveServiceKeys({
    ...(options.signingKeys ? { signingKeys: options.signingKeys } : {}),
    ...(options.keyFile ? { keyFile: options.keyFile } : {}),
  });
  let population = options.population ?? createPopulation({ seed: 1, size: 2000 });
  const limits = options.rateLimit === false ? undefined : options.rateLimit;
  const limiter =
    options.rateLimit === false
      ? undefined
      : new SlidingWindowRateLimiter(
          {
            ...DEFAULT_RATE_LIMIT,
            ...(limits ? { anonymousPerMinute: limits.anonymousPerMinute, keyedPerMinute: limits.keyedPerMinute } : {}),
            ...(limits?.apiKeys ? { apiKeys: limits.apiKeys } : {}),
          },
          now,
        );
  const riskTermsLimiter =
    options.rateLimit === false
      ? undefined
      : new SlidingWindowRateLimiter(
          {
            ...DEFAULT_RISK_TERMS_RATE_LIMIT,
            ...limits?.riskTerms,
            ...(limits?.apiKeys ? { apiKeys: limits.apiKeys } : {}),
            policy: "risk-terms",
          },
          now,
        );
  const faults = new FaultInjector();
  const stats: RequestStats = { requests: 0, byPath: {}, rateLimited: 0 };
  const closing = new AbortController();
  let context: ServiceContext | undefined;

  const server = createServer(
    createRequestListener({
      context: () => {
        if (!context) throw new Error("service not ready");
        return context;
      },
      limiter,
      riskTermsLimiter,
      faults,
      stats,
      closing: closing.signal,
    }),
  );
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  const issuer = options.issuer ?? url;
  const publicBase = isHttpUrl(issuer) ? new URL(issuer).origin : url;
  const signer = new ServiceSigner(keys, faults, issuer, isHttpUrl(issuer) ? jwksUrlOf(issuer) : jwksUrlOf(url));
  context = {
    get population() {
      return population;
    },
    signer,
    issuer,
    publicBase,
    trustAttestationVersion,
    kidMigrationOpen,
    now,
    deviations: options.deviations ?? {},
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

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const protocol = new URL(value).protocol;
  return protocol === "http:" || protocol === "https:";
}

/** The kid-migration window as a predicate on the service's clock. */
function migrationWindow(option: TrustServiceParameters["kidMigration"]): (at: Date) => boolean {
  if (option === undefined || option === false) return () => false;
  if (option === true) return () => true;
  const valid = (d: unknown): d is Date => d instanceof Date && !Number.isNaN(d.getTime());
  if (typeof option !== "object" || option === null || !valid(option.until) || (option.from !== undefined && !valid(option.from))) {
    throw new InvalidArgumentError("kidMigration must be a boolean or { from?: Date, until: Date } with valid dates");
  }
  const from = option.from?.getTime() ?? -Infinity;
  const until = option.until.getTime();
  return (at) => at.getTime() >= from && at.getTime() < until;
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
export type { SybilSeverityName, TierName } from "../../config/encodings.js";
export type { AttestationSigningKey, SigningParameters } from "../signing.js";
export type { AgentKeyParts } from "../../agent/agent-ref.js";
