/**
 * The compact JWS rules (`jws.ts`), the same the oracle applies: canonical base64url parts, a 64-byte signature, and a
 * protected header read as JSON in any member order — `alg` exactly ES256, a `kid`, `typ` JWT or JOSE, the refused
 * members refused, any other skipped — verified over `header.payload` as issued. Then the same refusals through
 * `verifyTrustAttestation`, with their reasons.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { decodeCanonicalBase64url, readCompactJws, REFUSED_JWS_HEADER_MEMBERS, verifyCompactJws } from "../../src/attestation/jws.js";
import { importVerificationKey, type VerificationKey } from "../../src/attestation/public-key.js";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { signCompactJws } from "../../src/harness/signing.js";
import { buildTrustCheckResponse, clone, flipS, generateTestKeys, jwksOf, TEST_NOW, type TestKeys } from "../support/attestations.js";

let keys: TestKeys;
let key: VerificationKey;
let resolver: JwksResolver;
const payload = Buffer.from('{"hello":"world"}');
const b64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64url");

beforeAll(async () => {
  keys = await generateTestKeys();
  const imported = importVerificationKey(keys.v2.publicJwk);
  if (!imported.ok) throw new Error(imported.problem);
  key = imported.key;
  resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2) });
});

/** A JWS over `payload` whose header is exactly `headerText`, signed over header.payload as written. */
async function withHeaderText(headerText: string | Uint8Array): Promise<string> {
  const input = `${b64(headerText)}.${b64(payload)}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.v2.privateKey, Buffer.from(input));
  return `${input}.${b64(new Uint8Array(signature))}`;
}

describe("readCompactJws: the protected header", () => {
  it.each([
    ["the service's", '{"alg":"ES256","kid":"rnwy-trust-v2"}', undefined],
    ["kid first", '{"kid":"rnwy-trust-v2","alg":"ES256"}', undefined],
    ["typ JWT", '{"alg":"ES256","typ":"JWT","kid":"rnwy-trust-v2"}', "JWT"],
    ["typ JOSE, first", '{"typ":"JOSE","kid":"rnwy-trust-v2","alg":"ES256"}', "JOSE"],
    ["other members skipped", '{"cty":"json","x5t":"abc","alg":"ES256","kid":"rnwy-trust-v2","x-note":{"a":[1,null]}}', undefined],
    ["whitespace", '{ "alg" : "ES256" ,\n "kid" : "rnwy-trust-v2" }', undefined],
  ])("accepts %s, and the signature verifies over header.payload as issued", async (_name, header, typ) => {
    const jws = await withHeaderText(header);
    const read = readCompactJws(jws);
    if (!read.ok) throw new Error(read.problem);
    expect(read.jws.header).toEqual({ alg: "ES256", kid: "rnwy-trust-v2", typ });
    expect(Buffer.from(read.jws.headerBytes).toString()).toBe(header);
    expect(Buffer.from(read.jws.payload).equals(payload)).toBe(true);
    expect(verifyCompactJws(read.jws, key)).toBe(true);
  });

  it.each([
    ["no alg", '{"kid":"rnwy-trust-v2"}', "unsupported-alg"],
    ["alg none", '{"alg":"none","kid":"rnwy-trust-v2"}', "unsupported-alg"],
    ["alg HS256", '{"alg":"HS256","kid":"rnwy-trust-v2"}', "unsupported-alg"],
    ["alg in lower case", '{"alg":"es256","kid":"rnwy-trust-v2"}', "unsupported-alg"],
    ["alg escaped", '{"alg":"ES2\\u00356","kid":"rnwy-trust-v2"}', "unsupported-alg"],
    ["alg not a string", '{"alg":["ES256"],"kid":"rnwy-trust-v2"}', "unsupported-alg"],
    ["no kid", '{"alg":"ES256"}', "missing-kid"],
    ["an empty kid", '{"alg":"ES256","kid":""}', "missing-kid"],
    ["a kid escaped", '{"alg":"ES256","kid":"rnwy-trust-v\\u0032"}', "malformed"],
    ["a kid that is a number", '{"alg":"ES256","kid":2}', "malformed"],
    ["typ JWS", '{"alg":"ES256","kid":"rnwy-trust-v2","typ":"JWS"}', "unsupported-header"],
    ["typ jwt", '{"alg":"ES256","kid":"rnwy-trust-v2","typ":"jwt"}', "unsupported-header"],
    ["typ escaped", '{"alg":"ES256","kid":"rnwy-trust-v2","typ":"J\\u0057T"}', "unsupported-header"],
    ...REFUSED_JWS_HEADER_MEMBERS.map((name): [string, string, string] => [
      name,
      `{"alg":"ES256","kid":"rnwy-trust-v2","${name}":null}`,
      "unsupported-header",
    ]),
    ["alg twice", '{"alg":"ES256","kid":"rnwy-trust-v2","alg":"ES256"}', "malformed"],
    ["an unknown member twice", '{"alg":"ES256","kid":"rnwy-trust-v2","x":1,"x":1}', "malformed"],
    ["an escaped member name", '{"alg":"ES256","kid":"rnwy-trust-v2","cr\\u0069t":["b64"]}', "malformed"],
    ["an escaped alg name beside a real one", '{"alg":"ES256","\\u0061lg":"none","kid":"rnwy-trust-v2"}', "malformed"],
    ["a header that is an array", '["ES256"]', "malformed"],
    ["a header that is not JSON", "{alg:ES256}", "malformed"],
    ["trailing bytes", '{"alg":"ES256","kid":"rnwy-trust-v2"}x', "malformed"],
  ])("refuses %s (%s)", async (_name, header, reason) => {
    expect(readCompactJws(await withHeaderText(header))).toMatchObject({ ok: false, reason });
  });

  it("refuses a header that is not UTF-8", async () => {
    const bytes = Buffer.concat([Buffer.from('{"alg":"ES256","kid":"rnwy-trust-v2","x":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]);
    expect(readCompactJws(await withHeaderText(bytes))).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("checks alg before anything else: alg none with crit is unsupported-alg", async () => {
    expect(readCompactJws(await withHeaderText('{"crit":["x"],"alg":"none","kid":"k"}'))).toMatchObject({ reason: "unsupported-alg" });
  });
});

describe("readCompactJws: the parts, canonical base64url only", () => {
  let jws: string;
  beforeAll(async () => {
    jws = await withHeaderText('{"alg":"ES256","kid":"rnwy-trust-v2"}');
  });
  const parts = () => jws.split(".") as [string, string, string];

  it.each([
    ["two parts", () => parts().slice(0, 2).join(".")],
    ["four parts", () => `${jws}.x`],
    ["padding", () => `${parts()[0]}.${parts()[1]}.${parts()[2]}==`],
    ["padding in the payload", () => `${parts()[0]}.${b64(Buffer.from("{}!"))}=.${parts()[2]}`],
    ["standard base64 characters", () => `${parts()[0]}.+${parts()[1].slice(1)}.${parts()[2]}`],
    ["a payload part of length 1 mod 4", () => `${parts()[0]}.${b64("abc")}A.${parts()[2]}`],
    ["leftover bits set in the payload's last character (e31 for e30)", () => `${parts()[0]}.e31.${parts()[2]}`],
    ["a signature of 63 bytes", () => `${parts()[0]}.${parts()[1]}.${b64(Buffer.alloc(63, 1))}`],
    ["a signature of 65 bytes", () => `${parts()[0]}.${parts()[1]}.${b64(Buffer.alloc(65, 1))}`],
    ["an empty header", () => `.${parts()[1]}.${parts()[2]}`],
    ["a space", () => `${parts()[0]} .${parts()[1]}.${parts()[2]}`],
  ])("refuses %s", (_name, make) => {
    expect(readCompactJws(make())).toMatchObject({ ok: false, reason: "malformed" });
  });

  it("decodeCanonicalBase64url: accepts exactly the text Node writes for the bytes", () => {
    for (let length = 0; length < 40; length++) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 37 + length) & 0xff));
      expect(Buffer.from(decodeCanonicalBase64url(bytes.toString("base64url"))!).equals(bytes)).toBe(true);
    }
    expect(decodeCanonicalBase64url("QQ")).toEqual(Buffer.from("A"));
    expect(decodeCanonicalBase64url("QR")).toBeUndefined();
    expect(decodeCanonicalBase64url("QUI")).toEqual(Buffer.from("AB"));
    expect(decodeCanonicalBase64url("QUJ")).toBeUndefined();
    expect(decodeCanonicalBase64url("QQ==")).toBeUndefined();
    expect(decodeCanonicalBase64url("Q")).toBeUndefined();
    expect(decodeCanonicalBase64url("Q/==")).toBeUndefined();
  });

  it("verifies a high-S signature, and not a signature over other bytes", async () => {
    const read = readCompactJws(jws);
    if (!read.ok) throw new Error(read.problem);
    const high = readCompactJws(`${parts()[0]}.${parts()[1]}.${flipS(read.jws.signature).toString("base64url")}`);
    expect(high.ok && verifyCompactJws(high.jws, key)).toBe(true);
    const other = readCompactJws(`${parts()[0]}.${b64('{"hello":"World"}')}.${parts()[2]}`);
    expect(other.ok && verifyCompactJws(other.jws, key)).toBe(false);
  });
});

describe("verifyTrustAttestation: the JWS header rules, with their reasons", () => {
  async function withHeader(header: Record<string, unknown>) {
    const response = await buildTrustCheckResponse(keys.v2);
    response.attestation.jws = await signCompactJws(header, Buffer.from(JSON.stringify(response.attestation.signed)), keys.v2);
    return response;
  }
  const opts = { jwks: null as unknown as JwksResolver, now: TEST_NOW };
  beforeAll(() => {
    opts.jwks = resolver;
  });

  it("accepts any member order and typ JWT or JOSE", async () => {
    for (const header of [
      { kid: "rnwy-trust-v2", alg: "ES256" },
      { typ: "JWT", alg: "ES256", kid: "rnwy-trust-v2" },
      { alg: "ES256", kid: "rnwy-trust-v2", typ: "JOSE", cty: "json" },
    ]) {
      expect(await verifyTrustAttestation(await withHeader(header), opts), JSON.stringify(header)).toMatchObject({
        valid: true,
        checked: "jws",
      });
    }
  });

  it.each([
    [{ alg: "ES256", kid: "rnwy-trust-v2", crit: ["exp"], exp: 1 }, "unsupported-header"],
    [{ alg: "ES256", kid: "rnwy-trust-v2", jku: "https://attacker.example/jwks.json" }, "unsupported-header"],
    [{ alg: "ES256", kid: "rnwy-trust-v2", x5u: "https://attacker.example/cert.pem" }, "unsupported-header"],
    [{ alg: "ES256", kid: "rnwy-trust-v2", jwk: { kty: "EC" } }, "unsupported-header"],
    [{ alg: "ES256", kid: "rnwy-trust-v2", x5c: ["MII"] }, "unsupported-header"],
    [{ alg: "ES256", kid: "rnwy-trust-v2", b64: false, crit: ["b64"] }, "unsupported-header"],
    [{ alg: "ES256", kid: "rnwy-trust-v2", typ: "at+jwt" }, "unsupported-header"],
    [{ alg: "none", kid: "rnwy-trust-v2" }, "unsupported-alg"],
    [{ alg: "ES256" }, "missing-kid"],
    [{ alg: "ES256", kid: "rnwy-trust-v1" }, "kid-mismatch"],
  ])("refuses %j: %s, before any key is used", async (header, reason) => {
    expect(await verifyTrustAttestation(await withHeader(header), opts)).toMatchObject({ valid: false, reason, checked: "none" });
  });

  it("reads a header kid with a leading U+FEFF as written: another kid than the attestation's (kid-mismatch, as on-chain)", async () => {
    const read = readCompactJws(await withHeaderText('{"alg":"ES256","kid":"\uFEFFrnwy-trust-v2"}'));
    expect(read.ok && read.jws.header.kid).toBe("\uFEFFrnwy-trust-v2");
    const verdict = await verifyTrustAttestation(await withHeader({ alg: "ES256", kid: "\uFEFFrnwy-trust-v2" }), opts);
    expect(verdict).toMatchObject({ valid: false, reason: "kid-mismatch", field: "kid", checked: "none" });
  });

  it("an unknown kid in the header and the attestation is never tried with another key", async () => {
    const response = clone(await withHeader({ alg: "ES256", kid: "rnwy-trust-v3" }));
    response.attestation.kid = "rnwy-trust-v3";
    const verdict = await verifyTrustAttestation(response, { ...opts, acceptedKids: ["rnwy-trust-v2", "rnwy-trust-v3"] });
    expect(verdict).toMatchObject({ valid: false, reason: "key-not-found", kid: "rnwy-trust-v3", checked: "none" });
  });
});
