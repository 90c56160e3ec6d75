/**
 * The nightly `--all` drift job on a large population (default 150,000 agents) on the embedded default (local Base
 * chain over loopback HTTP, local signing service), two nights in one run, with a state file (`--state`):
 *
 * 1. the first night: a full scan with no state yet (the embedded default's day: 4 % of scores changed since the
 *    snapshot, 40 % of those across a boundary, 1 % of sybil severities, 30 new agents, one chain stale);
 * 2. a night passes: the oracle's nightly refresh publishes the service's data (every record of the chains still
 *    published, re-dated to the refresh), then the service's data moves on by `nightlyChange` (default 2 % of scores,
 *    0.5 % of sybil severities, 30 new agents);
 * 3. the second night, incremental: the same state file;
 * 4. the second night again from a copy of the state, killed halfway (in process, as a kill would: the answers in
 *    flight are lost) and started again, compared with the uninterrupted second night.
 *
 * Signed fetches are counted by the service itself (its `/api/trust-check` requests). Figures, not assertions.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import type { DriftConfig } from "../../src/drift/config";
import { type DriftHooks, runDrift } from "../../src/drift/run";
import type { DriftReport } from "../../src/drift/types";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot";

/** Options of {@link measureDriftNights}. */
export interface DriftNightsOptions {
  /** Agents in the population (default 150,000). */
  readonly size?: number;
  /** Service requests in flight (default 16). */
  readonly concurrency?: number;
  /** Requests per minute the projection assumes (default 300, the keyed limit). */
  readonly projectedRatePerMinute?: number;
  /** How the service's data moves on between the two nights (default 2 % of scores, 0.5 % of sybil severities, 30 new). */
  readonly nightlyChange?: { readonly changedFraction: number; readonly sybilChangedFraction: number; readonly newAgents: number };
}

/** One run's figures. */
export interface NightFigures {
  readonly report: DriftReport;
  /** Signed fetches the service answered during the run. */
  readonly signedFetches: number;
  readonly wallMs: number;
  /** Requests the same run would send to the real service: listing pages + signed fetches + the JWKS. */
  readonly requests: number;
  /** Minutes those take at `projectedRatePerMinute`. */
  readonly projectedMinutes: number;
}

/** Figures of the two nights. */
export interface DriftNightsResult {
  readonly size: number;
  readonly projectedRatePerMinute: number;
  /** Environment and snapshot on-chain (not part of a scan). */
  readonly setupMs: number;
  readonly first: NightFigures;
  /** The oracle's nightly refresh between the nights: records published, and how long it took. */
  readonly refresh: { readonly records: number; readonly ms: number };
  /** How the service's data moved on between the nights. */
  readonly change: { readonly changed: number; readonly added: number; readonly options: NonNullable<DriftNightsOptions["nightlyChange"]> };
  readonly second: NightFigures;
  /** The second night killed halfway and started again. */
  readonly resume: {
    /** Answers that arrived before the kill (checkpointed). */
    readonly answeredBeforeKill: number;
    /** Signed fetches the killed run made (its checkpointed answers and those in flight, lost). */
    readonly fetchedBeforeKill: number;
    /** Signed fetches the continued run made. */
    readonly fetchedOnResume: number;
    /** Answers the continued run reused from the journal. */
    readonly reused: number;
    /** Whether the continued run's rows and summary equal the uninterrupted second night's. */
    readonly sameReport: boolean;
    readonly wallMs: number;
  };
}

const DEFAULT_NIGHTLY_CHANGE = { changedFraction: 0.02, sybilChangedFraction: 0.005, newAgents: 30 } as const;

/**
 * Runs the two nights.
 *
 * @param options - Size, concurrency, projection rate, nightly change.
 * @returns The figures.
 */
