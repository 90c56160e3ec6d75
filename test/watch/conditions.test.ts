// The conditions an agent's check raises and clears: the drift report's "since last night" rule (a problem raises,
// a verified row clears the others, an unverified row neither raises nor clears), record-stale, and the evidence an
// alert carries (block, transaction, kid and signed times).
import { describe, expect, it } from "vitest";
import type { AgentRef } from "../../src/agent/agent-ref";
import { problemOf } from "../../src/drift/since-last-night";
import type { DriftRow } from "../../src/drift/types";
import { agentConditionId, conditionsOfCheck } from "../../src/watch/check";
import type { AgentCheck, CheckTrigger, OracleChange } from "../../src/watch/types";
import { failToPass, passToFail, REFRESH_POSSIBLE, row } from "../cli/report-fixture";

const agent: AgentRef = { chain: "base", chainId: 8453, agentId: 7n, registry: "erc8004" };
const TX = `0x${"ab".repeat(32)}` as const;
const change: OracleChange = {
  kind: "record-updated",
  contract: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  key: `0x${"11".repeat(32)}`,
  agent,
  kid: null,
  kidHash: null,
  record: 0n,
  block: { number: 120n, hash: `0x${"22".repeat(32)}`, timestamp: 1_795_000_000 },
  transactionHash: TX,
  logIndex: 0,
};
const context = { maxAgeSeconds: 36 * 3600 };
const ids = (kinds: readonly string[]) => kinds.map((kind) => `${kind}:base:erc8004:7`);

function checkOf(r: DriftRow, trigger: CheckTrigger = { kind: "audit" }, extra: Partial<AgentCheck> = {}): AgentCheck {
  return { agent, row: r, problem: problemOf(r), trigger, blockNumber: 120n, ...extra };
}

describe("agentConditionId", () => {
  it("is <kind>:<agentKey>, the identity 'since last night' gives an agent's problem", () => {
    expect(agentConditionId("pass-to-fail", agent)).toBe("pass-to-fail:base:erc8004:7");
    expect(agentConditionId("record-stale", { ...agent, registry: "olas" })).toBe("record-stale:base:olas:7");
  });
});

describe("conditionsOfCheck", () => {
  it("a pass-to-fail flip raises it, with before, after, the decisions and the change's evidence, and clears the other problems", () => {
    const flipped = { ...passToFail("7"), attestedComputedAt: "2026-11-22T03:00:00.000Z", refresh: REFRESH_POSSIBLE };
    const { raise, clear } = conditionsOfCheck(
      checkOf(flipped, { kind: "change", change }, { attestationExpiresAt: "2026-11-23T12:00:00.000Z" }),
      context,
    );
    expect(raise).toHaveLength(1);
    expect(raise[0]).toMatchObject({
      kind: "pass-to-fail",
      id: "pass-to-fail:base:erc8004:7",
      agent: "base:7:erc8004",
      before: flipped.onchain,
      after: flipped.attested,
      decision: { onchain: true, attested: false },
      evidence: {
        blockNumber: "120",
        transactionHash: TX,
        kid: "rnwy-trust-v2",
        issuedAt: "2026-11-22T03:00:00.000Z",
        expiresAt: "2026-11-23T12:00:00.000Z",
        recordUpdatedAt: flipped.onchain!.updatedAt,
      },
    });
    expect(raise[0]!.summary).toContain("would refuse");
    expect(clear).toEqual(ids(["fail-to-pass", "invalid-attestation", "record-stale"]));
  });

  it("takes the expiry from the row's refresh assessment when the check has none, and no transaction for an audit", () => {
    const flipped = { ...failToPass("7"), refresh: REFRESH_POSSIBLE };
    const [condition] = conditionsOfCheck(checkOf(flipped), context).raise;
    expect(condition).toMatchObject({ kind: "fail-to-pass", evidence: { expiresAt: REFRESH_POSSIBLE.expiresAt, transactionHash: null } });
    expect(condition!.evidence.details).toContain("checked because of the slow audit");
  });

  it("an in-sync row raises nothing and clears every problem and record-stale", () => {
    expect(conditionsOfCheck(checkOf(row({ agentId: "7" })), context)).toEqual({
      raise: [],
      clear: ids(["pass-to-fail", "fail-to-pass", "invalid-attestation", "record-stale"]),
    });
  });

  it("an invalid attestation raises it and clears the flips (a verified answer: it says something), not record-stale", () => {
    const invalid = row({
      agentId: "7",
      status: "invalid-attestation",
      attested: null,
      decision: { onchain: true, attested: null, flipped: false },
      reason: "bad-signature: nope",
    });
    const { raise, clear } = conditionsOfCheck(checkOf(invalid), context);
    expect(raise.map((c) => c.id)).toEqual(ids(["invalid-attestation"]));
    expect(raise[0]!.summary).toContain("bad-signature: nope");
    expect(clear).toEqual(ids(["pass-to-fail", "fail-to-pass"]));
  });

  it.each(["error", "missing-attestation"] as const)("a row with status %s neither raises nor clears anything", (status) => {
    const unverified = row({
      agentId: "7",
      status,
      attested: null,
      decision: { onchain: true, attested: null, flipped: false },
      reason: "service request failed",
    });
    expect(conditionsOfCheck(checkOf(unverified), context)).toEqual({ raise: [], clear: [] });
  });

  it("a stale record raises record-stale (and still its flip, if any); a drifted fresh row clears it", () => {
    const stale = row({ agentId: "7", status: "stale-onchain", reason: "on-chain record is 3d old" });
    const raised = conditionsOfCheck(checkOf(stale), context);
    expect(raised.raise.map((c) => c.id)).toEqual(ids(["record-stale"]));
    expect(raised.raise[0]!.summary).toContain("129600 s");
    expect(raised.clear).toEqual(ids(["pass-to-fail", "fail-to-pass", "invalid-attestation"]));
    const staleFlip = { ...passToFail("7"), status: "stale-onchain" as const };
    expect(conditionsOfCheck(checkOf(staleFlip), context).raise.map((c) => c.kind)).toEqual(["pass-to-fail", "record-stale"]);
    expect(conditionsOfCheck(checkOf({ ...passToFail("7") }), context).clear).toContain("record-stale:base:erc8004:7");
  });
});
