/**
 * Every variant the service publishes is read (docs/service-api.md), and only what a signature
 * covers is handed back as signed. Signatures are real ES256 signatures made here.
 */
import type { JSONWebKeySet } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createJwksResolver,
  type JwksResolver,
  type VerifyTrustAttestationParameters,
  verifyTrustAttestation,
  verifyWalletScoreAttestation,
} from "../../src/attestation/verify.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { createAttestation, signPayload } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  buildWalletScoreResponse,
  clone,
  generateTestKeys,
  jwksOf,
  makeHighS,
  P256_ORDER,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";

const HOUR_MS = 3_600_000;
let keys: TestKeys;
let jwks: JSONWebKeySet;
let resolver: JwksResolver;
const opts = (extra: VerifyTrustAttestationParameters = {}): VerifyTrustAttestationParameters => ({
  jwks: resolver,
  now: TEST_NOW,
  ...extra,
});

beforeAll(async () => {
  keys = await generateTestKeys();
  jwks = jwksOf(keys.v1, keys.v2, keys.wallet, keys.mcp);
  resolver = createJwksResolver({ keys: jwks });
});

describe("trust-check: the published v2 shape", () => {
  it("accepts a string agentId, null sybil severity and flat snake_case badges, and separates signed from unsigned", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { agent: { sybilSeverity: null, agentId: 16907 } });
    expect(response.attestation.signed).toMatchObject({ agentId: "16907", sybilSeverity: null, sybilSignals: [] });
    expect(response.attestation.type).toBe("behavioral_trust");
    const result = await verifyTrustAttestation(response, opts({ expected: { agentId: 16907, chain: "base" } }));
    expect(result).toMatchObject({ valid: true, version: "v2", source: "attestation" });
    if (!result.valid) throw new Error(result.message);
    expect(result.signed).toEqual(response.attestation.signed);
    expect(result.unsignedFields).toEqual([
      "name",
      "threshold",
      "pass",
      "reason",
      "isOriginalOwner",
      "feedbackCount",
      "ageDays",
      "checkedAt",
    ]);
    expect(result.unsigned).toMatchObject({ pass: true, threshold: 50, isOriginalOwner: true });
    expect(result.message).toMatch(/not signed: name, threshold, pass/);
  });

  it("reads null, none and an absent value as the same 'no sybil signal', and never as a named severity", async () => {
    const nullSigned = await buildTrustCheckResponse(keys.v2, { agent: { sybilSeverity: null } });
    expect((await verifyTrustAttestation({ ...clone(nullSigned), sybilSeverity: "none" }, opts())).valid).toBe(true);
    expect((await verifyTrustAttestation({ ...clone(nullSigned), sybilSeverity: "NONE" }, opts())).valid).toBe(true);
    expect(await verifyTrustAttestation({ ...clone(nullSigned), sybilSeverity: "low" }, opts())).toMatchObject({
      valid: false,
      field: "sybilSeverity",
    });
    const legacyNone = await buildV1TrustCheckResponse(keys.v1, { agent: { sybilSeverity: "none" } });
    expect((await verifyTrustAttestation({ ...clone(legacyNone), sybilSeverity: null }, opts())).valid).toBe(true);
  });

  it("accepts a numeric agentId in the signed block and a flat badge array in the body", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { extraSigned: {} });
    const signed = { ...response.attestation.signed, agentId: 1487 };
    const numeric = {
      ...clone(response),
      attestation: await createAttestation(signed, keys.v2, { issuer: "https://rnwy.com", type: "behavioral_trust" }),
    };
    expect((await verifyTrustAttestation(numeric, opts())).valid).toBe(true);
    const flat = { ...clone(response), badges: ["low_history_reviewers", "original_owner", "established_wallet"] };
    expect((await verifyTrustAttestation(flat, opts())).valid).toBe(true);
  });

  it("tells when the score was computed (issuedAt) from when it was signed (verifiedAt), and expires 24 h after signing", async () => {
    const computed = new Date(TEST_NOW.getTime() - 9 * HOUR_MS);
    const signedAt = new Date(TEST_NOW.getTime() - 20 * 60_000);
    const response = await buildTrustCheckResponse(keys.v2, { issuedAt: computed, verifiedAt: signedAt });
    const result = await verifyTrustAttestation(response, opts());
    expect(result.valid).toBe(true);
    expect(result.issuedAt?.getTime()).toBe(computed.getTime());
    expect(result.verifiedAt?.getTime()).toBe(signedAt.getTime());
    expect(result.expiresAt?.getTime()).toBe(signedAt.getTime() + 24 * HOUR_MS);
    const justAfter = await verifyTrustAttestation(response, opts({ now: signedAt.getTime() + 24 * HOUR_MS + 61_000 }));
    expect(justAfter).toMatchObject({ valid: false, reason: "expired", field: "expiry" });
    const computedYesterday = await verifyTrustAttestation(response, opts({ now: computed.getTime() + 25 * HOUR_MS }));
    expect(computedYesterday.valid).toBe(true);
  });

  it("refuses a verifiedAt in the future even when issuedAt is in the past", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { verifiedAt: new Date(TEST_NOW.getTime() + 10 * 60_000) });
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "issued-in-future", field: "verifiedAt" });
  });
});

