import { describe, expect, it } from "vitest";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import {
  allowedUnverified,
  checkErrorLimit,
  DEFAULT_ERROR_LIMIT,
  describeErrorLimit,
  type ErrorLimit,
  evaluateErrorLimit,
  parseErrorLimit,
} from "../../src/drift/error-limit";
import { buildReport, countByStatus } from "../../src/drift/report";
import { DRIFT_EXIT_CODES, exitCodeOf } from "../../src/drift/verdict";
import { DRIFT_STATUSES, type DriftRow, type DriftStatus } from "../../src/drift/types";
import { InvalidArgumentError } from "../../src/errors";

/** Rows per status, zero for the others. */
function counts(given: Partial<Record<DriftStatus, number>>): Record<DriftStatus, number> {
  return { ...(Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0])) as Record<DriftStatus, number>), ...given };
}

function rowOf(status: DriftStatus, i: number, flipped = false): DriftRow {
  return {
    chain: "base",
    chainId: 8453,
    agentId: String(i),
    registry: "erc8004",
    status,
    onchain: null,
    attested: null,
    attestedComputedAt: null,
    computedAfterRefresh: null,
    scoreDelta: null,
    decision: { onchain: flipped ? true : null, attested: flipped ? false : null, flipped },
    refresh: null,
  };
}

/** `n` rows of `status` (ids from `start`). */
function rows(status: DriftStatus, n: number, start = 0): DriftRow[] {
  return Array.from({ length: n }, (_, i) => rowOf(status, start + i));
}

function reportOf(all: DriftRow[], errorLimit?: ErrorLimit) {
  return buildReport(all, {
    source: {
      rpc: "http://127.0.0.1:1",
      oracle: "0x1",
      api: "http://127.0.0.1:2",
      issuer: "http://127.0.0.1:2",
      chainId: 8453,
      blockNumber: "1",
    },
    decisionRule: "score >= 51",
    maxAgeSeconds: 3600,
    encoding: {
      tiers: DEFAULT_TRUST_ENCODING.tiers,
      sybilSeverities: DEFAULT_TRUST_ENCODING.sybilSeverities,
      checked: 0,
      contradictions: 0,
      consistent: true,
      examples: [],
      observed: {},
      sybil: { checked: 0, contradictions: 0, consistent: true, examples: [], observed: {} },
    },
    generatedAt: new Date("2026-11-22T12:00:00Z"),
    ...(errorLimit ? { errorLimit } : {}),
  });
}

