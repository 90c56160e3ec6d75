/**
 * The trust-check v2 signed-block reader (`trust-signed-block.ts`), over exact bytes: the fields the oracle records,
 * each accepted only in the form the service writes it, and every refusal with the field and byte offset; then the
 * same refusals through `verifyTrustAttestation`, on signed bytes a JWS or a raw `sig` really covers (the parser
 * differentials an outside audit reproduced: an escaped duplicate name, invalid JSON where a value is skipped,
 * control bytes in the owner, invalid UTF-8, a numeric agentId above 2^53).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readTrustSignedBlockV2, TRUST_V2_READ_FIELDS } from "../../src/attestation/trust-signed-block.js";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { signBytes } from "../../src/harness/signing.js";
import {
  buildTrustCheckResponse,
  buildV1TrustCheckResponse,
  buildWalletNotFoundResponse,
  generateTestKeys,
  jwksOf,
  TEST_NOW,
  type TestKeys,
} from "../support/attestations.js";

/** A v2 block as the service writes it, in its order. */
const BLOCK = {
  agentId: "1487",
  chain: "base",
  registry: "erc8004",
  owner: "0x7a16ff8270133f063aab6c9977183d9e72835428",
  score: 82,
  tier: "established",
  badges: ["original_owner", "low_history_reviewers"],
  sybilSeverity: "low",
  sybilSignals: ["common_funder"],
  issuedAt: "2025-06-01T10:00:00.000Z",
  verifiedAt: "2025-06-01T10:00:00Z",
  expiry: "2025-06-02T10:00:00.000Z",
};
const TEXT = JSON.stringify(BLOCK);
const bytes = (text: string) => Buffer.from(text, "utf8");
/** The block's text with the value of `field` (as JSON.stringify writes it) replaced by `raw`. */
const withRaw = (field: keyof typeof BLOCK, raw: string) => TEXT.replace(`"${field}":${JSON.stringify(BLOCK[field])}`, `"${field}":${raw}`);
const valueOffset = (text: string, field: string) => text.indexOf(`"${field}":`) + field.length + 3;

