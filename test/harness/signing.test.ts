import { createPublicKey, verify } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/attestation/canonical-json";
import { InvalidArgumentError } from "../../src/errors";
import {
  type AttestationSigningKey,
  createAttestation,
  generateSigningKey,
  serializeSigned,
  signJwt,
  signPayload,
} from "../../src/harness/signing";

let key: AttestationSigningKey;
const signed = { agentId: "1487", chain: "base", score: 82, badges: ["b", "a"] };
const insertion = JSON.stringify(signed);
const sorted = canonicalJson(signed);

function verifies(data: Uint8Array | string, signature: Uint8Array): boolean {
  const publicKey = createPublicKey({ key: key.publicJwk as never, format: "jwk" });
  return verify("sha256", Buffer.from(data), { key: publicKey, dsaEncoding: "ieee-p1363" }, signature);
}

function parts(jws: string): { header: string; payload: string; signature: Buffer; input: string } {
  const [header, payload, signature] = jws.split(".") as [string, string, string];
  return {
    header: Buffer.from(header, "base64url").toString("utf8"),
    payload: Buffer.from(payload, "base64url").toString("utf8"),
    signature: Buffer.from(signature, "base64url"),
    input: `${header}.${payload}`,
  };
}

beforeAll(async () => {
  key = await generateSigningKey("rnwy-trust-v2");
});

describe("signPayload", () => {
  it("by default signs JSON.stringify(signed) both ways, under the header {alg, kid}", async () => {
    const { sig, jws } = await signPayload(signed, key);
    expect(verifies(insertion, Buffer.from(sig, "base64"))).toBe(true);
    const jwsParts = parts(jws);
    expect(jwsParts.header).toBe('{"alg":"ES256","kid":"rnwy-trust-v2"}');
    expect(jwsParts.payload).toBe(insertion);
    expect(verifies(jwsParts.input, jwsParts.signature)).toBe(true);
  });

  it("signs the RFC 8785 sorted-key bytes when asked, each signature independently", async () => {
    const { sig, jws } = await signPayload(signed, key, { sigSerialization: "sorted" });
    expect(verifies(sorted, Buffer.from(sig, "base64"))).toBe(true);
    expect(verifies(insertion, Buffer.from(sig, "base64"))).toBe(false);
    expect(parts(jws).payload).toBe(insertion);

    const other = await signPayload(signed, key, { jwsSerialization: "sorted" });
    expect(verifies(insertion, Buffer.from(other.sig, "base64"))).toBe(true);
    expect(parts(other.jws).payload).toBe(sorted);
    expect(verifies(parts(other.jws).input, parts(other.jws).signature)).toBe(true);
  });

  it("writes the given JWS header as given, members in order", async () => {
    const { jws } = await signPayload(signed, key, { jwsHeader: { typ: "JWT", kid: key.kid, alg: "ES256" } });
    expect(parts(jws).header).toBe('{"typ":"JWT","kid":"rnwy-trust-v2","alg":"ES256"}');
    expect(verifies(parts(jws).input, parts(jws).signature)).toBe(true);
  });

  it("carries exact payload bytes when given, even bytes that are not UTF-8", async () => {
    const payload = Uint8Array.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]);
    const { jws, sig } = await signPayload(signed, key, { jwsPayload: payload });
    const [, payloadPart] = jws.split(".") as [string, string];
    expect(Buffer.from(payloadPart, "base64url").equals(Buffer.from(payload))).toBe(true);
    expect(verifies(parts(jws).input, parts(jws).signature)).toBe(true);
    expect(verifies(insertion, Buffer.from(sig, "base64"))).toBe(true);
  });

  it("refuses an unknown serialisation and a block without a canonical form", async () => {
    await expect(signPayload(signed, key, { sigSerialization: "pretty" as never })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(signPayload({ score: Number.NaN }, key, { jwsSerialization: "sorted" })).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(() => serializeSigned(signed, "other" as never)).toThrow(InvalidArgumentError);
  });
});

describe("createAttestation with signing options", () => {
  it("passes them to the signer", async () => {
    const attestation = await createAttestation(signed, key, {
      issuer: "https://rnwy.com",
      type: "behavioral_trust",
      signing: { sigSerialization: "sorted", jwsSerialization: "sorted", jwsHeader: { kid: key.kid, typ: "JOSE", alg: "ES256" } },
    });
    expect(attestation.signed).toBe(signed);
    expect(verifies(sorted, Buffer.from(attestation.sig!, "base64"))).toBe(true);
    expect(parts(attestation.jws!).payload).toBe(sorted);
    expect(parts(attestation.jws!).header).toBe('{"kid":"rnwy-trust-v2","typ":"JOSE","alg":"ES256"}');
  });
});

describe("signJwt", () => {
  it("signs the claims in their order under {alg, kid, typ: JWT}", async () => {
    const jwt = parts(await signJwt({ sub: "0xabc", iat: 1 }, key));
    expect(jwt.header).toBe('{"alg":"ES256","kid":"rnwy-trust-v2","typ":"JWT"}');
    expect(jwt.payload).toBe('{"sub":"0xabc","iat":1}');
    expect(verifies(jwt.input, jwt.signature)).toBe(true);
  });
});