describe("evaluateErrorLimit: the rule", () => {
  it("counts error and missing-attestation rows, and nothing else", () => {
    const summary = evaluateErrorLimit(
      counts({
        error: 2,
        "missing-attestation": 3,
        "invalid-attestation": 7,
        drifted: 11,
        "stale-onchain": 13,
        "missing-onchain": 17,
        "in-sync": 1000,
      }),
      1053,
      { kind: "count", value: 5 },
    );
    expect(summary).toEqual({ count: 5, fraction: 5 / 1053, limit: { kind: "count", value: 5 }, allowed: 5, exceeded: false });
  });

  it("a count: exactly at the limit passes, one above fails", () => {
    const limit: ErrorLimit = { kind: "count", value: 10 };
    expect(evaluateErrorLimit(counts({ error: 10, "in-sync": 90 }), 100, limit).exceeded).toBe(false);
    expect(evaluateErrorLimit(counts({ error: 10, "missing-attestation": 1, "in-sync": 89 }), 100, limit).exceeded).toBe(true);
    expect(evaluateErrorLimit(counts({ error: 0, "in-sync": 5 }), 5, { kind: "count", value: 0 }).exceeded).toBe(false);
    expect(evaluateErrorLimit(counts({ error: 1, "in-sync": 4 }), 5, { kind: "count", value: 0 }).exceeded).toBe(true);
  });

  it("the default is 1 %: more than 1 % of the scanned agents fails the run", () => {
    expect(DEFAULT_ERROR_LIMIT).toEqual({ kind: "percent", value: 1 });
    // 1 % of 3000 is 30: 30 pass, 31 fail.
    expect(evaluateErrorLimit(counts({ error: 25, "missing-attestation": 5 }), 3000).exceeded).toBe(false);
    expect(evaluateErrorLimit(counts({ error: 26, "missing-attestation": 5 }), 3000).exceeded).toBe(true);
    // Below 100 agents, 1 % allows none at all.
    expect(evaluateErrorLimit(counts({ error: 1 }), 99)).toMatchObject({ allowed: 0, exceeded: true });
    expect(evaluateErrorLimit(counts({ "in-sync": 99 }), 99)).toMatchObject({ allowed: 0, exceeded: false, count: 0, fraction: 0 });
  });

  it("a percentage rounds the allowance down", () => {
    expect(allowedUnverified({ kind: "percent", value: 1 }, 150)).toBe(1); // 1.5
    expect(allowedUnverified({ kind: "percent", value: 1 }, 199)).toBe(1); // 1.99
    expect(allowedUnverified({ kind: "percent", value: 1 }, 200)).toBe(2);
    expect(allowedUnverified({ kind: "percent", value: 2.5 }, 79)).toBe(1); // 1.975
    expect(allowedUnverified({ kind: "percent", value: 2.5 }, 80)).toBe(2);
    expect(allowedUnverified({ kind: "percent", value: 0 }, 1_000_000)).toBe(0);
    expect(allowedUnverified({ kind: "percent", value: 100 }, 12)).toBe(12);
    const limit: ErrorLimit = { kind: "percent", value: 1 };
    expect(evaluateErrorLimit(counts({ error: 1 }), 150, limit).exceeded).toBe(false);
    expect(evaluateErrorLimit(counts({ error: 2 }), 150, limit).exceeded).toBe(true);
  });

  it("compares percentages exactly where binary floating point would not (0.57 × 10000 is 5699.99… in doubles)", () => {
    expect(0.57 * 10_000).toBeLessThan(5700); // the trap: Math.floor would allow 56
    const limit: ErrorLimit = { kind: "percent", value: 0.57 };
    expect(allowedUnverified(limit, 10_000)).toBe(57);
    expect(evaluateErrorLimit(counts({ error: 57 }), 10_000, limit).exceeded).toBe(false);
    expect(evaluateErrorLimit(counts({ error: 58 }), 10_000, limit).exceeded).toBe(true);
    expect(2.3 * 3000).toBeLessThan(6900);
    expect(allowedUnverified({ kind: "percent", value: 2.3 }, 3000)).toBe(69);
    expect(allowedUnverified({ kind: "percent", value: 0.000001 }, 100_000_000)).toBe(1);
  });

  it("100 % tolerates every agent unverified", () => {
    expect(evaluateErrorLimit(counts({ error: 12 }), 12, { kind: "percent", value: 100 })).toMatchObject({
      count: 12,
      fraction: 1,
      allowed: 12,
      exceeded: false,
    });
  });

  it("a run that scanned no agent verified nothing: exceeded, whatever the limit", () => {
    for (const limit of [DEFAULT_ERROR_LIMIT, { kind: "percent", value: 100 }] as ErrorLimit[]) {
      expect(evaluateErrorLimit(counts({}), 0, limit)).toEqual({ count: 0, fraction: null, limit, allowed: 0, exceeded: true });
    }
    expect(evaluateErrorLimit(counts({}), 0, { kind: "count", value: 1000 })).toEqual({
      count: 0,
      fraction: null,
      limit: { kind: "count", value: 1000 },
      allowed: 1000,
      exceeded: true,
    });
  });

  it("refuses a limit a program built wrong", () => {
    for (const bad of [
      { kind: "count", value: -1 },
      { kind: "count", value: 1.5 },
      { kind: "count", value: Number.NaN },
      { kind: "percent", value: -0.5 },
      { kind: "percent", value: 100.01 },
      { kind: "percent", value: Number.POSITIVE_INFINITY },
      { kind: "percent", value: 1e-7 },
      { kind: "ratio", value: 0.5 },
    ]) {
      expect(() => checkErrorLimit(bad as ErrorLimit), JSON.stringify(bad)).toThrow(InvalidArgumentError);
      expect(() => evaluateErrorLimit(counts({}), 10, bad as ErrorLimit), JSON.stringify(bad)).toThrow(InvalidArgumentError);
    }
    expect(checkErrorLimit({ kind: "percent", value: 0.000001 })).toEqual({ kind: "percent", value: 0.000001 });
  });

  it("spells a limit as the command line does", () => {
    expect(describeErrorLimit({ kind: "count", value: 10 })).toBe("10");
    expect(describeErrorLimit({ kind: "percent", value: 2.5 })).toBe("2.5%");
    expect(describeErrorLimit(parseErrorLimit("1%"))).toBe("1%");
  });
});

