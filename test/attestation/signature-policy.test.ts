/**
 * `verify: "one"` (the default) and `verify: "both"`: the JWS is checked first, over its own bytes; with "one", a
 * raw `sig` beside it whose block equals the JWS payload by value is reported `"not-checked"` (never `true`); with
 * "both", it is checked too. Forms that disagree in value are refused the same way under both policies.
 */
import { CompactSign, type JSONWebKeySet } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createJwksResolver,
  type JwksResolver,
  type VerifyTrustAttestationParameters,
  verifyTrustAttestation,
  verifyWalletScoreAttestation,
} from "../../src/attestation/verify.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { signCompactJws, signPayload } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletScoreResponse,
  clone,
  flipChar,
  generateTestKeys,
  jwksOf,
  makeHighS,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";

let keys: TestKeys;
let jwks: JSONWebKeySet;
let resolver: JwksResolver;
type V2Response = Awaited<ReturnType<typeof buildTrustCheckResponse>>;
let v2: V2Response;
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

/** A compact JWS over `bytes` under the v2 key, with the given extra header parameters. */
async function jwsOver(bytes: Uint8Array, header: Record<string, unknown> = {}): Promise<string> {
  return signCompactJws({ alg: "ES256", kid: keys.v2.kid, ...header }, bytes, keys.v2);
}

