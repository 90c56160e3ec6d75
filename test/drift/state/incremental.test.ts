// The state file between nights (--state): a real Hardhat chain with the reference oracle over loopback HTTP and the
// local signing service; signed fetches are counted by the service itself (its requests to /api/trust-check).
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainIdOf } from "../../../src/config/chains";
import { DEFAULT_TRUST_ENCODING, sybilSeverityCode, tierCode, tierForScore } from "../../../src/config/encodings";
import type { DriftConfig } from "../../../src/drift/config";
import { exitCodeOf } from "../../../src/drift/verdict";
import { type DriftHooks, runDrift } from "../../../src/drift/run";
import { readDriftState } from "../../../src/drift/state/read";
import type { DriftStateEntry } from "../../../src/drift/state/schema";
import type { DriftReport, DriftRow } from "../../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../../src/harness/devnet/embedded-drift";
import { ConfigurationError } from "../../../src/errors";
import { signedRequests, withChanges } from "./support";

const HOUR = 3600_000;
const T1 = new Date(Math.floor(Date.now() / 1000) * 1000); // night 1
const T2 = new Date(T1.getTime() + HOUR); // night 2
let clock = T1;

let env: EmbeddedDriftEnvironment;
let dir: string;
beforeAll(async () => {
  env = await startEmbeddedDriftEnvironment({
    size: 600,
    seed: 5,
    now: T1,
    faults: false,
    delisted: 2,
    service: { now: () => clock },
  });
  dir = mkdtempSync(join(tmpdir(), "drift-state-"));
});
afterAll(async () => env?.close());

