/**
 * `runDoctor`: asks the live service (and reads the chain, when one is given) once, then runs every check over what
 * came back, and returns the report with every secret removed. The checks and what each assumes are described in
 * their own modules (`checks/`) and in `docs/doctor.md`.
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import { type Address, createPublicClient, http } from "viem";
import type { AgentRef } from "../agent/agent-ref.js";
import { transportFromOptions } from "../api/options.js";
import { BASE_TRUST_ORACLE_ADDRESS } from "../config/addresses.js";
import { DEFAULT_TRUST_ENCODING, type TrustEncoding } from "../config/encodings.js";
import { JWKS_PATH, jwksUrlOf } from "../config/service.js";
import type { AnyClient } from "../oracle/client.js";
import { redactUrl } from "../security/redact-url.js";
import { checkFields } from "./checks/fields.js";
import { checkJwksKids } from "./checks/jwks-kids.js";
import { checkJwsHeader } from "./checks/jws-header.js";
import { checkJwsPayload } from "./checks/jws-payload.js";
import { checkOnchainEncodings } from "./checks/onchain-encodings.js";
import { checkOnchainP256 } from "./checks/onchain-p256.js";
import { type SubmissionSimulatorSource, submitLiveAttestations } from "./checks/onchain-submit.js";
import { checkRateLimitHeaders } from "./checks/rate-limit-headers.js";
import { checkSigBytes } from "./checks/sig-bytes.js";
import { checkTimeForms } from "./checks/time-forms.js";
import { liveAttestations } from "./checks/trust-check-attestations.js";
import { DOCTOR_ENDPOINT_IDS, type DoctorEndpointId } from "./endpoints.js";
import { loadJwks } from "./jwks-probe.js";
import { type CheckResult, type DoctorReport, summarizeChecks } from "./report.js";
import { secretsOf, withoutSecrets } from "./secrets.js";
import { probeService, type ServiceObservations, type ServiceOutcome } from "./service-probe.js";

/** Default time limit of each request to the service, the JWKS and the chain: 15 s. */
export const DEFAULT_DOCTOR_TIMEOUT_MS = 15_000;

