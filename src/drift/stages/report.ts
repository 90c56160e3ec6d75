/**
 * Stage 6, report: a scan's rows, oracle reads and timings become the JSON report — rows sorted by severity
 * and summarised (from the scan's tally of every row, so a scan that streamed its rows and kept none still has its
 * summary), the tier and sybil encodings checked against the records read (and what the service stated about them), triage, the fetch projection and runtime attached
 * (`buildReportHead` in `../report.ts`, where the exit-code rule `exitCodeOf` also lives).
 *
 * @packageDocumentation
 */
import type { TrustEncoding } from "../../config/encodings.js";
import { checkEncodings, type SybilStatement } from "../encoding-check.js";
import type { ErrorLimit } from "../error-limit.js";
import type { ScanResult } from "../pipeline.js";
import { buildReportHead, sortRows, tallyRows } from "../report.js";
import type { DriftReport, DriftReportHead, DriftStateHistory, FetchProjection, PartialRun, SinceLastNight } from "../types.js";
import { listingOutcome, type ServiceStats } from "./fetch-verify.js";

/** What the report stage needs besides the scan. */
export interface ReportStageContext {
  readonly source: DriftReport["source"];
  /** The decision rule, described (`describeRule`). */
  readonly decisionRule: string;
  readonly maxAgeSeconds: number;
  /** The encoding the records were read under (checked against their scores). */
  readonly encoding: TrustEncoding;
  /** Notes on the run; left out of the report when empty. */
  readonly notes: readonly string[];
  /** Milliseconds the whole run took, and the service's counters. */
  readonly runtime: { readonly totalMs: number; readonly service: ServiceStats };
  /** The projected cost of the signed fetches, made before they started. */
  readonly projection?: FetchProjection;
  /** With a state file: its history of nights. */
  readonly state?: DriftStateHistory;
  /** What changed since the previous night; `null` without a state file. */
  readonly sinceLastNight?: SinceLastNight | null;
  readonly generatedAt: Date;
  /** How many agents may go unverified before the run fails (default 1 %). */
  readonly errorLimit?: ErrorLimit;
  /** Present when the run stopped before fetching everything it selected (`--max-duration`). */
  readonly partial?: PartialRun;
}

/**
 * Runs the stage.
 *
 * @param scan - What the pipeline produced.
 * @param context - Source, rule, encoding, notes, runtime, time and error limit.
 * @returns The report.
 * @throws `InvalidArgumentError` for an invalid `errorLimit`.
 */
export function reportScan(scan: ScanResult, context: ReportStageContext): DriftReport {
  return { ...reportScanHead(scan, context), agents: sortRows(scan.rows) };
}

/**
 * Runs the stage without the rows: the report's head, its summary from the scan's tally of every row (kept or
 * not). What `runDrift` returns when the rows were streamed and not kept.
 *
 * @param scan - What the pipeline produced.
 * @param context - Source, rule, encoding, notes, projection, runtime, time and error limit.
 * @returns The report without `agents`.
 * @throws `InvalidArgumentError` for an invalid `errorLimit`.
 */
export function reportScanHead(scan: ScanResult, context: ReportStageContext): DriftReportHead {
  return buildReportHead(scan.tally ?? tallyRows(scan.rows), {
    source: context.source,
    decisionRule: context.decisionRule,
    maxAgeSeconds: context.maxAgeSeconds,
    encoding: checkEncodings(scan.records, sybilStatements(scan), context.encoding),
    ...(scan.triage ? { triage: scan.triage } : {}),
    notes: context.notes,
    ...(context.projection ? { projection: context.projection } : {}),
    ...(context.state ? { state: context.state } : {}),
    ...(context.sinceLastNight !== undefined ? { sinceLastNight: context.sinceLastNight } : {}),
    runtime: {
      totalMs: context.runtime.totalMs,
      listingMs: scan.timings.listing,
      onchainMs: scan.timings.onchain,
      attestationsMs: scan.timings.attestations,
      requestMs: context.runtime.service.requestMs,
      verifyMs: context.runtime.service.verifyMs,
      serviceRequests: context.runtime.service.requests,
      ...(scan.resumedOutcomes ? { resumedOutcomes: scan.resumedOutcomes } : {}),
    },
    generatedAt: context.generatedAt,
    ...(context.errorLimit ? { errorLimit: context.errorLimit } : {}),
    ...(context.partial ? { partial: context.partial } : {}),
  });
}

/**
 * What the service stated about the agent of each record, by the records' index: the verified attestation, or the
 * listing where no signed answer was fetched (as the compare stage reads it); `undefined` where it stated nothing.
 */
function sybilStatements(scan: ScanResult): (SybilStatement | undefined)[] {
  if (!scan.scanned) return [];
  const { candidates, outcomes } = scan.scanned;
  return candidates.map((candidate, i): SybilStatement | undefined => {
    const outcome = outcomes[i] ?? listingOutcome(candidate.listed);
    if (outcome.kind === "verified") return { data: outcome.data, source: "attestation" };
    if (outcome.kind === "listed") return { data: outcome.data, source: "listing" };
    return undefined;
  });
}
