// Classifying tonight's problems against the previous night's: each problem in one list, nights counted, resolved only
// when tonight's row verified, the baseline's acceptance and its expiry.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseBaseline } from "../../src/drift/baseline";
import { classifySinceLastNight, createProblemCollector, problemOf } from "../../src/drift/since-last-night";
import type { StoredProblem } from "../../src/drift/state/schema";
import { DRIFT_STATUS_ACTIONS, DRIFT_STATUSES, type DriftRow, type DriftStatus } from "../../src/drift/types";
import { exitCodeOf, verdictOf } from "../../src/drift/verdict";

const T0 = "2026-11-27T04:17:00.000Z";
const T1 = "2026-11-28T04:17:00.000Z";
const T2 = new Date("2026-11-29T04:17:00.000Z");

function row(agentId: number, status: DriftStatus, flip: "pass-to-fail" | "fail-to-pass" | null = null): DriftRow {
  return {
    chain: "base",
    chainId: 8453,
    agentId: String(agentId),
    registry: "erc8004",
    status,
    onchain: null,
    attested: null,
    attestedComputedAt: null,
    computedAfterRefresh: null,
    scoreDelta: null,
    decision:
      flip === null
        ? { onchain: true, attested: true, flipped: false }
        : { onchain: flip === "pass-to-fail", attested: flip !== "pass-to-fail", flipped: true },
    refresh: null,
  };
}

function classify(previous: StoredProblem[] | null, rows: DriftRow[], baselineText?: string, failOn: "new" | "any" = "any") {
  const collector = createProblemCollector(previous ?? []);
  for (const r of rows) collector.add(r);
  return classifySinceLastNight({
    previous,
    previousNight: previous === null ? null : T1,
    tonight: collector,
    startedAt: T2,
    now: T2,
    ...(baselineText !== undefined ? { baseline: parseBaseline(baselineText, "b.jsonl") } : {}),
    failOn,
  });
}

describe("problemOf", () => {
  it("is an invalid attestation, else the flip's direction, else nothing (stale, drifted or error rows without a flip are not problems)", () => {
    expect(problemOf(row(1, "invalid-attestation"))).toBe("invalid-attestation");
    expect(problemOf(row(1, "stale-onchain", "pass-to-fail"))).toBe("pass-to-fail");
    expect(problemOf(row(1, "drifted", "fail-to-pass"))).toBe("fail-to-pass");
    for (const status of ["drifted", "stale-onchain", "error", "missing-attestation", "missing-onchain", "in-sync"] as const) {
      expect(problemOf(row(1, status))).toBeNull();
    }
  });
});

describe("classifySinceLastNight", () => {
  const previous: StoredProblem[] = [
    { agent: "base:erc8004:1", problem: "pass-to-fail", since: T0, nights: 2 }, // persists
    { agent: "base:erc8004:2", problem: "pass-to-fail", since: T1, nights: 1 }, // resolved: in sync tonight
    { agent: "base:erc8004:3", problem: "invalid-attestation", since: T1, nights: 1 }, // unverified: error tonight
    { agent: "base:erc8004:4", problem: "pass-to-fail", since: T1, nights: 1 }, // turned around: fail-to-pass tonight
    { agent: "base:erc8004:5", problem: "fail-to-pass", since: T1, nights: 1 }, // no row tonight
  ];
  const tonight = [
    row(1, "drifted", "pass-to-fail"),
    row(2, "in-sync"),
    row(3, "error"),
    row(4, "drifted", "fail-to-pass"),
    row(6, "invalid-attestation"),
    row(7, "stale-onchain"),
  ];

  it("puts each of tonight's problems in one list, counts the nights, and resolves only what tonight's verified rows no longer show", () => {
    const { sinceLastNight: s, next } = classify(previous, tonight);
    expect(s.previousNight).toBe(T1);
    // Each list: pass→fail first, then invalid attestations, then fail→pass.
    expect(s.new.map((p) => [p.agent, p.problem, p.nights, p.since])).toEqual([
      ["base:6:erc8004", "invalid-attestation", 1, T2.toISOString()],
      ["base:4:erc8004", "fail-to-pass", 1, T2.toISOString()],
    ]);
    expect(s.persisting.map((p) => [p.agent, p.problem, p.status, p.nights, p.since])).toEqual([
      ["base:1:erc8004", "pass-to-fail", "drifted", 3, T0],
    ]);
    expect(s.resolved.map((p) => [p.agent, p.problem, p.status])).toEqual([
      ["base:2:erc8004", "pass-to-fail", "in-sync"],
      ["base:4:erc8004", "pass-to-fail", "drifted"],
    ]);
    expect(s.unverified.map((p) => [p.agent, p.status, p.action])).toEqual([
      ["base:3:erc8004", "error", DRIFT_STATUS_ACTIONS.error],
      ["base:5:erc8004", null, DRIFT_STATUS_ACTIONS.error],
    ]);
    expect(s.accepted).toEqual([]);
    expect(s.new.map((p) => p.action)).toEqual([DRIFT_STATUS_ACTIONS["invalid-attestation"], DRIFT_STATUS_ACTIONS.drifted]);
    // Kept for the next night: tonight's problems, and last night's that could not be verified (nights unchanged).
    expect(next.map((p) => [p.agent, p.problem, p.nights]).sort()).toEqual(
      [
        ["base:erc8004:1", "pass-to-fail", 3],
        ["base:erc8004:3", "invalid-attestation", 1],
        ["base:erc8004:4", "fail-to-pass", 1],
        ["base:erc8004:5", "fail-to-pass", 1],
        ["base:erc8004:6", "invalid-attestation", 1],
      ].sort(),
    );
  });

  it("without a previous night every problem is new", () => {
    const { sinceLastNight: s } = classify(null, tonight);
    expect(s.previousNight).toBeNull();
    expect(s.new.map((p) => p.agent)).toEqual(["base:1:erc8004", "base:6:erc8004", "base:4:erc8004"]);
    expect([...s.persisting, ...s.resolved, ...s.unverified]).toEqual([]);
  });

  it("a baseline accepts its problems (new or persisting) until their end; an expired entry accepts nothing and is listed", () => {
    const baseline = [
      JSON.stringify({ agent: "base:1", problem: "pass-to-fail", reason: "known", until: "2026-12-31" }),
      JSON.stringify({ agent: "base:6", problem: "invalid-attestation", reason: "known too", until: "2026-12-31" }),
      JSON.stringify({ agent: "base:4", problem: "fail-to-pass", reason: "was known", until: "2026-11-28" }),
    ].join("\n");
    const { sinceLastNight: s } = classify(previous, tonight, baseline, "new");
    expect(s.accepted.map((p) => [p.agent, p.reason, p.nights])).toEqual([
      ["base:1:erc8004", "known", 3],
      ["base:6:erc8004", "known too", 1],
    ]);
    expect(s.new.map((p) => p.agent)).toEqual(["base:4:erc8004"]);
    expect(s.persisting).toEqual([]);
    expect(s.expired).toEqual([
      { agent: "base:4:erc8004", problem: "fail-to-pass", reason: "was known", until: "2026-11-29T00:00:00.000Z" },
    ]);
  });
});

