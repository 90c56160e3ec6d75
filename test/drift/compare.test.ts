import { describe, expect, it } from "vitest";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import { decide } from "../../src/drift/decision";
import { UNENCODED_CODE } from "../../src/drift/trust-data";
import { checkEncodings, checkTierEncoding } from "../../src/drift/encoding-check";
import { buildReport, countFlips, sortRows } from "../../src/drift/report";
import { exitCodeOf } from "../../src/drift/verdict";
import type { ServiceOutcome } from "../../src/drift/service-data";
import { type CompareContext, compareAgent } from "../../src/drift/stages/compare";
import { drawAuditSample } from "../../src/drift/audit";
import { triageCandidates, triageReason } from "../../src/drift/stages/triage";
import { OracleReadError } from "../../src/errors";
import type { TrustRecordResult } from "../../src/oracle/records";

const NOW = new Date("2026-11-22T12:00:00Z");
const NOW_S = NOW.getTime() / 1000;
const HOUR = 3600;
const subject = { chain: "base", chainId: 8453, agentId: 42n, registry: "erc8004" };
const context: CompareContext = {
  rule: { kind: "threshold", threshold: 51 },
  maxAgeSeconds: 36 * HOUR,
  now: NOW,
  encoding: DEFAULT_TRUST_ENCODING,
};

function onchain(score: number, ageSeconds = 9 * HOUR, tierCode?: number, sybilCode = 0): TrustRecordResult {
  const code = tierCode ?? (score >= 75 ? 3 : score >= 51 ? 2 : score >= 30 ? 1 : 0);
  const updatedAtSeconds = NOW_S - ageSeconds;
  return {
    ok: true,
    key: { agentId: 42n, chainId: 8453, registry: "erc8004" },
    oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
    blockNumber: 1n,
    hasScore: true,
    score,
    tier: code,
    sybilSeverity: sybilCode,
    updatedAt: updatedAtSeconds,
  };
}
const noRecord: TrustRecordResult = {
  ...(onchain(0) as object),
  hasScore: false,
  score: 0,
  tier: 0,
  sybilSeverity: 0,
  updatedAt: 0,
} as TrustRecordResult;
const readFailure: TrustRecordResult = {
  ok: false,
  key: { agentId: 42n, chainId: 8453, registry: "erc8004" },
  oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  blockNumber: 1n,
  error: new OracleReadError({ oracle: "0xD5", failure: "reverted", reason: "Boom()" }, "getScore reverted: Boom()"),
};
const tierOf = (score: number) => (score >= 75 ? "established" : score >= 51 ? "developing" : score >= 30 ? "limited" : "flagged");
const verified = (score: number, sybilSeverity = "none"): ServiceOutcome => ({
  kind: "verified",
  kid: "rnwy-trust-v2",
  data: { score, tier: tierOf(score), sybilSeverity, at: new Date(NOW.getTime() - HOUR * 1000) },
});

describe("compareAgent: one scenario per status", () => {
  it("in-sync: same score, tier and sybil, fresh record", () => {
    const row = compareAgent(subject, onchain(60), verified(60), context);
    expect(row).toMatchObject({ status: "in-sync", scoreDelta: 0, decision: { onchain: true, attested: true, flipped: false } });
    expect(row.reason).toBeUndefined();
    expect(row.attested?.kid).toBe("rnwy-trust-v2");
  });

  it("drifted, pass → fail: the score fell below the threshold since the snapshot", () => {
    const row = compareAgent(subject, onchain(60), verified(45), context);
    expect(row).toMatchObject({ status: "drifted", scoreDelta: -15, decision: { onchain: true, attested: false, flipped: true } });
    expect(row.reason).toBe("score 60 → 45, tier developing → limited");
  });

  it("drifted, fail → pass: the score rose over the threshold", () => {
    const row = compareAgent(subject, onchain(49), verified(53), context);
    expect(row).toMatchObject({ status: "drifted", scoreDelta: 4, decision: { onchain: false, attested: true, flipped: true } });
  });

  it("drifted without a flip: only the sybil severity changed", () => {
    const row = compareAgent(subject, onchain(80), verified(80, "elevated"), context);
    expect(row).toMatchObject({ status: "drifted", decision: { flipped: false } });
    expect(row.reason).toBe("sybil none → elevated");
  });

  it("stale-onchain: the record is older than max-age (even if the values agree)", () => {
    const row = compareAgent(subject, onchain(60, 40 * HOUR), verified(60), context);
    expect(row.status).toBe("stale-onchain");
    expect(row.reason).toBe("on-chain record is 1.7d old (max 1.5d)");
  });

  it("missing-onchain: the service knows the agent, the oracle does not (fail → pass)", () => {
    const row = compareAgent(subject, noRecord, verified(70), context);
    expect(row).toMatchObject({ status: "missing-onchain", onchain: null, decision: { onchain: false, attested: true, flipped: true } });
  });

  it("missing-attestation: the oracle has a record, the service answers 404", () => {
    const row = compareAgent(subject, onchain(70), { kind: "missing", message: "unknown agent" }, context);
    expect(row).toMatchObject({
      status: "missing-attestation",
      attested: null,
      decision: { onchain: true, attested: false, flipped: true },
    });
  });

  it("invalid-attestation: the reason code and message are kept", () => {
    const row = compareAgent(
      subject,
      onchain(70),
      { kind: "invalid", reason: "bad-jws-signature", message: "signature does not verify" },
      context,
    );
    expect(row).toMatchObject({ status: "invalid-attestation", reason: "bad-jws-signature: signature does not verify", attested: null });
    expect(row.decision).toEqual({ onchain: true, attested: null, flipped: false });
  });

  it("error: a failed on-chain read, or a failed service request", () => {
    const chainError = compareAgent(subject, readFailure, verified(70), context);
    expect(chainError).toMatchObject({ status: "error", reason: "on-chain read failed: getScore reverted: Boom()" });
    expect(chainError.decision.onchain).toBeNull();
    const serviceError = compareAgent(subject, onchain(70), { kind: "error", message: "HTTP 500" }, context);
    expect(serviceError).toMatchObject({ status: "error", reason: "service request failed: HTTP 500" });
  });

  it("a future-dated on-chain record is drift", () => {
    const row = compareAgent(subject, onchain(70, -2 * HOUR), verified(70), context);
    expect(row).toMatchObject({ status: "drifted", reason: "on-chain record is dated 2.0h in the future" });
  });

  it("names tier codes outside the encoding instead of guessing", () => {
    const row = compareAgent(subject, onchain(80, HOUR, 9), verified(80), context);
    expect(row.onchain?.tier).toBe("code:9");
    expect(row.status).toBe("drifted");
  });
});