describe("parseErrorLimit", () => {
  it("names the flag it parses in its message", () => {
    expect(() => parseErrorLimit("x", "maxErrors")).toThrow(/^maxErrors must be a count/);
    expect(() => parseErrorLimit("x")).toThrow(/^--max-errors must be a count/);
  });
});

describe("exitCodeOf: the one exit-code rule", () => {
  it("0 when everything verified agrees and nothing is left unverified beyond the limit", () => {
    expect(exitCodeOf(reportOf([...rows("in-sync", 99), ...rows("drifted", 1, 99)]))).toBe(0);
    expect(exitCodeOf(reportOf([...rows("in-sync", 100), ...rows("error", 1, 100)]))).toBe(0); // 1 of 101: allowed 1
  });

  it("3 for a flip or an invalid attestation when the verification limit holds", () => {
    expect(exitCodeOf(reportOf([...rows("in-sync", 200), rowOf("drifted", 200, true)]))).toBe(3);
    expect(exitCodeOf(reportOf([...rows("in-sync", 200), rowOf("invalid-attestation", 200)]))).toBe(3);
  });

  it("4 when more than the limit went unverified — exactly at the limit is still 0, one more is 4", () => {
    const at = reportOf([...rows("in-sync", 190), ...rows("error", 5, 190), ...rows("missing-attestation", 5, 195)], {
      kind: "count",
      value: 10,
    });
    expect(at.summary.unverified).toEqual({ count: 10, fraction: 0.05, limit: { kind: "count", value: 10 }, allowed: 10, exceeded: false });
    expect(exitCodeOf(at)).toBe(0);
    const over = reportOf([...rows("in-sync", 189), ...rows("error", 6, 189), ...rows("missing-attestation", 5, 195)], {
      kind: "count",
      value: 10,
    });
    expect(over.summary.unverified.exceeded).toBe(true);
    expect(exitCodeOf(over)).toBe(DRIFT_EXIT_CODES.unverified);
  });

  it("4 wins over 3: flips and invalid attestations among too few verified rows do not make the run a drift verdict", () => {
    const mixed = reportOf([rowOf("drifted", 0, true), rowOf("invalid-attestation", 1), ...rows("error", 8, 2)]);
    expect(mixed.summary.flips.passToFail).toBe(1);
    expect(exitCodeOf(mixed)).toBe(4);
    // The same rows under a limit they respect give 3.
    expect(
      exitCodeOf(
        reportOf([rowOf("drifted", 0, true), rowOf("invalid-attestation", 1), ...rows("error", 8, 2)], { kind: "count", value: 8 }),
      ),
    ).toBe(3);
  });

  it("4 when every agent is in error (a wrong --oracle, a service answering 500 or HTML)", () => {
    const all = reportOf(rows("error", 12));
    expect(all.summary.unverified).toMatchObject({ count: 12, fraction: 1, allowed: 0, exceeded: true });
    expect(exitCodeOf(all)).toBe(4);
  });

  it("4 when no agent was scanned, even with --max-errors 100%", () => {
    expect(exitCodeOf(reportOf([]))).toBe(4);
    expect(exitCodeOf(reportOf([], { kind: "percent", value: 100 }))).toBe(4);
  });

  it("the report carries the limit, the count and whether it was exceeded; the default limit applies when none is given", () => {
    const report = reportOf([...rows("in-sync", 3), ...rows("missing-attestation", 1, 3)]);
    expect(report.summary.byStatus).toEqual(countByStatus([...rows("in-sync", 3), ...rows("missing-attestation", 1, 3)]));
    expect(report.summary.unverified).toEqual({
      count: 1,
      fraction: 0.25,
      limit: { kind: "percent", value: 1 },
      allowed: 0,
      exceeded: true,
    });
    expect(JSON.parse(JSON.stringify(report)).summary.unverified.exceeded).toBe(true);
  });

  it("buildReport refuses an invalid limit", () => {
    expect(() => reportOf(rows("in-sync", 1), { kind: "percent", value: 120 })).toThrow(InvalidArgumentError);
  });

  it("the exit codes are the documented ones", () => {
    expect(DRIFT_EXIT_CODES).toEqual({ ok: 0, unexpected: 1, usage: 2, drift: 3, unverified: 4 });
  });
});
