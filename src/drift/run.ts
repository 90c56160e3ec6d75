/**
 * A whole drift run from a resolved configuration, as a short sequence of stages, each handed only what it needs:
 *
 *   check the configuration and split it into each stage's part (`run-settings.ts`) → read the state file →
 *   preflight (`preflight.ts`: the chain, the oracle or attested oracle, the gate, the keys) → open the state run →
 *   scan the scope (`scan.ts` or `scan-all.ts`, both `runScan` in `pipeline.ts`) → with a state file, compare the
 *   night's problems with the previous night's (`since-last-night.ts`) → report (`stages/report.ts`)
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
import { isZeroAddress } from "../inputs/address.js";
import type { ConfigurationError, InvalidArgumentError } from "../errors.js";
import { type AuditPlan, randomAuditSeed } from "./audit.js";
import type { AgentScope, DriftConfig } from "./config.js";
import { describeRule } from "./decision.js";
import { DEFAULT_ERROR_LIMIT, type ErrorLimit, evaluateErrorLimit } from "./error-limit.js";
import { onchainEnumerationNote, planOnchainEnumeration } from "./onchain-enumeration.js";
import type { DriftScanOptions, ScanResult } from "./pipeline.js";
import { type Preflight, preflight } from "./preflight.js";
import type { ScanProgress } from "./progress.js";
import { projectFetches, ratePerMinuteOf } from "./projection.js";
import { readerModeNote } from "./reader-mode-note.js";
import { createEndpointBreakers, describeStoppedEndpoint, type EndpointBreakers, endpointStoppedRun } from "./endpoint-breakers.js";
import { sortRows, tallyRows } from "./report.js";
import { scanAgents } from "./scan.js";
import { scanAllAgents } from "./scan-all.js";
import type { OnchainEventSource } from "./stages/enumerate.js";
import { newServiceStats, type ServiceStats } from "./stages/fetch-verify.js";
import { reportScanHead } from "./stages/report.js";
import { type ReportSettings, type RunSettings, runSettingsOf, type StateSettings } from "./run-settings.js";
import { readStateFileForRun, type StateFileRead } from "./state/salvage.js";
import { type DriftNightOutcome, type DriftStateRun, openDriftStateRun } from "./state-run.js";
import { classifySinceLastNight, createProblemCollector, type ProblemCollector } from "./since-last-night.js";
import type { AttestedOracleSource, DriftReport, DriftReportHead, DriftRow, FetchProjection, PartialRun, SinceLastNight } from "./types.js";
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
 *
 * @example
 * ```ts
 * import { parseAgentRefList } from "trustgate";
 * import { DEFAULT_MAX_AGE_SECONDS, exitCodeOf, runDrift } from "trustgate/drift";
 *
 * const report = await runDrift({
 *   rpcUrl: process.env.BASE_RPC_URL ?? "http://127.0.0.1:8545",
 *   oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
 *   apiUrl: "https://rnwy.com",
 *   issuer: "https://rnwy.com",
 *   jwks: "https://rnwy.com/.well-known/jwks.json",
 *   scope: { kind: "list", agents: parseAgentRefList("base:16907, base:1380") },
 *   maxAgeSeconds: DEFAULT_MAX_AGE_SECONDS,
 *   concurrency: 4,
 *   encoding: { tiers: ["flagged", "limited", "developing", "established"], sybilSeverities: ["none", "low", "moderate", "elevated", "heavy"] },
 * }, { onRow: (row) => console.log(row.chain, row.agentId, row.status) });
 * console.log(report.summary.byStatus, report.summary.flips);
 * process.exitCode = exitCodeOf(report); // 0, 3 (drift) or 4 (could not verify enough)
 * ```
 */
