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
import type { TrustApiClient } from "../api/client.js";
import type { TrustEncoding } from "../config/encodings.js";
import type { AnyClient } from "../oracle/client.js";
import type { OracleReaderMode } from "../oracle/reader-mode.js";
import type { TrustRecordResult } from "../oracle/records.js";
import type { DecisionRule } from "./decision.js";
import type { ScanProgress, ScanStage } from "./progress.js";
import type { ServiceOutcome } from "./service-data.js";
import { createRowTally, type RowTally } from "./report.js";
import { compareEach } from "./stages/compare.js";
import type { Candidate, Enumeration } from "./stages/enumerate.js";
import { type AttestationPolicy, fetchSelected } from "./stages/fetch-verify.js";
import { readOnchain } from "./stages/read-onchain.js";
import { readAttestedOracleFacts } from "./stages/refresh.js";
import { selectAll, summarizeTriage, type TriageSelection, triageCandidates } from "./stages/triage.js";
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
  /** Block to read the oracle at; default the latest. */
  readonly blockNumber?: bigint;
  /** How to read the oracle (`runDrift` detects it once before the scan); default: the reader probes the chain. */
  readonly readerMode?: OracleReaderMode;
  /** Clock; default the system clock. */
  readonly now?: () => Date;
  readonly onProgress?: (progress: ScanProgress) => void;
  /**
   * Called once triage has chosen the signed fetches, before the first is sent, with their number (`runDrift`
   * projects their cost from it).
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

/** What a scan's scope decides: how agents are enumerated, and whether triage selects a subset. */
export interface ScanPlan {
  /** Stage 1 for this scope. */
  readonly enumerate: () => Promise<Enumeration>;
  /**
   * `all`: every candidate gets a signed attestation (an explicit list). Otherwise triage selects, with this
   * audit sample, and the report carries a triage summary.
   */
  readonly triage: "all" | { readonly auditFraction: number; readonly seed: number };
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
  const selection: TriageSelection =
    plan.triage === "all"
      ? selectAll(candidates)
      : triageCandidates(candidates, records, {
          rule: options.rule,
          maxAgeSeconds: options.maxAgeSeconds,
          now: now(),
          encoding: options.encoding,
          auditFraction: plan.triage.auditFraction,
          seed: plan.triage.seed,
        });

  // 4. fetch and verify
  options.onFetchesPlanned?.(selection.fetch.length);
  started = performance.now();
  // Only the fetched outcomes are held; the others are the listing's, made when compared.
  const outcomes = await fetchSelected(candidates, selection, options);
  timings.attestations = performance.now() - started;

  // 5. compare (with an attested oracle, first what it holds under the kids and chain slugs seen, for `refresh`)
  const attestedOracle = options.attestedOracle
    ? await readAttestedOracleFacts(options.chain, options.attestedOracle, {
        ...refreshSubjects(candidates, outcomes),
        jwks: options.attestations.jwks,
        ...(options.blockNumber === undefined ? {} : { blockNumber: options.blockNumber }),
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

  const triage =
    plan.triage === "all"
      ? undefined
      : // It reads the outcomes of the fetched candidates only, which are all there.
        summarizeTriage(enumeration, selection, outcomes as readonly ServiceOutcome[], {
          auditFraction: plan.triage.auditFraction,
          encoding: options.encoding,
        });
  return { rows, tally, records, timings, ...(triage ? { triage } : {}) };
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
