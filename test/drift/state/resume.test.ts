// A run killed at any point (or stopped at --max-duration) and started again with the same --state continues where it
// was: it fetches only what it had not verified, and produces the same report as a run that was never interrupted.
// "The same report": the rows and the summary equal (`sameReportParts`); the clock is fixed, so times are equal too.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TRUST_ENCODING } from "../../../src/config/encodings";
import type { DriftConfig } from "../../../src/drift/config";
import { exitCodeOf } from "../../../src/drift/verdict";
import { runDrift } from "../../../src/drift/run";
import { readDriftState } from "../../../src/drift/state/read";
import type { DriftReport } from "../../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../../src/harness/devnet/embedded-drift";
import { spawnDrift, waitForOutcomes } from "../../support/drift-process";
import { sameReportParts, signedRequests } from "./support";

const T = new Date(Math.floor(Date.now() / 1000) * 1000);

let env: EmbeddedDriftEnvironment;
let dir: string;
let files = 0;
/** Signed fetches a first run selects here: the same whatever the seed (the audit's size does not depend on it). */
let selected: number;
beforeAll(async () => {
  env = await startEmbeddedDriftEnvironment({ size: 400, seed: 9, now: T, faults: false, delisted: 2, service: { now: () => T } });
  dir = mkdtempSync(join(tmpdir(), "drift-resume-"));
  selected = (await runDrift(config(undefined, 1), { now: () => T })).summary.triage!.signedFetches;
});
afterAll(async () => env?.close());

const freshFile = () => join(dir, `state-${++files}.jsonl`);

function config(state: string | undefined, seed?: number, extra: Partial<DriftConfig> = {}): DriftConfig {
  return {
    rpcUrl: env.rpcUrl,
    oracle: env.oracle,
    apiUrl: env.apiUrl,
    issuer: env.issuer,
    jwks: env.jwksUrl,
    scope: { kind: "all", eventsFromBlock: 0n, auditConfidence: 0.9, auditLieRate: 0.05, ...(seed !== undefined ? { seed } : {}) },
    maxAgeSeconds: 36 * 3600,
    concurrency: 3,
    ratePerMinute: 1_000_000,
    encoding: DEFAULT_TRUST_ENCODING,
    ...(state !== undefined ? { state } : {}),
    ...extra,
  };
}

/** The journal's answers so far (what a continued run may reuse). */
const journaled = (file: string) => readDriftState(file)!.journal.outcomes.size;

/** A run that is never interrupted, with the seed the interrupted one drew, on a fresh state file. */
async function uninterrupted(seed: number): Promise<{ report: DriftReport; requests: number; entries: unknown }> {
  const file = freshFile();
  const before = signedRequests(env.service);
  const report = await runDrift(config(file, seed), { now: () => T });
  return { report, requests: signedRequests(env.service) - before, entries: [...readDriftState(file)!.entries.values()] };
}

/** Runs with the state file and aborts (as a kill would) once `after` answers arrived; resolves when it rejected. */
async function killAfter(file: string, after: number): Promise<void> {
  const controller = new AbortController();
  if (after === 0) controller.abort(new Error("killed"));
  const running = runDrift(config(file), {
    now: () => T,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.stage === "attestations" && p.done >= after) controller.abort(new Error("killed"));
    },
  });
  await expect(running).rejects.toThrow("killed");
}

describe("a run killed at any point and started again", () => {
  it.each([
    ["before any fetch", [0]],
    ["after the first answer", [1]],
    ["halfway", [0.5]],
    ["before the last answer", [-1]],
    ["twice: after a third, then after another third", [1 / 3, 1 / 3]],
  ] as const)("%s: continues without fetching again what it verified, and reports the same", async (_name, points) => {
    const file = freshFile();
    let answered = 0;
    for (const point of points) {
      // Points are counts of answers this run gets before the kill (a fraction: of the run's selection).
      const after = point === -1 ? selected - answered - 1 : point < 1 && point > 0 ? Math.floor(point * selected) : point;
      await killAfter(file, after);
      const state = readDriftState(file)!;
      expect(state.journal.runs.length).toBeGreaterThan(0);
      expect(state.entries.size).toBe(0); // not folded in: the runs did not complete
      // The answers that arrived before the kill are in the journal (those in flight then are lost, as in a kill).
      expect(state.journal.outcomes.size).toBe(answered + after);
      answered = state.journal.outcomes.size;
    }
    const reusable = journaled(file);
    const seed = readDriftState(file)!.journal.runs[0]!.seed;
    const before = signedRequests(env.service);
    const resumed = await runDrift(config(file), { now: () => T });
    const requests = signedRequests(env.service) - before;

    const reference = await uninterrupted(seed);
    expect(resumed.summary.triage!.seed).toBe(seed);
    expect(resumed.runtime!.resumedOutcomes ?? 0).toBe(reusable);
    expect(requests).toBe(reference.requests - reusable);
    expect(reference.requests).toBe(reference.report.summary.triage!.signedFetches);
    expect(sameReportParts(resumed)).toEqual(sameReportParts(reference.report));
    expect([...readDriftState(file)!.entries.values()]).toEqual(reference.entries);
    if (reusable > 0) expect(resumed.notes!.some((n) => n.startsWith("Continued the run started"))).toBe(true);
  });

  it("(the scenario selects enough signed fetches for those points to differ)", () => {
    expect(selected).toBeGreaterThan(60);
  });
});