describe("trust-check: signatures in every published form", () => {
  it.each(["sig", "jws", "both"] as const)("accepts high-S signatures (%s), which the service does not avoid", async (which) => {
    const response = await buildTrustCheckResponse(keys.v2);
    if (which === "sig") delete response.attestation.jws;
    if (which === "jws") delete response.attestation.sig;
    makeHighS(response.attestation);
    const s = (sig: Buffer) => BigInt(`0x${sig.subarray(32).toString("hex")}`);
    if (response.attestation.sig) expect(s(Buffer.from(response.attestation.sig, "base64")) > P256_ORDER / 2n).toBe(true);
    if (response.attestation.jws) expect(s(Buffer.from(response.attestation.jws.split(".")[2]!, "base64url")) > P256_ORDER / 2n).toBe(true);
    const result = await verifyTrustAttestation(response, opts());
    expect(result.valid).toBe(true);
  });

  it("refuses a high-S signature over other bytes", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    makeHighS(response.attestation);
    response.attestation.signed.score = 90;
    response.score = 90;
    // The jws still verifies over its own (original) bytes, which the changed block no longer equals.
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({
      valid: false,
      reason: "payload-mismatch",
      field: "score",
      verified: { jws: true, sig: false },
    });
    // Without the jws, the sig verifies over neither serialisation of the changed block.
    delete response.attestation.jws;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({
      valid: false,
      reason: "bad-legacy-signature",
      verified: { jws: "absent", sig: false },
    });
  });
});

