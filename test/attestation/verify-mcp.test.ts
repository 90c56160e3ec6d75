// The MCP `?server=` form as insumer spec v1.2 §3.12 publishes it: type mcp_trust, a signed expiry that is the
// window (never a lifetime the kit implies), every signed field the spec lists, qualityScore within 0-100.
import type { JSONWebKeySet } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { type VerifyMcpAttestationParameters, verifyMcpAttestation } from "../../src/attestation/verify-mcp.js";
import { ATTESTATION_TYPES } from "../../src/config/service.js";
import { createAttestation } from "../../src/harness/signing.js";
import { buildMcpAttestationResponse, generateTestKeys, jwksOf, TEST_ISSUER, TEST_NOW, type TestKeys } from "../support/attestations.js";

const HOUR_MS = 3_600_000;

let keys: TestKeys;
let jwks: JSONWebKeySet;
let resolver: JwksResolver;

const opts = (extra: VerifyMcpAttestationParameters = {}): VerifyMcpAttestationParameters => ({ jwks: resolver, now: TEST_NOW, ...extra });
const server = (serverFields: Record<string, unknown> = {}, extra: { issuedAt?: Date; expiresAt?: Date } = {}) =>
  buildMcpAttestationResponse(keys.mcp, { form: "server", canonicalId: "acme/search", serverFields, ...extra });

beforeAll(async () => {
  keys = await generateTestKeys();
  jwks = jwksOf(keys.v1, keys.v2, keys.wallet, keys.mcp);
  resolver = createJwksResolver({ keys: jwks });
});

describe("MCP attestations in the server form", () => {
  it("are of type mcp_trust, the name the spec gives them", async () => {
    expect(ATTESTATION_TYPES.mcp).toBe("mcp_trust");
    const response = await server();
    expect(response.attestation.type).toBe("mcp_trust");
    expect(await verifyMcpAttestation(response, opts({ expected: { server: "acme/search" } }))).toMatchObject({
      valid: true,
      version: "server",
      kid: "rnwy-mcp-v1",
    });
  });

  it("expire at their signed expiry, which no lifetime option shortens or extends", async () => {
    const signedExpiry = new Date(TEST_NOW.getTime() + 2 * HOUR_MS);
    const response = await server({}, { issuedAt: new Date(TEST_NOW.getTime() - 40 * HOUR_MS), expiresAt: signedExpiry });
    // Issued 40 h ago: an implied 24 h lifetime would have expired it; the signed expiry is what counts.
    const result = await verifyMcpAttestation(response, opts());
    expect(result).toMatchObject({ valid: true });
    expect(result.expiresAt?.toISOString()).toBe(signedExpiry.toISOString());
    expect((await verifyMcpAttestation(response, opts({ lifetimeSeconds: 60 }))).expiresAt?.toISOString()).toBe(signedExpiry.toISOString());

    const expired = await server({}, { expiresAt: new Date(TEST_NOW.getTime() - HOUR_MS) });
    for (const lifetimeSeconds of [undefined, 48 * 3600]) {
      expect(await verifyMcpAttestation(expired, opts(lifetimeSeconds === undefined ? {} : { lifetimeSeconds }))).toMatchObject({
        valid: false,
        reason: "expired",
        field: "expiry",
      });
    }
  });

  it("read their signed times by the RFC 3339 grammar of every signed time, to the second, and refuse other forms", async () => {
    const issued = new Date(TEST_NOW.getTime() - HOUR_MS);
    const east = `${new Date(issued.getTime() + 330 * 60_000).toISOString().slice(0, 19)}.123456+05:30`;
    const expiry = `${new Date(issued.getTime() + 24 * HOUR_MS - 480 * 60_000).toISOString().slice(0, 19)}-08:00`;
    const offsets = await server({ issuedAt: east, verifiedAt: east, expiry });
    const verdict = await verifyMcpAttestation(offsets, opts());
    expect(verdict).toMatchObject({ valid: true });
    expect(verdict.issuedAt?.getTime()).toBe(Math.floor(issued.getTime() / 1000) * 1000);
    expect(verdict.expiresAt?.getTime()).toBe(Math.floor((issued.getTime() + 24 * HOUR_MS) / 1000) * 1000);
    for (const [field, value] of [
      ["expiry", expiry.replace("-08:00", "-0800")],
      ["issuedAt", "1748772000"],
      ["verifiedAt", east.replace("T", " ")],
    ] as const) {
      expect(await verifyMcpAttestation(await server({ [field]: value }), opts()), field).toMatchObject({
        valid: false,
        reason: "invalid-time",
        field,
      });
    }
  });

  it("are malformed without a signed expiry, or without another field the spec signs", async () => {
    for (const field of ["expiry", "verifiedAt", "issuedAt", "qualityScore", "riskScore", "quadrant"]) {
      const response = await server({ [field]: undefined });
      expect(await verifyMcpAttestation(response, opts()), field).toMatchObject({ valid: false, reason: "malformed", field });
    }
    const noBreakdown = await server({ breakdown: undefined });
    expect((await verifyMcpAttestation(noBreakdown, opts())).valid).toBe(true);
  });

  it("read qualityScore on 0-100 and breakdown as an object", async () => {
    expect((await verifyMcpAttestation(await server({ qualityScore: 100 }), opts())).valid).toBe(true);
    expect((await verifyMcpAttestation(await server({ qualityScore: 0 }), opts())).valid).toBe(true);
    for (const [field, value] of [
      ["qualityScore", 101],
      ["qualityScore", -1],
      ["qualityScore", "77"],
      ["breakdown", "quality 77"],
      ["breakdown", null],
      ["server", 7],
      ["expiry", true],
    ] as const) {
      const response = await server({ [field]: value });
      expect(await verifyMcpAttestation(response, opts()), `${field}=${JSON.stringify(value)}`).toMatchObject({
        valid: false,
        reason: "malformed",
        field,
      });
    }
  });

  it("refuse a verifiedAt after now, and a body that contradicts the signed breakdown", async () => {
    const future = await server({ verifiedAt: new Date(TEST_NOW.getTime() + HOUR_MS).toISOString() });
    expect(await verifyMcpAttestation(future, opts())).toMatchObject({ valid: false, reason: "issued-in-future", field: "verifiedAt" });
    const response = await server();
    expect(await verifyMcpAttestation({ ...response, breakdown: { quality: {} } }, opts())).toMatchObject({
      valid: false,
      reason: "field-mismatch",
      field: "breakdown",
    });
  });

  it("refuse a JWS payload that starts with U+FEFF: the bytes as they are are not JSON (no reader drops the mark)", async () => {
    const response = await server();
    const signed = response.attestation.signed;
    if (signed === null) throw new Error("the fixture signs a block");
    const bytes = Buffer.from(`\uFEFF${JSON.stringify(signed)}`, "utf8");
    const attestation = await createAttestation(signed, keys.mcp, {
      issuer: TEST_ISSUER,
      type: ATTESTATION_TYPES.mcp,
      form: "jws",
      signing: { jwsPayload: bytes },
    });
    expect(await verifyMcpAttestation({ ...response, attestation }, opts())).toMatchObject({
      valid: false,
      reason: "malformed",
      field: "json",
      offset: 0,
    });
  });

  it("are not trust-check attestations", async () => {
    const response = await server();
    expect(await verifyTrustAttestation(response, opts({ acceptedKids: ["rnwy-mcp-v1"] }))).toMatchObject({
      valid: false,
      reason: "type-mismatch",
      field: "server",
    });
  });
});
