/**
 * `toAttestationCall`: the on-chain call arguments of a `/api/trust-check` response, in every signature form the
 * service publishes or a standard signer may write. The JWS form comes first; the `sig` form carries the bytes the
 * `sig` covers. Signatures are real ES256 signatures made here, checked with node:crypto over exactly the bytes the
 * call carries.
 */
import { createPublicKey, verify } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/attestation/canonical-json.js";
import { type AttestationCall, toAttestationCall } from "../../src/attestation/onchain-call.js";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { ORACLE_CHAIN_SLUGS } from "../../src/config/chains.js";
import { InvalidArgumentError, UnstorableAttestationError } from "../../src/errors.js";
import { createJwtAttestation, type SigningParameters, signCompactJws } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  clone,
  generateTestKeys,
  jwksOf,
  makeHighS,
  P256_ORDER,
  TEST_ISSUER,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";

let keys: TestKeys;
let resolver: JwksResolver;
beforeAll(async () => {
  keys = await generateTestKeys();
  resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2) });
});

const bytes = (hex: string) => Buffer.from(hex.slice(2), "hex");
function verifies(key: TestKeys["v2"], data: Uint8Array, signature: string): boolean {
  return verify(
    "sha256",
    data,
    { key: createPublicKey({ key: key.publicJwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
    bytes(signature),
  );
}

/** Whether a call's signature covers what the contract checks: the JWS signing input, or signedJson itself. */
function callVerifies(call: AttestationCall): boolean {
  if (call.form === "sig") return verifies(keys.v2, bytes(call.signedJson), call.signature);
  const jws = bytes(call.jws!).toString("ascii");
  const [header, payload] = jws.split(".") as [string, string];
  return (
    verifies(keys.v2, Buffer.from(`${header}.${payload}`, "ascii"), call.signature) &&
    Buffer.from(payload, "base64url").equals(bytes(call.signedJson))
  );
}

describe("toAttestationCall: the JWS form first", () => {
  it("prefers the jws when both are present: its payload bytes, its signature, and the JWS as issued", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const call = toAttestationCall(response);
    expect(call).toMatchObject({ kid: "rnwy-trust-v2", form: "jws" });
    expect(call.sigBytes).toBeUndefined();
    const jws = response.attestation.jws!;
    expect(bytes(call.jws!).toString("ascii")).toBe(jws);
    expect(bytes(call.signedJson).toString("utf8")).toBe(JSON.stringify(response.attestation.signed));
    expect(bytes(call.signature)).toEqual(Buffer.from(jws.split(".")[2]!, "base64url"));
    expect(callVerifies(call)).toBe(true);
    // The JWS signature does not cover the payload bytes alone: that is why the jws form has its own call.
    expect(verifies(keys.v2, bytes(call.signedJson), call.signature)).toBe(false);
  });

  it("carries a JWS over sorted keys under a typ header, beside signed in insertion order, byte for byte", async () => {
    const response = await buildTrustCheckResponse(keys.v2, {
      signing: { jwsSerialization: "sorted", jwsHeader: { typ: "JWT", kid: keys.v2.kid, alg: "ES256" } },
    });
    const call = toAttestationCall(response);
    expect(call.form).toBe("jws");
    expect(bytes(call.signedJson).toString("utf8")).toBe(canonicalJson(response.attestation.signed));
    expect(bytes(call.jws!).toString("ascii")).toBe(response.attestation.jws);
    expect(callVerifies(call)).toBe(true);
  });

  it("falls back to the jws when signed is null beside a raw sig", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const stripped = clone(response) as unknown as { attestation: Record<string, unknown> };
    stripped.attestation.signed = null;
    const call = toAttestationCall(stripped);
    expect(call.form).toBe("jws");
    expect(callVerifies(call)).toBe(true);
  });

  it("reads a sig that is itself a compact JWS with signed null", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const attestation = await createJwtAttestation(response.attestation.signed, keys.v2, { issuer: TEST_ISSUER, type: "behavioral_trust" });
    const call = toAttestationCall({ ...response, attestation });
    expect(call).toMatchObject({ form: "jws", kid: "rnwy-trust-v2" });
    expect(bytes(call.jws!).toString("ascii")).toBe(attestation.sig);
    expect(callVerifies(call)).toBe(true);
  });

  it("passes a high-S signature through unchanged (the contract normalises it)", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    makeHighS(response.attestation);
    const call = toAttestationCall(response);
    expect(BigInt(`0x${call.signature.slice(66)}`) > P256_ORDER / 2n).toBe(true);
    expect(callVerifies(call)).toBe(true);
  });

  it("gives the same call after the response went through JSON (an HTTP body) and from the attestation alone", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const overTheWire = JSON.parse(JSON.stringify(response)) as unknown;
    expect(toAttestationCall(overTheWire)).toEqual(toAttestationCall(response));
    expect(toAttestationCall(response.attestation)).toEqual(toAttestationCall(response));
  });
});

