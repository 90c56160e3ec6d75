/**
 * The scan: one pipeline of named stages, the same for both scopes —
 *
 *   enumerate → read on-chain → triage → fetch and verify → compare
 *
 * (and then `stages/report.ts` turns the result into the report). With an attested oracle, the records are read
 * from it, and before comparing, its keys and chain slugs are read for the refresh assessment (`stages/refresh.ts`). An explicit list and an `--all` scan differ
 * only in how they enumerate and in whether triage selects a subset ({@link ScanPlan}). Each stage is a
 * function of its own file under `stages/`, with typed inputs and outputs; a failure on one agent is a row,
 * never a throw.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { agentKey } from "../agent/agent-ref.js";
import type { TrustApiClient } from "../api/client.js";
import type { TrustEncoding } from "../config/encodings.js";
import type { AnyClient } from "../oracle/client.js";
import type { OracleReaderMode } from "../oracle/reader-mode.js";
import type { TrustRecordResult } from "../oracle/records.js";
import type { AuditPlan } from "./audit.js";
import type { DecisionRule } from "./decision.js";
import type { ScanProgress, ScanStage } from "./progress.js";
import type { ServiceOutcome } from "./service-data.js";
import { createRowTally, type RowTally } from "./report.js";
import { compareEach } from "./stages/compare.js";
import type { Candidate, Enumeration } from "./stages/enumerate.js";
import { type AttestationPolicy, fetchSelected } from "./stages/fetch-verify.js";
import { readOnchain } from "./stages/read-onchain.js";
import { readAttestedOracleFacts } from "./stages/refresh.js";
import { selectAll, summarizeTriage, type TriageEvidence, type TriageSelection, triageCandidates } from "./stages/triage.js";
import { inputFingerprint } from "./state/codec.js";
import type { DriftRow, TriageSummary } from "./types.js";

/** Everything a scan needs, whatever its scope. */
export interface DriftScanOptions {
  /** Client of the chain that hosts the oracle. */
  readonly chain: AnyClient;
  /** The oracle (the Base oracle, or the reference oracle on a local chain). */
  readonly oracle: Address;
  /**
   * An `AttestedTrustOracle` to read the records from instead of `oracle` (it answers the fresher of its own record
   * and its upstream's); its keys and chain slugs are then checked when assessing whether a verified attestation
   * could refresh a record (`row.refresh`). Absent: records are read from `oracle`, and kids are `unchecked`.
   */
  readonly attestedOracle?: Address;
  readonly api: TrustApiClient;
  readonly attestations: AttestationPolicy;
  readonly rule: DecisionRule;
  readonly maxAgeSeconds: number;
  readonly encoding: TrustEncoding;
  /** Service requests in flight at most. */
  readonly concurrency: number;
  /** Records per oracle `eth_call`; default the reader's (see `DriftConfig.readChunkSize`). */
  readonly readChunkSize?: number | undefined;
  /** Block to read the oracle at; default the latest. */
  readonly blockNumber?: bigint;
  /** How to read the oracle (`runDrift` detects it once before the scan); default: the reader probes the chain. */
  readonly readerMode?: OracleReaderMode;
  /** Clock; default the system clock. */
  readonly now?: () => Date;
  readonly onProgress?: (progress: ScanProgress) => void;
  /** Where each signed attestation's answer is checkpointed, and answers of an interrupted run are found again. */
  readonly checkpoint?: ScanCheckpoint;
  /**
   * Asked before each signed fetch: a reason to start no more (requests in flight finish), or `null`. The selected
   * agents left unfetched become `error` rows saying why, and the result is `partial`.
   */
  readonly stopReason?: () => string | null;
  /** Abandons the scan: no more fetches start, and `runScan` rejects with the signal's reason once those in flight end. */
  readonly signal?: AbortSignal;
  /**
   * Called once triage has chosen the signed fetches, before the first is sent, with the number still to fetch
   * (`runDrift` projects their cost from it).
   */
  readonly onFetchesPlanned?: (signedFetches: number) => void;
  /**
   * Receives each row as the compare stage produces it (candidates in enumeration order, then the agents that could
   * not be scanned; the report sorts them later).
   */
  readonly onRow?: (row: DriftRow) => void;
  /**
   * Whether the result keeps the rows (default true). False: `rows` is empty and only `tally` counts them, so that a
   * caller streaming them through `onRow` does not hold them all.
   */
  readonly keepRows?: boolean;
}

/** The state file's part in a scan: what earlier runs verified. */
export interface ScanStateSource {
  /** What earlier runs verified about an agent, by key; `undefined` when nothing (or the state is ignored). */
  readonly evidence: (key: string) => TriageEvidence | undefined;
  /** The last verified attestation of an agent as a `verified` outcome (with `fromState`), if the state holds one. */
  readonly attestation: (key: string) => ServiceOutcome | undefined;
}

