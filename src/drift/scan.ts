/**
 * The drift scan of an explicit list of agents: read every on-chain record in bulk, ask the service about
 * every agent (with bounded concurrency, under the client's rate limit), verify, compare.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import type { TrustApiClient } from "../api/client.js";
import type { TrustEncoding } from "../config/encodings.js";
import { readTrustRecords, type AnyClient } from "../oracle/reader.js";
import type { OracleReaderMode } from "../oracle/reader-mode.js";
import type { TrustRecordResult } from "../oracle/records.js";
import { mapConcurrently } from "../util/concurrency.js";
import { compareAgent, errorRow, type CompareContext, type RowSubject, type ServiceOutcome } from "./compare.js";
import type { DecisionRule } from "./decision.js";
import { fetchServiceOutcome, type AttestationPolicy } from "./service-outcome.js";
import type { DriftRow } from "./types.js";

/** A stage of the scan, for progress display. */
export type ScanStage = "onchain" | "listing" | "attestations";

/** Progress: `done` of `total` in `stage`. */
export interface ScanProgress {
  readonly stage: ScanStage;
  readonly done: number;
  readonly total: number;
}

/** Everything a scan needs. */
export interface DriftScanOptions {
  /** Client of the chain that hosts the oracle. */
  readonly chain: AnyClient;
  readonly oracle: Address;
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
}

/** What a scan produced. */
export interface ScanResult {
  readonly rows: DriftRow[];
  /** The oracle reads, for the encoding check. */
  readonly records: TrustRecordResult[];
  /** Time spent per stage, milliseconds. */
  readonly timings: Record<ScanStage, number>;
}

/**
 * Reads the oracle records of `subjects` in bulk (Multicall3, or its fallbacks on a chain without it). Every
 * subject must have an EVM chain id.
 *
 * @param subjects - The agents.
 * @param options - Chain client, oracle, encoding, block, reader mode.
 * @returns One result per subject, in order; a failed read is a result with `ok: false`, never a throw.
 */
export async function readOnchain(
  subjects: readonly (RowSubject & { chainId: number })[],
  options: Pick<DriftScanOptions, "chain" | "oracle" | "encoding" | "blockNumber" | "readerMode">,
): Promise<TrustRecordResult[]> {
  if (subjects.length === 0) return [];
  return readTrustRecords(options.chain, {
    oracle: options.oracle,
    encoding: options.encoding,
    ...(options.blockNumber === undefined ? {} : { blockNumber: options.blockNumber }),
    ...(options.readerMode === undefined ? {} : { mode: options.readerMode }),
    keys: subjects.map((s) => ({ agentId: s.agentId, chainId: s.chainId, registry: s.registry })),
  });
}

/**
 * Scans an explicit list of agents.
 *
 * @param subjects - The agents.
 * @param options - Chain, oracle, API, verification, rule and limits.
 * @returns Rows (agents on EVM chains first, in input order), oracle reads and timings.
 */
export async function scanAgents(subjects: readonly RowSubject[], options: DriftScanOptions): Promise<ScanResult> {
  const now = options.now ?? (() => new Date());
  const timings: Record<ScanStage, number> = { onchain: 0, listing: 0, attestations: 0 };

  const evm = subjects.filter((s): s is RowSubject & { chainId: number } => s.chainId !== null);
  const offChain = subjects.filter((s) => s.chainId === null);

  let started = performance.now();
  options.onProgress?.({ stage: "onchain", done: 0, total: evm.length });
  const records = await readOnchain(evm, options);
  timings.onchain = performance.now() - started;
  options.onProgress?.({ stage: "onchain", done: evm.length, total: evm.length });

  started = performance.now();
  let done = 0;
  const outcomes = await mapConcurrently(evm, options.concurrency, async (subject): Promise<ServiceOutcome> => {
    const outcome = await fetchServiceOutcome(options.api, subject, options.attestations);
    options.onProgress?.({ stage: "attestations", done: ++done, total: evm.length });
    return outcome;
  });
  timings.attestations = performance.now() - started;

  const context: CompareContext = { rule: options.rule, maxAgeSeconds: options.maxAgeSeconds, now: now(), encoding: options.encoding };
  const rows = [
    ...evm.map((subject, i) => compareAgent(subject, records[i]!, outcomes[i]!, context)),
    ...offChain.map((subject) => errorRow(subject, `chain "${subject.chain}" is not an EVM chain: the oracle holds no records for it`)),
  ];
  return { rows, records, timings };
}