describe("readTrustSignedBlockV2: the fields the oracle records", () => {
  it("reads the service's block", () => {
    expect(readTrustSignedBlockV2(bytes(TEXT))).toEqual({
      ok: true,
      block: {
        agentId: 1487n,
        chain: "base",
        registry: "erc8004",
        owner: "0x7a16ff8270133f063aab6c9977183d9e72835428",
        score: 82,
        tier: "established",
        sybilSeverity: "low",
        issuedAt: Date.parse("2025-06-01T10:00:00Z") / 1000,
        verifiedAt: Date.parse("2025-06-01T10:00:00Z") / 1000,
        expiry: Date.parse("2025-06-02T10:00:00Z") / 1000,
      },
    });
  });

  it("reads the same block in any member order, spaced, with other members (and repeated unknown ones) anywhere", () => {
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(BLOCK).reverse()), null, 2).replace(
      "{",
      '{"extra":{"x":[1,{}]}, "extra": null,',
    );
    const read = readTrustSignedBlockV2(bytes(reordered));
    expect(read).toEqual(readTrustSignedBlockV2(bytes(TEXT)));
  });

  it.each([
    ["agentId as plain digits", "agentId", "1487", 1487n],
    ["agentId 0", "agentId", '"0"', 0n],
    ["agentId 2^53 - 1 as a number", "agentId", "9007199254740991", 9007199254740991n],
    ["agentId 2^256 - 1 as a string", "agentId", `"${(2n ** 256n - 1n).toString()}"`, 2n ** 256n - 1n],
    ["owner null", "owner", "null", null],
    ["owner with 0X and capitals", "owner", '"0X7A16FF8270133F063AAB6C9977183D9E72835428"', "0X7A16FF8270133F063AAB6C9977183D9E72835428"],
    ["score 0", "score", "0", 0],
    ["score 100", "score", "100", 100],
    ["sybilSeverity null", "sybilSeverity", "null", null],
    ["sybilSeverity none (legacy)", "sybilSeverity", '"none"', "none"],
    ["a chain of 32 bytes", "chain", `"${"c".repeat(32)}"`, "c".repeat(32)],
    ["a chain in UTF-8", "chain", '"bäse"', "bäse"],
    ["a leap day", "issuedAt", '"2024-02-29T23:59:59Z"', Date.parse("2024-02-29T23:59:59Z") / 1000],
    ["one second after the epoch", "issuedAt", '"1970-01-01T00:00:01.999Z"', 1],
    ["the last second of 9999", "expiry", '"9999-12-31T23:59:59Z"', Date.parse("9999-12-31T23:59:59Z") / 1000],
    [
      "the service's sample form (+00:00, milliseconds)",
      "issuedAt",
      '"2025-06-01T09:59:59.243+00:00"',
      Date.parse("2025-06-01T09:59:59Z") / 1000,
    ],
    ["a time with 2 fraction digits", "issuedAt", '"2025-06-01T10:00:00.00Z"', Date.parse("2025-06-01T10:00:00Z") / 1000],
    ["a time with 6 fraction digits", "issuedAt", '"2025-06-01T10:00:00.999999+00:00"', Date.parse("2025-06-01T10:00:00Z") / 1000],
    ["a time with 9 fraction digits", "issuedAt", '"2025-06-01T10:00:00.999999999Z"', Date.parse("2025-06-01T10:00:00Z") / 1000],
    ["a time at +05:30", "issuedAt", '"2025-06-01T15:30:00+05:30"', Date.parse("2025-06-01T10:00:00Z") / 1000],
    ["a time at -08:00", "verifiedAt", '"2025-06-01T02:00:00-08:00"', Date.parse("2025-06-01T10:00:00Z") / 1000],
    ["a time with a lowercase t and z", "expiry", '"2025-06-02t10:00:00z"', Date.parse("2025-06-02T10:00:00Z") / 1000],
  ] as const)("accepts %s", (_name, field, raw, value) => {
    const read = readTrustSignedBlockV2(bytes(withRaw(field, raw)));
    expect(read.ok && read.block[field]).toEqual(value);
  });

  it.each([
    ["agentId with a sign", "agentId", '"-1"'],
    ["agentId with a leading zero", "agentId", '"01487"'],
    ["agentId empty", "agentId", '""'],
    ["agentId escaped", "agentId", '"148\\u0037"'],
    ["agentId above 2^256 - 1", "agentId", `"${(2n ** 256n).toString()}"`],
    ["agentId as a number above 2^53 - 1 (JSON.parse rounds it)", "agentId", "9007199254740993"],
    ["agentId as a negative number", "agentId", "-1"],
    ["agentId as a fraction", "agentId", "1487.0"],
    ["agentId with an exponent", "agentId", "1e3"],
    ["agentId null", "agentId", "null"],
    ["chain empty", "chain", '""'],
    ["chain of 33 bytes", "chain", `"${"c".repeat(33)}"`],
    ["chain escaped", "chain", '"ba\\u0073e"'],
    ["chain a number", "chain", "8453"],
    ["registry empty", "registry", '""'],
    ["registry escaped", "registry", '"erc\\/8004"'],
    ["owner of 39 hex digits", "owner", '"0x7a16ff8270133f063aab6c9977183d9e7283542"'],
    ["owner of 41 hex digits", "owner", '"0x7a16ff8270133f063aab6c9977183d9e728354281"'],
    ["owner with a non-hex digit", "owner", '"0x7a16ff8270133f063aab6c9977183d9e7283542g"'],
    ["owner without 0x", "owner", '"7a16ff8270133f063aab6c9977183d9e72835428"'],
    ["owner escaped", "owner", '"0x7a16ff8270133f063aab6c9977183d9e7283542\\u0038"'],
    ["owner false", "owner", "false"],
    ["score 101", "score", "101"],
    ["score as a string", "score", '"82"'],
    ["score with a fraction", "score", "82.0"],
    ["score with an exponent", "score", "8.2e1"],
    ["score negative", "score", "-1"],
    ["tier in capitals", "tier", '"Established"'],
    ["tier unknown", "tier", '"trusted"'],
    ["tier escaped", "tier", '"establishe\\u0064"'],
    ["sybilSeverity unknown", "sybilSeverity", '"severe"'],
    ["sybilSeverity empty", "sybilSeverity", '""'],
    ["a time as Unix seconds", "issuedAt", "1748772000"],
    ["a time without Z", "issuedAt", '"2025-06-01T10:00:00"'],
    ["a time with +0000 (no colon)", "issuedAt", '"2025-06-01T10:00:00+0000"'],
    ["a time with +24:00", "issuedAt", '"2025-06-01T10:00:00+24:00"'],
    ["a time with an empty fraction", "issuedAt", '"2025-06-01T10:00:00.Z"'],
    ["a time with 10 fraction digits", "issuedAt", '"2025-06-01T10:00:00.0000000000Z"'],
    ["a time whose offset puts it before the epoch", "issuedAt", '"1970-01-01T00:30:00+01:00"'],
    ["a time with a quote escaped inside", "issuedAt", '"2025-06-01T10:00:00\\"Z"'],
    ["a time with a space for T", "verifiedAt", '"2025-06-01 10:00:00Z"'],
    ["February 30", "verifiedAt", '"2025-02-30T10:00:00Z"'],
    ["February 29 of a common year", "verifiedAt", '"2100-02-29T10:00:00Z"'],
    ["hour 24", "expiry", '"2025-06-01T24:00:00Z"'],
    ["second 60", "expiry", '"2025-06-01T23:59:60Z"'],
    ["month 13", "expiry", '"2025-13-01T00:00:00Z"'],
    ["the epoch itself", "expiry", '"1970-01-01T00:00:00Z"'],
    ["a year before the epoch", "expiry", '"1969-12-31T23:59:59Z"'],
    ["a time escaped", "expiry", '"2025-06-01T10:00:00\\u005a"'],
  ] as const)("refuses %s, as an invalid value of that field at its offset", (_name, field, raw) => {
    const text = withRaw(field, raw);
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({ ok: false, fault: "invalid", field, offset: valueOffset(text, field) });
  });

  it.each(TRUST_V2_READ_FIELDS.map((field) => [field]))("refuses a block without %s (missing, at the end of the bytes)", (field) => {
    const { [field]: _dropped, ...rest } = BLOCK;
    const text = JSON.stringify(rest);
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({ ok: false, fault: "missing", field, offset: text.length });
  });

  it("names the first missing field in the oracle's order", () => {
    const { registry: _r, chain: _c, ...rest } = BLOCK;
    expect(readTrustSignedBlockV2(bytes(JSON.stringify(rest)))).toMatchObject({ fault: "missing", field: "chain" });
  });

  it.each([...TRUST_V2_READ_FIELDS, "badges", "sybilSignals"].map((field) => [field]))("refuses %s twice, at the second name", (field) => {
    const value = JSON.stringify(BLOCK[field as keyof typeof BLOCK]);
    const text = TEXT.replace(/}$/, `,"${field}":${value}}`);
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({
      ok: false,
      fault: "duplicate",
      field,
      offset: text.lastIndexOf(`"${field}"`),
    });
  });

  it.each([
    ["an escaped duplicate of score (JSON.parse would take its value)", TEXT.replace(/}$/, ',"sc\\u006fre":5}'), "malformed", "json"],
    ["an escaped unknown name", TEXT.replace(/}$/, ',"x\\u0079":5}'), "malformed", "json"],
    ["invalid JSON inside skipped badges", withRaw("badges", '["a",]'), "malformed", "json"],
    ["a raw control byte inside skipped sybilSignals", withRaw("sybilSignals", '["a\u0001"]'), "malformed", "json"],
    ["an unknown escape inside an unknown member", TEXT.replace(/}$/, ',"note":"\\q"}'), "malformed", "json"],
    ["a leading zero inside an unknown member", TEXT.replace(/}$/, ',"note":[01]}'), "malformed", "json"],
    ["badges nested too deep", withRaw("badges", `${"[".repeat(249)}${"]".repeat(249)}`), "too-deep", "json"],
    ["trailing bytes", `${TEXT} x`, "malformed", "json"],
    ["a top-level array", `[${TEXT}]`, "malformed", "json"],
    // Not JSON, though inside a read field: the text's fault comes first, as JSON.parse would refuse it.
    ["a raw control byte in chain", withRaw("chain", '"ba\u0001se"'), "malformed", "json"],
    ["a raw control byte for an owner digit", withRaw("owner", '"0x7a16ff8270133f063aab6c9977183d9e7283542\u0000"'), "malformed", "json"],
    ["score with a leading zero", withRaw("score", "082"), "malformed", "json"],
    ["an invalid field, then a malformed text: malformed", withRaw("score", "101").replace(/}$/, ",}"), "malformed", "json"],
  ] as const)("refuses %s", (_name, text, fault, field) => {
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({ ok: false, fault, field });
  });

  it("reports the first field fault in document order, once the text is JSON", () => {
    const text = withRaw("score", "101").replace('"tier":"established"', '"tier":"x"').replace(/}$/, ',"chain":"base"}');
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({ fault: "invalid", field: "score" });
    const duplicateFirst = TEXT.replace('"registry"', '"agentId":"1","registry"').replace('"tier":"established"', '"tier":"x"');
    expect(readTrustSignedBlockV2(bytes(duplicateFirst))).toMatchObject({ fault: "duplicate", field: "agentId" });
  });

  it("at one hex digit of the owner: reads every hex digit, and refuses every other byte as the chain does", () => {
    const owner = BLOCK.owner;
    const digit = owner.indexOf("827"); // the byte after it is "2": a backslash there starts an invalid escape
    const valueAt = TEXT.indexOf(`"${owner}"`);
    const at = valueAt + 1 + digit;
    for (let b = 0; b < 256; b++) {
      const data = bytes(TEXT);
      data[at] = b;
      const c = String.fromCharCode(b);
      const read = readTrustSignedBlockV2(data);
      if (/^[0-9a-fA-F]$/.test(c)) {
        expect(read.ok && read.block.owner, c).toBe(`${owner.slice(0, digit)}${c}${owner.slice(digit + 1)}`);
      } else if (b < 0x20 || b === 0x5c || b === 0x22 || b >= 0x80) {
        // A raw control byte, an invalid escape, a quote that ends the string early, a byte that is not UTF-8 here.
        expect(read, `0x${b.toString(16)}`).toMatchObject({ ok: false, fault: "malformed", field: "json" });
      } else {
        expect(read, `0x${b.toString(16)}`).toMatchObject({ ok: false, fault: "invalid", field: "owner", offset: valueAt });
      }
    }
  });

  it("refuses bytes that are not UTF-8 as the text's fault, in a read field or in a skipped value", () => {
    const inChain = Buffer.concat([
      bytes(TEXT.slice(0, valueOffset(TEXT, "chain") + 1)),
      Buffer.from([0xc0, 0xaf]),
      bytes(TEXT.slice(valueOffset(TEXT, "chain") + 1)),
    ]);
    expect(readTrustSignedBlockV2(inChain)).toMatchObject({
      ok: false,
      fault: "malformed",
      field: "json",
      offset: valueOffset(TEXT, "chain") + 1,
    });
    const at = valueOffset(TEXT, "badges") + 2;
    const inBadges = Buffer.concat([bytes(TEXT.slice(0, at)), Buffer.from([0xed, 0xa0, 0x80]), bytes(TEXT.slice(at))]);
    expect(readTrustSignedBlockV2(inBadges)).toMatchObject({ ok: false, fault: "malformed", field: "json", offset: at });
  });
});