describe("decide with a threshold", () => {
  const rule = { kind: "threshold" as const, threshold: 51 };
  it("admits a score equal to the threshold (score >= threshold, as meetsThreshold), and refuses one below", () => {
    expect(decide(rule, { score: 51, tier: 0, sybilSeverity: 0, updatedAt: NOW_S }, NOW_S)).toBe(true);
    expect(decide(rule, { score: 50, tier: 0, sybilSeverity: 0, updatedAt: NOW_S }, NOW_S)).toBe(false);
    expect(decide(rule, { score: 52, tier: 0, sybilSeverity: 0, updatedAt: NOW_S }, NOW_S)).toBe(true);
  });
});

describe("decide with a gate policy", () => {
  const gate = {
    kind: "gate" as const,
    gate: "0xgate",
    policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * HOUR, requireController: true },
  };
  it("applies score, sybil and age; ignores the controller requirement", () => {
    expect(decide(gate, { score: 60, tier: 0, sybilSeverity: 2, updatedAt: NOW_S - HOUR }, NOW_S)).toBe(true);
    expect(decide(gate, { score: 60, tier: 0, sybilSeverity: 3, updatedAt: NOW_S - HOUR }, NOW_S)).toBe(false);
    expect(decide(gate, { score: 60, tier: 0, sybilSeverity: 0, updatedAt: NOW_S - 37 * HOUR }, NOW_S)).toBe(false);
    expect(decide(gate, { score: 50, tier: 0, sybilSeverity: 0, updatedAt: NOW_S - HOUR }, NOW_S)).toBe(false);
    expect(decide(gate, { score: 90, sybilSeverity: UNENCODED_CODE, tier: 0, updatedAt: NOW_S - HOUR }, NOW_S)).toBe(false);
    // At each edge: the minimum score, the maximum severity and the maximum age themselves still pass.
    expect(decide(gate, { score: 51, tier: 0, sybilSeverity: 2, updatedAt: NOW_S - 36 * HOUR }, NOW_S)).toBe(true);
    // A score above 100 is a malformed oracle answer (OracleMalformedResponse), never a pass.
    expect(decide(gate, { score: 101, tier: 0, sybilSeverity: 0, updatedAt: NOW_S - HOUR }, NOW_S)).toBe(false);
  });

  it("turns a stale record into a pass → fail flip under a gate", () => {
    const row = compareAgent(subject, onchain(60, 30 * HOUR), verified(60), {
      ...context,
      rule: { ...gate, policy: { ...gate.policy, maxAge: 24 * HOUR } },
    });
    expect(row.decision).toEqual({ onchain: false, attested: true, flipped: true });
  });
});

