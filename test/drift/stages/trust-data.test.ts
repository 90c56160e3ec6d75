import { describe, expect, it } from "vitest";
import { createTrustEncoding } from "../../../src/config/encodings";
import { sameTrustData, statedRecord, sybilSeverityCodeOf, UNENCODED_CODE } from "../../../src/drift/trust-data";
import { ENCODING } from "./fixtures";

const chain = (score: number, tier: number, sybilSeverity = 0) => ({ score, tier, sybilSeverity });

describe("sameTrustData: does the chain say the same as the service", () => {
  it("is empty when score, tier and sybil severity agree", () => {
    expect(sameTrustData(chain(60, 2, 0), { score: 60, tier: "developing", sybilSeverity: "none" }, ENCODING)).toEqual([]);
  });

  it("names each differing field, in score, tier, sybil order", () => {
    expect(sameTrustData(chain(60, 2, 0), { score: 45, tier: "limited", sybilSeverity: "low" }, ENCODING)).toEqual([
      "score",
      "tier",
      "sybilSeverity",
    ]);
    expect(sameTrustData(chain(60, 2, 1), { score: 60, tier: "developing", sybilSeverity: "none" }, ENCODING)).toEqual(["sybilSeverity"]);
  });

  it("reads the service's null sybil severity and the legacy none alike, case-insensitively", () => {
    for (const sybilSeverity of [null, "none", "NONE", " None "]) {
      expect(sameTrustData(chain(60, 2, 0), { score: 60, tier: "Developing", sybilSeverity }, ENCODING)).toEqual([]);
    }
  });

  it("names on-chain codes under the encoding given", () => {
    const swapped = createTrustEncoding({ tiers: ["established", "developing", "limited", "flagged"] });
    expect(sameTrustData(chain(60, 1, 0), { score: 60, tier: "developing", sybilSeverity: null }, swapped)).toEqual([]);
    expect(sameTrustData(chain(60, 1, 0), { score: 60, tier: "developing", sybilSeverity: null }, ENCODING)).toEqual(["tier"]);
  });

  it("an on-chain code outside the encoding equals no name, and an unknown service word differs", () => {
    expect(sameTrustData(chain(60, 9, 0), { score: 60, tier: "developing", sybilSeverity: null }, ENCODING)).toEqual(["tier"]);
    expect(sameTrustData(chain(60, 2, 7), { score: 60, tier: "developing", sybilSeverity: null }, ENCODING)).toEqual(["sybilSeverity"]);
    expect(sameTrustData(chain(60, 2, 0), { score: 60, tier: "developing", sybilSeverity: "unknown" }, ENCODING)).toEqual([
      "sybilSeverity",
    ]);
  });

  it("compares two statements of the service (a listing against an attestation), skipping fields left out", () => {
    expect(sameTrustData({ score: 60 }, { score: 60, tier: "developing", sybilSeverity: "low" }, ENCODING)).toEqual([]);
    expect(sameTrustData({ score: 60, tier: "LIMITED" }, { score: 60, tier: "developing", sybilSeverity: null }, ENCODING)).toEqual([
      "tier",
    ]);
    expect(sameTrustData({ score: 60, sybilSeverity: null }, { score: 61, tier: "developing", sybilSeverity: "none" }, ENCODING)).toEqual([
      "score",
    ]);
  });
});

describe("sybilSeverityCodeOf: the one name → code mapping for decisions", () => {
  it("maps names (null is none) and leaves unknown or absent ones undefined", () => {
    expect(sybilSeverityCodeOf(null, ENCODING)).toBe(0);
    expect(sybilSeverityCodeOf("Elevated", ENCODING)).toBe(3);
    expect(sybilSeverityCodeOf("unknown", ENCODING)).toBeUndefined();
    expect(sybilSeverityCodeOf(undefined, ENCODING)).toBeUndefined();
  });
});

describe("statedRecord: the service's words as the oracle record they stand for", () => {
  it("encodes tier and sybil names under the encoding, null as none, and keeps score and time", () => {
    expect(statedRecord({ score: 60, tier: "Developing", sybilSeverity: null }, 1_700_000_000, ENCODING)).toEqual({
      score: 60,
      tier: 2,
      sybilSeverity: 0,
      updatedAt: 1_700_000_000,
    });
    const swapped = createTrustEncoding({ tiers: ["established", "developing", "limited", "flagged"] });
    expect(statedRecord({ score: 80, tier: "established", sybilSeverity: "heavy" }, 1, swapped)).toMatchObject({
      tier: 0,
      sybilSeverity: 4,
    });
  });

  it("gives a name the encoding lacks a code above every uint8 limit, so that a gate refuses it", () => {
    const record = statedRecord({ score: 90, tier: "stellar", sybilSeverity: "extreme" }, 1, ENCODING);
    expect(record).toMatchObject({ tier: UNENCODED_CODE, sybilSeverity: UNENCODED_CODE });
    expect(UNENCODED_CODE).toBeGreaterThan(255);
  });
});
