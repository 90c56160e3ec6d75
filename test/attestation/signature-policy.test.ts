/**
 * `verify: "one"` (the default) and `verify: "both"`: of two signatures over the same signed bytes, one is checked
 * with the key and the other compared with it; the verdict says which (`checked`), never reports the unchecked
 * one as verified, and refuses forms that disagree exactly as `verify: "both"` does.
 */
import { webcrypto } from "node:crypto";
import { CompactSign, type JSONWebKeySet } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createJwksResolver,
  type JwksResolver,
  type VerifyTrustAttestationOptions,
  verifyTrustAttestation,
  verifyWalletScoreAttestation,
} from "../../src/attestation/verify.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { signPayload } from "../../src/harness/signing.js";
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
const opts = (extra: VerifyTrustAttestationOptions = {}): VerifyTrustAttestationOptions => ({ jwks: resolver, now: TEST_NOW, ...extra });

beforeAll(async () => {
  keys = await generateTestKeys();
  jwks = jwksOf(keys.v1, keys.v2, keys.wallet, keys.mcp);
  resolver = createJwksResolver({ keys: jwks });
  v2 = await buildTrustCheckResponse(keys.v2);
});

/**
 * A compact JWS over `bytes` under the v2 key, with the given extra header parameters, signed by hand (jose
 * refuses to sign a `crit` it does not know).
 */
async function jwsOver(bytes: Uint8Array, header: Record<string, unknown> = {}): Promise<string> {
  const input = `${Buffer.from(JSON.stringify({ alg: "ES256", kid: keys.v2.kid, ...header })).toString("base64url")}.${Buffer.from(bytes).toString("base64url")}`;
  const signature = await webcrypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    keys.v2.privateKey as webcrypto.CryptoKey,
    Buffer.from(input),
  );
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

