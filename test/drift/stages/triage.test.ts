import { describe, expect, it } from "vitest";
import { auditSampleSize, detectionProbability } from "../../../src/drift/audit";
import type { DecisionRule } from "../../../src/drift/decision";
import type { Candidate, Enumeration } from "../../../src/drift/stages/enumerate";
import {
  selectAll,
  summarizeTriage,
  triageAgent,
  type TriageEvidence,
  triageCandidates,
  triageReason,
} from "../../../src/drift/stages/triage";
import { agent, ENCODING, HOUR, listed, NOW, NOW_S, noRecord, readFailure, record, verified } from "./fixtures";

const options = {
  rule: { kind: "threshold", threshold: 51 } as DecisionRule,
  maxAgeSeconds: 36 * HOUR,
  now: NOW,
  encoding: ENCODING,
  seed: 1,
};
const gate: DecisionRule = {
  kind: "gate",
  gate: "0xGate",
  policy: { minScore: 51, maxSybilSeverity: 1, maxAge: 24 * HOUR, requireController: false },
};

describe("triage rules, one agent at a time (a first run: no state)", () => {
  it("fetches where the listing and the chain disagree, or the chain has nothing fresh", () => {
    expect(triageReason(listed(60), record(61), options)).toBe("mismatch");
    expect(triageReason(listed(60, "low"), record(60), options)).toBe("mismatch");
    expect(triageReason({ ...listed(60), tier: "limited" }, record(60), options)).toBe("mismatch");
    expect(triageReason(listed(60), noRecord, options)).toBe("missing-onchain");
    expect(triageReason(listed(60), record(60, { ageSeconds: 40 * HOUR }), options)).toBe("stale-onchain");
    expect(triageReason(listed(60), record(60, { ageSeconds: -HOUR }), options)).toBe("stale-onchain");
    expect(triageReason(null, record(60), options)).toBe("not-listed");
    expect(triageReason({ score: 60 }, record(60), options)).toBe("incomplete-listing");
  });

  it("finds the decision edges: near the threshold, or at the edge of a gate's policy", () => {
    expect(triageReason(listed(53), record(53), options)).toBe("near-threshold");
    expect(triageReason(listed(54), record(54), options)).toBeNull();
    expect(triageReason(listed(80, "low"), record(80, { sybilCode: 1 }), { ...options, rule: gate })).toBe("policy-edge");
    expect(triageReason(listed(80), record(80, { ageSeconds: 23 * HOUR }), { ...options, rule: gate })).toBe("policy-edge");
    expect(triageReason(listed(80), record(80, { ageSeconds: 2 * HOUR }), { ...options, rule: gate })).toBeNull();
  });

  it("a record past the staleness limit: fetched unless it holds what the listing states, at no edge", () => {
    const old = { ageSeconds: 40 * HOUR };
    // The status comes from the chain; the listing says the old record still holds the service's data: no fetch
    // (an oracle left unwritten for months would otherwise have every agent fetched), and the audit may pick it.
    expect(triageAgent(listed(60), record(60, old), options)).toEqual({
      fetch: null,
      fromState: false,
      auditable: true,
      avoided: { reason: "stale-onchain", by: "chain" },
    });
    // The listing disagrees with the old record, or lacks a field: fetched, as stale.
    expect(triageAgent(listed(61), record(60, old), options)).toEqual({ fetch: "stale-onchain" });
    expect(triageAgent(listed(60, "low"), record(60, old), options)).toEqual({ fetch: "stale-onchain" });
    expect(triageAgent({ score: 60 }, record(60, old), options)).toEqual({ fetch: "stale-onchain" });
    // At a decision edge the edge's fetch stands (a stale record cannot hold the listing's newer computation).
    expect(triageAgent(listed(52), record(52, old), options)).toEqual({ fetch: "near-threshold" });
    expect(triageAgent(listed(80, "low"), record(80, { ...old, sybilCode: 1 }), { ...options, rule: gate })).toEqual({
      fetch: "policy-edge",
    });
    // Past the limit, the gate's age edge no longer applies: the record is already too old.
    expect(triageAgent(listed(80), record(80, old), { ...options, rule: gate })).toMatchObject({ fetch: null });
    // A record dated in the future is never taken on the listing's word.
    expect(triageAgent(listed(60), record(60, { ageSeconds: -HOUR }), options)).toEqual({ fetch: "stale-onchain" });
  });

  it("at an edge, fetches unless the on-chain record holds the computation the listing states", () => {
    const written = new Date((NOW_S - 9 * HOUR) * 1000); // the record's updatedAt (record() writes 9 h ago)
    // The listing states the record's own computation: the chain is the evidence, the fetch is avoided.
    expect(triageAgent({ ...listed(52), at: written }, record(52), options)).toEqual({
      fetch: null,
      fromState: false,
      auditable: true,
      avoided: { reason: "near-threshold", by: "chain" },
    });
    // A computation newer than the record, or no time at all: only a signed attestation can tell.
    expect(triageAgent({ ...listed(52), at: new Date(written.getTime() + 1000) }, record(52), options)).toEqual({
      fetch: "near-threshold",
    });
    expect(triageAgent(listed(52), record(52), options)).toEqual({ fetch: "near-threshold" });
    // Away from an edge the listing suffices; a failed read is an error row, never fetched nor audited.
    expect(triageAgent(listed(80), record(80), options)).toEqual({ fetch: null, fromState: false, auditable: true });
    expect(triageAgent(listed(80), readFailure, options)).toEqual({ fetch: null, fromState: false, auditable: false });
  });
});