describe("toAttestationCall: the sig form, only without a JWS", () => {
  async function sigOnly(signing?: SigningParameters) {
    const response = await buildTrustCheckResponse(keys.v2, signing ? { signing } : {});
    delete response.attestation.jws;
    return response;
  }

  it("without a verdict: exactly JSON.stringify(attestation.signed) and the 64-byte r‖s of sig", async () => {
    const response = await sigOnly();
    const call = toAttestationCall(response);
    expect(call).toMatchObject({ kid: "rnwy-trust-v2", form: "sig", sigBytes: "insertion-order" });
    expect(bytes(call.signedJson).toString("utf8")).toBe(JSON.stringify(response.attestation.signed));
    expect(bytes(call.signature)).toEqual(Buffer.from(response.attestation.sig!, "base64"));
    expect(call.jws).toBeUndefined();
    expect(callVerifies(call)).toBe(true);
  });

  it("with the verifier's verdict: the serialisation the sig verified over (sorted keys here)", async () => {
    const response = await sigOnly({ sigSerialization: "sorted" });
    const verdict = await verifyTrustAttestation(response, { jwks: resolver, now: TEST_NOW });
    expect(verdict).toMatchObject({ valid: true, sigBytes: "sorted-keys" });
    const call = toAttestationCall(response, verdict);
    expect(call).toMatchObject({ form: "sig", sigBytes: "sorted-keys" });
    expect(bytes(call.signedJson).toString("utf8")).toBe(canonicalJson(response.attestation.signed));
    expect(callVerifies(call)).toBe(true);
    // Without the verdict the insertion order is assumed, and those bytes were not signed: the contract would refuse.
    expect(callVerifies(toAttestationCall(response))).toBe(false);
  });

  it("refuses a verdict that is not valid, or that does not say which bytes the sig covers", async () => {
    const response = await sigOnly();
    expect(() => toAttestationCall(response, { valid: false, sigBytes: undefined })).toThrow(InvalidArgumentError);
    expect(() => toAttestationCall(response, { valid: true, sigBytes: undefined })).toThrow(/which bytes the sig verified over/);
  });

  it("passes a high-S signature through unchanged", async () => {
    const response = await sigOnly();
    makeHighS(response.attestation);
    const call = toAttestationCall(response);
    expect(BigInt(`0x${call.signature.slice(66)}`) > P256_ORDER / 2n).toBe(true);
    expect(callVerifies(call)).toBe(true);
  });
});

