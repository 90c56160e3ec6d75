/**
 * A whole drift run from a resolved configuration: check that the chain, the oracle (and gate) and the
 * service are reachable, choose once how to read the oracle (Multicall3, or deployless Multicall3 or one
 * `eth_call` per record where it is not deployed; the report says so), run the scan pipeline for the scope
 * (`scan.ts` or `scan-all.ts`, both `runScan` in `pipeline.ts`), and hand its result to the report stage. With
 * an attested oracle (`attestedOracle`, `--attested-oracle`), the records are read from it instead: the run checks
 * that it is one (`upstream()` answers), says in the report's source which oracle was read, warns in its notes
 * when the attested oracle's upstream is not `oracle`, and with `--all` replays the events of both. Problems
 * found before the scan are {@link ConfigurationError}s; once the scan runs, a failure on one agent is a row,
 * never a throw.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { getBlockNumber, getChainId, getCode, readContract } from "viem/actions";
import { createTrustApiClient } from "../api/client.js";
import { createJwksResolver, type JwksResolver } from "../attestation/jwks.js";
import { ConfigurationError, InvalidArgumentError, messageOf } from "../errors.js";
import { redactUrl } from "../security/redact-url.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import { readGatePolicy } from "../oracle/gate.js";
import { detectReaderMode, type ReaderModeDetection } from "../oracle/reader-mode.js";
import { randomAuditSeed } from "./audit.js";
import { auditPlanOf, DEFAULT_DECISION_THRESHOLD, type DriftConfig } from "./config.js";
import { type DecisionRule, describeRule } from "./decision.js";
import { checkErrorLimit } from "./error-limit.js";
import { onchainEnumerationNote, planOnchainEnumeration } from "./onchain-enumeration.js";
import type { ScanResult } from "./pipeline.js";
import type { ScanProgress } from "./progress.js";
import { readerModeNote } from "./reader-mode-note.js";
import { scanAgents } from "./scan.js";
import { scanAllAgents } from "./scan-all.js";
import type { OnchainEventSource } from "./stages/enumerate.js";
import { newServiceStats } from "./stages/fetch-verify.js";
import { projectFetches, ratePerMinuteOf } from "./projection.js";
import { sortRows } from "./report.js";
import { reportScanHead } from "./stages/report.js";
import { readDriftState } from "./state-file.js";
import { openDriftStateRun } from "./state-run.js";
import type { AttestedOracleSource, DriftReport, DriftReportHead, DriftRow, FetchProjection, PartialRun } from "./types.js";

/** Optional hooks of {@link runDrift}. */
export interface DriftHooks {
  /** Progress of the scan's stages. */
  readonly onProgress?: (progress: ScanProgress) => void;
  /** Clock (default the system clock); also measures `maxDurationSeconds`. */
  readonly now?: () => Date;
  /**
   * Abandons the run: no more signed fetches start, and `runDrift` rejects with the signal's reason once those in
   * flight end — as a kill would, the state file keeps the answers checkpointed so far, and the next run with it
   * continues where this one was.
   */
  readonly signal?: AbortSignal;
  /**
   * The projected cost of the signed fetches (also `report.projection`), once triage has chosen them and before the
   * first is sent: the command line prints it, so that a run that will take hours says so at the start.
   */
  readonly onProjection?: (projection: FetchProjection) => void;
  /**
   * Receives each row as the scan produces it: unsorted (candidates in enumeration order, then the agents that could
   * not be scanned); the report's `agents` holds the same rows sorted by severity. With `keepRows: false`, the way to
   * write rows out without holding them all.
   */
  readonly onRow?: (row: DriftRow) => void;
  /**
   * Whether the returned report holds the rows (default true). Memory: a report holds every row, about 1 KB each
   * (150,000 agents: some 150 MB), besides what the scan itself holds per agent while it runs. False: the run
   * returns the report without `agents` ({@link DriftReportHead}; its summary still counts every row) and keeps no
   * row once `onRow` has had it — the command line writes its JSON and Markdown that way.
   */
  readonly keepRows?: boolean;
}

/**
 * Runs the drift job.
 *
 * @param config - Endpoints, agents, decision rule and limits.
 * @param hooks - Progress, clock, the fetch projection, and rows as they are produced (kept or not).
 * @returns The report; without `agents` with `keepRows: false`.
 * @throws {@link ConfigurationError} when the RPC or API is unreachable, the oracle or gate address has no
 *   contract, or `attestedOracle` holds no `AttestedTrustOracle` (no code, or `upstream()` does not answer), before
 *   any agent is scanned (with `attestedOracle`, the oracle address need not hold code: an upstream that is not it
 *   is a warning in the report's notes); an `InvalidArgumentError` for an invalid `maxErrors`, before too.
 *   A chain without Multicall3 is not refused: the report's `source.readerMode` and `notes` say how it was
 *   read instead.
 */
