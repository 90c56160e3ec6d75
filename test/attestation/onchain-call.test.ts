/**
 * `toAttestationCall`: the on-chain call arguments of a `/api/trust-check` response, in every signature form the
 * service publishes. Signatures are real ES256 signatures made here, checked with node:crypto over exactly the bytes
 * the call carries.
 */
import { createPublicKey, verify } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { toAttestationCall } from "../../src/attestation/onchain-call.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { createAttestation } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildWalletScoreResponse,
  clone,
  generateTestKeys,
  makeHighS,
  P256_ORDER,
  type TestKeys,
} from "../support/attestations.js";

let keys: TestKeys;
beforeAll(async () => {
  keys = await generateTestKeys();
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

describe("toAttestationCall: the sig form", () => {
  it("carries exactly JSON.stringify(attestation.signed) and the 64-byte r‖s of sig", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { agent: { agentId: "16907", sybilSeverity: null } });
    const call = toAttestationCall(response);
    expect(call.kid).toBe("rnwy-trust-v2");
    expect(call.form).toBe("sig");
    expect(bytes(call.signedJson).toString("utf8")).toBe(JSON.stringify(response.attestation.signed));
    expect(bytes(call.signedJson).toString("utf8")).toContain('{"agentId":"16907","chain":"base"');
    expect(bytes(call.signature)).toHaveLength(64);
    expect(bytes(call.signature)).toEqual(Buffer.from(response.attestation.sig!, "base64"));
    expect(verifies(keys.v2, bytes(call.signedJson), call.signature)).toBe(true);
    expect(call.jws).toBeUndefined();
  });

  it("gives the same bytes after the response went through JSON (an HTTP body) and from the attestation alone", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    const overTheWire = JSON.parse(JSON.stringify(response)) as unknown;
    expect(toAttestationCall(overTheWire)).toEqual(toAttestationCall(response));
    expect(toAttestationCall(response.attestation)).toEqual(toAttestationCall(response));
  });

  it("passes a high-S signature through unchanged (the contract normalises it)", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    makeHighS(response.attestation);
    const call = toAttestationCall(response);
    expect(BigInt(`0x${call.signature.slice(66)}`) > P256_ORDER / 2n).toBe(true);
    expect(verifies(keys.v2, bytes(call.signedJson), call.signature)).toBe(true);
  });

  it("prefers sig over jws when both are present", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    expect(response.attestation.jws).toBeDefined();
    expect(toAttestationCall(response).form).toBe("sig");
  });
});

describe("toAttestationCall: the jws form", () => {
  it("without sig: the JWS payload bytes, its signature, and the JWS itself for submitJwsAttestation", async () => {
    const response = await buildTrustCheckResponse(keys.v2);
    response.attestation = await createAttestation(response.attestation.signed, keys.v2, {
      issuer: "https://rnwy.com",
      type: "behavioral_trust",
      form: "jws",
    });
    const call = toAttestationCall(response);
    expect(call.form).toBe("jws");
    expect(bytes(call.signedJson).toString("utf8")).toBe(JSON.stringify(response.attestation.signed));
    const jws = response.attestation.jws!;
    expect(bytes(call.jws!).toString("ascii")).toBe(jws);
    const signingInput = Buffer.from(jws.slice(0, jws.lastIndexOf(".")), "ascii");
    expect(verifies(keys.v2, signingInput, call.signature)).toBe(true);
    // The JWS signature does not cover the payload bytes alone: that is why the jws form has its own call.
    expect(verifies(keys.v2, bytes(call.signedJson), call.signature)).toBe(false);
  });

  it("reads a sig that is itself a compact JWS with signed null", async () => {
    const response = await buildWalletScoreResponse(keys.wallet);
    const call = toAttestationCall(response);
    expect(call.form).toBe("jws");
    expect(call.kid).toBe("rnwy-wallet-v1");
    expect(JSON.parse(bytes(call.signedJson).toString("utf8"))).toHaveProperty("wallet");
  });
});

describe("toAttestationCall: refuses what cannot be submitted", () => {
  const cases: Array<[string, (r: Record<string, any>) => unknown]> = [
    ["not an object", () => "nope"],
    ["no kid", (r) => ({ ...r, attestation: { ...r.attestation, kid: "" } })],
    ["a sig of 63 bytes", (r) => ({ ...r, attestation: { ...r.attestation, sig: Buffer.alloc(63, 1).toString("base64") } })],
    ["a sig that is not base64", (r) => ({ ...r, attestation: { ...r.attestation, sig: "***" } })],
    ["a raw sig without a signed block", (r) => ({ ...r, attestation: { ...r.attestation, signed: null } })],
    ["neither sig nor jws", (r) => ({ ...r, attestation: { ...r.attestation, sig: undefined, jws: undefined } })],
    ["a jws that is not compact", (r) => ({ ...r, attestation: { ...r.attestation, sig: undefined, jws: "a.b" } })],
    ["a jws whose signature is not 64 bytes", (r) => ({ ...r, attestation: { ...r.attestation, sig: undefined, jws: "eyJh.eyJi.AAAA" } })],
  ];
  for (const [name, mutate] of cases) {
    it(name, async () => {
      const response = clone(await buildTrustCheckResponse(keys.v2)) as unknown as Record<string, any>;
      expect(() => toAttestationCall(mutate(response))).toThrow(InvalidArgumentError);
    });
  }
});
