/**
 * A whole drift run from a resolved configuration, as a short sequence of stages, each handed only what it needs:
 *
 *   check the configuration → read the state file → preflight (`preflight.ts`: the chain, the oracle or attested
 *   oracle, the gate, the keys) → open the state run → scan the scope (`scan.ts` or `scan-all.ts`, both `runScan`
 *   in `pipeline.ts`) → report (`stages/report.ts`)
 *
 * With an attested oracle (`attestedOracle`, `--attested-oracle`), the records are read from it: the report's source
 * names it, its notes warn when its upstream is not `oracle`, and with `--all` the events of both are replayed.
 * Problems found before the scan are `ConfigurationError`s; once the scan runs, a failure on one agent is a
 * row, never a throw.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { createTrustApiClient, type TrustApiClient } from "../api/client.js";
import { type ConfigurationError, InvalidArgumentError } from "../errors.js";
import { checkChunkSize } from "../oracle/reader.js";
import { redactUrl } from "../security/redact-url.js";
import { type AuditPlan, randomAuditSeed } from "./audit.js";
import { type AgentScope, auditPlanOf, type DriftConfig } from "./config.js";
import { describeRule } from "./decision.js";
import { checkErrorLimit, DEFAULT_ERROR_LIMIT, type ErrorLimit, evaluateErrorLimit } from "./error-limit.js";
import { onchainEnumerationNote, planOnchainEnumeration } from "./onchain-enumeration.js";
import type { DriftScanOptions, ScanResult } from "./pipeline.js";
import { type Preflight, preflight } from "./preflight.js";
import type { ScanProgress } from "./progress.js";
import { projectFetches, ratePerMinuteOf } from "./projection.js";
import { readerModeNote } from "./reader-mode-note.js";
import { sortRows, tallyRows } from "./report.js";
import { scanAgents } from "./scan.js";
import { scanAllAgents } from "./scan-all.js";
import type { OnchainEventSource } from "./stages/enumerate.js";
import { newServiceStats, type ServiceStats } from "./stages/fetch-verify.js";
import { reportScanHead } from "./stages/report.js";
import { readDriftState } from "./state-file.js";
import { type DriftNightOutcome, type DriftStateRun, openDriftStateRun } from "./state-run.js";
import type { AttestedOracleSource, DriftReport, DriftReportHead, DriftRow, FetchProjection, PartialRun } from "./types.js";
import { exitCodeOf } from "./verdict.js";

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

/** What {@link runDrift} throws, before any agent is scanned: an unusable endpoint or address, or an invalid option. */
export type RunDriftErrorType = ConfigurationError | InvalidArgumentError;

/**
 * Runs the drift job.
 *
 * @param config - Endpoints, agents, decision rule and limits.
 * @param hooks - Progress, clock, the fetch projection, and rows as they are produced (kept or not).
 * @returns The report; without `agents` with `keepRows: false`.
 * @throws `ConfigurationError` when the RPC or API is unreachable, the oracle or gate address has no
 *   contract, or `attestedOracle` holds no `AttestedTrustOracle` (no code, or `upstream()` does not answer), before
 *   any agent is scanned (with `attestedOracle`, the oracle address need not hold code: an upstream that is not it
 *   is a warning in the report's notes); an `InvalidArgumentError` for an invalid `maxErrors` or `readChunkSize`,
 *   before too. A chain without Multicall3 is not refused: the report's `source.readerMode` and `notes` say how it was
 *   read instead.
 */
