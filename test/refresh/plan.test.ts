import { describe, expect, it } from "vitest";
import type { DriftRow, RowRefresh } from "../../src/drift/types";
import { DEFAULT_REFRESH_BATCH_GAS, planRefresh, REFRESH_GAS_ESTIMATE, TRANSACTION_GAS_CAP } from "../../src/refresh/plan";
import type { RefreshInputReport } from "../../src/refresh/report-input";
import { readRefreshInputReport } from "../../src/refresh/report-input";
import { refreshAttestedOracle } from "../../src/refresh/refresh";
import { failToPass, GENERATED_AT, REFRESH_POSSIBLE, report as driftReport, row } from "../cli/report-fixture";

const NOW = new Date(GENERATED_AT); // 2026-11-22T12:00:00Z; the fixture's records are from 03:00, 9 h before
const MAX_AGE = 36 * 3600;

const possible = REFRESH_POSSIBLE;

function blocked(blocker: NonNullable<RowRefresh["blocker"]>, reason = `blocked: ${blocker}`): RowRefresh {
  return { possible: false, blocker, reason, kid: "rnwy-trust-v2", keyStatus: "installed", expiresAt: "2026-11-23T11:59:00.000Z" };
}

function report(rows: DriftRow[], attestedOracle?: string): RefreshInputReport {
  return {
    generatedAt: GENERATED_AT,
    source: { chainId: 8453, blockNumber: "100", ...(attestedOracle ? { attestedOracle: { address: attestedOracle } } : {}) },
    maxAgeSeconds: MAX_AGE,
    agents: rows,
  };
}

/** A drifted row whose score moved by `delta` from 60, with no flip, refreshable unless `refresh` says otherwise. */
function moved(agentId: string, delta: number, refresh: RowRefresh | null = possible): DriftRow {
  return row({
    agentId,
    status: "drifted",
    attested: { score: 60 + delta, tier: "developing", sybilSeverity: "none", attestedAt: GENERATED_AT, kid: "rnwy-trust-v2" },
    scoreDelta: delta,
    refresh,
  });
}

function missing(agentId: string): DriftRow {
  return row({
    agentId,
    status: "missing-onchain",
    onchain: null,
    scoreDelta: null,
    decision: { onchain: false, attested: true, flipped: true },
    refresh: possible,
  });
}

function stale(agentId: string): DriftRow {
  return row({
    agentId,
    status: "stale-onchain",
    onchain: { score: 60, tier: "developing", sybilSeverity: "none", updatedAt: "2026-11-20T03:00:00.000Z" },
    refresh: possible,
  });
}

describe("planRefresh: which rows are due and why", () => {
  it("pushes a flip, a missing record, a stale record and a move past --min-change, each with its reasons", () => {
    const plan = planRefresh(report([moved("1", 12), stale("2"), missing("3"), { ...failToPass("4"), refresh: possible }]), { now: NOW });
    expect(plan.due.map((entry) => [entry.agent, entry.reasons])).toEqual([
      ["base:3:erc8004", ["decision-flip", "missing"]],
      ["base:4:erc8004", ["decision-flip", "score-change"]],
      ["base:2:erc8004", ["stale"]],
      ["base:1:erc8004", ["score-change"]],
    ]);
    expect(plan.due.find((entry) => entry.agent === "base:2:erc8004")!.detail).toBe(
      `its record of 2026-11-20T03:00:00.000Z is ${57 * 3600} s old, over ${MAX_AGE} s`,
    );
    expect(plan.totals.byReason).toEqual({ "decision-flip": 2, missing: 1, stale: 1, "score-change": 2 });
    expect(plan.due.find((entry) => entry.agent === "base:3:erc8004")!.firstRecord).toBe(true);
  });

  it("never pushes a no-op: a row the assessment blocks is skipped with its blocker, whatever rule it meets", () => {
    const plan = planRefresh(report([moved("1", 30, blocked("not-newer")), moved("2", 30, blocked("kid-revoked"))]), { now: NOW });
    expect(plan.due).toEqual([]);
    expect(plan.skipped.map((skip) => [skip.agent, skip.skip, skip.detail])).toEqual([
      ["base:1:erc8004", "not-newer", "blocked: not-newer"],
      ["base:2:erc8004", "kid-revoked", "blocked: kid-revoked"],
    ]);
  });

  it("pushes a row blocked only by the expiry of the attestation the drift run saw (the run fetches a fresh one)", () => {
    const plan = planRefresh(report([moved("1", 30, blocked("expired"))]), { now: NOW });
    expect(plan.due.map((entry) => entry.agent)).toEqual(["base:1:erc8004"]);
  });

  it("skips a row without a verified attestation as no-attestation and a refreshable row under every rule as not-due", () => {
    const plan = planRefresh(report([moved("1", 3), moved("2", 30, null), row({ agentId: "3" })]), { now: NOW });
    expect(plan.skipped.map((skip) => [skip.agent, skip.skip])).toEqual([
      ["base:1:erc8004", "not-due"],
      ["base:2:erc8004", "no-attestation"],
    ]);
    expect(plan.totals).toMatchObject({ due: 0, skipped: 2, inSync: 1, batches: 0, estimatedGas: 0 });
  });

  it("reads --min-change as a strict bound and --max-age at the plan's clock, not the report's", () => {
    expect(planRefresh(report([moved("1", 5)]), { now: NOW, minChange: 5 }).totals.due).toBe(0);
    expect(planRefresh(report([moved("1", 5)]), { now: NOW, minChange: 4 }).totals.due).toBe(1);
    // the fixture's record (03:00) is 9 h old at the report's time; a day later it is 33 h old
    const later = new Date(NOW.getTime() + 24 * 3600 * 1000);
    expect(planRefresh(report([moved("1", 1)]), { now: later }).totals.due).toBe(0);
    expect(planRefresh(report([moved("1", 1)]), { now: later, maxAgeSeconds: 32 * 3600 }).due[0]!.reasons).toEqual(["stale"]);
  });
});

