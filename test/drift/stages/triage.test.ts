import { describe, expect, it } from "vitest";
import type { DecisionRule } from "../../../src/drift/decision";
import type { Candidate, Enumeration } from "../../../src/drift/stages/enumerate";
import { selectAll, summarizeTriage, triageCandidates, triageReason } from "../../../src/drift/stages/triage";
import { agent, ENCODING, HOUR, listed, NOW, noRecord, readFailure, record, verified } from "./fixtures";

const options = {
  rule: { kind: "threshold", threshold: 51 } as DecisionRule,
  maxAgeSeconds: 36 * HOUR,
  now: NOW,
  encoding: ENCODING,
  auditFraction: 0,
  seed: 1,
};
const gate: DecisionRule = {
  kind: "gate",
  gate: "0xGate",
  policy: { minScore: 51, maxSybilSeverity: 1, maxAge: 24 * HOUR, requireController: false },
};

describe("triage rules, one agent at a time", () => {
  it("fetches where the listing and the chain disagree, or the chain has nothing fresh", () => {
    expect(triageReason("k", listed(60), record(61), options)).toBe("mismatch");
    expect(triageReason("k", listed(60, "low"), record(60), options)).toBe("mismatch");
    expect(triageReason("k", { ...listed(60), tier: "limited" }, record(60), options)).toBe("mismatch");
    expect(triageReason("k", listed(60), noRecord, options)).toBe("missing-onchain");
    expect(triageReason("k", listed(60), record(60, { ageSeconds: 40 * HOUR }), options)).toBe("stale-onchain");
    expect(triageReason("k", listed(60), record(60, { ageSeconds: -HOUR }), options)).toBe("stale-onchain");
    expect(triageReason("k", null, record(60), options)).toBe("not-listed");
    expect(triageReason("k", { score: 60 }, record(60), options)).toBe("incomplete-listing");
  });

  it("fetches where a decision may turn: near the threshold, or at the edge of a gate's policy", () => {
    expect(triageReason("k", listed(53), record(53), options)).toBe("near-threshold");
    expect(triageReason("k", listed(54), record(54), options)).toBeNull();
    expect(triageReason("k", listed(80, "low"), record(80, { sybilCode: 1 }), { ...options, rule: gate })).toBe("policy-edge");
    expect(triageReason("k", listed(80), record(80, { ageSeconds: 23 * HOUR }), { ...options, rule: gate })).toBe("policy-edge");
    expect(triageReason("k", listed(80), record(80, { ageSeconds: 2 * HOUR }), { ...options, rule: gate })).toBeNull();
  });

  it("leaves a failed read alone (its row is an error whatever the service says) and audits at random", () => {
    expect(triageReason("k", listed(80), readFailure, options)).toBeNull();
    expect(triageReason("k", listed(80), record(80), { ...options, auditFraction: 1 })).toBe("audit");
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
    expect(triageCandidates(candidates, records, options)).toEqual({
      fetch: [1, 2, 3],
      reasons: { mismatch: 1, "not-listed": 1, "near-threshold": 1 },
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
    expect(summarizeTriage(enumeration, selection, outcomes, { auditFraction: 0.01, encoding: ENCODING })).toEqual({
      listed: 3,
      signedFetches: 3,
      fetchesSaved: 1,
      reasons: { mismatch: 1, "not-listed": 1, "near-threshold": 1 },
      auditFraction: 0.01,
      listingContradictions: 1, // agent 2: listed 60, attested 61
      onchainEnumeration: { fromBlock: "0", records: 1 },
    });
  });
});