describe("verify: one — which signature is checked, and what the verdict says", () => {
  it("checks the jws first, and reports the sig next to it not-checked (never true)", async () => {
    const result = await verifyTrustAttestation(v2, opts());
    expect(result).toMatchObject({ valid: true, checked: "jws", verified: { jws: true, sig: "not-checked" }, sigBytes: undefined });
    expect(await verifyTrustAttestation(v2, opts({ requireJws: true }))).toEqual(result);
  });

  it("checks both with verify: both, and says which bytes the sig verified over", async () => {
    expect(await verifyTrustAttestation(v2, opts({ verify: "both" }))).toMatchObject({
      valid: true,
      checked: "both",
      verified: { jws: true, sig: true },
      sigBytes: "insertion-order",
    });
  });

  it("requireLegacySig and requireJws only require presence: the policy decides what is checked", async () => {
    expect(await verifyTrustAttestation(v2, opts({ requireJws: true, requireLegacySig: true }))).toMatchObject({
      valid: true,
      checked: "jws",
      verified: { jws: true, sig: "not-checked" },
    });
  });

  it("checks the only signature present", async () => {
    const jwsOnly = clone(v2);
    delete jwsOnly.attestation.sig;
    const sigOnly = clone(v2);
    delete sigOnly.attestation.jws;
    for (const policy of ["one", "both"] as const) {
      expect(await verifyTrustAttestation(jwsOnly, opts({ verify: policy }))).toMatchObject({
        valid: true,
        checked: "jws",
        verified: { jws: true, sig: "absent" },
      });
      expect(await verifyTrustAttestation(sigOnly, opts({ verify: policy }))).toMatchObject({
        valid: true,
        checked: "sig",
        verified: { jws: "absent", sig: true },
      });
    }
  });

  it("checks the jws when there is no signed block, and reports a raw sig next to it not-checked", async () => {
    const response = clone(v2);
    delete (response.attestation as Record<string, unknown>).signed;
    const result = await verifyTrustAttestation(response, opts());
    expect(result).toMatchObject({ valid: true, checked: "jws", verified: { jws: true, sig: "not-checked" } });
    expect(result.signed).toEqual(v2.attestation.signed);
    expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({
      valid: true,
      checked: "both",
      verified: { jws: true, sig: true },
    });
  });

  it("accepts high-S signatures in every form under both policies", async () => {
    for (const v1 of [false, true]) {
      const response = v1 ? await buildV1TrustCheckResponse(keys.v1) : await buildTrustCheckResponse(keys.v2);
      makeHighS(response.attestation);
      expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: true, checked: "jws" });
      expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({ valid: true, checked: "both" });
      const sigOnly = clone(response);
      delete sigOnly.attestation.jws;
      expect(await verifyTrustAttestation(sigOnly, opts())).toMatchObject({ valid: true, checked: "sig", sigBytes: "insertion-order" });
    }
  });

  it("wallet-score: two compact JWSs, identical, are one signature verified once; different copies are both verified", async () => {
    const response = await buildWalletScoreResponse(keys.wallet, { carrier: "sig" });
    const same = clone(response);
    same.attestation.jws = same.attestation.sig;
    expect(await verifyWalletScoreAttestation(same, opts())).toMatchObject({
      valid: true,
      checked: "both",
      verified: { jws: true, sig: true },
    });
    const [header, payload] = response.attestation.sig!.split(".");
    const resigned = await new CompactSign(Buffer.from(payload!, "base64url"))
      .setProtectedHeader(JSON.parse(Buffer.from(header!, "base64url").toString("utf8")) as { alg: string })
      .sign(keys.wallet.privateKey);
    const copies = clone(response);
    copies.attestation.jws = resigned;
    expect(copies.attestation.jws).not.toBe(copies.attestation.sig);
    for (const policy of ["one", "both"] as const) {
      expect(await verifyWalletScoreAttestation(copies, opts({ verify: policy }))).toMatchObject({
        valid: true,
        checked: "both",
        verified: { jws: true, sig: true },
      });
    }
    const forged = clone(copies);
    forged.attestation.sig = flipChar(forged.attestation.sig!);
    expect(await verifyWalletScoreAttestation(forged, opts())).toMatchObject({ valid: false, reason: "bad-jws-signature", field: "sig" });
  });

  it("refuses a verify option that is neither one nor both", async () => {
    await expect(verifyTrustAttestation(v2, opts({ verify: "some" as never }))).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe("verify: one — forms that disagree in value are refused, as with verify: both", () => {
  /** Verdicts of both policies, which must be the same refusal. */
  async function refusedByBoth(response: unknown, reason: string) {
    const one = await verifyTrustAttestation(response, opts());
    const both = await verifyTrustAttestation(response, opts({ verify: "both" }));
    expect(one).toMatchObject({ valid: false, reason });
    expect(one).toEqual(both);
    expect(one.verified.jws).not.toBe("not-checked");
    expect(one.verified.sig).not.toBe("not-checked");
    return one;
  }

  it("a valid sig next to a valid jws over another score: payload-mismatch naming score", async () => {
    const response = clone(v2);
    response.attestation.jws = (await signPayload({ ...response.attestation.signed, score: 20 }, keys.v2)).jws;
    expect(await refusedByBoth(response, "payload-mismatch")).toMatchObject({
      field: "score",
      mismatch: { field: "score", signed: 20, response: 82 },
      checked: "jws",
      verified: { jws: true, sig: false },
    });
  });

  it("a valid sig next to a jws whose payload was swapped (its signature then fails): bad-jws-signature", async () => {
    const response = clone(v2);
    const [header, , signature] = response.attestation.jws!.split(".");
    const forged = Buffer.from(JSON.stringify({ ...response.attestation.signed, score: 95 })).toString("base64url");
    response.attestation.jws = `${header}.${forged}.${signature}`;
    expect(await refusedByBoth(response, "bad-jws-signature")).toMatchObject({ checked: "jws", verified: { jws: false, sig: false } });
  });

  it("a jws over the same claims in another key order (other bytes) is the same block: valid", async () => {
    const response = clone(v2);
    const { agentId, ...rest } = response.attestation.signed;
    response.attestation.jws = await jwsOver(Buffer.from(JSON.stringify({ ...rest, agentId })));
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: true, checked: "jws", verified: { sig: "not-checked" } });
    expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({
      valid: true,
      checked: "both",
      sigBytes: "insertion-order",
    });
  });

  it("a tampered signed block beside an intact jws: payload-mismatch, whatever the sig says", async () => {
    const response = clone(v2);
    response.attestation.signed.score = 95;
    response.score = 95;
    expect(await refusedByBoth(response, "payload-mismatch")).toMatchObject({ field: "score", verified: { jws: true, sig: false } });
  });

  it("a tampered sig beside a valid jws: never reported verified under one, refused under both", async () => {
    const response = clone(v2);
    response.attestation.sig = flipChar(response.attestation.sig!);
    expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: true, verified: { jws: true, sig: "not-checked" } });
    expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({
      valid: false,
      reason: "bad-legacy-signature",
      field: "sig",
      verified: { jws: true, sig: false },
    });
  });

  it("a sig that is not 64 bytes of base64 beside a valid jws: malformed under both policies", async () => {
    const response = clone(v2);
    response.attestation.sig = Buffer.alloc(70, 7).toString("base64");
    expect(await refusedByBoth(response, "malformed")).toMatchObject({ field: "sig" });
  });

  it("a jws whose header names another kid, or another algorithm: refused before any key is used", async () => {
    const bytes = Buffer.from(JSON.stringify(v2.attestation.signed));
    const otherKid = clone(v2);
    otherKid.attestation.jws = await new CompactSign(bytes)
      .setProtectedHeader({ alg: "ES256", kid: "rnwy-trust-v1" })
      .sign(keys.v1.privateKey);
    await refusedByBoth(otherKid, "kid-mismatch");
    const none = clone(v2);
    const [, payload] = none.attestation.jws!.split(".");
    none.attestation.jws = `${Buffer.from(JSON.stringify({ alg: "none", kid: keys.v2.kid })).toString("base64url")}.${payload}.`;
    expect(await refusedByBoth(none, "unsupported-alg")).toMatchObject({ checked: "none" });
  });

  it("a jws with crit or b64 (RFC 7797) beside a valid sig: unsupported-header, never judged by another library", async () => {
    const bytes = Buffer.from(JSON.stringify(v2.attestation.signed));
    for (const header of [{ b64: true, crit: ["b64"] }, { crit: ["x-trustgate"], "x-trustgate": 1 }, { b64: false }]) {
      const response = clone(v2);
      response.attestation.jws = await jwsOver(bytes, header);
      expect(await refusedByBoth(response, "unsupported-header")).toMatchObject({ field: "jws", checked: "none" });
    }
  });
});

describe("verify: one and verify: both give the same verdict but for the signature statuses", () => {
  it("over valid, tampered, expired and mismatched responses", async () => {
    const cases: unknown[] = [v2, await buildV1TrustCheckResponse(keys.v1)];
    const tampered = clone(v2);
    tampered.attestation.jws = flipChar(tampered.attestation.jws!);
    const expired = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() - 30 * 3_600_000) });
    const mismatch = { ...clone(v2), score: 10 };
    const highS = clone(v2);
    makeHighS(highS.attestation);
    const sorted = await buildTrustCheckResponse(keys.v2, { signing: { sigSerialization: "sorted", jwsSerialization: "sorted" } });
    cases.push(tampered, expired, mismatch, highS, sorted);
    for (const response of cases) {
      const one = await verifyTrustAttestation(response, opts());
      const both = await verifyTrustAttestation(response, opts({ verify: "both" }));
      expect({ ...one, verified: both.verified, checked: both.checked, sigBytes: both.sigBytes, message: both.message }).toEqual(both);
      // A signature the verification did not check is never reported verified.
      for (const field of ["jws", "sig"] as const) {
        if (one.checked !== "both" && one.checked !== field) expect(one.verified[field]).not.toBe(true);
      }
    }
  });
});
