/**
 * The envelope rules off-chain: one reader of an attestation object (`envelope.ts`), then the verifier's acceptance
 * cases — a JWS over sorted-key bytes under a `typ` header beside `signed` in insertion order is valid; a raw `sig`
 * over sorted-key bytes is valid and the verdict says so; a `sig` and a `jws` that disagree in value are refused,
 * naming the first field that differs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/attestation/canonical-json.js";
import { readAttestationEnvelope, splitAttestationResponse } from "../../src/attestation/envelope.js";
import {
  createJwksResolver,
  type JwksResolver,
  verifyTrustAttestation,
  type VerifyTrustAttestationParameters,
} from "../../src/attestation/verify.js";
import { signPayload } from "../../src/harness/signing.js";
import { buildTrustCheckResponse, clone, generateTestKeys, jwksOf, TEST_NOW, type TestKeys } from "../support/attestations.js";

let keys: TestKeys;
let resolver: JwksResolver;
const opts = (extra: VerifyTrustAttestationParameters = {}): VerifyTrustAttestationParameters => ({
  jwks: resolver,
  now: TEST_NOW,
  ...extra,
});

beforeAll(async () => {
  keys = await generateTestKeys();
  resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2) });
});

describe("readAttestationEnvelope", () => {
  const jws = "eyJh.eyJi.c2ln";
  it("reads the forms: a jws, a raw sig, a sig that is a JWS, signed or null", () => {
    const both = readAttestationEnvelope({
      issuer: "https://rnwy.com",
      kid: "k",
      alg: "ES256",
      jwks: "u",
      signed: { a: 1 },
      sig: "AAAA",
      jws,
    });
    expect(both).toMatchObject({
      ok: true,
      envelope: {
        issuer: "https://rnwy.com",
        kid: "k",
        jwksUrl: "u",
        signed: { a: 1 },
        jwss: [{ field: "jws", value: jws }],
        rawSig: "AAAA",
        sigIsJws: false,
      },
    });
    const jwt = readAttestationEnvelope({ signed: null, sig: jws });
    expect(jwt).toMatchObject({
      ok: true,
      envelope: { signed: undefined, jwss: [{ field: "sig", value: jws }], rawSig: undefined, sigIsJws: true },
    });
    const twice = readAttestationEnvelope({ signed: null, sig: jws, jws });
    expect(twice).toMatchObject({ ok: true, envelope: { jwss: [{ field: "jws", value: jws }], sigIsJws: true } });
    const two = readAttestationEnvelope({ signed: null, sig: `${jws}x`, jws });
    expect(two.ok && two.envelope.jwss.map((j) => j.field)).toEqual(["jws", "sig"]);
    expect(readAttestationEnvelope({ kid: "", sig: "AAAA", signed: {} })).toMatchObject({ ok: true, envelope: { kid: undefined } });
  });

  it.each([
    ["not an object", "x", "attestation"],
    ["an array", [], "attestation"],
    ["a jws that is not a string", { jws: 1 }, "jws"],
    ["a sig that is not a string", { sig: {} }, "sig"],
    ["a kid that is not a string", { kid: 7, sig: "AAAA" }, "kid"],
    ["a jwks that is not a string", { jwks: ["u"], sig: "AAAA" }, "jwks"],
    ["a signed block that is not an object", { signed: [1], sig: "AAAA" }, "signed"],
    ["a sig that is a JWS beside a non-null signed block (spec v1.2 §1)", { signed: { a: 1 }, sig: "eyJh.eyJi.c2ln" }, "signed"],
  ])("refuses %s", (_name, value, field) => {
    expect(readAttestationEnvelope(value)).toMatchObject({ ok: false, field });
  });

  it("splitAttestationResponse: the body's attestation member and the body, else the value itself alone", () => {
    const attestation = { sig: "AAAA" };
    const body = { attestation, score: 60 };
    expect(splitAttestationResponse(body)).toEqual({ attestation, body });
    expect(splitAttestationResponse(attestation)).toEqual({ attestation, body: undefined });
    // A member that is not an object is still the attestation (refused as malformed by the reader), never the body.
    expect(splitAttestationResponse({ attestation: "x" })).toEqual({ attestation: "x", body: { attestation: "x" } });
    expect(readAttestationEnvelope(splitAttestationResponse({ attestation: "x" }).attestation)).toMatchObject({
      ok: false,
      field: "attestation",
    });
    expect(splitAttestationResponse("nope")).toEqual({ attestation: "nope", body: undefined });
  });
});

describe("acceptance: what a standard signer may write verifies", () => {
  it("a jws over sorted-key bytes with a typ header, beside signed in insertion order: valid, under both policies", async () => {
    const response = await buildTrustCheckResponse(keys.v2, {
      signing: { jwsSerialization: "sorted", jwsHeader: { alg: "ES256", typ: "JWT", kid: keys.v2.kid } },
    });
    const [header, payload] = response.attestation.jws!.split(".") as [string, string];
    expect(Buffer.from(header, "base64url").toString()).toBe('{"alg":"ES256","typ":"JWT","kid":"rnwy-trust-v2"}');
    expect(Buffer.from(payload, "base64url").toString()).toBe(canonicalJson(response.attestation.signed));
    expect(Buffer.from(payload, "base64url").toString()).not.toBe(JSON.stringify(response.attestation.signed));
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({
      valid: true,
      version: "v2",
      checked: "jws",
      verified: { jws: true, sig: "not-checked" },
    });
    expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({
      valid: true,
      checked: "both",
      verified: { jws: true, sig: true },
      sigBytes: "insertion-order",
    });
    const jwsOnly = clone(response);
    delete jwsOnly.attestation.sig;
    expect(await verifyTrustAttestation(jwsOnly, opts())).toMatchObject({ valid: true, verified: { jws: true, sig: "absent" } });
  });

  it("a sig over sorted-key bytes: valid, and the verdict says which bytes verified", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { signing: { sigSerialization: "sorted" } });
    const sigOnly = clone(response);
    delete sigOnly.attestation.jws;
    expect(await verifyTrustAttestation(sigOnly, opts())).toMatchObject({
      valid: true,
      checked: "sig",
      verified: { jws: "absent", sig: true },
      sigBytes: "sorted-keys",
    });
    expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({
      valid: true,
      checked: "both",
      sigBytes: "sorted-keys",
    });
    const insertion = await buildTrustCheckResponse(keys.v2);
    delete insertion.attestation.jws;
    expect(await verifyTrustAttestation(insertion, opts())).toMatchObject({ valid: true, sigBytes: "insertion-order" });
  });

  it("a sig over neither serialisation is refused, even when the other one verifies beside it", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const { sig } = await signPayload({ ...response.attestation.signed, extra: 1 }, keys.v2);
    response.attestation.sig = sig;
    expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({
      valid: false,
      reason: "bad-legacy-signature",
      field: "sig",
    });
  });

  it("a sig and a jws that disagree in value: payload-mismatch, naming the first field that differs", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const other = { ...response.attestation.signed, badges: [...response.attestation.signed.badges, "sybil_heavy"] };
    response.attestation.jws = (await signPayload(other, keys.v2, { jwsSerialization: "sorted" })).jws;
    for (const policy of ["one", "both"] as const) {
      expect(await verifyTrustAttestation(response, opts({ verify: policy }))).toMatchObject({
        valid: false,
        reason: "payload-mismatch",
        field: "badges[3]",
        mismatch: { field: "badges[3]", signed: "sybil_heavy", response: undefined },
      });
    }
  });

  it("signed: null beside a jws and a raw sig: the jws payload is the signed data, the sig covers it", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { signing: { sigSerialization: "sorted" } });
    const signed = response.attestation.signed;
    (response.attestation as Record<string, unknown>).signed = null;
    const verdict = await verifyTrustAttestation(response, opts({ verify: "both" }));
    expect(verdict).toMatchObject({ valid: true, checked: "both", sigBytes: "sorted-keys" });
    expect(verdict.signed).toEqual(signed);
  });
});

describe("never a throw out of the verifier", () => {
  it("a signed block nested too deep to serialise: a malformed verdict", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`) as unknown;
    (response.attestation.signed as Record<string, unknown>).badges = deep as string[];
    for (const policy of ["one", "both"] as const) {
      const verdict = await verifyTrustAttestation(response, opts({ verify: policy }));
      expect(verdict).toMatchObject({ valid: false });
      expect(["malformed", "payload-mismatch"]).toContain(verdict.reason);
    }
    delete response.attestation.jws;
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: false, reason: "malformed", field: "attestation" });
  });

  it("a key resolver that throws: jwks-unavailable", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const throwing: JwksResolver = {
      source: "a resolver that throws",
      stats: { fetches: 0, failures: 0 },
      getKey: () => Promise.reject(new Error("boom")),
      reload: async () => {},
      jwks: () => undefined,
    };
    expect(await verifyTrustAttestation(response, opts({ jwks: throwing }))).toMatchObject({
      valid: false,
      reason: "jwks-unavailable",
      message: expect.stringContaining("boom"),
    });
  });
});