describe("trust-check: issuer as configured", () => {
  it("treats did:web:rnwy.com and https://rnwy.com as the same issuer, both ways", async () => {
    const didWeb = await buildTrustCheckResponse(keys.v2, { issuer: "did:web:rnwy.com" });
    expect((await verifyTrustAttestation(didWeb, opts())).valid).toBe(true);
    const https = await buildTrustCheckResponse(keys.v2);
    expect((await verifyTrustAttestation(https, opts({ issuer: "did:web:rnwy.com" }))).valid).toBe(true);
    expect(await verifyTrustAttestation(didWeb, opts({ issuer: "did:web:evil.example" }))).toMatchObject({
      valid: false,
      reason: "issuer-mismatch",
    });
  });

  it("derives the JWKS of a did:web issuer from its host, and needs it given for any other issuer that is not a URL", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { issuer: "did:web:127.0.0.1%3A9" });
    const unreachable = await verifyTrustAttestation(response, { issuer: "did:web:127.0.0.1%3A9", now: TEST_NOW });
    expect(unreachable).toMatchObject({ valid: false, reason: "jwks-unavailable" });
    expect(unreachable.message).toMatch(/127\.0\.0\.1:9\/\.well-known\/jwks\.json/);
    await expect(verifyTrustAttestation(response, { issuer: "rnwy", now: TEST_NOW })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe("trust-check: wallet lookups and the kid migration window", () => {
  it("verifies attestationV1 when a response carries only it, and attestation (v2) when it carries both", async () => {
    const v2 = await buildTrustCheckResponse(keys.v2);
    const v1 = await buildV1TrustCheckResponse(keys.v1, {
      agent: { sybilSeverity: "low" },
      badges: v2.badges as { earned: string[]; warnings: string[] },
    });
    const both = { ...clone(v2), attestationV1: v1.attestation };
    expect(await verifyTrustAttestation(both, opts())).toMatchObject({ valid: true, source: "attestation", kid: "rnwy-trust-v2" });
    const { attestation: _a, ...onlyV1 } = both;
    expect(await verifyTrustAttestation(onlyV1, opts())).toMatchObject({
      valid: true,
      source: "attestationV1",
      kid: "rnwy-trust-v1",
      version: "v1",
    });
  });

  it("checks a wallet lookup against the signed owner", async () => {
    const v2 = await buildTrustCheckResponse(keys.v2);
    expect((await verifyTrustAttestation(v2, opts({ expected: { wallet: v2.owner!.toUpperCase().replace("0X", "0x") } }))).valid).toBe(
      true,
    );
    expect(await verifyTrustAttestation(v2, opts({ expected: { wallet: "0x2222222222222222222222222222222222222222" } }))).toMatchObject({
      valid: false,
      reason: "subject-mismatch",
      field: "owner",
    });
  });

  it("never lets a signed found:false make agent fields in the body valid", async () => {
    const notFound = await buildWalletNotFoundResponse(keys.v2);
    for (const [field, value] of [
      ["agentId", 7],
      ["tier", "established"],
      ["owner", "0x00000000000000000000000000000000deadbeef"],
      ["badges", { earned: ["original_owner"], warnings: [] }],
      ["pass", true],
    ] as const) {
      const verdict = await verifyTrustAttestation({ ...clone(notFound), [field]: value }, opts());
      expect(verdict).toMatchObject({ valid: false, reason: "field-mismatch", field });
    }
  });
});

describe("trust-check: kinds are bound to their kids and types", () => {
  it("refuses a wallet-score attestation presented as a trust-check one, by type and by its signed block", async () => {
    const wallet = await buildWalletScoreResponse(keys.wallet);
    expect(await verifyTrustAttestation(wallet, opts())).toMatchObject({ valid: false, reason: "type-mismatch", field: "type" });
    const untyped = clone(wallet);
    delete untyped.attestation.type;
    expect(await verifyTrustAttestation(untyped, opts())).toMatchObject({ valid: false, reason: "kid-not-accepted" });
    const widened = await verifyTrustAttestation(untyped, opts({ acceptedKids: ["rnwy-trust-v2", "rnwy-wallet-v1"] }));
    expect(widened).toMatchObject({ valid: false, reason: "type-mismatch", field: "signalDepth" });
  });
});

describe("verifyWalletScoreAttestation", () => {
  it("accepts the JWT-style claims carried in sig (signed: null) or in jws, and hands back the claims", async () => {
    for (const carrier of ["sig", "jws"] as const) {
      const response = await buildWalletScoreResponse(keys.wallet, { carrier });
      const result = await verifyWalletScoreAttestation(
        response,
        opts({ expected: { wallet: "0x6887DCE558F76F36C281200FBC8E5D3DA1241AEA" } }),
      );
      expect(result).toMatchObject({ valid: true, kid: "rnwy-wallet-v1", version: "scored" });
      expect(result.signed).toMatchObject({ signalDepth: 71, riskIntensity: 4, quadrant: "high_depth_low_risk", iss: "https://rnwy.com" });
      expect(result.verified[carrier]).toBe(true);
      expect(result.expiresAt?.getTime()).toBe(TEST_NOW.getTime() - 10 * 60_000 + 24 * HOUR_MS);
    }
  });

  it("accepts a signed found:false for an unscored wallet, and refuses score fields next to it", async () => {
    const response = await buildWalletScoreResponse(keys.wallet, { notFound: true });
    expect(await verifyWalletScoreAttestation(response, opts())).toMatchObject({ valid: true, version: "wallet-not-found" });
    expect(await verifyWalletScoreAttestation({ ...response, signalDepth: 80 }, opts())).toMatchObject({
      valid: false,
      reason: "field-mismatch",
      field: "signalDepth",
    });
  });

  it("refuses a trust-check attestation, a body that contradicts the claims, another wallet, another iss, and an expired one", async () => {
    const trust = await buildTrustCheckResponse(keys.v2);
    expect(await verifyWalletScoreAttestation(trust, opts())).toMatchObject({ valid: false, reason: "type-mismatch", field: "type" });
    const untyped = clone(trust);
    delete untyped.attestation.type;
    expect(await verifyWalletScoreAttestation(untyped, opts())).toMatchObject({ valid: false, reason: "kid-not-accepted" });
    expect(await verifyWalletScoreAttestation(untyped, opts({ acceptedKids: ["rnwy-wallet-v1", "rnwy-trust-v2"] }))).toMatchObject({
      valid: false,
      reason: "type-mismatch",
      field: "agentId",
    });
    const response = await buildWalletScoreResponse(keys.wallet);
    expect(await verifyWalletScoreAttestation({ ...response, riskIntensity: 0 }, opts())).toMatchObject({
      valid: false,
      field: "riskIntensity",
    });
    expect(
      await verifyWalletScoreAttestation({ ...response, address: "0x1111111111111111111111111111111111111111" }, opts()),
    ).toMatchObject({
      valid: false,
      field: "address",
    });
    expect(
      await verifyWalletScoreAttestation(response, opts({ expected: { wallet: "0x1111111111111111111111111111111111111111" } })),
    ).toMatchObject({
      valid: false,
      reason: "subject-mismatch",
    });
    const foreignIss = await buildWalletScoreResponse(keys.wallet, { issuer: "https://rnwy.com" });
    (foreignIss.attestation as Record<string, unknown>).issuer = "https://rnwy.com";
    const evil = await buildWalletScoreResponse(keys.wallet, { issuer: "https://evil.example" });
    evil.attestation.issuer = "https://rnwy.com";
    evil.attestation.jwks = "https://rnwy.com/.well-known/jwks.json";
    expect(await verifyWalletScoreAttestation(evil, opts())).toMatchObject({ valid: false, reason: "issuer-mismatch", field: "iss" });
    expect(await verifyWalletScoreAttestation(response, opts({ now: TEST_NOW.getTime() + 25 * HOUR_MS }))).toMatchObject({
      valid: false,
      reason: "expired",
    });
  });

  it("refuses a signed block beside a JWS in sig (spec v1.2: malformed), and one that differs from the JWS in jws by value", async () => {
    const response = await buildWalletScoreResponse(keys.wallet);
    const [, payload] = String(response.attestation.sig).split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
    const beside = clone(response);
    beside.attestation.signed = claims;
    expect(await verifyWalletScoreAttestation(beside, opts())).toMatchObject({ valid: false, reason: "malformed", field: "signed" });
    const inJws = await buildWalletScoreResponse(keys.wallet, { carrier: "jws" });
    const equal = clone(inJws);
    equal.attestation.signed = claims;
    expect((await verifyWalletScoreAttestation(equal, opts())).valid).toBe(true);
    const lying = clone(inJws);
    lying.attestation.signed = { ...claims, signalDepth: 95 };
    expect(await verifyWalletScoreAttestation(lying, opts())).toMatchObject({
      valid: false,
      reason: "payload-mismatch",
      field: "signalDepth",
      mismatch: { field: "signalDepth", signed: 71, response: 95 },
    });
  });

  it("refuses a raw sig made over the claims with a trust key under the wallet kid", async () => {
    const claims = {
      wallet: "0x6887dce558f76f36c281200fbc8e5d3da1241aea",
      signalDepth: 71,
      riskIntensity: 4,
      issuedAt: TEST_NOW.toISOString(),
    };
    const { sig } = await signPayload(claims, keys.v2);
    const attestation = { issuer: "https://rnwy.com", kid: "rnwy-wallet-v1", alg: "ES256", signed: claims, sig };
    expect(await verifyWalletScoreAttestation({ attestation }, opts())).toMatchObject({ valid: false, reason: "bad-legacy-signature" });
  });
});

describe("the common-field rule, whatever a field is called", () => {
  it("compares fields named like Object.prototype members (toString, constructor, valueOf) by value", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { extraSigned: { toString: "a", constructor: "b", valueOf: 3 } });
    const same = { ...response, toString: "a", constructor: "b", valueOf: 3 };
    expect((await verifyTrustAttestation(same, opts())).valid).toBe(true);
    for (const [field, value] of [
      ["toString", "z"],
      ["constructor", "z"],
      ["valueOf", 4],
    ] as const) {
      expect(await verifyTrustAttestation({ ...same, [field]: value }, opts()), field).toMatchObject({
        valid: false,
        reason: "field-mismatch",
        field,
      });
    }
  });
});
