import { CompactSign, type JSONWebKeySet } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { Attestation, TrustCheck, TrustSignedV2 } from "../../src/published/index.js";
import {
  ATTESTATION_FAILURE_REASONS,
  assertAttestationValid,
  createJwksResolver,
  type JwksResolver,
  type VerifyTrustAttestationParameters,
  verifyMcpAttestation,
  verifySignedAttestation,
  verifyTrustAttestation,
} from "../../src/attestation/verify.js";
import { AttestationVerificationError, InvalidArgumentError } from "../../src/errors.js";
import { type AttestationSigningKey, generateSigningKey, signPayload } from "../../src/harness/signing.js";
import {
  algNoneJws,
  buildMcpAttestationResponse,
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  clone,
  flipChar,
  generateTestKeys,
  hs256WithPublicKeyJws,
  jwksOf,
  resign,
  TEST_ISSUER,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";

const HOUR_MS = 3_600_000;

let keys: TestKeys;
let jwks: JSONWebKeySet;
let resolver: JwksResolver;
let v2: TrustCheck & { attestation: Attestation<TrustSignedV2> };

/** Options every test starts from: the local JWKS of the service's keys, at the fixtures' fixed time. */
const opts = (extra: VerifyTrustAttestationParameters = {}): VerifyTrustAttestationParameters => ({
  jwks: resolver,
  now: TEST_NOW,
  ...extra,
});

beforeAll(async () => {
  keys = await generateTestKeys();
  jwks = jwksOf(keys.v1, keys.v2, keys.wallet, keys.mcp);
  resolver = createJwksResolver({ keys: jwks });
  v2 = await buildTrustCheckResponse(keys.v2);
});

describe("verifyTrustAttestation — valid responses", () => {
  it("accepts a v2 response and decodes the signed block: the jws checked by default, both with verify: both", async () => {
    const result = await verifyTrustAttestation(v2, opts());
    expect(result).toMatchObject({
      valid: true,
      reason: undefined,
      kid: "rnwy-trust-v2",
      version: "v2",
      issuer: TEST_ISSUER,
      verified: { jws: true, sig: "not-checked" },
      checked: "jws",
      sigBytes: undefined,
    });
    expect(result.message).toMatch(/jws verified, sig not checked \(same signed block\)/);
    const both = await verifyTrustAttestation(v2, opts({ verify: "both" }));
    expect(both).toMatchObject({ valid: true, verified: { jws: true, sig: true }, checked: "both", sigBytes: "insertion-order" });
    expect({ ...both, verified: result.verified, checked: result.checked, sigBytes: undefined, message: result.message }).toEqual(result);
    expect(result.signed).toEqual(v2.attestation.signed);
    expect(result.issuedAt?.toISOString()).toBe(new Date(TEST_NOW.getTime() - 2 * HOUR_MS).toISOString());
    expect(result.expiresAt?.toISOString()).toBe(new Date(TEST_NOW.getTime() + 22 * HOUR_MS).toISOString());
    expect(result.message).toMatch(/valid trust-check attestation \(v2\)/);
    expect(result.warnings).toEqual([]);
  });

  it("accepts a v1 response (attestedAt, kid rnwy-trust-v1, no registry at top level) and implies a 24 h lifetime", async () => {
    const v1 = await buildV1TrustCheckResponse(keys.v1);
    expect(v1.registry).toBeUndefined();
    const result = await verifyTrustAttestation(v1, opts());
    expect(result).toMatchObject({ valid: true, kid: "rnwy-trust-v1", version: "v1", verified: { jws: true, sig: "not-checked" } });
    expect(result.expiresAt?.getTime()).toBe(TEST_NOW.getTime() - 2 * HOUR_MS + 24 * HOUR_MS);
  });

  it("accepts times written as Unix seconds in a v1 block; refuses them in a v2 block, as the oracle does", async () => {
    const v1 = await buildV1TrustCheckResponse(keys.v1, { timeFormat: "unix" });
    expect(typeof v1.attestation.signed.attestedAt).toBe("number");
    const result = await verifyTrustAttestation(v1, opts());
    expect(result.valid).toBe(true);
    expect(result.issuedAt?.getTime()).toBe(TEST_NOW.getTime() - 2 * HOUR_MS);
    const response = await buildTrustCheckResponse(keys.v2, { timeFormat: "unix" });
    expect(typeof response.attestation.signed.issuedAt).toBe("number");
    const refused = await verifyTrustAttestation(response, opts());
    expect(refused).toMatchObject({ valid: false, reason: "malformed", field: "issuedAt", version: "v2" });
    expect(refused.valid === false && refused.offset).toBe(JSON.stringify(response.attestation.signed).indexOf('"issuedAt":') + 11);
  });

  it("survives a round trip through JSON text (the form a client receives)", async () => {
    const result = await verifyTrustAttestation(JSON.parse(JSON.stringify(v2)), opts());
    expect(result.valid).toBe(true);
  });

  it("accepts a response with only a jws, and reports the sig as absent", async () => {
    const response = clone(v2);
    delete response.attestation.sig;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: true, verified: { jws: true, sig: "absent" }, checked: "jws" });
  });

  it("accepts a response with only a sig, and reports the jws as absent", async () => {
    const response = clone(v2);
    delete response.attestation.jws;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: true, verified: { jws: "absent", sig: true }, checked: "sig" });
  });

  it("uses the jws payload when the attestation has no signed block, and still compares the fields", async () => {
    const response = clone(v2);
    delete (response.attestation as Record<string, unknown>).signed;
    delete response.attestation.sig;
    expect((await verifyTrustAttestation(response, opts())).valid).toBe(true);
    response.score = 12;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "field-mismatch", field: "score" });
  });

  it('compares values, not spellings: agentId 1487 vs "1487", chain base vs 8453, TIER case', async () => {
    const response = clone(v2);
    response.agentId = "1487";
    response.chain = "8453";
    response.tier = "Established";
    expect((await verifyTrustAttestation(response, opts())).valid).toBe(true);
  });

  it("accepts the expected subject, and refuses a valid attestation of another agent (replay)", async () => {
    const ok = await verifyTrustAttestation(v2, opts({ expected: { agentId: 1487, chain: "base", registry: "erc8004" } }));
    expect(ok.valid).toBe(true);
    const replay = await verifyTrustAttestation(v2, opts({ expected: { agentId: 99, chain: "base" } }));
    expect(replay).toMatchObject({ valid: false, reason: "subject-mismatch", field: "agentId" });
    const otherChain = await verifyTrustAttestation(v2, opts({ expected: { agentId: 1487, chain: "ethereum" } }));
    expect(otherChain).toMatchObject({ valid: false, reason: "subject-mismatch", field: "chain" });
  });

  it("accepts the JWKS given as a plain JWKS object", async () => {
    expect((await verifyTrustAttestation(v2, { jwks, now: TEST_NOW })).valid).toBe(true);
  });
});

