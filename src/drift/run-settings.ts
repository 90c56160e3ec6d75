/**
 * A drift run's configuration, checked and split into what each stage of the run (`run.ts`) is handed: the
 * preflight its endpoints and rule inputs, the service client its options, the state run its file and the setup the
 * state is written for, the scan its oracle, rule inputs and limits, the report what its head states. The
 * configuration is read here alone, so that every stage takes only what it uses and the run passes it no further.
 *
 * Everything checked here is checked before anything is asked of the chain or the service.
 *
 * @packageDocumentation
 */
import { checkMaxNetworkFailures, DEFAULT_MAX_NETWORK_FAILURES } from "./circuit-breaker.js";
import type { Address } from "viem";
import type { TrustApiClientParameters } from "../api/options.js";
import type { TrustEncoding } from "../config/encodings.js";
import { InvalidArgumentError } from "../errors.js";
import { checkChunkSize } from "../oracle/reader.js";
import { redactUrl } from "../security/redact-url.js";
import type { AuditPlan } from "./audit.js";
import type { DriftBaseline } from "./baseline.js";
import { type AgentScope, auditPlanOf, type DriftConfig } from "./config.js";
import { checkErrorLimit } from "./error-limit.js";
import type { PreflightSettings } from "./preflight.js";
import type { DriftStateScope } from "./state/schema.js";
import type { ErrorLimit } from "./types.js";

/** What the state run is handed: the file, whether to start it over, and the setup the state must be written for. */
export interface StateSettings {
  /** The state file (`--state`). */
  readonly path: string;
  /** `--full`: ignore what the state holds, still checkpoint. */
  readonly full: boolean;
  /** The audit seed asked for (`--seed`), which wins over a continued run's. */
  readonly seed: number | undefined;
  /** The setup the state is written for, but what the preflight finds (the chain id and the decision rule). */
  readonly setup: Omit<DriftStateScope, "chainId" | "rule">;
}

/** What the scan is handed from the configuration (the rest comes from the preflight and the run). */
export interface ScanSettings {
  /** The oracle (`--oracle`). */
  readonly oracle: Address;
  /** The attested oracle read instead (`--attested-oracle`). */
  readonly attestedOracle: Address | undefined;
  /** The issuer the attestations must name. */
  readonly issuer: string;
  /** How old an on-chain record may be. */
  readonly maxAgeSeconds: number;
  /** The tier and sybil encodings. */
  readonly encoding: TrustEncoding;
  /** Signed fetches in flight. */
  readonly concurrency: number;
  /** Records per oracle `eth_call`. */
  readonly readChunkSize: number | undefined;
}

/** What the report's head states of the configuration (URLs redacted). */
export interface ReportSettings {
  /** The RPC URL, redacted. */
  readonly rpc: string;
  /** The oracle. */
  readonly oracle: Address;
  /** The API URL, redacted. */
  readonly api: string;
  /** The issuer. */
  readonly issuer: string;
  /** How old an on-chain record may be. */
  readonly maxAgeSeconds: number;
  /** The tier and sybil encodings. */
  readonly encoding: TrustEncoding;
}

/** A drift configuration, checked, as the stages of a run take it. */
export interface RunSettings {
  /** The preflight's endpoints, rule inputs and time-out. */
  readonly preflight: PreflightSettings;
  /** The service client's options. */
  readonly service: TrustApiClientParameters;
  /** The projection's inputs: whether a key is sent, and whether the rate was set by hand. */
  readonly projection: { readonly apiKey: boolean; readonly rateConfigured: boolean };
  /** The state run's settings; `undefined` without a state file. */
  readonly state: StateSettings | undefined;
  /** The agents to scan. */
  readonly scope: AgentScope;
  /** The audit plan of an `--all` scope; `undefined` for a list. */
  readonly audit: AuditPlan | undefined;
  /** What the scan takes from the configuration. */
  readonly scan: ScanSettings;
  /** `maxErrors`, for the exit code; `undefined` for the default. */
  readonly errorLimit: ErrorLimit | undefined;
  /** The run's time limit in seconds; `undefined` for none. */
  readonly maxDurationSeconds: number | undefined;
  /** Consecutive network failures of the service or the RPC after which the run stops asking it (0: never). */
  readonly maxNetworkFailures: number;
  /** What the report's head states of the configuration. */
  readonly report: ReportSettings;
  /** What the comparison with the previous night takes: the baseline and `--fail-on`. */
  readonly sinceLastNight: { readonly baseline: DriftBaseline | undefined; readonly failOn: "new" | "any" };
}

