/**
 * The `--all` drift scan: the pipeline ({@link runScan}) with the service's listing (and, when asked, the
 * oracle's events) as its enumeration, and triage choosing which signed attestations to fetch.
 *
 * @packageDocumentation
 */
import type { AuditPlan } from "./audit.js";
import { type DriftScanOptions, runScan, type ScanResult, type ScanStateSource } from "./pipeline.js";
import { enumerateListing, type OnchainEventSource } from "./stages/enumerate.js";
import type { TriageSummary } from "./types.js";

/** Options of {@link scanAllAgents} besides the common scan options. */
export interface ScanAllOptions extends DriftScanOptions {
  /** Restrict the listing to one chain (slug). */
  readonly chainFilter?: string;
  /** How the audit sample is sized; default 99 % confidence of catching a listing that lies about 1 %. */
  readonly audit?: AuditPlan;
  /** Seed of the audit sample. */
  readonly seed: number;
  /** What earlier runs verified (the state file); absent: triage as a first run. */
  readonly state?: ScanStateSource;
  /**
   * The oracles whose events to replay to find records the listing lacks, each from its own block or skipped with a
   * reason recorded in the triage summary (with an attested oracle: its own and its upstream's); absent: none.
   */
  readonly eventSources?: readonly OnchainEventSource[];
}

/** Result of {@link scanAllAgents}. */
export interface ScanAllResult extends ScanResult {
  readonly triage: TriageSummary;
}

/**
 * Scans every agent the service lists (and, optionally, every record the oracle's events announce).
 *
 * @param options - Chain, oracle, API, verification, rule, limits and triage settings.
 * @returns Rows, oracle reads, timings and the triage summary.
 */
export async function scanAllAgents(options: ScanAllOptions): Promise<ScanAllResult> {
  const result = await runScan(
    {
      enumerate: () =>
        enumerateListing({
          api: options.api,
          chain: options.chain,
          oracle: options.attestedOracle ?? options.oracle,
          eventSources: options.eventSources,
          chainFilter: options.chainFilter,
          blockNumber: options.blockNumber,
          onProgress: options.onProgress,
        }),
      triage: { audit: options.audit, seed: options.seed, state: options.state },
    },
    options,
  );
  return { ...result, triage: result.triage! };
}
