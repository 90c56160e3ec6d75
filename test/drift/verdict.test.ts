import { describe, expect, it } from "vitest";
import { verdictOf } from "../../src/drift/verdict";
import { errorRow, failToPass, invalid, passToFail, report, row } from "../cli/report-fixture";

describe("verdictOf: the exit code and its reason in one sentence", () => {
  it("names the flips and invalid attestations behind exit 3, singular and plural", () => {
    expect(verdictOf(report([passToFail("1"), failToPass("2"), row({ agentId: "3" })]))).toEqual({
      exitCode: 3,
      reason: "2 gate decisions flip",
    });
    expect(verdictOf(report([invalid("1"), ...Array.from({ length: 200 }, (_, i) => row({ agentId: String(10 + i) }))]))).toEqual({
      exitCode: 3,
      reason: "1 attestation is invalid",
    });
    expect(verdictOf(report([passToFail("1"), invalid("2"), invalid("3")]))).toEqual({
      exitCode: 3,
      reason: "1 gate decision flips and 2 attestations are invalid",
    });
  });

  it("says nothing moved for exit 0, and names the unverified agents the limit let through", () => {
    expect(verdictOf(report([row({ agentId: "1" })]))).toEqual({
      exitCode: 0,
      reason: "no gate decision flips and no attestation is invalid",
    });
    const rows = [errorRow("1"), row({ agentId: "2" }), row({ agentId: "3" })];
    expect(verdictOf(report(rows, { errorLimit: { kind: "count", value: 1 } }))).toEqual({
      exitCode: 0,
      reason: "no gate decision flips and no attestation is invalid; 1 agent unverified, within --max-errors 1",
    });
  });

  it("says what could not be verified for exit 4, and still names the flips", () => {
    expect(verdictOf(report([errorRow("1"), errorRow("2"), passToFail("3")], { errorLimit: { kind: "count", value: 1 } }))).toEqual({
      exitCode: 4,
      reason: "could not verify: 2 of 3 agents unverified, more than --max-errors 1 allows; so far 1 gate decision flips",
    });
    expect(verdictOf(report([]))).toEqual({ exitCode: 4, reason: "could not verify: no agent was scanned" });
    const stopped = report([row({ agentId: "1" })]);
    const partial = { reason: "max-duration", maxDurationSeconds: 60, notFetched: 7, resumable: true } as const;
    expect(verdictOf({ summary: { ...stopped.summary, partial } })).toEqual({
      exitCode: 4,
      reason:
        "could not verify: stopped at --max-duration with 7 signed attestations not fetched (run it again with the same --state to continue)",
    });
  });

  it("is what the report carries as its verdict", () => {
    const built = report([passToFail("1")]);
    expect(built.verdict).toEqual(verdictOf(built));
  });
});