export function runDrift(config: DriftConfig, hooks?: DriftHooks & { readonly keepRows?: true }): Promise<DriftReport>;
export function runDrift(config: DriftConfig, hooks: DriftHooks & { readonly keepRows: false }): Promise<DriftReportHead>;
export function runDrift(config: DriftConfig, hooks?: DriftHooks): Promise<DriftReport | DriftReportHead>;
export async function runDrift(config: DriftConfig, hooks: DriftHooks = {}): Promise<DriftReport | DriftReportHead> {
  const audit = checkConfig(config);
  // A malformed state file is refused before anything is asked of the chain or the service.
  const loadedState = config.state === undefined ? null : readDriftState(config.state);
  const now = hooks.now ?? (() => new Date());
  const startedAt = now();
  const started = performance.now();
  const checked = await preflight(config);
  const api = createTrustApiClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey || undefined,
    rateLimit: config.ratePerMinute || undefined,
    timeoutMs: config.timeoutMs,
  });
  const stateRun = config.state === undefined ? undefined : openStateRun(config.state, config, checked, loadedState, now);
  const stats = newServiceStats();
  const projector = fetchProjector(api, config, hooks.onProjection);
  const keepRows = hooks.keepRows ?? true;
  const scanOptions: DriftScanOptions = {
    chain: checked.chain,
    oracle: config.oracle,
    attestedOracle: config.attestedOracle,
    api,
    attestations: { issuer: config.issuer, jwks: checked.jwks, now, stats },
    rule: checked.rule,
    maxAgeSeconds: config.maxAgeSeconds,
    encoding: config.encoding,
    concurrency: config.concurrency,
    readChunkSize: config.readChunkSize,
    blockNumber: checked.blockNumber,
    readerMode: checked.reader.mode,
    now,
    onProgress: hooks.onProgress,
    checkpoint: stateRun?.checkpoint,
    stopReason: maxDurationStop(config.maxDurationSeconds, stateRun !== undefined, now, startedAt),
    signal: hooks.signal,
    onFetchesPlanned: projector.onFetchesPlanned,
    onRow: hooks.onRow,
    keepRows,
  };
  const result = await scanScope(config.scope, scanOptions, {
    audit,
    stateRun,
    attested: checked.attested,
    blockNumber: checked.blockNumber,
    errorLimit: config.maxErrors || undefined,
  });
  const report = reportRun(result, {
    config,
    checked,
    stateRun,
    projection: projector.projection(),
    runtime: { totalMs: performance.now() - started, service: stats },
    generatedAt: now(),
  });
  return keepRows ? { ...report, agents: sortRows(result.rows) } : report;
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
  checkChunkSize(config.readChunkSize, "readChunkSize");
  const max = config.maxDurationSeconds;
  if (max !== undefined && !(Number.isFinite(max) && max >= 0)) {
    throw new InvalidArgumentError(`maxDurationSeconds must be a number of seconds >= 0, got ${String(max)}`);
  }
  return config.scope.kind === "all" ? auditPlanOf(config.scope) : undefined;
}

/** Opens the run's use of its state file, for the setup it was written for (refused for another unless `full`). */
function openStateRun(
  path: string,
  settings: Pick<DriftConfig, "oracle" | "attestedOracle" | "apiUrl" | "issuer" | "serviceIdentity" | "encoding" | "full" | "scope">,
  checked: Pick<Preflight, "chainId" | "rule">,
  loaded: ReturnType<typeof readDriftState> | null,
  now: () => Date,
): DriftStateRun {
  return openDriftStateRun({
    path,
    loaded,
    scope: {
      oracle: settings.oracle,
      attestedOracle: settings.attestedOracle ?? null,
      chainId: checked.chainId,
      api: settings.serviceIdentity ?? redactUrl(settings.apiUrl),
      issuer: settings.serviceIdentity ?? settings.issuer,
      rule: describeRule(checked.rule),
      encoding: { tiers: [...settings.encoding.tiers], sybilSeverities: [...settings.encoding.sybilSeverities] },
    },
    full: settings.full === true,
    seed: settings.scope.kind === "all" ? settings.scope.seed : undefined,
    now,
  });
}

/**
 * The projection of the signed fetches' cost, made when triage has chosen them. The rate in force is read then: the
 * limiter may follow what the service announced since the run started.
 */