describe("report", () => {
  const rows = [
    compareAgent({ ...subject, agentId: 1n }, onchain(60), verified(60), context),
    compareAgent({ ...subject, agentId: 2n }, onchain(60), verified(45), context),
    compareAgent({ ...subject, agentId: 3n }, onchain(70), { kind: "invalid", reason: "expired", message: "x" }, context),
    compareAgent({ ...subject, agentId: 4n }, onchain(49), verified(53), context),
    compareAgent({ ...subject, agentId: 5n }, onchain(60, 40 * HOUR), verified(60), context),
  ];

  it("sorts flips first, then by status severity, then by the size of the change", () => {
    expect(sortRows(rows).map((r) => r.agentId)).toEqual(["2", "4", "3", "5", "1"]);
  });

  it("counts flips per direction and sets the exit code", () => {
    expect(countFlips(rows)).toEqual({ passToFail: 1, failToPass: 1 });
    const report = buildReport(rows, {
      source: { rpc: "http://x", oracle: "0x1", api: "http://y", issuer: "http://y", chainId: 8453, blockNumber: "1" },
      decisionRule: "score >= 51",
      maxAgeSeconds: 36 * HOUR,
      encoding: checkEncodings([onchain(60)], [], DEFAULT_TRUST_ENCODING),
      generatedAt: NOW,
    });
    expect(report.summary.byStatus).toEqual({
      "invalid-attestation": 1,
      error: 0,
      drifted: 2,
      "stale-onchain": 1,
      "missing-onchain": 0,
      "missing-attestation": 0,
      "in-sync": 1,
    });
    expect(report.summary.oldestUpdatedAt).toBe(new Date((NOW_S - 40 * HOUR) * 1000).toISOString());
    expect(exitCodeOf(report)).toBe(3);
    expect(
      exitCodeOf({
        summary: {
          ...report.summary,
          flips: { passToFail: 0, failToPass: 0 },
          byStatus: { ...report.summary.byStatus, "invalid-attestation": 0 },
        },
      }),
    ).toBe(0);
  });

  it("checks the tier encoding against scores and reports contradictions with examples", () => {
    const check = checkTierEncoding([onchain(80), onchain(80, HOUR, 0), onchain(20), readFailure], DEFAULT_TRUST_ENCODING);
    expect(check).toMatchObject({ checked: 3, contradictions: 1, consistent: false, observed: { established: [0, 3], flagged: [0] } });
    expect(check.examples).toEqual(["base:42:erc8004 score=80 tierCode=0 (expected established)"]);
  });
});

describe("triage", () => {
  const options = { rule: context.rule, maxAgeSeconds: 36 * HOUR, now: NOW, encoding: DEFAULT_TRUST_ENCODING, seed: 1 };
  const listed = (score: number, sybilSeverity = "none") => ({ score, tier: tierOf(score), sybilSeverity });

  it("fetches where chain and listing disagree, records are missing or stale, or scores sit near the threshold", () => {
    expect(triageReason(listed(60), onchain(61), options)).toBe("mismatch");
    expect(triageReason(listed(60, "low"), onchain(60), options)).toBe("mismatch");
    expect(triageReason(listed(60), noRecord, options)).toBe("missing-onchain");
    expect(triageReason(listed(60), onchain(60, 40 * HOUR), options)).toBe("stale-onchain");
    expect(triageReason(listed(52), onchain(52), options)).toBe("near-threshold");
    expect(triageReason(null, onchain(52), options)).toBe("not-listed");
    expect(triageReason({ score: 80 }, onchain(80), options)).toBe("incomplete-listing");
  });

  it("trusts the listing elsewhere, except for the audit sample", () => {
    expect(triageReason(listed(80), onchain(80), options)).toBeNull();
    expect(triageReason(listed(80), readFailure, options)).toBeNull();
    const candidates = [{ agent: { chain: "base", chainId: 8453, agentId: 1n, registry: "erc8004" }, listed: listed(80) }];
    // One agent compared with the listing: catching a listing that lies about it takes fetching it.
    expect(triageCandidates(candidates, [onchain(80)], options).reasons).toEqual({ audit: 1 });
    expect(triageCandidates(candidates, [onchain(81)], options).reasons).toEqual({ mismatch: 1 });
  });

  it("watches a gate's sybil and age edges", () => {
    const gate = {
      kind: "gate" as const,
      gate: "0xg",
      policy: { minScore: 51, maxSybilSeverity: 1, maxAge: 24 * HOUR, requireController: false },
    };
    expect(triageReason(listed(80, "low"), onchain(80, HOUR, undefined, 1), { ...options, rule: gate })).toBe("policy-edge");
    expect(triageReason(listed(80), onchain(80, 23 * HOUR), { ...options, rule: gate })).toBe("policy-edge");
    expect(triageReason(listed(80), onchain(80, 2 * HOUR), { ...options, rule: gate })).toBeNull();
  });

  it("samples exactly the size asked, deterministically per seed, independent of order", () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `base:erc8004:${i}`);
    const picked = drawAuditSample(keys, 200, 7).map((i) => keys[i]!);
    expect(picked).toHaveLength(200);
    const reversed = [...keys].reverse();
    expect(
      drawAuditSample(reversed, 200, 7)
        .map((i) => reversed[i]!)
        .sort(),
    ).toEqual([...picked].sort());
    expect(drawAuditSample(keys, 200, 8).map((i) => keys[i]!)).not.toEqual(picked);
  });
});