describe("readTrustSignedBlockV2: a byte-order mark is a character like any other, as the chain reads it", () => {
  const BOM = "\uFEFF";

  it("a name starting with U+FEFF is another name than the field's: an unknown member, and the field is missing", () => {
    const text = TEXT.replace('"verifiedAt"', `"${BOM}verifiedAt"`);
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({
      ok: false,
      fault: "missing",
      field: "verifiedAt",
      offset: bytes(text).length,
    });
  });

  it("beside the field itself, such a name is skipped, not a duplicate", () => {
    const text = TEXT.replace(/}$/, `,"${BOM}verifiedAt":"2030-01-01T00:00:00Z","${BOM}score":1}`);
    const read = readTrustSignedBlockV2(bytes(text));
    expect(read.ok && [read.block.verifiedAt, read.block.score]).toEqual([Date.parse(BLOCK.verifiedAt) / 1000, BLOCK.score]);
  });

  it("a chain written with a leading U+FEFF is read with it", () => {
    const read = readTrustSignedBlockV2(bytes(withRaw("chain", `"${BOM}base"`)));
    expect(read.ok && read.block.chain).toBe(`${BOM}base`);
  });
});

describe("readTrustSignedBlockV2: found, which only a wallet's proof of absence says false", () => {
  const withFound = (raw: string) => TEXT.replace(/}$/, `,"found":${raw}}`);

  it("reads a block that says found: true as the block without it, wherever found stands", () => {
    const plain = readTrustSignedBlockV2(bytes(TEXT));
    expect(readTrustSignedBlockV2(bytes(withFound("true")))).toEqual(plain);
    expect(readTrustSignedBlockV2(bytes(TEXT.replace("{", '{"found":true,')))).toEqual(plain);
    expect(readTrustSignedBlockV2(bytes(TEXT.replace(',"score"', ', "found" : true ,"score"')))).toEqual(plain);
  });

  it.each([
    ["false", "false"],
    ['the string "false"', '"false"'],
    ['the string "true"', '"true"'],
    ["0", "0"],
    ["1", "1"],
    ["null", "null"],
    ["an object", '{"found":true}'],
    ["an array", "[true]"],
  ])("refuses found as %s, an invalid value of found at its offset", (_name, raw) => {
    const text = withFound(raw);
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({
      ok: false,
      fault: "invalid",
      field: "found",
      offset: valueOffset(text, "found"),
    });
  });

  it("refuses found: false first in the block, before the agent fields it stands beside", () => {
    const text = TEXT.replace("{", '{"found":false,"wallet":"0x00000000000000000000000000000000deadbeef",');
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({ ok: false, fault: "invalid", field: "found", offset: 9 });
  });

  it("refuses found twice at the second name, even twice true; a first found: false is its own fault", () => {
    for (const [first, second] of [
      ["true", "true"],
      ["true", "false"],
    ]) {
      const text = withFound(first!).replace(/}$/, `,"found":${second}}`);
      expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({
        ok: false,
        fault: "duplicate",
        field: "found",
        offset: text.lastIndexOf('"found"'),
      });
    }
    const falseFirst = withFound("false").replace(/}$/, ',"found":true}');
    expect(readTrustSignedBlockV2(bytes(falseFirst))).toMatchObject({
      fault: "invalid",
      field: "found",
      offset: valueOffset(falseFirst, "found"),
    });
  });

  it("orders found's fault among the others by document order, before any missing field, after the text's", () => {
    const scoreFirst = withRaw("score", "101").replace(/}$/, ',"found":false}');
    expect(readTrustSignedBlockV2(bytes(scoreFirst))).toMatchObject({ fault: "invalid", field: "score" });
    const foundFirst = withRaw("score", "101").replace("{", '{"found":false,');
    expect(readTrustSignedBlockV2(bytes(foundFirst))).toMatchObject({ fault: "invalid", field: "found" });
    const walletProof = '{"found":false,"wallet":"0x00000000000000000000000000000000deadbeef","issuedAt":"2025-06-01T10:00:00.000Z"}';
    expect(readTrustSignedBlockV2(bytes(walletProof))).toMatchObject({ fault: "invalid", field: "found", offset: 9 });
    expect(readTrustSignedBlockV2(bytes(withFound("false").replace(/}$/, ",}")))).toMatchObject({ fault: "malformed", field: "json" });
    expect(readTrustSignedBlockV2(bytes(withFound("fals")))).toMatchObject({ fault: "malformed", field: "json" });
    expect(readTrustSignedBlockV2(bytes(withFound("truex")))).toMatchObject({ fault: "malformed", field: "json" });
  });

  it("refuses an escaped found as an escaped name (JSON.parse would read found: false from it)", () => {
    const text = TEXT.replace(/}$/, ',"\\u0066ound":false}');
    expect(JSON.parse(text)).toMatchObject({ found: false });
    expect(readTrustSignedBlockV2(bytes(text))).toMatchObject({
      ok: false,
      fault: "malformed",
      field: "json",
      offset: text.lastIndexOf('"\\u0066'),
    });
  });
});