describe("toAttestationCall: whenever the verifier accepts a response, the call carries signed bytes the oracle reads", () => {
  it("over the forms a signer may write", async () => {
    const forms: SigningParameters[] = [
      {},
      { sigSerialization: "sorted" },
      { jwsSerialization: "sorted" },
      { sigSerialization: "sorted", jwsSerialization: "sorted", jwsHeader: { kid: keys.v2.kid, alg: "ES256", typ: "JOSE" } },
      { jwsHeader: { kid: keys.v2.kid, cty: "json", alg: "ES256" } },
    ];
    for (const signing of forms) {
      for (const drop of [undefined, "jws", "sig"] as const) {
        const response = await buildTrustCheckResponse(keys.v2, { signing });
        if (drop !== undefined) delete response.attestation[drop];
        for (const policy of ["one", "both"] as const) {
          const verdict = await verifyTrustAttestation(response, { jwks: resolver, now: TEST_NOW, verify: policy });
          expect(verdict.valid, `${JSON.stringify(signing)} without ${drop}`).toBe(true);
          const call = toAttestationCall(response, verdict);
          expect(call.form).toBe(drop === "jws" ? "sig" : "jws");
          expect(callVerifies(call)).toBe(true);
        }
      }
    }
  });
});

describe("toAttestationCall: refuses what cannot be submitted", () => {
  const hostileHeader = async (header: Record<string, unknown>, response: Record<string, any>) =>
    signCompactJws(header, Buffer.from(JSON.stringify(response.attestation.signed)), keys.v2);
  const cases: Array<[string, (r: Record<string, any>) => unknown]> = [
    ["not an object", () => "nope"],
    ["a raw sig without a kid", (r) => ({ ...r, attestation: { ...r.attestation, jws: undefined, kid: "" } })],
    [
      "a sig of 63 bytes",
      (r) => ({ ...r, attestation: { ...r.attestation, jws: undefined, sig: Buffer.alloc(63, 1).toString("base64") } }),
    ],
    ["a sig that is not base64", (r) => ({ ...r, attestation: { ...r.attestation, jws: undefined, sig: "***" } })],
    ["a raw sig without a signed block nor a jws", (r) => ({ ...r, attestation: { ...r.attestation, jws: undefined, signed: null } })],
    ["neither sig nor jws", (r) => ({ ...r, attestation: { ...r.attestation, sig: undefined, jws: undefined } })],
    ["a jws that is not compact", (r) => ({ ...r, attestation: { ...r.attestation, sig: undefined, jws: "a.b" } })],
    ["a jws whose signature is not 64 bytes", (r) => ({ ...r, attestation: { ...r.attestation, sig: undefined, jws: "eyJh.eyJi.AAAA" } })],
    ["a jws with padding", (r) => ({ ...r, attestation: { ...r.attestation, jws: `${r.attestation.jws}=` } })],
    ["a kid that is not the JWS header's", (r) => ({ ...r, attestation: { ...r.attestation, kid: "rnwy-trust-v1" } })],
    ["a sig that is a JWS beside a signed block", (r) => ({ ...r, attestation: { ...r.attestation, sig: r.attestation.jws } })],
  ];
  for (const [name, mutate] of cases) {
    it(name, async () => {
      const response = clone(await buildTrustCheckResponse(keys.v2)) as unknown as Record<string, any>;
      expect(() => toAttestationCall(mutate(response))).toThrow(InvalidArgumentError);
    });
  }

  it.each([
    ["crit", { alg: "ES256", kid: "rnwy-trust-v2", crit: ["exp"] }],
    ["jku", { alg: "ES256", kid: "rnwy-trust-v2", jku: "https://attacker.example/jwks.json" }],
    ["b64", { alg: "ES256", kid: "rnwy-trust-v2", b64: true }],
    ["typ JWS", { alg: "ES256", kid: "rnwy-trust-v2", typ: "JWS" }],
    ["alg none", { alg: "none", kid: "rnwy-trust-v2" }],
    ["no kid", { alg: "ES256" }],
  ])("a JWS header the oracle refuses (%s)", async (_name, header) => {
    const response = clone(await buildTrustCheckResponse(keys.v2)) as unknown as Record<string, any>;
    response.attestation.jws = await hostileHeader(header, response);
    expect(() => toAttestationCall(response)).toThrow(InvalidArgumentError);
  });

  it("signed bytes the oracle's reader refuses, naming the field and offset", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const text = JSON.stringify(response.attestation.signed).replace('"score":82', '"score":82,"sc\\u006fre":5');
    response.attestation = (await buildTrustCheckResponse(keys.v2, { signing: { jwsPayload: Buffer.from(text) } })).attestation;
    expect(() => toAttestationCall(response)).toThrow(/oracle would refuse/);
    let details = "";
    try {
      toAttestationCall(response);
    } catch (error) {
      details = (error as InvalidArgumentError).details ?? "";
    }
    expect(details).toBe(`field: json, byte offset ${text.indexOf('"sc\\u006fre"')} (malformed)`);
  });
});

