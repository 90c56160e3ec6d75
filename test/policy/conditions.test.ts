/**
 * The gate policy's conditions and their decision edges (`src/policy.ts`): every refusal the gate can give has its
 * condition, in the order the gate checks them, and every condition that a small change of the record or of time can
 * flip has a decision edge that sees it coming — so that drift triage, which fetches a signed attestation at an
 * edge, cannot miss a condition added without one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  evaluateTrustPolicy,
  MAX_SCORE,
  TRUST_POLICY_CONDITIONS,
  TRUST_REFUSALS,
  type TrustPolicy,
  trustPolicyEdges,
} from "../../src/policy";
import type { TrustRecord } from "../../src/trust-record";

const DAY = 86_400;

describe("evaluateTrustPolicy at the score's bounds", () => {
  const policy: TrustPolicy = { minScore: 0, maxSybilSeverity: 4, maxAge: DAY, requireController: false };
  const now = 10 * DAY;
  it("refuses a score above 100 as a malformed oracle answer, before any other condition; admits 100 itself", () => {
    const record = { score: MAX_SCORE, tier: 3, sybilSeverity: 0, updatedAt: now - 60 };
    expect(evaluateTrustPolicy(record, policy, now)).toBe("None");
    expect(evaluateTrustPolicy({ ...record, score: MAX_SCORE + 1 }, policy, now)).toBe("OracleMalformedResponse");
    expect(evaluateTrustPolicy({ ...record, score: 255, updatedAt: 0 }, policy, now)).toBe("OracleMalformedResponse");
    expect(evaluateTrustPolicy({ ...record, score: 50 }, { ...policy, minScore: 50 }, now)).toBe("None");
    expect(evaluateTrustPolicy({ ...record, score: 49 }, { ...policy, minScore: 50 }, now)).toBe("ScoreTooLow");
  });
});

describe("gate policy conditions", () => {
  it("has one condition per refusal, in the gate's order, each declaring its decision edge", () => {
    expect(Object.keys(TRUST_POLICY_CONDITIONS)).toEqual(TRUST_REFUSALS.filter((refusal) => refusal !== "None"));
    for (const [refusal, condition] of Object.entries(TRUST_POLICY_CONDITIONS)) {
      expect(typeof condition.refuses, refusal).toBe("function");
      expect(condition.edge === null || typeof condition.edge === "function", refusal).toBe(true);
    }
  });

  it("names the edges drift triage relies on", () => {
    const policy: TrustPolicy = { minScore: 51, maxSybilSeverity: 1, maxAge: DAY, requireController: false };
    const now = 10 * DAY;
    const fresh = { score: 80, tier: 3, sybilSeverity: 0, updatedAt: now - 60 };
    expect(trustPolicyEdges(fresh, policy, now, 2)).toEqual([]);
    expect(trustPolicyEdges({ ...fresh, score: 53 }, policy, now, 2)).toEqual(["ScoreTooLow"]);
    expect(trustPolicyEdges({ ...fresh, score: 49 }, policy, now, 2)).toEqual(["ScoreTooLow"]);
    expect(trustPolicyEdges({ ...fresh, score: 54 }, policy, now, 2)).toEqual([]);
    expect(trustPolicyEdges({ ...fresh, sybilSeverity: 1 }, policy, now, 2)).toEqual(["SybilSeverityTooHigh"]);
    expect(trustPolicyEdges({ ...fresh, updatedAt: now - 0.95 * DAY }, policy, now, 2)).toEqual(["RecordStale"]);
    expect(trustPolicyEdges({ ...fresh, updatedAt: now - 0.85 * DAY }, policy, now, 2)).toEqual([]);
  });

  it("sees every admission flip coming: a one-step change that flips the decision is at the refusing condition's edge", () => {
    const policies = fc.record({
      minScore: fc.integer({ min: 0, max: MAX_SCORE }),
      maxSybilSeverity: fc.integer({ min: 0, max: 4 }),
      maxAge: fc.integer({ min: 10, max: 30 * DAY }),
      requireController: fc.boolean(),
    });
    const now = 100 * DAY;
    const records = fc.record({
      score: fc.integer({ min: 0, max: MAX_SCORE }),
      tier: fc.integer({ min: 0, max: 4 }),
      sybilSeverity: fc.integer({ min: 0, max: 5 }),
      updatedAt: fc.integer({ min: now - 40 * DAY, max: now }),
    });
    const controllers = fc.constantFrom("controller", "not-controller", "unknown-agent") as fc.Arbitrary<
      "controller" | "not-controller" | "unknown-agent"
    >;
    // Records whose presence and form are not in question: the conditions without an edge are about those.
    const sound = (record: TrustRecord, at: number) =>
      record.score >= 0 &&
      record.score <= MAX_SCORE &&
      record.sybilSeverity >= 0 &&
      record.tier >= 0 &&
      record.updatedAt > 0 &&
      record.updatedAt <= at;
    fc.assert(
      fc.property(policies, records, controllers, (policy, record, controller) => {
        // One step of every numeric field of the record, either way, and a tenth of the age limit later.
        const fields = Object.keys(record) as (keyof TrustRecord)[];
        const steps: [TrustRecord, number][] = [
          ...fields.flatMap((field) => [-1, 1].map((d): [TrustRecord, number] => [{ ...record, [field]: record[field] + d }, now])),
          [record, now + Math.ceil(policy.maxAge / 10)],
        ];
        const before = evaluateTrustPolicy(record, policy, now, controller);
        for (const [next, at] of steps) {
          if (!sound(next, at)) continue;
          const after = evaluateTrustPolicy(next, policy, at, controller);
          if ((before === "None") === (after === "None")) continue;
          const refusal = before === "None" ? after : before;
          const edges = [...trustPolicyEdges(record, policy, now, 1), ...trustPolicyEdges(next, policy, at, 1)];
          expect(edges, `${refusal} flipped between ${JSON.stringify(record)}@${now} and ${JSON.stringify(next)}@${at}`).toContain(refusal);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
