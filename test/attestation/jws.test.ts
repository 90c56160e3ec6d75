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

  const ONLY_ES256 = 'only "ES256" is accepted';
  const ONLY_TYPES = 'only "JWT" or "JOSE" is accepted';
  const refusedAt = (offset: number, problem: string) => `its protected header is refused at byte ${offset}: ${problem}`;
  const longAlg = "x".repeat(39);
  it.each([
    ["no alg", '{"kid":"rnwy-trust-v2"}', "unsupported-alg", "its header names no alg; only ES256 is accepted"],
    ["alg none", '{"alg":"none","kid":"rnwy-trust-v2"}', "unsupported-alg", `its header alg is "none"; ${ONLY_ES256}`],
    ["alg HS256", '{"alg":"HS256","kid":"rnwy-trust-v2"}', "unsupported-alg", `its header alg is "HS256"; ${ONLY_ES256}`],
    ["alg in lower case", '{"alg":"es256","kid":"rnwy-trust-v2"}', "unsupported-alg", `its header alg is "es256"; ${ONLY_ES256}`],
    ["alg escaped", '{"alg":"ES2\\u00356","kid":"rnwy-trust-v2"}', "unsupported-alg", `its header alg is "ES2\\u00356"; ${ONLY_ES256}`],
    ["alg not a string", '{"alg":["ES256"],"kid":"rnwy-trust-v2"}', "unsupported-alg", `its header alg is ["ES256"]; ${ONLY_ES256}`],
    ["alg ES256 and more", '{"alg":"ES2567","kid":"rnwy-trust-v2"}', "unsupported-alg", `its header alg is "ES2567"; ${ONLY_ES256}`],
    // A value is quoted in a message up to 40 characters, then cut with an ellipsis.
    [
      "alg of 38 characters",
      `{"alg":"${longAlg.slice(1)}","kid":"k"}`,
      "unsupported-alg",
      `its header alg is "${longAlg.slice(1)}"; ${ONLY_ES256}`,
    ],
    ["alg of 39 characters", `{"alg":"${longAlg}","kid":"k"}`, "unsupported-alg", `its header alg is "${longAlg}…; ${ONLY_ES256}`],
    ["no kid", '{"alg":"ES256"}', "missing-kid", "its header names no kid"],
    ["an empty kid", '{"alg":"ES256","kid":""}', "missing-kid", "its header kid is empty"],
    [
      "a kid escaped",
      '{"alg":"ES256","kid":"rnwy-trust-v\\u0032"}',
      "malformed",
      'its header kid "rnwy-trust-v\\u0032" is not a string without escapes',
    ],
    ["a kid that is a number", '{"alg":"ES256","kid":2}', "malformed", "its header kid 2 is not a string without escapes"],
    ["typ JWS", '{"alg":"ES256","kid":"rnwy-trust-v2","typ":"JWS"}', "unsupported-header", `its header typ is "JWS"; ${ONLY_TYPES}`],
    ["typ jwt", '{"alg":"ES256","kid":"rnwy-trust-v2","typ":"jwt"}', "unsupported-header", `its header typ is "jwt"; ${ONLY_TYPES}`],
    [
      "typ escaped",
      '{"alg":"ES256","kid":"rnwy-trust-v2","typ":"J\\u0057T"}',
      "unsupported-header",
      `its header typ is "J\\u0057T"; ${ONLY_TYPES}`,
    ],
    ...["crit", "jku", "x5u", "jwk", "x5c", "b64"].map((name): [string, string, string, string] => [
      name,
      `{"alg":"ES256","kid":"rnwy-trust-v2","${name}":null}`,
      "unsupported-header",
      `its header carries "${name}", which is refused`,
    ]),
    ["alg twice", '{"alg":"ES256","kid":"rnwy-trust-v2","alg":"ES256"}', "malformed", refusedAt(37, 'the member "alg" appears twice')],
    [
      "an unknown member twice",
      '{"alg":"ES256","kid":"rnwy-trust-v2","x":1,"x":1}',
      "malformed",
      refusedAt(43, 'the member "x" appears twice'),
    ],
    [
      "an escaped member name",
      '{"alg":"ES256","kid":"rnwy-trust-v2","cr\\u0069t":["b64"]}',
      "malformed",
      refusedAt(37, "a top-level member name is written with a backslash escape"),
    ],
    [
      "an escaped alg name beside a real one",
      '{"alg":"ES256","\\u0061lg":"none","kid":"rnwy-trust-v2"}',
      "malformed",
      refusedAt(15, "a top-level member name is written with a backslash escape"),
    ],
    ["a header that is an array", '["ES256"]', "malformed", refusedAt(0, "the text is not a JSON object")],
    ["a header that is not JSON", "{alg:ES256}", "malformed", refusedAt(1, "a member name (a string) is expected")],
    ["trailing bytes", '{"alg":"ES256","kid":"rnwy-trust-v2"}x', "malformed", refusedAt(37, "something follows the object")],
  ])("refuses %s (%s)", async (_name, header, reason, problem) => {
    expect(readCompactJws(await withHeaderText(header))).toEqual({ ok: false, reason, problem });
  });

  it("refuses exactly the header members it names", () => {
    expect(REFUSED_JWS_HEADER_MEMBERS).toEqual(["crit", "jku", "x5u", "jwk", "x5c", "b64"]);
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

  const NOT_COMPACT = "it is not a compact serialization (three parts separated by dots)";
  // The header (37 bytes) and the signature (64) end in a character whose 4 low bits are left over, all zero.
  const withLowBit = (part: string) => `${part.slice(0, -1)}${String.fromCharCode(part.charCodeAt(part.length - 1) + 1)}`;
  const HEADER = "its header part is not canonical base64url";
  const PAYLOAD = "its payload part is not canonical base64url";
  const SIGNATURE = "its signature part is not canonical base64url";
  it.each([
    ["two parts", () => parts().slice(0, 2).join("."), NOT_COMPACT],
    ["four parts", () => `${jws}.x`, NOT_COMPACT],
    ["padding", () => `${parts()[0]}.${parts()[1]}.${parts()[2]}==`, SIGNATURE],
    ["padding in the payload", () => `${parts()[0]}.${b64(Buffer.from("{}!"))}=.${parts()[2]}`, PAYLOAD],
    ["standard base64 characters", () => `${parts()[0]}.+${parts()[1].slice(1)}.${parts()[2]}`, PAYLOAD],
    ["a payload part of length 1 mod 4", () => `${parts()[0]}.${b64("abc")}A.${parts()[2]}`, PAYLOAD],
    ["leftover bits set in the payload's last character (e31 for e30)", () => `${parts()[0]}.e31.${parts()[2]}`, PAYLOAD],
    ["leftover bits set in the header's last character", () => `${withLowBit(parts()[0])}.${parts()[1]}.${parts()[2]}`, HEADER],
    ["leftover bits set in the signature's last character", () => `${parts()[0]}.${parts()[1]}.${withLowBit(parts()[2])}`, SIGNATURE],
    [
      "a signature of 63 bytes",
      () => `${parts()[0]}.${parts()[1]}.${b64(Buffer.alloc(63, 1))}`,
      "its signature decodes to 63 bytes; an ES256 signature (r‖s) has 64",
    ],
    [
      "a signature of 65 bytes",
      () => `${parts()[0]}.${parts()[1]}.${b64(Buffer.alloc(65, 1))}`,
      "its signature decodes to 65 bytes; an ES256 signature (r‖s) has 64",
    ],
    ["an empty header", () => `.${parts()[1]}.${parts()[2]}`, HEADER],
    ["a space", () => `${parts()[0]} .${parts()[1]}.${parts()[2]}`, HEADER],
  ])("refuses %s", (_name, make, problem) => {
    expect(readCompactJws(make())).toEqual({ ok: false, reason: "malformed", problem });
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