export function runDrift(config: DriftConfig, hooks?: DriftHooks & { readonly keepRows?: true }): Promise<DriftReport>;
export function runDrift(config: DriftConfig, hooks: DriftHooks & { readonly keepRows: false }): Promise<DriftReportHead>;
export function runDrift(config: DriftConfig, hooks?: DriftHooks): Promise<DriftReport | DriftReportHead>;
export async function runDrift(config: DriftConfig, hooks: DriftHooks = {}): Promise<DriftReport | DriftReportHead> {
  const settings = runSettingsOf(config);
  // A malformed state file is refused before anything is asked of the chain or the service.
  // (With --full, a file that cannot be read is started over instead, keeping its history when the header is readable.)
  const stateFile = settings.state === undefined ? undefined : readStateFileForRun(settings.state.path, settings.state.full);
  const now = hooks.now ?? (() => new Date());
  const startedAt = now();
  const started = performance.now();
  // After this many network failures in a row, the service or the RPC is taken for dead: the run stops asking it.
  const breakers = createEndpointBreakers({
    maxNetworkFailures: settings.maxNetworkFailures,
    resumable: settings.state !== undefined,
    now,
  });
  const checked = await preflight({ ...settings.preflight, rpcFetch: breakers.rpcFetch });
  const api = createTrustApiClient({ ...settings.service, fetch: breakers.apiFetch });
  const stateRun = settings.state === undefined ? undefined : openStateRun(settings.state, checked, stateFile!, now);
  // An abort (the command line's Ctrl-C) is recorded at once, before the process may exit: the next run's note then
  // says the run was interrupted, not killed.
  hooks.signal?.addEventListener("abort", () => stateRun?.interrupted(), { once: true });
  const stats = newServiceStats();
  const projector = fetchProjector(api, settings.projection, hooks.onProjection);
  const keepRows = hooks.keepRows ?? true;
  const { issuer, ...scan } = settings.scan;
  let scanOptions: DriftScanOptions = {
    ...scan,
    chain: checked.chain,
    api,
    attestations: { issuer, jwks: checked.jwks, now, stats, ...(config.acceptedKids ? { acceptedKids: config.acceptedKids } : {}) },
    rule: checked.rule,
    blockNumber: checked.blockNumber,
    readerMode: checked.reader.mode,
    now,
    onProgress: hooks.onProgress,
    checkpoint: stateRun?.checkpoint,
    stopReason: firstStopReason(breakers.stopReason, maxDurationStop(settings.maxDurationSeconds, stateRun !== undefined, now, startedAt)),
    signal: hooks.signal,
    onFetchesPlanned: projector.onFetchesPlanned,
    onRow: hooks.onRow,
    keepRows,
  };
  const nights = stateRun ? nightComparison(stateRun, settings.sinceLastNight, now) : undefined;
  if (nights) {
    const onRow = hooks.onRow;
    scanOptions = { ...scanOptions, onRow: (row) => (nights.collector.add(row), onRow?.(row)) };
  }
  const { result, sinceLastNight } = await scanScope(settings.scope, scanOptions, {
    audit: settings.audit,
    stateRun,
    attested: checked.attested,
    blockNumber: checked.blockNumber,
    errorLimit: settings.errorLimit,
    nights,
    breakers,
  });
  const report = reportRun(result, {
    settings: settings.report,
    errorLimit: settings.errorLimit,
    maxDurationSeconds: settings.maxDurationSeconds,
    breakers,
    checked,
    stateRun,
    projection: projector.projection(),
    runtime: { totalMs: performance.now() - started, service: stats },
    generatedAt: now(),
    sinceLastNight: sinceLastNight ?? null,
  });
  return keepRows ? { ...report, agents: sortRows(result.rows) } : report;
}

/** Opens the run's use of its state file, for the setup it was written for (refused for another unless `full`). */
function openStateRun(
  settings: StateSettings,
  checked: Pick<Preflight, "chainId" | "rule">,
  read: StateFileRead,
  now: () => Date,
): DriftStateRun {
  return openDriftStateRun({
    path: settings.path,
    loaded: read.loaded,
    recovered: read.recovered,
    scope: { ...settings.setup, chainId: checked.chainId, rule: describeRule(checked.rule) },
    full: settings.full,
    seed: settings.seed,
    now,
  });
}