describe("verifyTrustAttestation refuses a signed v2 block the oracle refuses, on the bytes the signature covers", () => {
  let keys: TestKeys;
  let resolver: JwksResolver;
  let block: Record<string, unknown>;
  beforeAll(async () => {
    keys = await generateTestKeys();
    resolver = createJwksResolver({ keys: jwksOf(keys.v2) });
    block = (await buildTrustCheckResponse(keys.v2)).attestation.signed;
  });

  /** A response whose jws carries exactly `payload` (and no sig, no signed block: the payload is the signed data). */
  async function jwsCarrying(payload: Uint8Array) {
    const response = await buildTrustCheckResponse(keys.v2, { signing: { jwsPayload: payload } });
    const attestation = response.attestation as Record<string, unknown>;
    delete attestation.sig;
    attestation.signed = null;
    return response;
  }

  const genuine = () => JSON.stringify(block);

  it("accepts the genuine block in the jws, and the same block spaced and reordered", async () => {
    expect(await verifyTrustAttestation(await jwsCarrying(bytes(genuine())), { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: true,
    });
    const spaced = JSON.stringify(Object.fromEntries(Object.entries(block).reverse()), null, 1);
    expect(await verifyTrustAttestation(await jwsCarrying(bytes(spaced)), { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: true,
    });
  });

  it.each([
    ["an escaped duplicate of score", () => genuine().replace(/}$/, ',"sc\\u006fre":5}'), "json"],
    ["score twice", () => genuine().replace(/}$/, ',"score":5}'), "score"],
    ["invalid JSON in badges, named where the text stops being JSON", () => genuine().replace('"badges":[', '"badges":[,'), "json"],
    ["an escaped control byte where an owner digit belongs", () => genuine().replace(/8"/, '\\u0000"'), "owner"],
    ["a numeric agentId above 2^53", () => genuine().replace('"agentId":"1487"', '"agentId":9007199254740993'), "agentId"],
    ["times as Unix seconds", () => genuine().replace(/"issuedAt":"[^"]*"/, '"issuedAt":1748772000'), "issuedAt"],
  ])("%s", async (_name, text, field) => {
    const verdict = await verifyTrustAttestation(await jwsCarrying(bytes(text())), { jwks: resolver, now: TEST_NOW });
    expect(verdict).toMatchObject({ valid: false, reason: "malformed", field, verified: { jws: true } });
  });

  it("refuses an agent's block that says found: false (with a wallet or not), at found's value, never as a wallet's proof", async () => {
    for (const extra of ['"found":false,', '"found":false,"wallet":"0x00000000000000000000000000000000deadbeef",', '"found":null,']) {
      const text = genuine().replace("{", `{${extra}`);
      const verdict = await verifyTrustAttestation(await jwsCarrying(bytes(text)), { jwks: resolver, now: TEST_NOW });
      expect(verdict, extra).toMatchObject({ valid: false, reason: "malformed", field: "found", offset: 9, verified: { jws: true } });
    }
    const dropped = genuine().replace('"agentId":"1487",', '"found":false,');
    expect(await verifyTrustAttestation(await jwsCarrying(bytes(dropped)), { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: false,
      reason: "malformed",
      field: "found",
    });
  });

  it("accepts an agent's block that says found: true, and still the wallet's signed {found: false, wallet, issuedAt}", async () => {
    const text = genuine().replace(/}$/, ',"found":true}');
    expect(await verifyTrustAttestation(await jwsCarrying(bytes(text)), { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: true,
      version: "v2",
    });
    const proof = await buildWalletNotFoundResponse(keys.v2);
    expect(await verifyTrustAttestation(proof, { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: true,
      version: "wallet-not-found",
    });
  });

  it("refuses found: false in a raw-sig v2 block and in a v1 block (which no on-chain reader reads) alike", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { extraSigned: { found: false } });
    delete (response.attestation as Record<string, unknown>).jws;
    const verdict = await verifyTrustAttestation(response, { jwks: resolver, now: TEST_NOW });
    expect(verdict).toMatchObject({ valid: false, reason: "malformed", field: "found", verified: { sig: true } });
    expect(verdict.valid === false && verdict.offset).toBe(JSON.stringify(response.attestation.signed).indexOf('"found":') + 8);
    const v1 = await buildV1TrustCheckResponse(keys.v1, { extraSigned: { found: false } });
    const v1Verdict = await verifyTrustAttestation(v1, { jwks: createJwksResolver({ keys: jwksOf(keys.v1) }), now: TEST_NOW });
    expect(v1Verdict).toMatchObject({ valid: false, reason: "malformed", field: "found" });
  });

  it("refuses a block whose verifiedAt is named with a leading U+FEFF: verifiedAt is missing, as on-chain", async () => {
    const text = genuine().replace('"verifiedAt"', '"\uFEFFverifiedAt"');
    const verdict = await verifyTrustAttestation(await jwsCarrying(bytes(text)), { jwks: resolver, now: TEST_NOW });
    expect(verdict).toMatchObject({ valid: false, reason: "malformed", field: "verifiedAt", verified: { jws: true } });
  });

  it("refuses a JWS payload that starts with U+FEFF as not JSON, at byte 0, as the oracle does", async () => {
    const verdict = await verifyTrustAttestation(await jwsCarrying(bytes(`\uFEFF${genuine()}`)), { jwks: resolver, now: TEST_NOW });
    expect(verdict).toMatchObject({ valid: false, reason: "malformed", field: "json", offset: 0 });
  });

  it("invalid UTF-8 in the payload is refused before anything reads it, at the offset of the bad byte", async () => {
    const head = bytes(genuine().slice(0, -1) + ',"note":"');
    const payload = Buffer.concat([head, Buffer.from([0xc0, 0xaf]), bytes('"}')]);
    expect(await verifyTrustAttestation(await jwsCarrying(payload), { jwks: resolver, now: TEST_NOW })).toMatchObject({
      valid: false,
      reason: "malformed",
      field: "json",
      offset: head.length,
    });
  });

  it("refuses the block through a raw sig too: on the bytes the sig verified over", async () => {
    const response = await buildTrustCheckResponse(keys.v2, { agent: { agentId: "9007199254740993" } });
    // The fixture writes agentId as a string; sign a block with it as a JSON number above 2^53, by hand.
    const text = JSON.stringify(response.attestation.signed).replace('"agentId":"9007199254740993"', '"agentId":9007199254740993');
    const signed = JSON.parse(text) as Record<string, unknown>;
    const attestation = response.attestation as Record<string, unknown>;
    delete attestation.jws;
    attestation.signed = signed;
    attestation.sig = Buffer.from(await signBytes(bytes(JSON.stringify(signed)), keys.v2)).toString("base64");
    response.agentId = signed.agentId as number;
    const verdict = await verifyTrustAttestation(response, { jwks: resolver, now: TEST_NOW });
    // JSON.parse rounded the number: the bytes the sig covers are JSON.stringify of the rounded value, which the
    // oracle would read as another agent than the service named. Both refuse.
    expect(verdict).toMatchObject({ valid: false, reason: "malformed", field: "agentId", verified: { sig: true } });
    expect(verdict.valid === false && verdict.offset).toBe(JSON.stringify(signed).indexOf('"agentId":') + 10);
  });
});