describe("toAttestationCall and the verdict's onchain part: a chain the oracle's slug table does not hold", () => {
  it.each([["Base"], ["solana"], ["bäse"], ["base-mainnet"]])(
    "a valid attestation naming %s: valid off-chain, not storable, and no call built (it would revert UnknownChainSlug)",
    async (chain) => {
      const response = await buildTrustCheckResponse(keys.v2, { agent: { chain } });
      const verdict = await verifyTrustAttestation(response, { jwks: resolver, now: TEST_NOW });
      expect(verdict).toMatchObject({
        valid: true,
        onchain: { storable: false, reason: "unknown-chain-slug", chain, message: expect.stringContaining("UnknownChainSlug") as string },
      });
      let thrown: unknown;
      try {
        toAttestationCall(response, verdict);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UnstorableAttestationError);
      expect(thrown).toBeInstanceOf(InvalidArgumentError);
      expect(thrown).toMatchObject({ reason: "unknown-chain-slug", chain });
      // The sig form is refused alike.
      const sigOnly = clone(response) as unknown as Record<string, any>;
      delete sigOnly.attestation.jws;
      expect(() => toAttestationCall(sigOnly)).toThrow(UnstorableAttestationError);
    },
  );

  it("every slug of the table is storable under its chain id, and the call is built", async () => {
    for (const [slug, chainId] of ORACLE_CHAIN_SLUGS) {
      const response = await buildTrustCheckResponse(keys.v2, { agent: { chain: slug } });
      const verdict = await verifyTrustAttestation(response, { jwks: resolver, now: TEST_NOW });
      expect(verdict.onchain, slug).toEqual({ storable: true, chainId });
      expect(toAttestationCall(response, verdict).kid).toBe("rnwy-trust-v2");
    }
  });

  it("reads another table when given one (an oracle whose admin added or removed a slug), or leaves the slug unchecked", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { agent: { chain: "zora" } });
    expect(() => toAttestationCall(response)).toThrow(UnstorableAttestationError);
    expect(toAttestationCall(response, undefined, { chainSlugs: new Map([["zora", 7777777]]) }).form).toBe("jws");
    expect(toAttestationCall(response, undefined, { chainSlugs: "unchecked" }).form).toBe("jws");
    const base = await buildTrustCheckResponse(keys.v2);
    expect(() => toAttestationCall(base, undefined, { chainSlugs: new Map([["base", 0]]) })).toThrow(UnstorableAttestationError);
  });

  it("a v1 block and a wallet's found: false are valid, and not storable (the oracle reads v2 only); an invalid verdict has no onchain part", async () => {
    const v1 = await buildV1TrustCheckResponse(keys.v1);
    expect(await verifyTrustAttestation(v1, { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: true,
      onchain: { storable: false, reason: "not-v2-block" },
    });
    const none = await buildWalletNotFoundResponse(keys.v2, "0x7a16ff8270133f063aab6c9977183d9e72835428");
    expect(await verifyTrustAttestation(none, { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: true,
      onchain: { storable: false, reason: "not-v2-block" },
    });
    const expired = await verifyTrustAttestation(await buildTrustCheckResponse(keys.v2), {
      jwks: resolver,
      now: TEST_NOW.getTime() + 48 * 3_600_000,
    });
    expect(expired).toMatchObject({ valid: false, onchain: undefined });
  });
});