function fetchProjector(
  api: TrustApiClient,
  settings: Pick<DriftConfig, "apiKey" | "ratePerMinute">,
  onProjection: DriftHooks["onProjection"],
): { readonly onFetchesPlanned: (signedFetches: number) => void; readonly projection: () => FetchProjection | undefined } {
  let projection: FetchProjection | undefined;
  return {
    onFetchesPlanned: (signedFetches) => {
      projection = projectFetches({
        signedFetches,
        ratePerMinute: ratePerMinuteOf(api.transport.rateLimiter),
        apiKey: settings.apiKey !== undefined && settings.apiKey !== "",
        rateConfigured: settings.ratePerMinute !== undefined,
      });
      onProjection?.(projection);
    },
    projection: () => projection,
  };
}

/** The scan's reason to start no more signed fetches once `maxDurationSeconds` have passed; none without a limit. */
function maxDurationStop(
  maxDurationSeconds: number | undefined,
  resumable: boolean,
  now: () => Date,
  startedAt: Date,
): (() => string | null) | undefined {
  if (maxDurationSeconds === undefined) return undefined;
  const message =
    `not fetched: the run stopped at its --max-duration (${maxDurationSeconds}s) before asking for this signed attestation` +
    (resumable ? "; run it again with the same --state to continue" : "");
  return () => (now().getTime() - startedAt.getTime() >= maxDurationSeconds * 1000 ? message : null);
}

/** What an `--all` scan needs besides the common scan options. */
interface ScopeRun {
  /** The audit plan (present for `--all`). */
  readonly audit: AuditPlan | undefined;
  readonly stateRun: DriftStateRun | undefined;
  readonly attested: AttestedOracleSource | undefined;
  /** The block the run is pinned to: the event replay ends there, and the state's journal records it. */
  readonly blockNumber: bigint;
  /** `maxErrors`, for the exit code the state's history records. */
  readonly errorLimit: ErrorLimit | undefined;
}

/** What a scan found, as the state's history records it: counts, flips, signed fetches and the exit code. */
function nightOutcome(result: ScanResult, errorLimit: ErrorLimit | undefined): DriftNightOutcome {
  const tally = result.tally ?? tallyRows(result.rows);
  const summary = {
    byStatus: tally.byStatus,
    flips: tally.flips,
    unverified: evaluateErrorLimit(tally.byStatus, tally.agents, errorLimit ?? DEFAULT_ERROR_LIMIT),
    ...(result.partial ? { partial: result.partial } : {}),
  };
  return {
    exitCode: exitCodeOf({ summary }),
    statuses: { ...tally.byStatus },
    flips: { ...tally.flips },
    signedFetches: result.triage?.signedFetches ?? 0,
  };
}

/**
 * Scans the scope: the explicit list, or every listed agent (with the events of the oracles read replayed, the
 * audit's seed and the state's evidence), with the state run's journal begun before and closed after.
 */
async function scanScope(scope: AgentScope, options: DriftScanOptions, run: ScopeRun): Promise<ScanResult> {
  const { stateRun, blockNumber } = run;
  const eventSources =
    scope.kind === "all"
      ? await planEventSources(options.chain, eventOracles(options.oracle, run.attested), scope.eventsFromBlock, blockNumber)
      : undefined;
  const seed = scope.kind === "all" ? (stateRun?.seed ?? scope.seed ?? randomAuditSeed()) : 0;
  stateRun?.begin(blockNumber);
  let result: ScanResult;
  try {
    result =
      scope.kind === "list"
        ? await scanAgents(scope.agents, options)
        : await scanAllAgents({
            ...options,
            audit: run.audit,
            seed,
            state: stateRun?.source,
            chainFilter: scope.chain,
            eventSources,
          });
  } catch (error) {
    stateRun?.abandon();
    throw error;
  }
  const stateSummary = stateRun?.finish(result, blockNumber, nightOutcome(result, run.errorLimit));
  return result.triage && stateSummary ? { ...result, triage: { ...result.triage, state: stateSummary } } : result;
}