describe("verifyTrustAttestation — tampering", () => {
  it("refuses a tampered signed block (both signatures present): it is not the JWS payload (payload-mismatch, naming score)", async () => {
    const response = clone(v2);
    response.attestation.signed.score = 95;
    response.score = 95;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "payload-mismatch", field: "score", verified: { jws: true, sig: false } });
    expect(result.valid === false && result.mismatch).toEqual({ field: "score", signed: 82, response: 95 });
    expect(result.signed).toBeUndefined();
  });

  it("refuses a tampered signed block when only a jws is present: payload-mismatch", async () => {
    const response = clone(v2);
    delete response.attestation.sig;
    response.attestation.signed.score = 95;
    response.score = 95;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "payload-mismatch" });
  });

  it("refuses a tampered signed block when only a sig is present", async () => {
    const response = clone(v2);
    delete response.attestation.jws;
    response.attestation.signed.tier = "developing";
    response.tier = "developing";
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "bad-legacy-signature" });
  });

  it("accepts a reordered signed block beside a jws: the two are compared by value, not by bytes", async () => {
    const response = clone(v2);
    const { agentId, ...rest } = response.attestation.signed;
    response.attestation.signed = { ...rest, agentId } as typeof response.attestation.signed;
    delete response.attestation.sig;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: true, checked: "jws" });
  });

  it("refuses a reordered signed block with only a raw sig: neither serialisation of it was signed", async () => {
    const response = clone(v2);
    const { agentId, ...rest } = response.attestation.signed;
    response.attestation.signed = { ...rest, agentId } as typeof response.attestation.signed;
    delete response.attestation.jws;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "bad-legacy-signature", field: "sig" });
  });

  it("refuses a tampered sig when it is checked (verify: both, or no jws)", async () => {
    const response = clone(v2);
    response.attestation.sig = flipChar(response.attestation.sig!);
    const result = await verifyTrustAttestation(response, opts({ verify: "both" }));
    expect(result).toMatchObject({ valid: false, reason: "bad-legacy-signature", verified: { jws: true, sig: false } });
    delete response.attestation.jws;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({
      valid: false,
      reason: "bad-legacy-signature",
      verified: { sig: false },
    });
  });

  it("refuses a sig that is not 64 raw bytes (e.g. DER) as malformed", async () => {
    const response = clone(v2);
    response.attestation.sig = Buffer.alloc(71, 1).toString("base64");
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "malformed", field: "sig" });
  });

  it("refuses a tampered jws signature under every policy: the JWS is always checked first", async () => {
    const response = clone(v2);
    response.attestation.jws = flipChar(response.attestation.jws!);
    for (const policy of ["one", "both"] as const) {
      expect(await verifyTrustAttestation(response, opts({ verify: policy }))).toMatchObject({
        valid: false,
        reason: "bad-jws-signature",
        field: "jws",
        verified: { jws: false, sig: false },
        checked: "jws",
      });
    }
  });

  it("refuses a jws whose payload part was swapped for another payload", async () => {
    const response = clone(v2);
    const [header, , signature] = response.attestation.jws!.split(".");
    const forged = Buffer.from(JSON.stringify({ ...response.attestation.signed, score: 95 })).toString("base64url");
    response.attestation.jws = `${header}.${forged}.${signature}`;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "bad-jws-signature" });
  });

  it("refuses two valid signatures over different bytes: payload-mismatch", async () => {
    const response = clone(v2);
    const other = await signPayload({ ...response.attestation.signed, score: 20 }, keys.v2);
    response.attestation.jws = other.jws;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "payload-mismatch", field: "score", verified: { jws: true, sig: false } });
  });

  it.each([
    ["score", 40],
    ["tier", "limited"],
    ["sybilSeverity", "none"],
    ["agentId", 1488],
    ["chain", "ethereum"],
    ["registry", "olas"],
  ] as const)("refuses a validly signed attestation whose top-level %s differs (field-mismatch)", async (field, value) => {
    const response = clone(v2) as unknown as Record<string, unknown>;
    response[field] = value;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "field-mismatch", field, verified: { jws: true, sig: "not-checked" } });
    expect(result.valid === false && result.mismatch).toEqual({
      field,
      signed: (v2.attestation.signed as Record<string, unknown>)[field],
      response: value,
    });
    expect(result.signed).toEqual(v2.attestation.signed);
  });

  it("reads a signed block without registry as erc8004 for the expected subject, so an olas block is another agent", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { agent: { registry: "olas" } });
    expect(response.registry).toBeUndefined();
    expect((await verifyTrustAttestation(response, opts())).valid).toBe(true);
    expect(await verifyTrustAttestation(response, opts({ expected: { agentId: 1487, chain: "base", registry: "erc8004" } }))).toMatchObject(
      {
        valid: false,
        reason: "subject-mismatch",
        field: "registry",
      },
    );
  });

  it("takes the score from the signed block when the body has none, and names what the body adds unsigned", async () => {
    const response = clone(v2) as Partial<TrustCheck>;
    delete response.score;
    const result = await verifyTrustAttestation(response, opts());
    expect(result.valid).toBe(true);
    expect(result.signed?.score).toBe(82);
    expect(result.valid && result.unsignedFields).not.toContain("score");
  });

  it.each([
    ["owner", "0x1111111111111111111111111111111111111111"],
    ["badges", { earned: ["original_owner", "established_wallet"], warnings: [] }],
    ["badges", { earned: ["original_owner", "established_wallet", "sybil_heavy"], warnings: ["low_history_reviewers"] }],
    ["sybilSignals", ["common_funder"]],
    ["sybilSeverity", "heavy"],
    ["sybilSeverity", null],
  ] as const)("refuses a body whose %s differs from the signed block (%j)", async (field, value) => {
    const response = clone(v2) as unknown as Record<string, unknown>;
    response[field] = value;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "field-mismatch", field });
  });

  it("refuses a body field that is in the signed block under the same name, whatever the field (generic rule)", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { extraSigned: { riskBand: "b" } });
    expect((await verifyTrustAttestation({ ...response, riskBand: "b" }, opts())).valid).toBe(true);
    expect(await verifyTrustAttestation({ ...response, riskBand: "a" }, opts())).toMatchObject({ valid: false, field: "riskBand" });
  });
});