describe("triage with the state: fetch only where something could have changed", () => {
  const computed = new Date((NOW_S - 20 * HOUR) * 1000);
  const seen = { score: 52, tier: 2, sybilSeverity: 0 };
  const evidence = (over: Partial<TriageEvidence> = {}): TriageEvidence => ({
    verified: { score: 52, tier: "developing", sybilSeverity: null, computedAt: computed },
    onchain: seen,
    ...over,
  });
  const at = (date: Date) => ({ ...listed(52), at: date });

  it("each reason to fetch again", () => {
    expect(triageAgent(at(computed), record(52), options, evidence({ verified: null }))).toEqual({ fetch: "unverified-before" });
    expect(triageAgent({ ...listed(53), at: computed }, record(52), options, evidence())).toEqual({ fetch: "listing-changed" });
    expect(triageAgent(at(computed), record(60), options, evidence())).toEqual({ fetch: "onchain-changed" });
    // Near the threshold with a newer computation than the one verified (and than the record's): fetched again.
    const later = new Date((NOW_S - HOUR) * 1000);
    expect(triageAgent(at(later), record(52), options, evidence())).toEqual({ fetch: "near-threshold" });
    // Not listed, incomplete listing: the state cannot stand in for the service.
    expect(triageAgent(null, record(52), options, evidence())).toEqual({ fetch: "not-listed" });
    expect(triageAgent({ score: 52 }, record(52), options, evidence())).toEqual({ fetch: "incomplete-listing" });
  });

  it("avoids the fetches a first run would make when the listing and the chain agree with what was verified", () => {
    // Near the threshold, the verified attestation current (computed no earlier than the listing says): no fetch.
    expect(triageAgent(at(computed), record(52), options, evidence())).toEqual({
      fetch: null,
      fromState: true,
      auditable: true,
      avoided: { reason: "near-threshold", by: "state" },
    });
    // A drifted record that did not change since, the listing still what was verified: the drift is known, signed.
    expect(
      triageAgent({ ...listed(60), at: computed }, record(52), options, evidence({ verified: { ...listed(60), computedAt: computed } })),
    ).toMatchObject({ fetch: null, fromState: true, avoided: { reason: "mismatch", by: "state" } });
    // A record that changed to exactly what was verified (the nightly refresh carried it): nothing new.
    const old = { score: 40, tier: 1, sybilSeverity: 0 };
    expect(
      triageAgent({ ...listed(60), at: computed }, record(60), options, {
        ...evidence({ verified: { ...listed(60), computedAt: computed } }),
        onchain: old,
      }),
    ).toEqual({ fetch: null, fromState: true, auditable: true });
    // Stale and missing records that did not change: avoided too.
    expect(triageAgent(at(computed), record(52, { ageSeconds: 40 * HOUR }), options, evidence())).toMatchObject({
      fetch: null,
      avoided: { reason: "stale-onchain", by: "state" },
    });
    expect(triageAgent(at(computed), noRecord, options, evidence({ onchain: null }))).toMatchObject({
      fetch: null,
      avoided: { reason: "missing-onchain", by: "state" },
    });
    // A record read before that is now gone is a change.
    expect(triageAgent(at(computed), noRecord, options, evidence())).toEqual({ fetch: "onchain-changed" });
  });

  it("counts per reason what it fetched and what it avoided, and hands the state's attestations to the rows", () => {
    const candidates: Candidate[] = [1, 2, 3, 4].map((id) => ({
      agent: agent(id),
      listed: { ...listed(id === 3 ? 53 : 52), at: computed },
    }));
    const records = [1, 2, 3, 4].map(() => record(52, { ageSeconds: 30 * HOUR })); // written before the computation
    // 300 more agents the listing stands in for, so that the audit (a small sample: it is sized to catch a listing
    // lying about half of them) need not pick agent 1.
    const others = Array.from({ length: 300 }, (_, i) => ({ agent: agent(i + 101), listed: listed(80) }));
    const byKey = new Map([
      ["base:erc8004:1", evidence()],
      ["base:erc8004:3", evidence()],
    ]);
    const selection = triageCandidates([...candidates, ...others], [...records, ...others.map(() => record(80))], {
      ...options,
      audit: { confidence: 0.9, lieRate: 0.5 },
      evidence: (key) => byKey.get(key),
    });
    // 1: state covers it; 2: no state, the listing not the record's computation → near-threshold; 3: listing changed;
    // 4: no state → near-threshold.
    expect(selection.audit).toMatchObject({ eligible: 301, sampleSize: 4 });
    expect(selection.fetch.filter((i) => i < 4)).toEqual([1, 2, 3]);
    expect(selection.reasons).toEqual({ "near-threshold": 2, "listing-changed": 1, audit: 4 });
    expect(selection.avoided).toEqual({ "near-threshold": 1 });
    expect(selection.avoidedBy).toEqual({ state: 1, chain: 0 });
    expect(selection.fromState).toEqual([0]);
  });
});

