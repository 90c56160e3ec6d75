// The drift job's encoding check looks at sybil codes too: an on-chain sybil code that contradicts the severity the
// service states (attestation or listing) for the same computation, under the configured mapping, is reported.
import { describe, expect, it } from "vitest";
import { createTrustEncoding } from "../../src/config/encodings";
import { checkEncodings, checkSybilEncoding, type SybilStatement } from "../../src/drift/encoding-check";
import type { ScanResult } from "../../src/drift/pipeline";
import type { ServiceData } from "../../src/drift/service-data";
import { newServiceStats } from "../../src/drift/stages/fetch-verify";
import { reportScanHead } from "../../src/drift/stages/report";
import { agent, ENCODING, HOUR, listed, NOW, NOW_S, noRecord, ORACLE, readFailure, record, tierOf, verified } from "./stages/fixtures";

const stated = (score: number, sybilSeverity: string | null, computedAt?: Date | null): SybilStatement => ({
  data: { score, tier: tierOf(score), sybilSeverity, at: NOW, ...(computedAt !== undefined ? { computedAt } : {}) } as ServiceData,
  source: "attestation",
});
/** Written 9 h ago by the fixtures' records: a statement computed 10 h ago is of the same computation. */
const before = new Date((NOW_S - 10 * HOUR) * 1000);
const after = new Date((NOW_S - 8 * HOUR) * 1000);

describe("the sybil encoding check", () => {
  it("is consistent where each record's code is the code of the stated severity, and shows the codes seen", () => {
    const check = checkSybilEncoding(
      [record(60, { sybilCode: 0 }), record(40, { sybilCode: 4 }), record(55, { sybilCode: 1 }), record(70, { sybilCode: 0 })],
      [stated(60, null, before), stated(40, "heavy", before), stated(55, "low"), stated(70, "none", null)],
      ENCODING,
    );
    expect(check).toEqual({ checked: 4, contradictions: 0, consistent: true, examples: [], observed: { none: [0], heavy: [4], low: [1] } });
  });

  it("reports a record whose sybil code contradicts the stated severity under the mapping, and obeys another mapping", () => {
    // The chain writes heavy as 3 and elevated as 4: the kit's default mapping is contradicted, the swapped one is not.
    const records = [record(40, { sybilCode: 3, id: 7n }), record(45, { sybilCode: 4, id: 8n }), record(80, { sybilCode: 0 })];
    const statements = [stated(40, "heavy", before), stated(45, "elevated"), stated(80, null)];
    const check = checkSybilEncoding(records, statements, ENCODING);
    expect(check).toMatchObject({ checked: 3, contradictions: 2, consistent: false, observed: { heavy: [3], elevated: [4], none: [0] } });
    expect(check.examples).toEqual([
      "base:7:erc8004 score=40 sybilCode=3 (stated heavy, code 4; attestation)",
      "base:8:erc8004 score=45 sybilCode=4 (stated elevated, code 3; attestation)",
    ]);
    const swapped = createTrustEncoding({ sybilSeverities: ["none", "low", "moderate", "heavy", "elevated"] });
    expect(checkSybilEncoding(records, statements, swapped)).toMatchObject({ checked: 3, contradictions: 0, consistent: true });
  });

  it("reports a stated severity the mapping has no code for, and a code outside the mapping", () => {
    const check = checkSybilEncoding(
      [record(30, { sybilCode: 4 }), record(31, { sybilCode: 9 })],
      [{ ...stated(30, "critical"), source: "listing" }, stated(31, "heavy")],
      ENCODING,
    );
    expect(check).toMatchObject({ checked: 2, contradictions: 2, observed: { critical: [4], heavy: [9] } });
    expect(check.examples[0]).toBe("base:42:erc8004 score=30 sybilCode=4 (stated critical, no code; listing)");
  });

  it("leaves out what says nothing of the encoding: another score, a later computation, no statement, no record", () => {
    const check = checkSybilEncoding(
      [record(60, { sybilCode: 4 }), record(60, { sybilCode: 4 }), record(60, { sybilCode: 4 }), noRecord, readFailure],
      [stated(61, null, before), stated(60, null, after), undefined, stated(0, null), stated(60, null)],
      ENCODING,
    );
    expect(check).toEqual({ checked: 0, contradictions: 0, consistent: true, examples: [], observed: {} });
  });

  it("is part of the encoding check, beside the tier check", () => {
    const check = checkEncodings([record(80, { tierCode: 0, sybilCode: 2 })], [stated(80, "moderate")], ENCODING);
    expect(check).toMatchObject({ checked: 1, contradictions: 1, consistent: false });
    expect(check.sybil).toMatchObject({ checked: 1, contradictions: 0, consistent: true, observed: { moderate: [2] } });
  });
});

describe("the report's encoding check", () => {
  it("checks each record's sybil code against the verified attestation, or the listing where none was fetched", () => {
    const records = [
      record(60, { sybilCode: 1 }),
      record(45, { sybilCode: 2 }),
      record(70, { sybilCode: 0 }),
      record(52, { sybilCode: 3 }),
    ];
    const scan: ScanResult = {
      rows: [],
      records,
      timings: { listing: 0, onchain: 0, attestations: 0 },
      scanned: {
        candidates: [
          { agent: agent(1), listed: listed(60, "moderate") },
          { agent: agent(2), listed: listed(45, "moderate") },
          { agent: agent(3), listed: listed(70, null) },
          { agent: agent(4), listed: null },
        ],
        // Agent 1 was fetched: its attestation (low) counts, not its listing (moderate). Agents 2 and 3 were not.
        outcomes: [verified(60, "low"), undefined, undefined, undefined],
        fetched: new Set([0]),
      },
    };
    const head = reportScanHead(scan, {
      source: { rpc: "http://rpc", oracle: ORACLE, api: "http://api", issuer: "http://api", chainId: 8453, blockNumber: "1" },
      decisionRule: "score >= 51",
      maxAgeSeconds: 36 * HOUR,
      encoding: ENCODING,
      notes: [],
      runtime: { totalMs: 1, service: newServiceStats() },
      generatedAt: NOW,
    });
    expect(head.summary.encoding.sybil).toEqual({
      checked: 3,
      contradictions: 0,
      consistent: true,
      examples: [],
      observed: { low: [1], moderate: [2], none: [0] },
    });
    const contradicted = reportScanHead(
      { ...scan, records: [record(60, { sybilCode: 4 }), ...records.slice(1)] },
      {
        source: head.source,
        decisionRule: "score >= 51",
        maxAgeSeconds: 36 * HOUR,
        encoding: ENCODING,
        notes: [],
        runtime: { totalMs: 1, service: newServiceStats() },
        generatedAt: NOW,
      },
    );
    expect(contradicted.summary.encoding.sybil).toMatchObject({ checked: 3, contradictions: 1, consistent: false });
    expect(contradicted.summary.encoding.sybil.examples).toEqual([
      "base:42:erc8004 score=60 sybilCode=4 (stated low, code 1; attestation)",
    ]);
  });
});