describe("verifyTrustAttestation — keys and algorithms", () => {
  it("refuses a kid that is not accepted", async () => {
    const rogue = await generateSigningKey("rnwy-trust-v9");
    const response = await buildTrustCheckResponse(rogue);
    const result = await verifyTrustAttestation(response, opts({ jwks: jwksOf(keys.v2, rogue) }));
    expect(result).toMatchObject({ valid: false, reason: "kid-not-accepted", kid: "rnwy-trust-v9" });
  });

  it("refuses an MCP-key attestation presented as a trust-check attestation", async () => {
    const response = await buildTrustCheckResponse(keys.mcp);
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "kid-not-accepted" });
  });

  it("refuses an attestation without any kid", async () => {
    const response = clone(v2);
    delete (response.attestation as Record<string, unknown>).kid;
    const bytes = new TextEncoder().encode(JSON.stringify(response.attestation.signed));
    response.attestation.jws = await new CompactSign(bytes).setProtectedHeader({ alg: "ES256" }).sign(keys.v2.privateKey);
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "missing-kid", kid: undefined });
  });

  it("refuses when the jws header kid and attestation.kid differ", async () => {
    const response = clone(v2);
    response.attestation.kid = "rnwy-trust-v1";
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "kid-mismatch" });
  });

  it("refuses a kid that the JWKS does not hold (key-not-found)", async () => {
    const result = await verifyTrustAttestation(v2, opts({ jwks: jwksOf(keys.v1) }));
    expect(result).toMatchObject({ valid: false, reason: "key-not-found", kid: "rnwy-trust-v2" });
    expect(result.message).toMatch(/rnwy-trust-v1/);
  });

  it("refuses a signature made by another key under the same kid", async () => {
    const impostor = await generateSigningKey("rnwy-trust-v2");
    const response = await buildTrustCheckResponse(impostor);
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "bad-jws-signature", verified: { jws: false, sig: false } });
  });

  it("does not use a JWKS entry published for another use or algorithm", async () => {
    const encKey = { keys: [{ ...keys.v2.publicJwk, use: "enc" }] };
    const r1 = await verifyTrustAttestation(v2, opts({ jwks: encKey }));
    expect(r1).toMatchObject({ valid: false, reason: "key-not-found" });
    expect(r1.message).toMatch(/use "enc"/);
    const rsAlg = { keys: [{ ...keys.v2.publicJwk, alg: "ES384" }] };
    expect(await verifyTrustAttestation(v2, opts({ jwks: rsAlg }))).toMatchObject({ valid: false, reason: "key-not-found" });
  });

  it("refuses alg none (jws header), without trying it", async () => {
    const response = clone(v2);
    response.attestation.jws = algNoneJws(response.attestation.signed, "rnwy-trust-v2");
    delete response.attestation.sig;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "unsupported-alg", field: "jws" });
  });

  it("refuses attestation.alg none even with only a sig", async () => {
    const response = clone(v2);
    response.attestation.alg = "none";
    delete response.attestation.jws;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "unsupported-alg", field: "alg" });
  });

  it("refuses HS256 signed with the public key as the secret (PEM, JWK JSON, x)", async () => {
    const tokens = await hs256WithPublicKeyJws(v2.attestation.signed, keys.v2.publicJwk);
    expect(tokens).toHaveLength(3);
    for (const token of tokens) {
      const response = clone(v2);
      response.attestation.jws = token;
      delete response.attestation.sig;
      response.attestation.alg = "HS256";
      expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "unsupported-alg" });
      response.attestation.alg = "ES256"; // the header alone must be enough to refuse it
      expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "unsupported-alg", field: "jws" });
    }
  });

  it("refuses an attestation from another issuer, and one that names no issuer", async () => {
    const foreign = await buildTrustCheckResponse(keys.v2, { issuer: "https://rnwy.com.evil.example" });
    expect(await verifyTrustAttestation(foreign, opts())).toMatchObject({ valid: false, reason: "issuer-mismatch" });
    const none = clone(v2);
    delete (none.attestation as Record<string, unknown>).issuer;
    expect(await verifyTrustAttestation(none, opts())).toMatchObject({ valid: false, reason: "issuer-mismatch" });
    expect(await verifyTrustAttestation(v2, opts({ issuer: "https://other.example" }))).toMatchObject({
      valid: false,
      reason: "issuer-mismatch",
    });
  });

  it("accepts the configured issuer written with a trailing slash", async () => {
    expect((await verifyTrustAttestation(v2, opts({ issuer: `${TEST_ISSUER}/` }))).valid).toBe(true);
  });
});