/** What the doctor checks. */
export interface DoctorConfig {
  /** The service's base URL (`--api`). */
  readonly apiUrl: string;
  /** API key, sent as `Authorization: Bearer`; never written anywhere. */
  readonly apiKey?: string;
  /** The issuer (`--issuer`); default the origin of `apiUrl`. */
  readonly issuer?: string;
  /**
   * The key set (`--jwks`): a URL, or keys read from a file. Default `<issuer>/.well-known/jwks.json` when an issuer
   * is given, else `<apiUrl>/.well-known/jwks.json`.
   */
  readonly jwks?: string | { readonly keys: readonly JWK[] };
  /** The chain's JSON-RPC URL (`--rpc`): the on-chain checks read it, and the submission forks it. */
  readonly rpcUrl?: string;
  /** The oracle whose records are compared with the listing (`--oracle`); default the Base oracle. */
  readonly oracle?: Address;
  /** The tier and sybil encoding the kit is configured with; default the kit's. */
  readonly encoding?: TrustEncoding;
  /** Agents to ask trust-checks about instead of the listing's first ones (`--agents`, at most two are used). */
  readonly agents?: readonly AgentRef[];
  /** An MCP server to ask `/api/mcp-attestation` about when the owner's entity names none (`--mcp-server`). */
  readonly mcpServer?: string;
  /** Time limit of each request, in milliseconds; default {@link DEFAULT_DOCTOR_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
}

/** What {@link runDoctor} uses, replaceable in tests. */
export interface DoctorDependencies {
  /** The local chain of the `onchain-submit` check; without one, that check could not be made (with this reason). */
  readonly submissionSimulator?: SubmissionSimulatorSource;
  /** `fetch` for the service and the JWKS (default the global one). */
  readonly fetch?: typeof globalThis.fetch;
  /** The chain client (default a viem HTTP client of `rpcUrl`). */
  readonly chainClient?: AnyClient;
  /** Clock: the report's time and the simulated block time (default the system clock). */
  readonly now?: () => Date;
  /** The kit's version, for the report (default `unknown`). */
  readonly version?: string;
}

/** The reason `onchain-submit` gives when no local chain was provided. */
export const NO_SIMULATOR = "no local chain to simulate the submission on";

/**
 * Runs every check (see the module notes). Never throws for what the service or the chain do: a failure becomes a
 * check that could not be made, with its reason.
 *
 * @param config - What to check.
 * @param deps - Replacements for tests; the local chain of `onchain-submit`.
 * @returns The report, without any secret (the API key, the RPC URL's key).
 */
export async function runDoctor(config: DoctorConfig, deps: DoctorDependencies = {}): Promise<DoctorReport> {
  const now = deps.now ?? (() => new Date());
  const timeoutMs = config.timeoutMs ?? DEFAULT_DOCTOR_TIMEOUT_MS;
  let requests = 0;
  const baseFetch = deps.fetch ?? globalThis.fetch;
  const counted: typeof globalThis.fetch = (input, init) => {
    requests++;
    return baseFetch(input, init);
  };
  const transport = transportFromOptions({
    baseUrl: config.apiUrl,
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    timeoutMs,
    retries: 1,
    fetch: counted,
  });
  const issuer = config.issuer ?? new URL(config.apiUrl).origin;
  const jwksSource =
    config.jwks ?? (config.issuer !== undefined ? jwksUrlOf(config.issuer) : `${config.apiUrl.replace(/\/+$/, "")}${JWKS_PATH}`);
  const jwks = await loadJwks(jwksSource, { fetch: counted, timeoutMs });
  const service = await probeService({
    transport,
    ...(config.agents ? { agents: config.agents } : {}),
    ...(config.mcpServer ? { mcpServer: config.mcpServer } : {}),
  });
  const live = liveAttestations(service);
  const oracle = config.oracle ?? BASE_TRUST_ORACLE_ADDRESS;
  const chainClient =
    config.rpcUrl === undefined
      ? undefined
      : (deps.chainClient ?? createPublicClient({ transport: http(config.rpcUrl, { retryCount: 1, timeout: timeoutMs }) }));

  const submitted = await submitLiveAttestations(live, {
    simulator: deps.submissionSimulator ?? { unavailable: NO_SIMULATOR },
    jwks,
    now: now(),
    timeoutMs,
    ...(config.rpcUrl !== undefined ? { forkUrl: config.rpcUrl } : {}),
  });
  const checks: CheckResult[] = [
    checkSigBytes(live, jwks),
    checkJwsHeader(live),
    checkJwsPayload(live),
    checkJwksKids(jwks),
    checkRateLimitHeaders(service, config.apiKey !== undefined),
    ...DOCTOR_ENDPOINT_IDS.map((endpoint) => checkFields(endpoint, outcomesOf(service, endpoint))),
    await checkOnchainEncodings(
      service,
      chainClient && { client: chainClient, oracle, encoding: config.encoding ?? DEFAULT_TRUST_ENCODING },
    ),
    await checkOnchainP256(chainClient),
    submitted.result,
    checkTimeForms(
      live,
      submitted.findings
        ? { findings: submitted.findings }
        : { unavailable: `onchain-submit could not be checked: ${submitted.result.summary}` },
    ),
  ];
  const report: DoctorReport = {
    tool: "trustgate doctor",
    version: deps.version ?? "unknown",
    generatedAt: now().toISOString(),
    target: {
      api: redactUrl(config.apiUrl),
      issuer,
      jwks: jwks.source,
      apiKey: config.apiKey !== undefined,
      ...(config.rpcUrl !== undefined ? { rpc: redactUrl(config.rpcUrl), oracle } : {}),
    },
    requests,
    summary: summarizeChecks(checks),
    checks,
  };
  return withoutSecrets(report, secretsOf(config));
}

/** The answers of an endpoint; a trust-check never asked gets the reason it was not. */
function outcomesOf(service: ServiceObservations, endpoint: DoctorEndpointId): ServiceOutcome[] {
  if (endpoint === "agents") return [service.listing];
  if (endpoint === "trust-check") {
    if (service.trustChecks.length > 0) return [...service.trustChecks];
    const reason = service.listing.ok ? "the listing names no agent on an EVM chain" : `no agent to ask about (${service.listing.reason})`;
    return [{ ok: false, endpoint, reason }];
  }
  const outcome = service.endpoints.get(endpoint);
  return outcome ? [outcome] : [];
}