/**
 * The projection of the signed fetches' cost, made when triage has chosen them. The rate in force is read then: the
 * limiter may follow what the service announced since the run started.
 */
function fetchProjector(
  api: TrustApiClient,
  settings: RunSettings["projection"],
  onProjection: DriftHooks["onProjection"],
): { readonly onFetchesPlanned: (signedFetches: number) => void; readonly projection: () => FetchProjection | undefined } {
  let projection: FetchProjection | undefined;
  return {
    onFetchesPlanned: (signedFetches) => {
      projection = projectFetches({
        signedFetches,
        ratePerMinute: ratePerMinuteOf(api.transport.rateLimiter),
        apiKey: settings.apiKey,
        rateConfigured: settings.rateConfigured,
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

/** The first reason to stop of those given (a breaker's before the time limit's). */
function firstStopReason(...reasons: readonly ((() => string | null) | undefined)[]): () => string | null {
  return () => {
    for (const reason of reasons) {
      const text = reason?.();
      if (text) return text;
    }
    return null;
  };
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
  /** With a state file: the comparison with the previous night. */
  readonly nights: NightComparison | undefined;
  /** The endpoints' breakers: a scan during which one opened is partial, even when it had nothing left to fetch. */
  readonly breakers: EndpointBreakers;
}

/** A run's comparison with the previous night: the rows' problems gathered, then classified when the scan ends. */
interface NightComparison {
  readonly collector: ProblemCollector;
  /** Classifies what the collector gathered. */
  classify(): ReturnType<typeof classifySinceLastNight>;
}

/** Prepares the comparison of tonight's problems with the previous night the state records. */
function nightComparison(stateRun: DriftStateRun, settings: RunSettings["sinceLastNight"], now: () => Date): NightComparison {
  const previous = stateRun.previousNight;
  const collector = createProblemCollector(previous?.problems ?? []);
  return {
    collector,
    classify: () =>
      classifySinceLastNight({
        previous: previous?.problems ?? null,
        previousNight: previous?.startedAt ?? null,
        tonight: collector,
        startedAt: stateRun.startedAt,
        now: now(),
        baseline: settings.baseline,
        failOn: settings.failOn,
      }),
  };
}

/** What a scan found, as the state's history records it: counts, flips, signed fetches and the exit code. */
function nightOutcome(
  result: ScanResult,
  errorLimit: ErrorLimit | undefined,
  sinceLastNight: SinceLastNight | undefined,
): DriftNightOutcome {
  const tally = result.tally ?? tallyRows(result.rows);
  const summary = {
    byStatus: tally.byStatus,
    flips: tally.flips,
    unverified: evaluateErrorLimit(tally.byStatus, tally.agents, errorLimit ?? DEFAULT_ERROR_LIMIT),
    ...(result.partial ? { partial: result.partial } : {}),
  };
  return {
    exitCode: exitCodeOf({ summary, sinceLastNight }),
    statuses: { ...tally.byStatus },
    flips: { ...tally.flips },
    signedFetches: result.triage?.signedFetches ?? 0,
  };
}

/**
 * Scans the scope: the explicit list, or every listed agent (with the events of the oracles read replayed, the
 * audit's seed and the state's evidence), with the state run's journal begun before and closed after.
 */
async function scanScope(
  scope: AgentScope,
  options: DriftScanOptions,
  run: ScopeRun,
): Promise<{ readonly result: ScanResult; readonly sinceLastNight: SinceLastNight | undefined }> {
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
  // An endpoint that stopped answering after the last fetch started (the RPC, while the records were read) still makes
  // the run partial: its rows are errors, and the state's journal stays for the next run to continue.
  const stopped = run.breakers.stopReason();
  if (stopped !== null && !result.partial) result = { ...result, partial: { reason: stopped, notFetched: 0 } };
  const compared = run.nights?.classify();
  const stateSummary = stateRun?.finish(
    result,
    blockNumber,
    nightOutcome(result, run.errorLimit, compared?.sinceLastNight),
    compared?.next,
  );
  return {
    result: result.triage && stateSummary ? { ...result, triage: { ...result.triage, state: stateSummary } } : result,
    sinceLastNight: compared?.sinceLastNight,
  };
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
  readonly settings: ReportSettings;
  readonly errorLimit: ErrorLimit | undefined;
  readonly maxDurationSeconds: number | undefined;
  readonly breakers: EndpointBreakers;
  readonly checked: Pick<Preflight, "chainId" | "blockNumber" | "reader" | "attested" | "rule">;
  readonly stateRun: DriftStateRun | undefined;
  readonly projection: FetchProjection | undefined;
  readonly runtime: { readonly totalMs: number; readonly service: ServiceStats };
  readonly generatedAt: Date;
  /** What changed since the previous night; `null` without a state file. */
  readonly sinceLastNight: SinceLastNight | null;
}

/** The report's head: where the records came from, the rule, the notes, the runtime and whether the run was partial. */
function reportRun(result: ScanResult, facts: RunFacts): DriftReportHead {
  const { settings, checked, stateRun } = facts;
  const open = facts.breakers.trip();
  const partial: PartialRun | undefined = !result.partial
    ? undefined
    : open
      ? endpointStoppedRun(open, result.partial.notFetched, stateRun !== undefined)
      : {
          reason: "max-duration",
          maxDurationSeconds: facts.maxDurationSeconds!,
          notFetched: result.partial.notFetched,
          resumable: stateRun !== undefined,
        };
  return reportScanHead(result, {
    source: {
      rpc: settings.rpc,
      oracle: settings.oracle,
      api: settings.api,
      issuer: settings.issuer,
      chainId: checked.chainId,
      blockNumber: checked.blockNumber.toString(),
      readerMode: checked.reader.mode,
      ...(checked.attested ? { attestedOracle: checked.attested } : {}),
    },
    decisionRule: describeRule(checked.rule),
    maxAgeSeconds: settings.maxAgeSeconds,
    encoding: settings.encoding,
    notes: [
      readerModeNote(checked.reader, checked.chainId),
      upstreamMismatchNote(checked.attested, settings.oracle),
      onchainEnumerationNote(result.triage),
      ...(stateRun?.notes ?? []),
      partialNote(partial),
    ].filter((note): note is string => note !== null),
    projection: facts.projection,
    ...(stateRun ? { state: { history: stateRun.history() } } : {}),
    sinceLastNight: facts.sinceLastNight,
    runtime: facts.runtime,
    generatedAt: facts.generatedAt,
    errorLimit: facts.errorLimit,
    partial,
  });
}

/** The note of a partial run. */
function partialNote(partial: PartialRun | undefined): string | null {
  if (!partial) return null;
  const next = partial.resumable
    ? "its progress is in the state file: run it again with the same --state to continue"
    : "without --state it cannot be continued";
  if (partial.stopped) {
    return `PARTIAL: ${describeStoppedEndpoint(partial.stopped)}; the run stopped asking it, with ${partial.notFetched} selected signed attestations not fetched (error rows); ${next}`;
  }
  return (
    `PARTIAL: the run stopped at its --max-duration (${partial.maxDurationSeconds}s) with ${partial.notFetched} selected signed ` +
    `attestations not fetched (error rows); ${partial.resumable ? "its progress is in the state file: run it again with the same --state to continue" : "without --state it cannot be continued"}`
  );
}

/** The warning of a report whose attested oracle does not fall back on the oracle given; `null` when it does. */
function upstreamMismatchNote(attested: AttestedOracleSource | undefined, oracle: Address): string | null {
  if (!attested || attested.upstreamIsOracle) return null;
  const what = isZeroAddress(attested.upstream)
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
  const upstream = isZeroAddress(attested.upstream) ? [] : [{ oracle: attested.upstream as Address, role: "upstream" as const }];
  return [{ oracle: attested.address as Address, role: "attested-oracle" }, ...upstream];
}