describe("verifyTrustAttestation — time", () => {
  it("refuses an expired v2 attestation", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() - 25 * HOUR_MS) });
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: false, reason: "expired", field: "expiry", verified: { jws: true, sig: "not-checked" } });
    expect(result.expiresAt?.getTime()).toBe(TEST_NOW.getTime() - HOUR_MS);
    expect(result.signed).toBeDefined();
  });

  it("refuses an expired v1 attestation (attestedAt + 24 h)", async () => {
    const response = await buildV1TrustCheckResponse(keys.v1, { issuedAt: new Date(TEST_NOW.getTime() - 25 * HOUR_MS) });
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "expired", version: "v1" });
  });

  it("refuses an expired attestation written in Unix seconds", async () => {
    const response = await buildV1TrustCheckResponse(keys.v1, {
      timeFormat: "unix",
      issuedAt: new Date(TEST_NOW.getTime() - 30 * HOUR_MS),
    });
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "expired" });
  });

  it("does not let the unsigned attestation.expiry extend a v1 lifetime, but lets it shorten one", async () => {
    const old = await buildV1TrustCheckResponse(keys.v1, { issuedAt: new Date(TEST_NOW.getTime() - 30 * HOUR_MS) });
    old.attestation.expiry = new Date(TEST_NOW.getTime() + 10 * HOUR_MS).toISOString();
    expect(await verifyTrustAttestation(old, opts())).toMatchObject({ valid: false, reason: "expired" });
    const recent = await buildV1TrustCheckResponse(keys.v1);
    recent.attestation.expiry = new Date(TEST_NOW.getTime() - HOUR_MS).toISOString();
    expect(await verifyTrustAttestation(recent, opts())).toMatchObject({ valid: false, reason: "expired", field: "attestation.expiry" });
  });

  it("refuses an attestation issued in the future beyond the skew, and tolerates one within it", async () => {
    const future = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() + 10 * 60_000) });
    const result = await verifyTrustAttestation(future, opts());
    expect(result).toMatchObject({ valid: false, reason: "issued-in-future" });
    const slightly = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() + 30_000) });
    expect((await verifyTrustAttestation(slightly, opts())).valid).toBe(true);
    expect(await verifyTrustAttestation(slightly, opts({ clockSkewSeconds: 0 }))).toMatchObject({ reason: "issued-in-future" });
  });

  it("refuses a signed issuedAt after the signed verifiedAt, as the oracle does (AttestationDatesOutOfOrder)", async () => {
    const verifiedAt = new Date(TEST_NOW.getTime() - HOUR_MS);
    const late = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(verifiedAt.getTime() + 1_000), verifiedAt });
    expect(await verifyTrustAttestation(late, opts())).toMatchObject({ valid: false, reason: "invalid-time", field: "issuedAt" });
    const equal = await buildTrustCheckResponse(keys.v2, { issuedAt: verifiedAt, verifiedAt });
    expect((await verifyTrustAttestation(equal, opts())).valid).toBe(true);
  });

  it("verifies the service's time form: issuedAt with milliseconds and +00:00 beside verifiedAt and expiry in Z", async () => {
    const response = await buildTrustCheckResponse(keys.v2, {
      timeFormat: "service",
      issuedAt: new Date(TEST_NOW.getTime() - HOUR_MS + 243),
    });
    expect(response.attestation.signed.issuedAt).toBe("2025-06-01T11:00:00.243+00:00");
    const verdict = await verifyTrustAttestation(response, opts());
    expect(verdict).toMatchObject({ valid: true, version: "v2" });
    // The window is in whole seconds, as the oracle stores it (updatedAt = the signed issuedAt, floor).
    expect(verdict.issuedAt?.toISOString()).toBe("2025-06-01T11:00:00.000Z");
  });

  it("compares times in whole seconds: an issuedAt later than verifiedAt within the same second is in order, as on-chain", async () => {
    // The audit's case: issuedAt 10:42:46.554Z beside verifiedAt 10:42:46.105Z (both 10:42:46 on-chain).
    const response = await buildTrustCheckResponse(keys.v2, {
      issuedAt: new Date("2025-06-01T10:42:46.554Z"),
      verifiedAt: new Date("2025-06-01T10:42:46.105Z"),
    });
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: true });
    const nextSecond = await buildTrustCheckResponse(keys.v2, {
      issuedAt: new Date("2025-06-01T10:42:47.000Z"),
      verifiedAt: new Date("2025-06-01T10:42:46.999Z"),
    });
    expect(await verifyTrustAttestation(nextSecond, opts())).toMatchObject({ valid: false, reason: "invalid-time", field: "issuedAt" });
  });

  it("compares times in whole seconds: a verifiedAt 60.5 s ahead is within 60 s of skew, as on-chain; 61 s is not", async () => {
    const issuedAt = new Date(TEST_NOW.getTime() - HOUR_MS);
    const ahead = await buildTrustCheckResponse(keys.v2, { issuedAt, verifiedAt: new Date(TEST_NOW.getTime() + 60_500) });
    expect(await verifyTrustAttestation(ahead, opts())).toMatchObject({ valid: true });
    // The verifier's clock is floored too: 0.9 s past the second is the same second.
    expect(await verifyTrustAttestation(ahead, opts({ now: TEST_NOW.getTime() + 900 }))).toMatchObject({ valid: true });
    const beyond = await buildTrustCheckResponse(keys.v2, { issuedAt, verifiedAt: new Date(TEST_NOW.getTime() + 61_000) });
    expect(await verifyTrustAttestation(beyond, opts())).toMatchObject({ valid: false, reason: "issued-in-future", field: "verifiedAt" });
    expect(await verifyTrustAttestation(beyond, opts({ now: TEST_NOW.getTime() + 999 }))).toMatchObject({ reason: "issued-in-future" });
    expect(await verifyTrustAttestation(beyond, opts({ now: TEST_NOW.getTime() + 1_000 }))).toMatchObject({ valid: true });
  });

  it("compares expiry in whole seconds: expired only once now's second is past expiry's second plus the skew", async () => {
    // expiry = verifiedAt + 24 h = TEST_NOW - 60.7 s, i.e. the second TEST_NOW - 61 s; with 60 s of skew it lasts
    // through the second TEST_NOW - 1 s and is expired from TEST_NOW on.
    const verifiedAt = new Date(TEST_NOW.getTime() - 24 * HOUR_MS - 60_700);
    const response = await buildTrustCheckResponse(keys.v2, { issuedAt: verifiedAt, verifiedAt });
    expect(await verifyTrustAttestation(response, opts({ now: TEST_NOW.getTime() - 1 }))).toMatchObject({ valid: true });
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "expired" });
  });

  it("tolerates an expiry within the skew, not beyond", async () => {
    const issuedAt = new Date(TEST_NOW.getTime() - 24 * HOUR_MS - 30_000); // expired 30 s ago
    const response = await buildTrustCheckResponse(keys.v2, { issuedAt });
    expect((await verifyTrustAttestation(response, opts())).valid).toBe(true);
    expect(await verifyTrustAttestation(response, opts({ clockSkewSeconds: 10 }))).toMatchObject({ reason: "expired" });
  });

  it("refuses an unreadable time and a signed block without any time: as the oracle does for v2, by the time rules for v1", async () => {
    const bad = await buildTrustCheckResponse(keys.v2, { extraSigned: { expiry: "tomorrow-ish" } });
    expect(await verifyTrustAttestation(bad, opts())).toMatchObject({ valid: false, reason: "malformed", field: "expiry" });
    const badV1 = await buildV1TrustCheckResponse(keys.v1, { extraSigned: { attestedAt: "tomorrow-ish" } });
    expect(await verifyTrustAttestation(badV1, opts())).toMatchObject({ valid: false, reason: "invalid-time", field: "attestedAt" });
    const timeless = clone(v2);
    const { issuedAt: _i, verifiedAt: _v, expiry: _e, ...rest } = timeless.attestation.signed as Record<string, unknown>;
    timeless.attestation.signed = rest as typeof timeless.attestation.signed;
    delete timeless.attestation.expiry;
    await resign(timeless.attestation, keys.v2);
    expect(await verifyTrustAttestation(timeless, opts())).toMatchObject({ valid: false, reason: "malformed", field: "issuedAt" });
    const timelessV1 = await buildV1TrustCheckResponse(keys.v1);
    const { attestedAt: _a, ...restV1 } = timelessV1.attestation.signed as Record<string, unknown>;
    timelessV1.attestation.signed = restV1 as typeof timelessV1.attestation.signed;
    await resign(timelessV1.attestation, keys.v1);
    expect(await verifyTrustAttestation(timelessV1, opts())).toMatchObject({ valid: false, reason: "missing-time" });
  });

  it("gives a verdict, never a RangeError, for a signed numeric time beyond the last date a Date holds", async () => {
    for (const attestedAt of [1e20, 9e15, Number.MAX_SAFE_INTEGER]) {
      const response = await buildV1TrustCheckResponse(keys.v1, { extraSigned: { attestedAt } });
      expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "invalid-time", field: "attestedAt" });
    }
    // Just inside the range: readable, and its implied expiry stays a writable date.
    const edge = await buildV1TrustCheckResponse(keys.v1, { extraSigned: { attestedAt: 8.64e15 } });
    const verdict = await verifyTrustAttestation(edge, opts());
    expect(verdict).toMatchObject({ valid: false, reason: "issued-in-future" });
    expect(verdict.expiresAt?.getTime()).toBe(8.64e15);
  });
});