describe("the audit sample", () => {
  it("is sized by confidence: the smallest sample that holds a lie with the asked probability (hypergeometric)", () => {
    // Binomial bound ⌈ln(0.01)/ln(0.99)⌉ = 459; without replacement from a finite population a little fewer.
    expect(auditSampleSize(1_000_000, { confidence: 0.99, lieRate: 0.01 })).toBe(459);
    const n = auditSampleSize(132_000, { confidence: 0.99, lieRate: 0.01 });
    expect(n).toBeLessThanOrEqual(459);
    expect(detectionProbability(132_000, 1320, n)).toBeGreaterThanOrEqual(0.99);
    expect(detectionProbability(132_000, 1320, n - 1)).toBeLessThan(0.99);
    // Small populations: 100 agents, 1 % lies = 1 liar: 99 % confidence needs 99 of them.
    expect(auditSampleSize(100, { confidence: 0.99, lieRate: 0.01 })).toBe(99);
    expect(auditSampleSize(0, { confidence: 0.99, lieRate: 0.01 })).toBe(0);
  });

  it("catches a listing that lies about the asked share of agents at the asked confidence, over 200 seeds", () => {
    // 3,000 agents whose listing agrees with the chain, away from any edge; 1 % of them lie (the signed data would
    // differ). Each seed is a night: the audit catches the listing when its sample holds a liar.
    const size = 3_000;
    const candidates: Candidate[] = Array.from({ length: size }, (_, i) => ({ agent: agent(i + 1), listed: listed(80) }));
    const records = candidates.map(() => record(80));
    const liars = new Set(Array.from({ length: size / 100 }, (_, i) => i * 100 + 37)); // spread, every 100th
    for (const [confidence, lieRate, tolerated] of [
      [0.99, 0.01, 8], // expected misses 2 of 200; P(≥ 9 misses) < 1e-4 when the sizing is right
      [0.9, 0.01, 32], // expected misses 20; P(≥ 33) < 0.003
    ] as const) {
      let caught = 0;
      for (let seed = 1; seed <= 200; seed++) {
        const selection = triageCandidates(candidates, records, {
          ...options,
          audit: { confidence, lieRate },
          seed,
        });
        expect(selection.reasons).toEqual({ audit: selection.audit!.sampleSize });
        if (selection.fetch.some((i) => liars.has(i))) caught++;
      }
      expect(200 - caught, `confidence ${confidence}`).toBeLessThanOrEqual(tolerated);
      // And not by oversampling: the sample is the computed size, far below the population.
      const one = triageCandidates(candidates, records, {
        ...options,
        audit: { confidence, lieRate },
        seed: 1,
      });
      expect(one.audit!.sampleSize).toBe(auditSampleSize(size, { confidence, lieRate }));
      expect(one.audit!.detectionProbability).toBeGreaterThanOrEqual(confidence);
    }
  });

  it("draws among the agents left after triage, and another seed draws another sample", () => {
    const candidates: Candidate[] = Array.from({ length: 5000 }, (_, i) => ({ agent: agent(i + 1), listed: listed(i % 2 ? 80 : 60) }));
    const records = candidates.map((_, i) => record(i % 10 === 0 ? 70 : i % 2 ? 80 : 60)); // every 10th a mismatch
    const audit = { confidence: 0.95, lieRate: 0.02 };
    const a = triageCandidates(candidates, records, { ...options, audit, seed: 5 });
    const b = triageCandidates(candidates, records, { ...options, audit, seed: 6 });
    expect(a.audit!.eligible).toBe(4500);
    expect(a.reasons.mismatch).toBe(500);
    const audited = (s: typeof a) => s.fetch.filter((i) => i % 10 !== 0);
    expect(audited(a)).toHaveLength(a.audit!.sampleSize);
    expect(audited(a)).not.toEqual(audited(b));
    expect(a.seed).toBe(5);
  });
});