/**
 * Where each oracle's events are replayed from (`--events-from`; with "auto", each from its own deployment block),
 * or why they are not.
 */
async function planEventSources(
  chain: DriftScanOptions["chain"],
  oracles: readonly { readonly oracle: Address; readonly role: OnchainEventSource["role"] }[],
  eventsFromBlock: bigint | "auto" | undefined,
  blockNumber: bigint,
): Promise<OnchainEventSource[]> {
  return Promise.all(
    oracles.map(async ({ oracle, role }): Promise<OnchainEventSource> => {
      const plan = await planOnchainEnumeration(chain, oracle, eventsFromBlock, blockNumber);
      return plan.kind === "replay" ? { oracle, role, fromBlock: plan.fromBlock } : { oracle, role, skipped: plan.reason };
    }),
  );
}

/** What the report stage takes from the run besides the scan. */
interface RunFacts {
  readonly config: Pick<
    DriftConfig,
    "rpcUrl" | "oracle" | "apiUrl" | "issuer" | "maxAgeSeconds" | "encoding" | "maxErrors" | "maxDurationSeconds"
  >;
  readonly checked: Pick<Preflight, "chainId" | "blockNumber" | "reader" | "attested" | "rule">;
  readonly stateRun: DriftStateRun | undefined;
  readonly projection: FetchProjection | undefined;
  readonly runtime: { readonly totalMs: number; readonly service: ServiceStats };
  readonly generatedAt: Date;
}

/** The report's head: where the records came from, the rule, the notes, the runtime and whether the run was partial. */
function reportRun(result: ScanResult, facts: RunFacts): DriftReportHead {
  const { config, checked, stateRun } = facts;
  const partial: PartialRun | undefined = result.partial
    ? {
        reason: "max-duration",
        maxDurationSeconds: config.maxDurationSeconds!,
        notFetched: result.partial.notFetched,
        resumable: stateRun !== undefined,
      }
    : undefined;
  return reportScanHead(result, {
    source: {
      rpc: redactUrl(config.rpcUrl),
      oracle: config.oracle,
      api: redactUrl(config.apiUrl),
      issuer: config.issuer,
      chainId: checked.chainId,
      blockNumber: checked.blockNumber.toString(),
      readerMode: checked.reader.mode,
      ...(checked.attested ? { attestedOracle: checked.attested } : {}),
    },
    decisionRule: describeRule(checked.rule),
    maxAgeSeconds: config.maxAgeSeconds,
    encoding: config.encoding,
    notes: [
      readerModeNote(checked.reader, checked.chainId),
      upstreamMismatchNote(checked.attested, config.oracle),
      onchainEnumerationNote(result.triage),
      ...(stateRun?.notes ?? []),
      partialNote(partial),
    ].filter((note): note is string => note !== null),
    projection: facts.projection,
    ...(stateRun ? { state: { history: stateRun.history() } } : {}),
    runtime: facts.runtime,
    generatedAt: facts.generatedAt,
    errorLimit: config.maxErrors || undefined,
    partial,
  });
}

/** The note of a partial run. */
function partialNote(partial: PartialRun | undefined): string | null {
  if (!partial) return null;
  return (
    `PARTIAL: the run stopped at its --max-duration (${partial.maxDurationSeconds}s) with ${partial.notFetched} selected signed ` +
    `attestations not fetched (error rows); ${partial.resumable ? "its progress is in the state file: run it again with the same --state to continue" : "without --state it cannot be continued"}`
  );
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
  oracle: Address,
  attested: AttestedOracleSource | undefined,
): { readonly oracle: Address; readonly role: OnchainEventSource["role"] }[] {
  if (!attested) return [{ oracle, role: "oracle" }];
  const upstream = /^0x0{40}$/i.test(attested.upstream) ? [] : [{ oracle: attested.upstream as Address, role: "upstream" as const }];
  return [{ oracle: attested.address as Address, role: "attested-oracle" }, ...upstream];
}