describe("verifyTrustAttestation — unknown wallet envelope", () => {
  const wallet = "0x00000000000000000000000000000000DeadBeef";

  it("accepts the signed {found:false, wallet, issuedAt} envelope", async () => {
    const response = await buildWalletNotFoundResponse(keys.v2, wallet);
    const result = await verifyTrustAttestation(response, opts({ expected: { wallet: wallet.toLowerCase() } }));
    expect(result).toMatchObject({ valid: true, version: "wallet-not-found", verified: { jws: true, sig: "not-checked" } });
    expect(result.signed).toEqual({ found: false, wallet, issuedAt: expect.any(String) });
  });

  it("refuses a tampered envelope: signed wallet changed", async () => {
    const response = await buildWalletNotFoundResponse(keys.v2, wallet);
    response.attestation.signed.wallet = "0x1111111111111111111111111111111111111111";
    response.wallet = "0x1111111111111111111111111111111111111111";
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "payload-mismatch", field: "wallet" });
    delete response.attestation.jws;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "bad-legacy-signature" });
  });

  it("refuses an envelope attached to another wallet, or to a response claiming an agent", async () => {
    const response = await buildWalletNotFoundResponse(keys.v2, wallet);
    const otherWallet = { ...clone(response), wallet: "0x2222222222222222222222222222222222222222" };
    expect(await verifyTrustAttestation(otherWallet, opts())).toMatchObject({ valid: false, reason: "field-mismatch", field: "wallet" });
    const claimsAgent = { ...clone(v2), attestation: response.attestation };
    expect(await verifyTrustAttestation(claimsAgent, opts())).toMatchObject({ valid: false, reason: "field-mismatch", field: "agentId" });
    const foundButScored = { ...clone(response), score: 90, tier: "established" };
    const verdict = await verifyTrustAttestation(foundButScored, opts());
    expect(verdict).toMatchObject({
      valid: false,
      reason: "field-mismatch",
      field: "score",
      mismatch: { signed: undefined, response: 90 },
    });
    expect(verdict.message).toMatch(/does not carry it/);
    expect(
      await verifyTrustAttestation(response, opts({ expected: { wallet: "0x3333333333333333333333333333333333333333" } })),
    ).toMatchObject({
      valid: false,
      reason: "subject-mismatch",
      field: "wallet",
    });
  });

  it("refuses an expired envelope (issuedAt + 24 h)", async () => {
    const response = await buildWalletNotFoundResponse(keys.v2, wallet, { issuedAt: new Date(TEST_NOW.getTime() - 48 * HOUR_MS) });
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "expired", version: "wallet-not-found" });
  });
});