export function runDrift(config: DriftConfig, hooks?: DriftHooks & { readonly keepRows?: true }): Promise<DriftReport>;
export function runDrift(config: DriftConfig, hooks: DriftHooks & { readonly keepRows: false }): Promise<DriftReportHead>;
export function runDrift(config: DriftConfig, hooks?: DriftHooks): Promise<DriftReport | DriftReportHead>;
export async function runDrift(config: DriftConfig, hooks: DriftHooks = {}): Promise<DriftReport | DriftReportHead> {
  if (config.maxErrors) checkErrorLimit(config.maxErrors);
  checkRunLimits(config);
  const audit = config.scope.kind === "all" ? auditPlanOf(config.scope) : undefined;
  // A malformed state file is refused before anything is asked of the chain or the service.
  const loadedState = config.state === undefined ? null : readDriftState(config.state);
  const now = hooks.now ?? (() => new Date());
  const startedAt = now();
  const started = performance.now();
  const chain = createPublicClient({
    transport: http(config.rpcUrl, { retryCount: 2, timeout: config.timeoutMs ?? 30_000 }),
  }) as PublicClient;
  const { chainId, blockNumber, reader } = await checkChain(chain, config.rpcUrl, config.attestedOracle ? undefined : config.oracle);
  const attested = config.attestedOracle
    ? await checkAttestedOracle(chain, config.attestedOracle, config.oracle, { chainId, blockNumber })
    : undefined;
  const rule = await decisionRule(chain, config, blockNumber);
  const jwks = await checkService(config);
  const api = createTrustApiClient({
    baseUrl: config.apiUrl,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.ratePerMinute ? { rateLimit: config.ratePerMinute } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  });

  const stats = newServiceStats();
  const scope = config.scope;
  const stateRun =
    config.state === undefined
      ? undefined
      : openDriftStateRun({
          path: config.state,
          loaded: loadedState,
          scope: {
            oracle: config.oracle,
            attestedOracle: config.attestedOracle ?? null,
            chainId,
            api: redactUrl(config.apiUrl),
            issuer: config.issuer,
            rule: describeRule(rule),
            encoding: { tiers: [...config.encoding.tiers], sybilSeverities: [...config.encoding.sybilSeverities] },
          },
          full: config.full === true,
          ...(scope.kind === "all" && scope.seed !== undefined ? { seed: scope.seed } : {}),
          now,
        });
  const maxDuration = config.maxDurationSeconds;
  const stopMessage =
    maxDuration === undefined
      ? undefined
      : `not fetched: the run stopped at its --max-duration (${maxDuration}s) before asking for this signed attestation` +
        (stateRun ? "; run it again with the same --state to continue" : "");
  let projection: FetchProjection | undefined;
  const common = {
    chain,
    oracle: config.oracle,
    ...(attested ? { attestedOracle: config.attestedOracle } : {}),
    api,
    attestations: { issuer: config.issuer, jwks, now, stats },
    rule,
    maxAgeSeconds: config.maxAgeSeconds,
    encoding: config.encoding,
    concurrency: config.concurrency,
    blockNumber,
    readerMode: reader.mode,
    now,
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
    ...(stateRun ? { checkpoint: stateRun.checkpoint } : {}),
    ...(stopMessage !== undefined
      ? { stopReason: () => (now().getTime() - startedAt.getTime() >= maxDuration! * 1000 ? stopMessage : null) }
      : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    // The rate in force is read when the fetches start: the limiter may follow what the service announced since.
    onFetchesPlanned: (signedFetches: number) => {
      projection = projectFetches({
        signedFetches,
        ratePerMinute: ratePerMinuteOf(api.transport.rateLimiter),
        apiKey: config.apiKey !== undefined && config.apiKey !== "",
        rateConfigured: config.ratePerMinute !== undefined,
      });
      hooks.onProjection?.(projection);
    },
    ...(hooks.onRow ? { onRow: hooks.onRow } : {}),
    keepRows: hooks.keepRows ?? true,
  };
  // `--all` also replays the events of the oracles whose records are read: the oracle, or the attested oracle and
  // its upstream (each from its own deployment block with "auto").
  const eventSources =
    scope.kind === "all"
      ? await Promise.all(
          eventOracles(config, attested).map(async ({ oracle, role }): Promise<OnchainEventSource> => {
            const plan = await planOnchainEnumeration(chain, oracle, scope.eventsFromBlock, blockNumber);
            return plan.kind === "replay" ? { oracle, role, fromBlock: plan.fromBlock } : { oracle, role, skipped: plan.reason };
          }),
        )
      : undefined;
  const seed = scope.kind === "all" ? (stateRun?.seed ?? scope.seed ?? randomAuditSeed()) : 0;
  stateRun?.begin(blockNumber);
  let result: ScanResult;
  try {
    result =
      scope.kind === "list"
        ? await scanAgents(scope.agents, common)
        : await scanAllAgents({
            ...common,
            audit: audit!,
            seed,
            ...(stateRun?.source ? { state: stateRun.source } : {}),
            ...(scope.chain ? { chainFilter: scope.chain } : {}),
            ...(eventSources ? { eventSources } : {}),
          });
  } catch (error) {
    stateRun?.abandon();
    throw error;
  }
  const stateSummary = stateRun?.finish(result, blockNumber);
  if (result.triage && stateSummary) result = { ...result, triage: { ...result.triage, state: stateSummary } };
  const partial: PartialRun | undefined = result.partial
    ? { reason: "max-duration", maxDurationSeconds: maxDuration!, notFetched: result.partial.notFetched, resumable: stateRun !== undefined }
    : undefined;

  const report = reportScanHead(result, {
    source: {
      rpc: redactUrl(config.rpcUrl),
      oracle: config.oracle,
      api: redactUrl(config.apiUrl),
      issuer: config.issuer,
      chainId,
      blockNumber: blockNumber.toString(),
      readerMode: reader.mode,
      ...(attested ? { attestedOracle: attested } : {}),
    },
    decisionRule: describeRule(rule),
    maxAgeSeconds: config.maxAgeSeconds,
    encoding: config.encoding,
    notes: [
      readerModeNote(reader, chainId),
      upstreamMismatchNote(attested, config.oracle),
      onchainEnumerationNote(result.triage),
      ...(stateRun?.notes ?? []),
      partialNote(partial),
    ].filter((note): note is string => note !== null),
    ...(projection ? { projection } : {}),
    runtime: { totalMs: performance.now() - started, service: stats },
    generatedAt: now(),
    ...(config.maxErrors ? { errorLimit: config.maxErrors } : {}),
    ...(partial ? { partial } : {}),
  });
  return (hooks.keepRows ?? true) ? { ...report, agents: sortRows(result.rows) } : report;
}

/** Checks the state and time-limit settings of a configuration (before anything is asked of the network). */
function checkRunLimits(config: DriftConfig): void {
  if (config.state !== undefined) {
    if (config.scope.kind !== "all") {
      throw new InvalidArgumentError("A state file (--state) applies only to --all scans, not to an --agents list");
    }
    if (config.state.trim() === "") throw new InvalidArgumentError("The state file name (--state) is empty");
  }
  if (config.full && config.state === undefined) {
    throw new InvalidArgumentError("--full ignores the state file, so it needs --state (without a state file every run is full)");
  }
  const max = config.maxDurationSeconds;
  if (max !== undefined && !(Number.isFinite(max) && max >= 0)) {
    throw new InvalidArgumentError(`maxDurationSeconds must be a number of seconds >= 0, got ${String(max)}`);
  }
}

/** The note of a partial run. */
function partialNote(partial: PartialRun | undefined): string | null {
  if (!partial) return null;
  return (
    `PARTIAL: the run stopped at its --max-duration (${partial.maxDurationSeconds}s) with ${partial.notFetched} selected signed ` +
    `attestations not fetched (error rows); ${partial.resumable ? "its progress is in the state file: run it again with the same --state to continue" : "without --state it cannot be continued"}`
  );
}

async function checkChain(
  chain: PublicClient,
  rpcUrl: string,
  oracle: Address | undefined,
): Promise<{ chainId: number; blockNumber: bigint; reader: ReaderModeDetection }> {
  let chainId: number;
  let blockNumber: bigint;
  try {
    [chainId, blockNumber] = await Promise.all([getChainId(chain), getBlockNumber(chain)]);
  } catch (error) {
    throw new ConfigurationError(`Cannot reach the RPC at ${redactUrl(rpcUrl)}`, { cause: error, details: messageOf(error) });
  }
  // Read mode chosen once, at the pinned block: Multicall3 where deployed, else deployless, else eth_call.
  const [oracleCode, reader] = await Promise.all([
    oracle === undefined ? undefined : getCode(chain, { address: oracle, blockNumber }),
    detectReaderMode(chain, { blockNumber }),
  ]).catch((error: unknown) => {
    throw new ConfigurationError(`Cannot read code from the RPC at ${redactUrl(rpcUrl)}`, { cause: error, details: messageOf(error) });
  });
  if (oracle !== undefined && (!oracleCode || oracleCode === "0x")) {
    throw new ConfigurationError(`No contract at the oracle address ${oracle} on chain ${chainId}`);
  }
  return { chainId, blockNumber, reader };
}

/**
 * Checks that the address holds an `AttestedTrustOracle` (code there, and `upstream()` answers an address) and reads
 * its upstream. The oracle address itself is not required to hold code then: the reads go to the attested oracle,
 * and an upstream that is not `oracle` is a warning in the report, not an error.
 */
async function checkAttestedOracle(
  chain: PublicClient,
  address: Address,
  oracle: Address,
  at: { readonly chainId: number; readonly blockNumber: bigint },
): Promise<AttestedOracleSource> {
  let code: string | undefined;
  try {
    code = await getCode(chain, { address, blockNumber: at.blockNumber });
  } catch (error) {
    throw new ConfigurationError(`Cannot read code at the attested oracle address ${address}`, { cause: error, details: messageOf(error) });
  }
  if (!code || code === "0x") {
    throw new ConfigurationError(`No contract at the attested oracle address ${address} on chain ${at.chainId} (--attested-oracle)`);
  }
  let upstream: Address;
  try {
    upstream = await readContract(chain, {
      address,
      abi: attestedTrustOracleAbi,
      functionName: "upstream",
      blockNumber: at.blockNumber,
    });
  } catch (error) {
    throw new ConfigurationError(
      `The contract at ${address} (--attested-oracle) is not an AttestedTrustOracle: its upstream() cannot be read`,
      { cause: error, details: firstLine(messageOf(error)) },
    );
  }
  return { address, upstream, upstreamIsOracle: upstream.toLowerCase() === oracle.toLowerCase() };
}

/** The warning of a report whose attested oracle does not fall back on the oracle given; `null` when it does. */
function upstreamMismatchNote(attested: AttestedOracleSource | undefined, oracle: Address): string | null {
  if (!attested || attested.upstreamIsOracle) return null;
  const what = /^0x0{40}$/i.test(attested.upstream)
    ? "has no upstream oracle: the records read are its own attested records only"
    : `falls back on ${attested.upstream}: the records read are the fresher of its own and that oracle's`;
  return `UPSTREAM MISMATCH: the attested oracle ${attested.address} does not fall back on the oracle ${oracle} (--oracle); it ${what}`;
}

/** The oracles whose events announce the records read: the oracle, or the attested oracle and its upstream (if any). */
function eventOracles(
  config: DriftConfig,
  attested: AttestedOracleSource | undefined,
): { readonly oracle: Address; readonly role: OnchainEventSource["role"] }[] {
  if (!attested) return [{ oracle: config.oracle, role: "oracle" }];
  const upstream = /^0x0{40}$/i.test(attested.upstream) ? [] : [{ oracle: attested.upstream as Address, role: "upstream" as const }];
  return [{ oracle: attested.address as Address, role: "attested-oracle" }, ...upstream];
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

async function decisionRule(chain: PublicClient, config: DriftConfig, blockNumber: bigint): Promise<DecisionRule> {
  if (!config.gate) return { kind: "threshold", threshold: config.threshold ?? DEFAULT_DECISION_THRESHOLD };
  try {
    const gate = await readGatePolicy(chain, config.gate, { blockNumber });
    const policy = config.threshold === undefined ? gate.policy : { ...gate.policy, minScore: config.threshold };
    return { kind: "gate", gate: gate.gate, policy };
  } catch (error) {
    throw new ConfigurationError(`Cannot read the policy of the gate ${config.gate}`, { cause: error, details: messageOf(error) });
  }
}

async function checkService(config: DriftConfig): Promise<JwksResolver> {
  if (typeof config.jwks !== "string") {
    return createJwksResolver({ keys: config.jwks as Parameters<typeof createJwksResolver>[0]["keys"] & object });
  }
  const resolver = createJwksResolver({ url: config.jwks, ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}) });
  try {
    await resolver.reload();
  } catch (error) {
    throw new ConfigurationError(`Cannot fetch the service's JWKS at ${redactUrl(config.jwks)}`, {
      cause: error,
      details: messageOf(error),
    });
  }
  return resolver;
}