/** Checkpoints of the fetch stage (the state file's journal). */
export interface ScanCheckpoint {
  /**
   * The answer an interrupted run got for the agent on the same inputs (see `inputFingerprint`), to reuse instead of
   * fetching again; `undefined` when there is none.
   */
  readonly resumed: (key: string, fingerprint: string) => ServiceOutcome | undefined;
  /** Records a fetched answer as it arrives. */
  readonly record: (key: string, fingerprint: string, outcome: ServiceOutcome) => void;
}

/** What a scan's scope decides: how agents are enumerated, and whether triage selects a subset. */
export interface ScanPlan {
  /** Stage 1 for this scope. */
  readonly enumerate: () => Promise<Enumeration>;
  /**
   * `all`: every candidate gets a signed attestation (an explicit list). Otherwise triage selects, with this
   * audit sample, and the report carries a triage summary.
   */
  readonly triage:
    | "all"
    | {
        /** How the audit sample is sized; default 99 % confidence of catching a listing that lies about 1 %. */
        readonly audit?: AuditPlan;
        readonly seed: number;
        /** What earlier runs verified (`--state`); absent: triage as a first run. */
        readonly state?: ScanStateSource;
      };
}

/** What a scan produced. */
export interface ScanResult {
  /** The rows (candidates in enumeration order, then agents that could not be scanned); empty with `keepRows: false`. */
  readonly rows: DriftRow[];
  /** The tally of every row (kept or not), for the report's summary; absent: the report counts `rows`. */
  readonly tally?: RowTally;
  /** The oracle reads, for the encoding check. */
  readonly records: TrustRecordResult[];
  /** Time spent per stage, milliseconds. */
  readonly timings: Record<ScanStage, number>;
  /** What triage did, when it selected a subset. */
  readonly triage?: TriageSummary;
  /** The candidates and what the service said about each (for the state file). */
  readonly scanned?: {
    readonly candidates: readonly Candidate[];
    /** By candidate index: fetched, resumed or from the state; a hole where the listing's data stood in. */
    readonly outcomes: readonly (ServiceOutcome | undefined)[];
    /** Indexes whose outcome this run fetched (or took from the journal of the run it continues). */
    readonly fetched: ReadonlySet<number>;
  };
  /** Present when the scan stopped before fetching everything selected: why, and how many it did not fetch. */
  readonly partial?: { readonly reason: string; readonly notFetched: number };
  /** Answers reused from the journal of an interrupted run. */
  readonly resumedOutcomes?: number;
}

/**
 * Runs the pipeline.
 *
 * @param plan - The scope's enumeration and triage mode.
 * @param options - Chain, oracle, API, verification, rule and limits.
 * @returns Rows (candidates in enumeration order, then agents that could not be scanned), oracle reads,
 *   timings and, when triage selected, its summary.
 */
export async function runScan(plan: ScanPlan, options: DriftScanOptions): Promise<ScanResult> {
  const now = options.now ?? (() => new Date());
  const timings: Record<ScanStage, number> = { onchain: 0, listing: 0, attestations: 0 };

  // 1. enumerate
  let started = performance.now();
  const enumeration = await plan.enumerate();
  const { candidates } = enumeration;
  timings.listing = performance.now() - started;

  // 2. read on-chain
  started = performance.now();
  options.onProgress?.({ stage: "onchain", done: 0, total: candidates.length });
  const records = await readOnchain(
    candidates.map((c) => c.agent),
    { ...options, oracle: options.attestedOracle ?? options.oracle },
  );
  timings.onchain = performance.now() - started;
  options.onProgress?.({ stage: "onchain", done: candidates.length, total: candidates.length });

  // 3. triage
  const state = plan.triage === "all" ? undefined : plan.triage.state;
  const selection: TriageSelection =
    plan.triage === "all"
      ? selectAll(candidates)
      : triageCandidates(candidates, records, {
          rule: options.rule,
          maxAgeSeconds: options.maxAgeSeconds,
          now: now(),
          encoding: options.encoding,
          audit: plan.triage.audit,
          seed: plan.triage.seed,
          evidence: state?.evidence,
        });

  // 4. fetch and verify (answers of an interrupted run on the same inputs are reused; each new one is checkpointed)
  started = performance.now();
  const fetch = await fetchStage(candidates, records, selection, state, options);
  timings.attestations = performance.now() - started;
  const { outcomes } = fetch;

  // 5. compare (with an attested oracle, first what it holds under the kids and chain slugs seen, for `refresh`)
  const attestedOracle = options.attestedOracle
    ? await readAttestedOracleFacts(options.chain, options.attestedOracle, {
        ...refreshSubjects(candidates, outcomes),
        jwks: options.attestations.jwks,
        blockNumber: options.blockNumber,
      })
    : undefined;
  const context = {
    rule: options.rule,
    maxAgeSeconds: options.maxAgeSeconds,
    now: now(),
    encoding: options.encoding,
    ...(attestedOracle ? { attestedOracle } : {}),
  };
  const { rows, tally } = collectRows(compareEach(candidates, records, outcomes, enumeration.unscannable, context), options);

  const triage = plan.triage === "all" ? undefined : summarizeTriage(enumeration, selection, outcomes, { encoding: options.encoding });
  return {
    rows,
    tally,
    records,
    timings,
    ...(triage ? { triage } : {}),
    scanned: { candidates, outcomes, fetched: fetch.fetched },
    ...(fetch.partial ? { partial: fetch.partial } : {}),
    resumedOutcomes: fetch.resumed,
  };
}