describe("exitCodeOf and verdictOf with --fail-on", () => {
  const summary = (flips: number) => ({
    agents: 10,
    byStatus: {
      "invalid-attestation": 0,
      error: 0,
      drifted: flips,
      "stale-onchain": 0,
      "missing-onchain": 0,
      "missing-attestation": 0,
      "in-sync": 10 - flips,
    },
    flips: { passToFail: flips, failToPass: 0 },
    unverified: { count: 0, fraction: 0, limit: { kind: "percent" as const, value: 1 }, allowed: 0, exceeded: false },
  });
  const since = (failOn: "new" | "any", fresh: number, known: number) => {
    const p = { agent: "base:1:erc8004", problem: "pass-to-fail" as const, status: "drifted" as const, action: "", nights: 2, since: T1 };
    return {
      previousNight: T1,
      failOn,
      new: Array(fresh).fill(p),
      persisting: Array(known).fill(p),
      resolved: [],
      accepted: [],
      unverified: [],
      expired: [],
    };
  };

  it("with new, only new problems exit 3; with any, every problem does; a run that could not verify exits 4 either way", () => {
    expect(exitCodeOf({ summary: summary(2), sinceLastNight: since("new", 0, 2) })).toBe(0);
    expect(exitCodeOf({ summary: summary(2), sinceLastNight: since("new", 1, 1) })).toBe(3);
    expect(exitCodeOf({ summary: summary(2), sinceLastNight: since("any", 0, 2) })).toBe(3);
    expect(exitCodeOf({ summary: summary(2), sinceLastNight: null })).toBe(3);
    const failed = { ...summary(2), unverified: { ...summary(2).unverified, exceeded: true } };
    expect(exitCodeOf({ summary: failed, sinceLastNight: since("new", 0, 2) })).toBe(4);
    expect(verdictOf({ summary: summary(2) as never, sinceLastNight: since("new", 0, 2) }).reason).toBe(
      "no new problem since the night before: 2 gate decisions flip, 2 persisting or accepted (--fail-on new)",
    );
    expect(verdictOf({ summary: summary(2) as never, sinceLastNight: since("new", 1, 1) }).reason).toBe(
      "1 new problem since the night before; 1 persisting or accepted (--fail-on new)",
    );
  });
});

describe("the actions table", () => {
  it("has one action per status, and the manual's table is it, word for word", () => {
    const manual = readFileSync(join(__dirname, "../../docs/drift.md"), "utf8");
    const table = manual.slice(manual.indexOf("| status | action |"));
    const rows = new Map([...table.matchAll(/^\| `([a-z-]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]));
    expect([...rows.keys()]).toEqual([...DRIFT_STATUSES]);
    for (const status of DRIFT_STATUSES) expect(rows.get(status)).toBe(DRIFT_STATUS_ACTIONS[status]);
  });
});