describe("verify: one — which signature is checked, and what the verdict says", () => {
  it("checks the sig when there is a signed block, and reports the jws not-checked (never true)", async () => {
    const result = await verifyTrustAttestation(v2, opts());
    expect(result).toMatchObject({ valid: true, checked: "sig", verified: { sig: true, jws: "not-checked" } });
  });

  it("checks the jws when requireJws is set, and reports the sig not-checked", async () => {
    const result = await verifyTrustAttestation(v2, opts({ requireJws: true }));
    expect(result).toMatchObject({ valid: true, checked: "jws", verified: { jws: true, sig: "not-checked" } });
  });

  it("checks both when requireJws and requireLegacySig are both set, or with verify: both", async () => {
    expect(await verifyTrustAttestation(v2, opts({ requireJws: true, requireLegacySig: true }))).toMatchObject({
      valid: true,
      checked: "both",
      verified: { jws: true, sig: true },
    });
    expect(await verifyTrustAttestation(v2, opts({ verify: "both" }))).toMatchObject({
      checked: "both",
      verified: { jws: true, sig: true },
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
      expect(await verifyTrustAttestation(response, opts())).toMatchObject({ valid: true, checked: "sig" });
      expect(await verifyTrustAttestation(response, opts({ verify: "both" }))).toMatchObject({ valid: true, checked: "both" });
      expect(await verifyTrustAttestation(response, opts({ requireJws: true }))).toMatchObject({ valid: true, checked: "jws" });
    }
  });

  it("wallet-score: two compact JWSs, identical, are one signature and both verified; different copies leave one not-checked", async () => {
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
    expect(await verifyWalletScoreAttestation(copies, opts())).toMatchObject({
      valid: true,
      checked: "jws",
      verified: { jws: true, sig: "not-checked" },
    });
    expect(await verifyWalletScoreAttestation(copies, opts({ verify: "both" }))).toMatchObject({
      valid: true,
      checked: "both",
      verified: { jws: true, sig: true },
    });
  });

  it("refuses a verify option that is neither one nor both", async () => {
    await expect(verifyTrustAttestation(v2, opts({ verify: "some" as never }))).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe("verify: one — forms that disagree are refused, as with verify: both", () => {
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

  it("a valid sig next to a valid jws over other bytes: payload-mismatch", async () => {
    const response = clone(v2);
    response.attestation.jws = (await signPayload({ ...response.attestation.signed, score: 20 }, keys.v2)).jws;
    expect(await refusedByBoth(response, "payload-mismatch")).toMatchObject({ checked: "both", verified: { jws: true, sig: true } });
  });

  it("a valid sig next to a jws whose payload was swapped (its signature then fails): bad-jws-signature", async () => {
    const response = clone(v2);
    const [header, , signature] = response.attestation.jws!.split(".");
    const forged = Buffer.from(JSON.stringify({ ...response.attestation.signed, score: 95 })).toString("base64url");
    response.attestation.jws = `${header}.${forged}.${signature}`;
    expect(await refusedByBoth(response, "bad-jws-signature")).toMatchObject({ checked: "both", verified: { jws: false, sig: true } });
  });

  it("a valid sig next to a jws over the same claims in another key order (other bytes): refused", async () => {
    const response = clone(v2);
    const { agentId, ...rest } = response.attestation.signed;
    response.attestation.jws = await jwsOver(Buffer.from(JSON.stringify({ ...rest, agentId })));
    await refusedByBoth(response, "payload-mismatch");
  });

  it("a tampered signed block: the sig fails, whatever the jws says", async () => {
    const response = clone(v2);
    response.attestation.signed.score = 95;
    response.score = 95;
    expect(await refusedByBoth(response, "bad-legacy-signature")).toMatchObject({ verified: { jws: true, sig: false } });
  });

  it("a tampered sig: bad-legacy-signature", async () => {
    const response = clone(v2);
    response.attestation.sig = flipChar(response.attestation.sig!);
    await refusedByBoth(response, "bad-legacy-signature");
  });

  it("a tampered sig that is not 64 bytes, next to a jws checked instead (requireJws): malformed", async () => {
    const response = clone(v2);
    response.attestation.sig = Buffer.alloc(70, 7).toString("base64");
    expect(await verifyTrustAttestation(response, opts({ requireJws: true }))).toMatchObject({
      valid: false,
      reason: "malformed",
      field: "sig",
    });
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

  it("a jws with crit or b64 (RFC 7797) next to a valid sig is never the unchecked copy: jose judges it", async () => {
    const bytes = Buffer.from(JSON.stringify(v2.attestation.signed));
    const explicitB64 = clone(v2);
    explicitB64.attestation.jws = await jwsOver(bytes, { b64: true, crit: ["b64"] });
    const accepted = await verifyTrustAttestation(explicitB64, opts());
    expect(accepted).toMatchObject({ valid: true, checked: "both", verified: { jws: true, sig: true } });
    const unknownCrit = clone(v2);
    unknownCrit.attestation.jws = await jwsOver(bytes, { crit: ["x-trustgate"], "x-trustgate": 1 });
    const refused = await verifyTrustAttestation(unknownCrit, opts());
    expect(refused).toMatchObject({ valid: false, reason: "bad-jws-signature", checked: "both" });
    expect(refused).toEqual(await verifyTrustAttestation(unknownCrit, opts({ verify: "both" })));
  });
});

describe("verify: one and verify: both give the same verdict but for the signature statuses", () => {
  it("over valid, tampered, expired and mismatched responses", async () => {
    const cases: unknown[] = [v2, await buildV1TrustCheckResponse(keys.v1)];
    const tampered = clone(v2);
    tampered.attestation.sig = flipChar(tampered.attestation.sig!);
    const expired = await buildTrustCheckResponse(keys.v2, { issuedAt: new Date(TEST_NOW.getTime() - 30 * 3_600_000) });
    const mismatch = { ...clone(v2), score: 10 };
    const highS = clone(v2);
    makeHighS(highS.attestation);
    cases.push(tampered, expired, mismatch, highS);
    for (const response of cases) {
      const one = await verifyTrustAttestation(response, opts());
      const both = await verifyTrustAttestation(response, opts({ verify: "both" }));
      expect({ ...one, verified: both.verified, checked: both.checked, message: both.message }).toEqual(both);
      // A signature the verification did not check is never reported verified.
      for (const field of ["jws", "sig"] as const) {
        if (one.checked !== "both" && one.checked !== field) expect(one.verified[field]).not.toBe(true);
      }
    }
  });
});
