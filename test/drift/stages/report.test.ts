import { describe, expect, it } from "vitest";
import type { ScanResult } from "../../../src/drift/pipeline";
import { exitCodeOf } from "../../../src/drift/verdict";
import { compareCandidates } from "../../../src/drift/stages/compare";
import { newServiceStats } from "../../../src/drift/stages/fetch-verify";
import { reportScan } from "../../../src/drift/stages/report";
import { agent, context, ENCODING, NOW, ORACLE, record, verified } from "./fixtures";

describe("report as a stage", () => {
  const records = [record(60), record(60, { tierCode: 0 })];
  const candidates = [{ agent: agent(1) }, { agent: agent(2) }];
  const scan: ScanResult = {
    rows: compareCandidates(candidates, records, [verified(60), verified(45)], [], context),
    records,
    timings: { listing: 1, onchain: 2, attestations: 3 },
  };
  const report = reportScan(scan, {
    source: { rpc: "http://rpc", oracle: ORACLE, api: "http://api", issuer: "http://api", chainId: 8453, blockNumber: "1" },
    decisionRule: "score >= 51",
    maxAgeSeconds: context.maxAgeSeconds,
    encoding: ENCODING,
    notes: [],
    runtime: { totalMs: 10, service: { ...newServiceStats(), requests: 2 } },
    generatedAt: NOW,
  });

  it("summarises the rows, checks the encoding against the records read and attaches the runtime", () => {
    expect(report.summary.agents).toBe(2);
    expect(report.summary.flips).toEqual({ passToFail: 1, failToPass: 0 });
    expect(report.summary.encoding).toMatchObject({ checked: 2, contradictions: 1 });
    expect(report.summary.triage).toBeUndefined();
    expect(report.notes).toBeUndefined();
    expect(report.runtime).toMatchObject({ totalMs: 10, listingMs: 1, onchainMs: 2, attestationsMs: 3, serviceRequests: 2 });
    expect(report.agents[0]!.agentId).toBe("2"); // the flip first
    expect(exitCodeOf(report)).toBe(3);
  });
});