export async function measureDriftNights(options: DriftNightsOptions = {}): Promise<DriftNightsResult> {
  const size = options.size ?? 150_000;
  const projectedRatePerMinute = options.projectedRatePerMinute ?? 300;
  const nightlyChange = options.nightlyChange ?? DEFAULT_NIGHTLY_CHANGE;
  const night1 = new Date(Math.floor(Date.now() / 1000) * 1000);
  const night2 = new Date(night1.getTime() + 22 * 3600_000);
  const refreshAt = new Date(night2.getTime() - 2 * 3600_000);
  let clock = night1;
  const dir = mkdtempSync(join(tmpdir(), "bench-drift-"));

  const setupStarted = performance.now();
  const env = await startEmbeddedDriftEnvironment({
    size,
    now: night1,
    snapshotAt: new Date(night1.getTime() - 2 * 3600_000),
    faults: false,
    rateLimit: false,
    service: { now: () => clock },
  });
  const setupMs = performance.now() - setupStarted;
  const signed = () => env.service.stats().byPath["/api/trust-check"] ?? 0;
  const config = (state: string, seed?: number): DriftConfig => ({
    rpcUrl: env.rpcUrl,
    oracle: env.oracle,
    apiUrl: env.apiUrl,
    issuer: env.issuer,
    jwks: env.jwksUrl,
    scope: { kind: "all", eventsFromBlock: 0n, ...(seed !== undefined ? { seed } : {}) },
    maxAgeSeconds: 36 * 3600,
    concurrency: options.concurrency ?? 16,
    ratePerMinute: 1_000_000,
    encoding: DEFAULT_TRUST_ENCODING,
    state,
  });
  const night = async (cfg: DriftConfig, hooks: Omit<DriftHooks, "keepRows"> = {}): Promise<NightFigures> => {
    const before = signed();
    const started = performance.now();
    const report = await runDrift(cfg, { now: () => clock, ...hooks });
    const signedFetches = signed() - before;
    const listingPages = Math.ceil((report.summary.triage?.listed ?? 0) / 1000);
    const requests = listingPages + signedFetches + 1;
    return { report, signedFetches, wallMs: performance.now() - started, requests, projectedMinutes: requests / projectedRatePerMinute };
  };
  try {
    const state = join(dir, "state.jsonl");
    const first = await night(config(state));

    // A night passes: the nightly refresh publishes the service's data (the stale chain's publishing has stopped),
    // then the service's data moves on.
    clock = night2;
    await env.simulation.setTime(refreshAt);
    const staleChain = env.expectations.staleChain;
    const published = env.served.agents.filter((a) => a.chain !== staleChain).map((a) => ({ ...a, updatedAt: refreshAt }));
    const refreshStarted = performance.now();
    await env.simulation.publish(snapshotRecords(published));
    const refresh = { records: published.length, ms: performance.now() - refreshStarted };
    await env.simulation.setTime(night2);
    const moved = env.served.advance({ seed: 2, crossingFraction: 0.4, ...nightlyChange, at: night2 });
    env.service.setPopulation(moved);
    const change = { changed: moved.changes.changedKeys.length, added: moved.changes.addedKeys.length, options: nightlyChange };

    // The second night, from a copy of the state (the kill-and-resume run starts from another copy).
    const killedCopy = join(dir, "killed.jsonl");
    copyFileSync(state, killedCopy);
    const second = await night(config(state));
    const seed = second.report.summary.triage!.seed!;

    const half = Math.floor(second.report.summary.triage!.signedFetches / 2);
    const controller = new AbortController();
    const resumeStarted = performance.now();
    const beforeKill = signed();
    let answeredBeforeKill = 0;
    try {
      await runDrift(config(killedCopy, seed), {
        now: () => clock,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.stage === "attestations" && p.done >= half && !controller.signal.aborted) {
            answeredBeforeKill = p.done;
            controller.abort(new Error("killed halfway"));
          }
        },
      });
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    const fetchedBeforeKill = signed() - beforeKill;
    const resumed = await night(config(killedCopy));
    const comparable = (r: DriftReport) => {
      const summary = structuredClone(r.summary);
      if (summary.triage?.state) delete (summary.triage.state as { file?: string }).file;
      return JSON.stringify({ summary, agents: r.agents, generatedAt: r.generatedAt });
    };
    return {
      size,
      projectedRatePerMinute,
      setupMs,
      first,
      refresh,
      change,
      second,
      resume: {
        answeredBeforeKill,
        fetchedBeforeKill,
        fetchedOnResume: resumed.signedFetches,
        reused: resumed.report.runtime?.resumedOutcomes ?? 0,
        sameReport: comparable(resumed.report) === comparable(second.report),
        wallMs: performance.now() - resumeStarted,
      },
    };
  } finally {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
