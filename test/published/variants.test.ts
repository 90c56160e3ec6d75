// The published shapes read every published variant and refuse what carries no verifiable payload.
import { describe, expect, it } from "vitest";
import {
  attestationSchema,
  explorerProfileSchema,
  mcpServerSignedSchema,
  riskTermsSchema,
  trustCheckSchema,
  trustSignedV1Schema,
  trustSignedV2Schema,
} from "../../src/published/index.js";

const envelope = {
  issuer: "https://rnwy.com",
  type: "behavioral_trust",
  kid: "rnwy-trust-v2",
  alg: "ES256",
  jwks: "https://rnwy.com/.well-known/jwks.json",
};
const jwt = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln";
const base = { agentId: 1, chain: "base", score: 60, tier: "developing" };

describe("the published shapes accept every published variant", () => {
  it("agentId number or string; sybilSeverity null, a name, none or absent; badges object or flat array", () => {
    const attestation = { ...envelope, signed: { a: 1 }, sig: "AAAA" };
    for (const variant of [
      { ...base, sybilSeverity: null, badges: { earned: ["original_owner"], warnings: [] } },
      { ...base, agentId: "1", sybilSeverity: "none", badges: ["original_owner"] },
      { ...base, sybilSeverity: "heavy" },
      { ...base },
    ]) {
      expect(trustCheckSchema.safeParse({ ...variant, attestation, unknownField: 7 }).success).toBe(true);
    }
    const kept = trustCheckSchema.parse({ ...base, attestation, attestationV1: attestation, extra: { x: 1 } });
    expect(kept.extra).toEqual({ x: 1 });
    expect(kept.attestationV1?.kid).toBe("rnwy-trust-v2");
  });

  it("sig only, jws only, both; signed null only with a compact JWS", () => {
    expect(attestationSchema.safeParse({ ...envelope, signed: {}, sig: "AAAA" }).success).toBe(true);
    expect(attestationSchema.safeParse({ ...envelope, signed: {}, jws: jwt }).success).toBe(true);
    expect(attestationSchema.safeParse({ ...envelope, signed: {}, sig: "AAAA", jws: jwt }).success).toBe(true);
    expect(attestationSchema.safeParse({ ...envelope, signed: null, sig: jwt }).success).toBe(true);
    expect(attestationSchema.safeParse({ ...envelope, signed: null, sig: "AAAA" }).success).toBe(false);
    expect(attestationSchema.safeParse({ ...envelope, signed: {} }).success).toBe(false);
  });

  it("v1 and v2 signed blocks", () => {
    const v2 = {
      agentId: "1",
      chain: "base",
      registry: "erc8004",
      owner: "0xab",
      score: 1,
      tier: "flagged",
      badges: [],
      sybilSeverity: null,
      sybilSignals: [],
      issuedAt: "t",
      verifiedAt: "t",
      expiry: "t",
    };
    const v1 = {
      agentId: 1,
      chain: "base",
      registry: "erc8004",
      score: 1,
      tier: "flagged",
      badges: [],
      sybilSeverity: "none",
      sybilSignals: [],
      attestedAt: "t",
    };
    expect(trustSignedV2Schema.safeParse(v2).success).toBe(true);
    expect(trustSignedV1Schema.safeParse(v1).success).toBe(true);
    expect(trustSignedV2Schema.safeParse(v1).success).toBe(false);
  });

  it("risk-terms in the SDK's snake_case shape; the kit's first camelCase shape is refused loudly", () => {
    expect(
      riskTermsSchema.safeParse({ recommendation: "terms", agent_id: 1, chain: "base", risk_tier: { level: 1, label: "low" } }).success,
    ).toBe(true);
    expect(riskTermsSchema.safeParse({ agentId: 1, chain: "base", riskTier: "low" }).success).toBe(false);
  });

  it("an explorer profile's ownership with the SDK's four fields, each typed when present", () => {
    const profile = (ownership: unknown) => ({ agent: { id: 7, owner: "0xabc", ownership } });
    const four = { isOriginalOwner: false, transferCount: 2, originalOwner: "0xdef", transfers: [{}, {}] };
    for (const ownership of [four, {}, null, undefined]) expect(explorerProfileSchema.safeParse(profile(ownership)).success).toBe(true);
    for (const wrong of [
      { transferCount: "2" },
      { isOriginalOwner: "no" },
      { originalOwner: 1 },
      { transfers: {} },
      { transferCount: -1 },
    ]) {
      expect(explorerProfileSchema.safeParse(profile({ ...four, ...wrong })).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it("the MCP server form's signed block as insumer spec v1.2 §3.12 lists it", () => {
    const signed = {
      server: "acme/search",
      qualityScore: 100,
      riskScore: 3,
      quadrant: "high_quality_low_risk",
      breakdown: { quality: {}, risk: {}, version: "1", quadrant: "high_quality_low_risk" },
      issuedAt: "t",
      verifiedAt: "t",
      expiry: "t",
    };
    expect(mcpServerSignedSchema.safeParse(signed).success).toBe(true);
    expect(mcpServerSignedSchema.safeParse({ ...signed, qualityScore: 100.5 }).success).toBe(false);
    const { expiry: _expiry, ...withoutExpiry } = signed;
    expect(mcpServerSignedSchema.safeParse(withoutExpiry).success).toBe(false);
  });
});