describe("planRefresh: batches under the gas limit", () => {
  it("fills each batch up to the gas limit by the estimate, first records counted at their higher price", () => {
    const rows = [...Array.from({ length: 7 }, (_, i) => moved(String(10 + i), 20)), missing("1")];
    const gasLimit = REFRESH_GAS_ESTIMATE.transaction + 3 * REFRESH_GAS_ESTIMATE.newerRecord;
    const plan = planRefresh(report(rows), {
      now: NOW,
      gasLimit: gasLimit + REFRESH_GAS_ESTIMATE.firstRecord - REFRESH_GAS_ESTIMATE.newerRecord,
    });
    // the missing record (a flip) first: it and two newer records fill the first batch
    expect(plan.batches.map((batch) => batch.agents.length)).toEqual([3, 3, 2]);
    expect(plan.batches[0]!.agents[0]).toBe("base:1:erc8004");
    for (const batch of plan.batches) expect(batch.estimatedGas).toBeLessThanOrEqual(plan.settings.gasLimit);
    expect(plan.batches[0]!.estimatedGas).toBe(
      REFRESH_GAS_ESTIMATE.transaction + REFRESH_GAS_ESTIMATE.firstRecord + 2 * REFRESH_GAS_ESTIMATE.newerRecord,
    );
    expect(plan.due.map((entry) => entry.batch)).toEqual([0, 0, 0, 1, 1, 1, 2, 2]);
    expect(plan.totals.estimatedGas).toBe(plan.batches.reduce((sum, batch) => sum + batch.estimatedGas, 0));
  });

  it("puts 113 newer records in one batch at the default gas limit", () => {
    const rows = Array.from({ length: 140 }, (_, i) => moved(String(i + 1), 20));
    const plan = planRefresh(report(rows), { now: NOW });
    const perBatch = Math.floor((DEFAULT_REFRESH_BATCH_GAS - REFRESH_GAS_ESTIMATE.transaction) / REFRESH_GAS_ESTIMATE.newerRecord);
    expect(perBatch).toBe(113);
    expect(plan.batches.map((batch) => batch.agents.length)).toEqual([113, 27]);
  });

  it("refuses a gas limit at or over 2^24, or under one first record, and negative or non-finite rules", () => {
    const input = report([moved("1", 20)]);
    expect(() => planRefresh(input, { gasLimit: TRANSACTION_GAS_CAP })).toThrow(/under 16777216 \(2\^24/);
    expect(() => planRefresh(input, { gasLimit: 139_999 })).toThrow(/from 140000 \(one first record\)/);
    expect(() => planRefresh(input, { minChange: -1 })).toThrow(/minChange must be/);
    expect(() => planRefresh(input, { maxAgeSeconds: 0 })).toThrow(/maxAgeSeconds must be/);
    expect(planRefresh(input, { gasLimit: TRANSACTION_GAS_CAP - 1 }).settings.gasLimit).toBe(TRANSACTION_GAS_CAP - 1);
  });
});

describe("readRefreshInputReport", () => {
  const full = driftReport([moved("1", 20), missing("2"), row({ agentId: "3" })]);

  it("reads the JSON drift writes and plans from it what it plans from the report itself", () => {
    const text = JSON.stringify(full);
    const read = readRefreshInputReport(text, "report.json");
    expect(planRefresh(read, { now: NOW })).toEqual(planRefresh(full, { now: NOW }));
  });

  it("names the file and the field that is wrong, and refuses what is not JSON", () => {
    const broken = JSON.parse(JSON.stringify(full)) as { agents: { refresh: { kid?: string } | null }[] };
    delete broken.agents.find((agent) => agent.refresh !== null)!.refresh!.kid;
    const index = broken.agents.findIndex((agent) => agent.refresh !== null);
    expect(() => readRefreshInputReport(JSON.stringify(broken), "report.json")).toThrow(
      new RegExp(`^report\\.json is not a drift JSON report the refresh can read: agents\\[${index}\\]\\.refresh\\.kid: `),
    );
    expect(() => readRefreshInputReport("# Drift report", "report.md")).toThrow(/^report\.md is not JSON/);
    expect(() => readRefreshInputReport(JSON.stringify({ ...full, version: 2 }), "r.json")).toThrow(/: version: /);
  });
});

describe("refreshAttestedOracle({ dryRun: true })", () => {
  it("returns the plan alone and touches neither the chain nor the service", async () => {
    const untouchable = new Proxy(
      {},
      {
        get: (_target, name) => {
          throw new Error(`a dry run used ${String(name)}`);
        },
      },
    );
    const input = report([moved("1", 20), missing("2")]);
    const result = await refreshAttestedOracle(input, {
      now: NOW,
      dryRun: true,
      clients: untouchable as never,
      api: untouchable as never,
      jwks: untouchable as never,
      issuer: "https://rnwy.com",
      attestedOracle: "0x0000000000000000000000000000000000000001",
    });
    expect(result).toEqual({ plan: planRefresh(input, { now: NOW }) });
  });
});