describe("verifyTrustAttestation — malformed input and options", () => {
  it.each([
    ["null", null],
    ["a string", "not a response"],
    ["a response without attestation", { agentId: 1, chain: "base", score: 80 }],
    ["an attestation that is an array", { attestation: [] }],
  ])("returns malformed (never throws) for %s", async (_name, input) => {
    const result = await verifyTrustAttestation(input, opts());
    expect(result).toMatchObject({ valid: false, reason: "malformed" });
    expect(result.message.length).toBeGreaterThan(0);
  });

  it("returns malformed for a jws that is not a compact JWS, and for a signed block that is not an object", async () => {
    const badJws = clone(v2);
    badJws.attestation.jws = "not-a-jws";
    expect(await verifyTrustAttestation(badJws, opts())).toMatchObject({ valid: false, reason: "malformed", field: "jws" });
    const badSigned = clone(v2) as unknown as { attestation: { signed: unknown } };
    badSigned.attestation.signed = [1, 2, 3];
    expect(await verifyTrustAttestation(badSigned, opts())).toMatchObject({ valid: false, reason: "malformed", field: "signed" });
  });

  it("refuses an attestation with neither jws nor sig, and one without sig when sig is required", async () => {
    const none = clone(v2);
    delete none.attestation.jws;
    delete none.attestation.sig;
    expect(await verifyTrustAttestation(none, opts())).toMatchObject({ valid: false, reason: "missing-signature" });
    const jwsOnly = clone(v2);
    delete jwsOnly.attestation.sig;
    expect(await verifyTrustAttestation(jwsOnly, opts({ requireLegacySig: true }))).toMatchObject({
      valid: false,
      reason: "missing-legacy-signature",
    });
    const sigOnly = clone(v2);
    delete sigOnly.attestation.jws;
    expect(await verifyTrustAttestation(sigOnly, opts({ requireJws: true }))).toMatchObject({ valid: false, reason: "missing-jws" });
  });

  it("throws InvalidArgumentError for bad options (programmer errors), not for bad responses", async () => {
    await expect(verifyTrustAttestation(v2, opts({ clockSkewSeconds: -1 }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(verifyTrustAttestation(v2, opts({ acceptedKids: [] }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(verifyTrustAttestation(v2, opts({ now: new Date("nope") }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(verifyTrustAttestation(v2, opts({ jwks: 42 as never }))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(verifyTrustAttestation(v2, opts({ jwks: "ftp://example.com/jwks" }))).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(() => createJwksResolver({})).toThrow(InvalidArgumentError);
    expect(() => createJwksResolver({ url: "https://a.example/jwks.json", cooldownMs: Number.NaN })).toThrow(InvalidArgumentError);
  });

  it("has a stable, documented list of reason codes", () => {
    expect(new Set(ATTESTATION_FAILURE_REASONS).size).toBe(ATTESTATION_FAILURE_REASONS.length);
    expect(ATTESTATION_FAILURE_REASONS).toEqual(
      expect.arrayContaining(["malformed", "jwks-unavailable", "bad-jws-signature", "field-mismatch", "expired", "issued-in-future"]),
    );
  });

  it("assertAttestationValid throws AttestationVerificationError with the reason", async () => {
    const expired = await verifyTrustAttestation(v2, opts({ now: TEST_NOW.getTime() + 48 * HOUR_MS }));
    expect(() => assertAttestationValid(expired)).toThrow(AttestationVerificationError);
    try {
      assertAttestationValid(expired);
    } catch (error) {
      expect((error as AttestationVerificationError).reason).toBe("expired");
      expect((error as AttestationVerificationError).code).toBe("ATTESTATION_INVALID");
    }
    const ok = await verifyTrustAttestation(v2, opts());
    expect(() => assertAttestationValid(ok)).not.toThrow();
  });
});

describe("verifyMcpAttestation / verifySignedAttestation", () => {
  it("accepts an MCP attestation in the canonical_id form, with a 24 h lifetime implied", async () => {
    const response = await buildMcpAttestationResponse(keys.mcp);
    const result = await verifyMcpAttestation(response, opts({ expected: { canonicalId: "acme/weather-mcp" } }));
    expect(result).toMatchObject({ valid: true, kid: "rnwy-mcp-v1", version: "canonical-id", verified: { jws: true, sig: "not-checked" } });
    expect(result.signed).toMatchObject({ canonical_id: "acme/weather-mcp", mcp_risk_score: 12 });
    expect(result.expiresAt?.getTime()).toBe(TEST_NOW.getTime() - HOUR_MS + 24 * HOUR_MS);
    expect((await verifySignedAttestation(response.attestation, opts())).valid).toBe(true);
  });

  it("accepts the newer server form, and checks the expected server", async () => {
    const response = await buildMcpAttestationResponse(keys.mcp, { form: "server", canonicalId: "acme/search" });
    expect(await verifyMcpAttestation(response, opts({ expected: { server: "acme/search" } }))).toMatchObject({
      valid: true,
      version: "server",
    });
    expect(await verifyMcpAttestation(response, opts({ expected: { server: "acme/other" } }))).toMatchObject({
      valid: false,
      reason: "subject-mismatch",
      field: "server",
    });
  });

  it("refuses an MCP attestation signed with a trust key, and a trust attestation checked as MCP", async () => {
    const wrongKey = await buildMcpAttestationResponse(keys.v2);
    expect(await verifyMcpAttestation(wrongKey, opts())).toMatchObject({ valid: false, reason: "kid-not-accepted" });
    expect(await verifyMcpAttestation(v2, opts())).toMatchObject({ valid: false, reason: "type-mismatch", field: "type" });
    const untyped = clone(v2);
    delete untyped.attestation.type;
    expect(await verifyMcpAttestation(untyped, opts({ acceptedKids: ["rnwy-mcp-v1", "rnwy-trust-v2"] }))).toMatchObject({
      valid: false,
      reason: "type-mismatch",
      field: "agentId",
    });
  });

  it("refuses a tampered MCP attestation, a body that contradicts it, and an expired one", async () => {
    const response = await buildMcpAttestationResponse(keys.mcp);
    const tampered = clone(response);
    (tampered.attestation.signed as Record<string, unknown>).mcp_risk_score = 0;
    expect(await verifyMcpAttestation(tampered, opts())).toMatchObject({
      valid: false,
      reason: "payload-mismatch",
      field: "mcp_risk_score",
    });
    expect(await verifyMcpAttestation({ ...response, mcp_risk_score: 3 }, opts())).toMatchObject({
      valid: false,
      reason: "field-mismatch",
      field: "mcp_risk_score",
    });
    const expiring = await buildMcpAttestationResponse(keys.mcp, { expiresAt: new Date(TEST_NOW.getTime() - HOUR_MS) });
    expect(await verifyMcpAttestation(expiring, opts())).toMatchObject({ valid: false, reason: "expired", field: "expiry" });
  });

  it("expires an MCP attestation 24 h after its issue time by default, overridable, and refuses future ones", async () => {
    const old = await buildMcpAttestationResponse(keys.mcp, { issuedAt: new Date(TEST_NOW.getTime() - 30 * HOUR_MS) });
    expect(await verifyMcpAttestation(old, opts())).toMatchObject({ valid: false, reason: "expired", field: "issuedAt + 86400 s" });
    expect((await verifyMcpAttestation(old, opts({ lifetimeSeconds: 48 * 3600 }))).valid).toBe(true);
    const future = await buildMcpAttestationResponse(keys.mcp, { issuedAt: new Date(TEST_NOW.getTime() + HOUR_MS) });
    expect(await verifyMcpAttestation(future, opts())).toMatchObject({ valid: false, reason: "issued-in-future" });
  });

  it("verifies a payload with a custom key under explicitly accepted kids", async () => {
    const custom: AttestationSigningKey = await generateSigningKey("partner-1");
    const signed = { hello: "world", iat: Math.floor(TEST_NOW.getTime() / 1000) - 60 };
    const attestation = { issuer: TEST_ISSUER, kid: custom.kid, alg: "ES256", signed, ...(await signPayload(signed, custom)) };
    const result = await verifySignedAttestation(attestation, opts({ jwks: jwksOf(custom), acceptedKids: ["partner-1"] }));
    expect(result).toMatchObject({ valid: true, signed });
    expect(result.issuedAt?.getTime()).toBe(TEST_NOW.getTime() - 60_000);
  });
});