describe("--max-duration", () => {
  it("stops starting fetches, reports a partial run (exit 4) with its progress kept, and the next run completes it", async () => {
    const file = freshFile();
    let late = false;
    const partial = await runDrift(config(file, undefined, { maxDurationSeconds: 3600 }), {
      now: () => (late ? new Date(T.getTime() + 2 * 3600_000) : T),
      onProgress: (p) => {
        if (p.stage === "attestations" && p.done >= 10) late = true; // the hour passes after 10 answers
      },
    });
    const p = partial.summary.partial!;
    expect(p).toMatchObject({ reason: "max-duration", maxDurationSeconds: 3600, resumable: true });
    expect(p.notFetched).toBeGreaterThan(20);
    expect(exitCodeOf(partial)).toBe(4);
    const notFetched = partial.agents.filter(
      (r) => r.status === "error" && r.reason?.startsWith("not fetched: the run stopped at its --max-duration"),
    );
    expect(notFetched).toHaveLength(p.notFetched);
    expect(partial.notes!.some((n) => n.startsWith("PARTIAL:"))).toBe(true);
    const state = readDriftState(file)!;
    expect(state.journal.stops).toHaveLength(1);
    expect(state.journal.outcomes.size).toBe(partial.summary.triage!.signedFetches - p.notFetched);

    const reusable = journaled(file);
    const before = signedRequests(env.service);
    const completed = await runDrift(config(file), { now: () => T });
    const requests = signedRequests(env.service) - before;
    const reference = await uninterrupted(state.journal.runs[0]!.seed);
    expect(completed.summary.partial).toBeUndefined();
    expect(requests).toBe(reference.requests - reusable);
    expect(sameReportParts(completed)).toEqual(sameReportParts(reference.report));
  });

  it("without --state, a partial run says it cannot be continued", async () => {
    const report = await runDrift(config(undefined, 3, { maxDurationSeconds: 0 }), { now: () => T });
    expect(report.summary.partial).toMatchObject({ resumable: false, notFetched: report.summary.triage!.signedFetches });
    expect(exitCodeOf(report)).toBe(4);
  });
});

describe("a real trustgate process killed with SIGKILL mid-run", () => {
  it("is continued by the next run, which reports the same as a run never interrupted", async () => {
    const file = freshFile();
    env.service.injectFault({ kind: "slow", path: "/api/trust-check", delayMs: 150 }); // slow enough to kill mid-run
    const child = spawnDrift([
      ...["--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle, "--all", "--events-from", "0"],
      ...["--audit-confidence", "0.9", "--audit-lie-rate", "0.05", "--concurrency", "1", "--rate", "1000000"],
      ...["--state", file, "--quiet"],
    ]);
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on("exit", (_code, signal) => done(signal)));
    try {
      await waitForOutcomes(file, 8, child, () => "the process did not get far enough to be killed");
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
    } finally {
      env.service.clearFaults();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    const state = readDriftState(file)!;
    const reusable = state.journal.outcomes.size;
    expect(reusable).toBeGreaterThanOrEqual(8);
    expect(state.entries.size).toBe(0);

    const before = signedRequests(env.service);
    const resumed = await runDrift(config(file), { now: () => T });
    const requests = signedRequests(env.service) - before;
    const reference = await uninterrupted(state.journal.runs[0]!.seed);
    expect(resumed.runtime!.resumedOutcomes).toBe(reusable);
    expect(requests).toBe(reference.requests - reusable);
    // The killed process ran on the system clock: when it started (its answers' verifiedAt in the state) differs.
    const omit = (s: Record<string, unknown>) => {
      const triage = s.triage as { state?: { oldestAttestation?: { verifiedAt?: string } } };
      delete triage.state?.oldestAttestation?.verifiedAt;
    };
    expect(sameReportParts(resumed, omit)).toEqual(sameReportParts(reference.report, omit));
  });
});