/**
 * Checks a drift configuration and splits it into what each stage of a run takes.
 *
 * @param config - The configuration.
 * @returns Each stage's settings.
 * @throws {@link InvalidArgumentError} for an invalid `maxErrors`, `readChunkSize`, `maxDurationSeconds`,
 *   `maxNetworkFailures` or `failOn`, a state file for a list or with an empty name, `full`, `baseline` or
 *   `failOn: "new"` without a state file, or an invalid audit plan.
 */
export function runSettingsOf(config: DriftConfig): RunSettings {
  const audit = checkConfig(config);
  return {
    preflight: {
      rpcUrl: config.rpcUrl,
      oracle: config.oracle,
      attestedOracle: config.attestedOracle,
      gate: config.gate,
      threshold: config.threshold,
      jwks: config.jwks,
      timeoutMs: config.timeoutMs,
    },
    service: {
      baseUrl: config.apiUrl,
      apiKey: config.apiKey || undefined,
      rateLimit: config.ratePerMinute || undefined,
      timeoutMs: config.timeoutMs,
    },
    projection: { apiKey: config.apiKey !== undefined && config.apiKey !== "", rateConfigured: config.ratePerMinute !== undefined },
    state:
      config.state === undefined
        ? undefined
        : {
            path: config.state,
            full: config.full === true,
            seed: config.scope.kind === "all" ? config.scope.seed : undefined,
            setup: {
              oracle: config.oracle,
              attestedOracle: config.attestedOracle ?? null,
              api: config.serviceIdentity ?? redactUrl(config.apiUrl),
              issuer: config.serviceIdentity ?? config.issuer,
              encoding: { tiers: [...config.encoding.tiers], sybilSeverities: [...config.encoding.sybilSeverities] },
            },
          },
    scope: config.scope,
    audit,
    scan: {
      oracle: config.oracle,
      attestedOracle: config.attestedOracle,
      issuer: config.issuer,
      maxAgeSeconds: config.maxAgeSeconds,
      encoding: config.encoding,
      concurrency: config.concurrency,
      readChunkSize: config.readChunkSize,
    },
    errorLimit: config.maxErrors || undefined,
    maxDurationSeconds: config.maxDurationSeconds,
    maxNetworkFailures: checkMaxNetworkFailures(config.maxNetworkFailures ?? DEFAULT_MAX_NETWORK_FAILURES),
    report: {
      rpc: redactUrl(config.rpcUrl),
      oracle: config.oracle,
      api: redactUrl(config.apiUrl),
      issuer: config.issuer,
      maxAgeSeconds: config.maxAgeSeconds,
      encoding: config.encoding,
    },
    sinceLastNight: { baseline: config.baseline, failOn: config.failOn ?? "any" },
  };
}

/**
 * Checks a configuration before anything is asked of the network: the error limit, the state and time-limit
 * settings, and (for `--all`) the audit plan.
 *
 * @returns The audit plan of an `--all` scope; `undefined` for a list.
 */
function checkConfig(config: DriftConfig): AuditPlan | undefined {
  if (config.maxErrors) checkErrorLimit(config.maxErrors);
  if (config.state !== undefined) {
    if (config.scope.kind !== "all") {
      throw new InvalidArgumentError("A state file (--state) applies only to --all scans, not to an --agents list");
    }
    if (config.state.trim() === "") throw new InvalidArgumentError("The state file name (--state) is empty");
  }
  if (config.full && config.state === undefined) {
    throw new InvalidArgumentError("--full ignores the state file, so it needs --state (without a state file every run is full)");
  }
  if (config.failOn !== undefined && config.failOn !== "new" && config.failOn !== "any") {
    throw new InvalidArgumentError(`failOn must be "new" or "any", got ${JSON.stringify(config.failOn)}`);
  }
  if (config.state === undefined && (config.failOn === "new" || config.baseline !== undefined)) {
    throw new InvalidArgumentError(
      `${config.baseline !== undefined ? "--accept" : "--fail-on new"} compares tonight with the night before, so it needs --state <file>`,
    );
  }
  checkChunkSize(config.readChunkSize, "readChunkSize");
  const max = config.maxDurationSeconds;
  if (max !== undefined && !(Number.isFinite(max) && max >= 0)) {
    throw new InvalidArgumentError(`maxDurationSeconds must be a number of seconds >= 0, got ${String(max)}`);
  }
  return config.scope.kind === "all" ? auditPlanOf(config.scope) : undefined;
}
