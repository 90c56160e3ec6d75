/**
 * Progress of a scan, as `runDrift` reports it to its caller (the command line draws a bar from it).
 *
 * @packageDocumentation
 */

/** A phase of the scan that reports progress: the listing (enumerate), the on-chain read, the attestations. */
export type ScanStage = "onchain" | "listing" | "attestations";

/** Progress: `done` of `total` in `stage`. */
export interface ScanProgress {
  readonly stage: ScanStage;
  readonly done: number;
  readonly total: number;
}