/** Tallies the rows, hands each to `onRow`, and keeps them unless `keepRows` is false. */
function collectRows(
  produced: Iterable<DriftRow>,
  options: Pick<DriftScanOptions, "onRow" | "keepRows">,
): { readonly rows: DriftRow[]; readonly tally: RowTally } {
  const rows: DriftRow[] = [];
  const tally = createRowTally();
  const keep = options.keepRows ?? true;
  for (const row of produced) {
    tally.add(row);
    options.onRow?.(row);
    if (keep) rows.push(row);
  }
  return { rows, tally };
}

/**
 * Stage 4 with the state: the state's attestations for the agents triage left to it, the journal's answers for
 * selected agents whose inputs did not change since an interrupted run asked, and a fetch for the others — each
 * checkpointed as it arrives, none started once `stopReason` gives a reason or `signal` aborts. Only these outcomes
 * are held (a sparse array): every other candidate's is the listing's, made when it is compared.
 */
async function fetchStage(
  candidates: readonly Candidate[],
  records: readonly TrustRecordResult[],
  selection: TriageSelection,
  state: ScanStateSource | undefined,
  options: DriftScanOptions,
): Promise<{
  outcomes: (ServiceOutcome | undefined)[];
  fetched: Set<number>;
  partial?: { reason: string; notFetched: number };
  resumed: number;
}> {
  const { checkpoint, signal } = options;
  const keys = new Map<number, string>();
  const keyOf = (i: number) => {
    let key = keys.get(i);
    if (key === undefined) keys.set(i, (key = agentKey(candidates[i]!.agent)));
    return key;
  };
  const fingerprints = new Map<number, string>();
  const fetched = new Set<number>();
  const reused = new Map<number, ServiceOutcome>();
  const toFetch: number[] = [];
  for (const i of selection.fetch) {
    if (checkpoint) {
      const fingerprint = inputFingerprint(candidates[i]!.listed, records[i]!);
      fingerprints.set(i, fingerprint);
      const resumed = checkpoint.resumed(keyOf(i), fingerprint);
      if (resumed) {
        reused.set(i, resumed);
        fetched.add(i);
        continue;
      }
    }
    toFetch.push(i);
  }
  options.onFetchesPlanned?.(toFetch.length);
  let stopped: string | null = null;
  const outcomes = await fetchSelected(
    candidates,
    { ...selection, fetch: toFetch },
    {
      ...options,
      shouldStart: () => {
        if (signal?.aborted) return false;
        stopped ??= options.stopReason?.() ?? null;
        return stopped === null;
      },
      onOutcome: (i, outcome) => {
        fetched.add(i);
        if (checkpoint && !signal?.aborted) checkpoint.record(keyOf(i), fingerprints.get(i)!, outcome);
      },
    },
  );
  if (signal?.aborted) throw signal.reason ?? new Error("The scan was aborted");
  for (const [i, outcome] of reused) outcomes[i] = outcome;
  for (const i of selection.fromState ?? []) {
    const outcome = state?.attestation(keyOf(i));
    if (outcome) outcomes[i] = outcome;
  }
  let notFetched = 0;
  if (stopped !== null) {
    for (const i of toFetch) {
      if (fetched.has(i)) continue;
      notFetched++;
      outcomes[i] = { kind: "error", notFetched: true, message: stopped };
    }
  }
  return { outcomes, fetched, ...(stopped !== null ? { partial: { reason: stopped, notFetched } } : {}), resumed: reused.size };
}

/**
 * The kids and chain slugs of the verified attestations (what the refresh assessment checks; a kid is read even when
 * its attestation cannot be submitted, so that the row's `keyStatus` is known).
 */
function refreshSubjects(
  candidates: readonly Candidate[],
  outcomes: readonly (ServiceOutcome | undefined)[],
): { readonly kids: Set<string>; readonly chains: Set<string> } {
  const kids = new Set<string>();
  const chains = new Set<string>();
  outcomes.forEach((outcome, i) => {
    if (outcome?.kind !== "verified") return;
    kids.add(outcome.kid);
    chains.add(candidates[i]!.agent.chain);
  });
  return { kids, chains };
}