/** A run's configuration: the audit sized for 90 % confidence of catching 5 % lies (small, for a 600-agent test). */
function config(state: string | undefined, extra: Partial<DriftConfig> = {}, seed?: number): DriftConfig {
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

/** Runs and counts the signed fetches the service answered. */
async function run(cfg: DriftConfig, hooks: Omit<DriftHooks, "keepRows"> = {}): Promise<{ report: DriftReport; fetched: number }> {
  const before = signedRequests(env.service);
  const report = await runDrift(cfg, { now: () => clock, ...hooks });
  return { report, fetched: signedRequests(env.service) - before };
}

const keyOf = (row: Pick<DriftRow, "chain" | "registry" | "agentId">) => `${row.chain}:${row.registry}:${row.agentId}`;
const far = (score: number) => Math.abs(score - 51) > 6;

describe("the state between nights", () => {
  const state = () => join(dir, "nights.jsonl");
  let night1: DriftReport;
  let entries: Map<string, DriftStateEntry>;

  it("night 1 (no state yet): fetches as a first run, records every answer and the record seen", async () => {
    env.service.injectFault({ kind: "tampered-signature", path: "/api/trust-check", times: 1 });
    const { report, fetched } = await run(config(state()));
    night1 = report;
    const t = report.summary.triage!;
    expect(fetched).toBe(t.signedFetches);
    // At the threshold the chain's record is the evidence where the listing states its very computation: no fresh
    // record's agent is fetched for it (unchanged agents' listing is the snapshot the chain holds). A stale record cannot
    // hold the listing's newer computation: the stale chain's agents at the edge are the only near-threshold fetches.
    const staleAtEdge = report.agents.filter((r) => r.status === "stale-onchain" && Math.abs(r.onchain!.score - 51) <= 2);
    expect(t.reasons["near-threshold"]).toBeGreaterThan(0);
    expect(t.reasons["near-threshold"]).toBeLessThanOrEqual(staleAtEdge.length);
    expect(t.avoided!["near-threshold"]).toBeGreaterThan(20);
    // The stale chain's other agents, whose old record holds what the listing states, are left to the listing and the
    // audit: avoided, by the chain; those the listing contradicts are fetched, as stale.
    expect(t.avoided!["stale-onchain"]).toBeGreaterThan(10);
    expect(t.avoidedBy).toEqual({ state: 0, chain: t.avoided!["near-threshold"]! + t.avoided!["stale-onchain"]! });
    expect(t.reasons).toMatchObject({ "not-listed": 2, "missing-onchain": 30 });
    expect(t.audit).toMatchObject({ confidence: 0.9, lieRate: 0.05 });
    expect(t.audit!.detectionProbability).toBeGreaterThanOrEqual(0.9);
    expect(typeof t.seed).toBe("number");
    expect(report.summary.byStatus["invalid-attestation"]).toBe(1);

    const read = readDriftState(state())!;
    entries = read.entries;
    expect(read.journal.runs).toEqual([]); // folded in: the run completed
    expect(read.header).toMatchObject({ chainId: 8453, oracle: env.oracle, api: env.apiUrl, rule: "score >= 51" });
    expect(read.header.lastRun).toMatchObject({ seed: t.seed, startedAt: T1.toISOString() });
    expect(entries.size).toBe(t.signedFetches); // one per agent asked
    expect(t.state).toEqual({
      file: state(),
      entries: t.signedFetches,
      fromState: 0,
      full: false,
      oldestAttestation: expect.objectContaining({ verifiedAt: T1.toISOString() }),
    });
    const unverified = [...entries.values()].filter((e) => e.verified === null);
    expect(unverified.map((e) => e.unverified!.kind).sort()).toEqual(["invalid", "missing", "missing"]);
    for (const entry of entries.values()) {
      const row = report.agents.find((r) => keyOf(r) === entry.agent)!;
      if (row.onchain) expect(entry.onchain!.score).toBe(row.onchain.score);
      if (entry.verified) expect(entry.verified.score).toBe(row.attested!.score);
    }
  });

  it("night 2 fetches only where something could have changed, each reason appearing, and reports the same verdicts", async () => {
    const rowOf = (key: string) => night1.agents.find((r) => keyOf(r) === key)!;
    const verifiedRows = night1.agents.filter((r) => entries.get(keyOf(r))?.verified);
    const pick = (what: string, ok: (row: DriftRow, entry: DriftStateEntry) => boolean, taken: Set<string>) => {
      const row = verifiedRows.find((r) => !taken.has(keyOf(r)) && r.chain !== "polygon" && ok(r, entries.get(keyOf(r))!));
      if (!row) throw new Error(`no agent for ${what}`);
      taken.add(keyOf(row));
      return keyOf(row);
    };
    const taken = new Set<string>();
    const drifted = (r: DriftRow) => r.status === "drifted";
    const A = pick("listing-changed", (r, e) => drifted(r) && far(e.verified!.score) && e.verified!.score < 90, taken);
    const B = pick("onchain-changed", (r, e) => r.status === "in-sync" && far(e.verified!.score) && e.verified!.score < 90, taken);
    const D = pick("chain refreshed", (r, e) => drifted(r) && far(e.verified!.score), taken);
    const E = pick("edge, recomputed", (r, e) => drifted(r) && Math.abs(e.verified!.score - 51) <= 2, taken);
    const F = night1.agents.find(
      (r) => r.status === "in-sync" && !entries.has(keyOf(r)) && r.chain !== "polygon" && far(r.onchain!.score) && r.onchain!.score < 90,
    )!;
    const U = [...entries.values()].find((e) => e.unverified?.kind === "invalid")!.agent;

    // The service moves on: A and F rescored, E recomputed to the same data (a newer computation).
    clock = T2;
    const agentOf = (key: string) => env.served.agents.find((a) => `${a.chain}:${a.registry}:${a.agentId}` === key)!;
    env.service.setPopulation(
      withChanges(
        env.served,
        new Map([
          [A, { score: agentOf(A).score + 3, updatedAt: new Date(T2.getTime() - 600_000) }],
          [keyOf(F), { score: agentOf(keyOf(F)).score + 3, updatedAt: new Date(T2.getTime() - 600_000) }],
          [E, { updatedAt: new Date(T2.getTime() - 600_000) }],
        ]),
      ),
    );
    // The chain moves on: B's record changes (not to what was verified), D's and E's carry what was verified.
    await env.simulation.setTime(T2);
    const publish = (key: string, score: number, sybil: string | null, at: Date) => {
      const [chain, registry, id] = key.split(":");
      return {
        agentId: BigInt(id!),
        chainId: chainIdOf(chain!),
        registry: registry!,
        score,
        tier: tierCode(tierForScore(score)),
        sybilSeverity: sybilSeverityCode(sybil),
        updatedAt: at,
      };
    };
    const v = (key: string) => entries.get(key)!.verified!;
    await env.simulation.publish([
      publish(B, v(B).score + 2, v(B).sybilSeverity, new Date(T2.getTime() - 1_200_000)),
      publish(D, v(D).score, v(D).sybilSeverity, new Date(v(D).computedAt!)),
      publish(E, v(E).score, v(E).sybilSeverity, new Date(v(E).computedAt!)),
    ]);

    const { report, fetched } = await run(config(state()));
    const t = report.summary.triage!;
    expect(t.reasons).toEqual({
      "listing-changed": 1, // A
      "onchain-changed": 1, // B
      "near-threshold": 1, // E: at the edge, and the service computed it after the attestation verified
      "unverified-before": 1, // U: its attestation did not verify last night
      mismatch: 1, // F: no state, listing and chain disagree
      "not-listed": 2, // the delisted agents: only a fetch tells whether the service still knows them
      audit: t.audit!.sampleSize,
    });
    expect(fetched).toBe(t.signedFetches);
    expect(t.signedFetches).toBe(7 + t.audit!.sampleSize);
    // What the state stood in for: the drift, staleness and missing records it had verified.
    const staleRows = report.agents.filter((r) => r.status === "stale-onchain");
    // Compared with the unsigned listing: the old record holds what it states (never fetched, avoided by the chain).
    const onListing = staleRows.filter((r) => r.attested?.kid === null);
    const fromState = staleRows.filter((r) => r.attested?.fromState);
    const audited = staleRows.filter((r) => !r.attested?.fromState && r.attested?.kid !== null && keyOf(r) !== U).length; // fetched
    expect(onListing.length).toBeGreaterThan(10);
    expect(t.avoided!["stale-onchain"]).toBe(
      night1.summary.byStatus["stale-onchain"] - (rowOf(U).status === "stale-onchain" ? 1 : 0) - audited,
    );
    const missingRows = report.agents.filter((r) => r.status === "missing-onchain");
    expect(missingRows).toHaveLength(30);
    expect(t.avoided!["missing-onchain"]).toBe(missingRows.filter((r) => r.attested?.fromState).length);
    expect(t.avoided!["missing-onchain"]).toBeGreaterThan(15); // the rest picked by the audit
    expect(t.avoided!.mismatch).toBeGreaterThan(0);
    expect(t.avoidedBy!.state).toBeGreaterThan(fromState.length);
    expect(t.avoidedBy!.chain).toBeGreaterThanOrEqual(onListing.length);

    const row = (key: string) => report.agents.find((r) => keyOf(r) === key)!;
    // D's record now holds what was verified: in sync, on the state's attestation (or a fresh one, when audited).
    expect(row(D)).toMatchObject({ status: "in-sync", attested: { kid: "rnwy-trust-v2" } });
    const reused = report.agents.filter((r) => r.attested?.fromState);
    expect(reused.length).toBeGreaterThan(80);
    for (const r of reused) expect(r.attested!.fromState).toEqual({ verifiedAt: T1.toISOString() });
    expect(row(A)).toMatchObject({ status: "drifted", attested: { score: v(A).score + 3 } });
    expect(row(A).attested!.fromState).toBeUndefined();
    expect(row(B)).toMatchObject({ status: "drifted", onchain: { score: v(B).score + 2 }, attested: { score: v(B).score } });
    expect(row(E).attested!.fromState).toBeUndefined();
    expect(row(U).status).not.toBe("invalid-attestation"); // fetched again, and it verifies now
    expect(staleRows.length).toBeGreaterThan(10);
    expect(fromState.length + onListing.length).toBe(t.avoided!["stale-onchain"]);
    expect(audited).toBeLessThanOrEqual(t.audit!.sampleSize);
    expect(t.state!.oldestAttestation!.verifiedAt).toBe(T1.toISOString());
    expect(t.state!.fromState).toBe(report.agents.filter((r) => r.attested?.fromState).length);

    // The same data without the state (--full, on a copy): more fetches, the same verdict for every agent.
    const copy = join(dir, "full.jsonl");
    copyFileSync(state(), copy);
    const full = await run(config(copy, { full: true }));
    expect(full.report.summary.triage!.state!.full).toBe(true);
    const beyondAudit = (r: DriftReport) => r.summary.triage!.signedFetches - r.summary.triage!.audit!.sampleSize;
    expect(full.fetched).toBe(full.report.summary.triage!.signedFetches);
    expect(beyondAudit(report)).toBe(7);
    expect(beyondAudit(full.report)).toBeGreaterThan(50); // drift, stale records the listing contradicts, missing records: again
    const verdicts = (r: DriftReport) => r.agents.map((a) => `${keyOf(a)} ${a.status} ${a.decision.flipped} ${a.attested?.score}`).sort();
    expect(verdicts(report)).toEqual(verdicts(full.report));
    expect(report.summary.flips).toEqual(full.report.summary.flips);
  });

  it("refuses the state of another setup before scanning, and --full starts it over", async () => {
    const copy = join(dir, "other-rule.jsonl");
    copyFileSync(state(), copy);
    const before = signedRequests(env.service);
    const refused = runDrift(config(copy, { threshold: 60 }), { now: () => clock });
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(/was written for another setup: decision rule score >= 51 in the state, score >= 60 in this run/);
    expect(signedRequests(env.service)).toBe(before);
    const { report } = await run(config(copy, { threshold: 60, full: true }));
    expect(report.notes!.some((n) => n.startsWith("STATE STARTED OVER"))).toBe(true);
    expect(readDriftState(copy)!.header.rule).toBe("score >= 60");
  });

  it("a run whose every row is an error exits 4 (every on-chain read reverts: a contract that is not an oracle)", async () => {
    const { report } = await run(config(undefined, { oracle: env.identityRegistry }));
    expect(report.summary.agents).toBeGreaterThan(500);
    expect(report.summary.byStatus.error).toBe(report.summary.agents);
    expect(report.summary.triage!.signedFetches).toBe(0);
    expect(exitCodeOf(report)).toBe(4);
  });

  it("the state file is JSON Lines: a header, then one line per agent", () => {
    const lines = readFileSync(state(), "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "header", format: "trustgate-drift-state", version: 1 });
    expect(lines.slice(1).every((l) => JSON.parse(l).type === "agent")).toBe(true);
  });
});

describe("the state's history of nights", () => {
  const state = () => join(dir, "history.jsonl");
  const nightOf = (report: DriftReport) => ({
    exitCode: exitCodeOf(report),
    statuses: report.summary.byStatus,
    flips: report.summary.flips,
    signedFetches: report.summary.triage!.signedFetches,
  });

  it("after two nights holds both, oldest first, with each night's counts, and the report shows it", async () => {
    const first = await run(config(state()));
    expect(first.report.state?.history).toEqual([expect.objectContaining(nightOf(first.report))]);
    const second = await run(config(state()));
    expect(second.report.state?.history).toEqual([
      expect.objectContaining(nightOf(first.report)),
      expect.objectContaining(nightOf(second.report)),
    ]);
    expect(second.report.state!.history.map((n) => n.startedAt)).toEqual([clock.toISOString(), clock.toISOString()]);
    expect(readDriftState(state())!.header.history).toEqual(second.report.state!.history);
  });

  it("keeps the last 60 nights, and reads a state written without a history", async () => {
    const file = state();
    const [header, ...rest] = readFileSync(file, "utf8").split("\n");
    const parsed = JSON.parse(header!) as { history: unknown[] };
    const old = { ...(parsed.history[0] as object), startedAt: "2020-01-01T00:00:00.000Z" };
    writeFileSync(file, [JSON.stringify({ ...parsed, history: Array.from({ length: 60 }, () => old) }), ...rest].join("\n"));
    const full = await run(config(file));
    expect(full.report.state!.history).toHaveLength(60);
    expect(full.report.state!.history.at(-1)).toMatchObject(nightOf(full.report));

    const { history: _dropped, ...withoutHistory } = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { history: unknown[] };
    writeFileSync(file, [JSON.stringify(withoutHistory), ...readFileSync(file, "utf8").split("\n").slice(1)].join("\n"));
    const next = await run(config(file));
    expect(next.report.summary.triage!.state!.fromState).toBeGreaterThan(0);
    expect(next.report.state!.history).toEqual([expect.objectContaining(nightOf(next.report))]);
  });
});