describe("triage as a stage", () => {
  const candidates: Candidate[] = [
    { agent: agent(1), listed: listed(80) },
    { agent: agent(2), listed: listed(60) },
    { agent: agent(3), listed: null },
    { agent: agent(4), listed: listed(52) },
  ];
  const records = [record(80), record(61), record(70), record(52)];

  it("an explicit list selects every candidate, without reasons", () => {
    expect(selectAll(candidates)).toEqual({ fetch: [0, 1, 2, 3], reasons: {} });
  });

  it("a listing selects the subset that needs a signed attestation, and counts why", () => {
    // Agent 1, the one the listing stands in for, is the whole audit sample: catching a lie about it takes fetching it.
    expect(triageCandidates(candidates, records, options)).toMatchObject({
      fetch: [0, 1, 2, 3],
      reasons: { audit: 1, mismatch: 1, "not-listed": 1, "near-threshold": 1 },
    });
  });

  it("summarises what it did and counts attestations that contradict the listing", () => {
    const enumeration: Enumeration = {
      candidates,
      unscannable: [],
      listing: { listed: 3, onchainEnumeration: { fromBlock: "0", records: 1 } },
    };
    const selection = triageCandidates(candidates, records, options);
    const outcomes = [verified(80), verified(61), { kind: "missing", message: "x" } as const, verified(52)];
    expect(summarizeTriage(enumeration, selection, outcomes, { encoding: ENCODING })).toEqual({
      listed: 3,
      signedFetches: 4,
      fetchesSaved: 0,
      reasons: { audit: 1, mismatch: 1, "not-listed": 1, "near-threshold": 1 },
      avoided: {},
      avoidedBy: { state: 0, chain: 0 },
      auditFraction: 1,
      audit: { confidence: 0.99, lieRate: 0.01, eligible: 1, sampleSize: 1, liesAtLeast: 1, detectionProbability: 1 },
      seed: 1,
      listingContradictions: 1, // agent 2: listed 60, attested 61
      onchainEnumeration: { fromBlock: "0", records: 1 },
    });
  });
});
