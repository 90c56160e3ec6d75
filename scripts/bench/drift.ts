/**
 * A full `--all` drift scan of a large population on the embedded default (local Base chain over loopback
 * HTTP, local signing service), with the wall time split into stages, the signed fetches triage avoided,
 * and the projected time of the same scan against the real service at its keyed limit (300 requests/min).
 * Figures, not assertions.
 */
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import { runDrift } from "../../src/drift/run";
import type { DriftReport } from "../../src/drift/types";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";

/** Options of {@link measureFullScan}. */
export interface FullScanOptions {
  /** Agents in the population (default 150,000). */
  readonly size?: number;
  /** Audit sample of triage (default 1 %). */
  readonly auditFraction?: number;
  /** Service requests in flight (default 16). */
  readonly concurrency?: number;
  /** Requests per minute the projection assumes (default 300, the keyed limit). */
  readonly projectedRatePerMinute?: number;
}

/** Figures of one full scan. */
export interface FullScanResult {
  readonly size: number;
  /** Time to start the environment and publish the snapshot on-chain (not part of a scan). */
  readonly setupMs: number;
  readonly report: DriftReport;
  /** Requests a real scan would send: listing pages + signed fetches + the JWKS. */
  readonly requests: number;
  /** Minutes the same scan would take at `projectedRatePerMinute`. */
  readonly projectedMinutes: number;
  readonly projectedRatePerMinute: number;
}

/**
 * Runs the scan.
 *
 * @param options - Size, audit fraction, concurrency, projection rate.
 * @returns The figures and the report.
 */
export async function measureFullScan(options: FullScanOptions = {}): Promise<FullScanResult> {
  const size = options.size ?? 150_000;
  const projectedRatePerMinute = options.projectedRatePerMinute ?? 300;
  const setupStarted = performance.now();
  const env = await startEmbeddedDriftEnvironment({ size, faults: false, rateLimit: false });
  const setupMs = performance.now() - setupStarted;
  try {
    const report = await runDrift({
      rpcUrl: env.rpcUrl,
      oracle: env.oracle,
      apiUrl: env.apiUrl,
      issuer: env.issuer,
      jwks: env.jwksUrl,
      scope: { kind: "all", auditFraction: options.auditFraction ?? 0.01, seed: 1, eventsFromBlock: 0n },
      maxAgeSeconds: 36 * 3600,
      concurrency: options.concurrency ?? 16,
      ratePerMinute: 1_000_000,
      encoding: DEFAULT_TRUST_ENCODING,
    });
    const listingPages = Math.ceil((report.summary.triage?.listed ?? 0) / 1000);
    const requests = listingPages + (report.summary.triage?.signedFetches ?? 0) + 1;
    return { size, setupMs, report, requests, projectedMinutes: requests / projectedRatePerMinute, projectedRatePerMinute };
  } finally {
    await env.close();
  }
}
