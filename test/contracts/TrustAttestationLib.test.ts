import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { AttestationParserHarness__factory } from "../../typechain-types";
import { FIELD, makeP256Key, SYBIL_CODE, signText, TIER_CODE, v2Signed } from "../support/onchain-attestations";

const NOW = Date.parse("2026-04-14T10:12:13Z") / 1000;
/** The published example (docs/service-api.md), byte for byte as `JSON.stringify` writes it. */
const EXAMPLE =
  '{"agentId":"16907","chain":"base","registry":"erc8004","owner":"0x7a16ff8270133f063aab6c9977183d9e72835428",' +
  '"score":59,"tier":"developing","badges":["original_owner"],"sybilSeverity":null,"sybilSignals":[],' +
  '"issuedAt":"2026-04-14T03:00:00.000Z","verifiedAt":"2026-04-14T10:12:13.456Z","expiry":"2026-04-15T10:12:13.456Z"}';

const bytesOf = (text: string) => hre.ethers.toUtf8Bytes(text);
const slug = (s: string) => hre.ethers.encodeBytes32String(s);

async function deployHarness() {
  const [deployer] = await hre.ethers.getSigners();
  return { harness: await new AttestationParserHarness__factory(deployer!).deploy() };
}

describe("TrustAttestationLib.parse: what the service signs", () => {
  it("reads the published v2 example exactly", async () => {
    const { harness } = await loadFixture(deployHarness);
    const att = await harness.parse(bytesOf(EXAMPLE));
    expect(att.agentId).to.equal(16907n);
    expect(att.chain).to.equal(slug("base"));
    expect(att.registry).to.equal("erc8004");
    expect(att.owner).to.equal(hre.ethers.getAddress("0x7a16ff8270133f063aab6c9977183d9e72835428"));
    expect(att.score).to.equal(59n);
    expect(att.tier).to.equal(2n);
    expect(att.sybilSeverity).to.equal(0n);
    expect(att.issuedAt).to.equal(BigInt(Date.parse("2026-04-14T03:00:00.000Z") / 1000));
    expect(att.verifiedAt).to.equal(BigInt(Math.floor(Date.parse("2026-04-14T10:12:13.456Z") / 1000)));
    expect(att.expiry).to.equal(BigInt(Math.floor(Date.parse("2026-04-15T10:12:13.456Z") / 1000)));
  });

  it("reads a numeric agentId, every tier and sybil name, legacy `none`, a null owner and dates without ms", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const [tier, code] of Object.entries(TIER_CODE)) {
      for (const [sybil, sybilCode] of [...Object.entries(SYBIL_CODE), ["null", 0] as const]) {
        const signed = v2Signed(NOW, {
          agentId: 123456789,
          tier,
          sybilSeverity: sybil === "null" ? null : sybil,
          owner: null,
          issuedAt: "2024-02-29T23:59:59Z",
        });
        const att = await harness.parse(bytesOf(JSON.stringify(signed)));
        expect([att.agentId, att.tier, att.sybilSeverity, att.owner, att.issuedAt]).to.deep.equal([
          123456789n,
          BigInt(code),
          BigInt(sybilCode),
          hre.ethers.ZeroAddress,
          BigInt(Date.parse("2024-02-29T23:59:59Z") / 1000),
        ]);
      }
    }
  });

  it("reads the largest agent id, keys in another order and fields it does not know (nested, numbers, literals)", async () => {
    const { harness } = await loadFixture(deployHarness);
    const max = (2n ** 256n - 1n).toString();
    const signed = v2Signed(NOW, { agentId: max });
    // Keys first set in another order keep their place when `signed` overwrites their values.
    const reordered: Record<string, unknown> = {
      extra: { deep: [[{ score: 1 }], 'x"y', -1.5e-3, true, false, null] },
      expiry: "",
      score: 95,
      n: 12,
    };
    Object.assign(reordered, signed);
    const att = await harness.parse(bytesOf(JSON.stringify(reordered)));
    expect(att.agentId).to.equal(2n ** 256n - 1n);
    expect(att.score).to.equal(59n); // `...signed` overwrote score in place: JSON.stringify keeps one key
  });

  it("converts dates like Date.parse across years, leap days and month ends", async () => {
    const { harness } = await loadFixture(deployHarness);
    const dates = [
      "1970-01-01T00:00:01.000Z",
      "1999-12-31T23:59:59.999Z",
      "2000-02-29T12:00:00.000Z",
      "2100-03-01T00:00:00.000Z",
      "2026-12-31T00:00:00Z",
      "9999-12-31T23:59:59.999Z",
    ];
    for (const date of dates) {
      const att = await harness.parse(bytesOf(JSON.stringify(v2Signed(NOW, { issuedAt: date }))));
      expect(att.issuedAt, date).to.equal(BigInt(Math.floor(Date.parse(date) / 1000)));
    }
  });
});

describe("TrustAttestationLib.parse: never fooled by look-alike keys", () => {
  it("ignores a key name inside a string with escaped quotes", async () => {
    const { harness } = await loadFixture(deployHarness);
    const signed = v2Signed(NOW, { score: 40, badges: ['"score":99', '\\"', "\\", 'tier":"established'] });
    const text = JSON.stringify(signed);
    expect(text).to.contain('["\\"score\\":99"');
    const att = await harness.parse(bytesOf(text));
    expect([att.score, att.tier]).to.deep.equal([40n, 1n]);
  });

  it("ignores keys of nested objects and arrays", async () => {
    const { harness } = await loadFixture(deployHarness);
    const text = JSON.stringify({
      nested: { score: 99, tier: "established", agentId: "7" },
      list: [{ score: 98 }, ["score", { sybilSeverity: "heavy" }]],
      ...v2Signed(NOW, { score: 31 }),
    });
    const att = await harness.parse(bytesOf(text));
    expect([att.agentId, att.score, att.tier, att.sybilSeverity]).to.deep.equal([1n, 31n, 1n, 0n]);
  });

  it("refuses a top-level name written with an escape, which JSON.parse would decode to a field name", async () => {
    const { harness } = await loadFixture(deployHarness);
    const text = JSON.stringify({ nested: {}, ...v2Signed(NOW, { score: 31 }) }).replace('"n', '"sc\\u006fre":100,"n');
    await expect(harness.parse(bytesOf(text)))
      .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
      .withArgs(1);
  });
});

describe("TrustAttestationLib.parse: refuses what it cannot read exactly, naming field and offset", () => {
  const base = JSON.stringify(v2Signed(NOW));
  const offsetOfValue = (text: string, key: string) => text.indexOf(`"${key}":`) + key.length + 3;
  const cases: Array<[string, string, string, (text: string) => unknown[]]> = [
    [
      "a duplicate score",
      base.replace('"tier"', '"score":60,"tier"'),
      "AttestationFieldDuplicate",
      (t) => [FIELD.Score, t.lastIndexOf('"score"')],
    ],
    ["no expiry", base.replace(/,"expiry":"[^"]*"/, ""), "AttestationFieldMissing", () => [FIELD.Expiry]],
    ["score 101", base.replace('"score":59', '"score":101'), "AttestationFieldInvalid", (t) => [FIELD.Score, offsetOfValue(t, "score")]],
    [
      "score as a string",
      base.replace('"score":59', '"score":"59"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.Score, offsetOfValue(t, "score")],
    ],
    ["score 5.5", base.replace('"score":59', '"score":5.5'), "AttestationFieldInvalid", () => [FIELD.Score, offsetOfValue(base, "score")]],
    ["agentId with a leading zero", base.replace('"agentId":"1"', '"agentId":"01"'), "AttestationFieldInvalid", () => [FIELD.AgentId, 11]],
    [
      "agentId above 2^256-1",
      base.replace('"agentId":"1"', `"agentId":"${2n ** 256n}"`),
      "AttestationFieldInvalid",
      () => [FIELD.AgentId, 11],
    ],
    ["agentId negative", base.replace('"agentId":"1"', '"agentId":-1'), "AttestationFieldInvalid", () => [FIELD.AgentId, 11]],
    [
      "an unknown tier",
      base.replace('"tier":"developing"', '"tier":"gold"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.Tier, offsetOfValue(t, "tier")],
    ],
    [
      "an unknown sybil severity",
      base.replace('"sybilSeverity":null', '"sybilSeverity":"huge"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.SybilSeverity, offsetOfValue(t, "sybilSeverity")],
    ],
    [
      "a chain slug over 32 bytes",
      base.replace('"chain":"base"', `"chain":"${"b".repeat(33)}"`),
      "AttestationFieldInvalid",
      (t) => [FIELD.Chain, offsetOfValue(t, "chain")],
    ],
    [
      "an empty chain slug",
      base.replace('"chain":"base"', '"chain":""'),
      "AttestationFieldInvalid",
      (t) => [FIELD.Chain, offsetOfValue(t, "chain")],
    ],
    [
      "an escaped registry",
      base.replace('"registry":"erc8004"', '"registry":"erc\\u0038004"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.Registry, offsetOfValue(t, "registry")],
    ],
    [
      "a short owner",
      base.replace("0x7a16ff8270133f063aab6c9977183d9e72835428", "0x7a16"),
      "AttestationFieldInvalid",
      (t) => [FIELD.Owner, offsetOfValue(t, "owner")],
    ],
    ["a non-hex owner", base.replace("0x7a16ff", "0x7a16fg"), "AttestationFieldInvalid", (t) => [FIELD.Owner, offsetOfValue(t, "owner")]],
    [
      "February 30",
      base.replace(/"issuedAt":"\d{4}-\d\d-\d\d/, '"issuedAt":"2026-02-30'),
      "AttestationFieldInvalid",
      (t) => [FIELD.IssuedAt, offsetOfValue(t, "issuedAt")],
    ],
    [
      "February 29 of 2100 (not a leap year)",
      base.replace(/"issuedAt":"\d{4}-\d\d-\d\d/, '"issuedAt":"2100-02-29'),
      "AttestationFieldInvalid",
      (t) => [FIELD.IssuedAt, offsetOfValue(t, "issuedAt")],
    ],
    [
      "February 29 of 2023",
      base.replace(/"issuedAt":"\d{4}-\d\d-\d\d/, '"issuedAt":"2023-02-29'),
      "AttestationFieldInvalid",
      (t) => [FIELD.IssuedAt, offsetOfValue(t, "issuedAt")],
    ],
    [
      "hour 24",
      base.replace(/"verifiedAt":"(\d{4}-\d\d-\d\d)T\d\d/, '"verifiedAt":"$1T24'),
      "AttestationFieldInvalid",
      (t) => [FIELD.VerifiedAt, offsetOfValue(t, "verifiedAt")],
    ],
    [
      "a time zone offset without its colon",
      base.replace(/"expiry":"([^"]*)\.(\d{3})Z"/, '"expiry":"$1.$2+0100"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.Expiry, offsetOfValue(t, "expiry")],
    ],
    [
      "a fraction point without digits",
      base.replace(/"expiry":"([^"]*)\.(\d{3})Z"/, '"expiry":"$1.Z"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.Expiry, offsetOfValue(t, "expiry")],
    ],
    [
      "a Unix-seconds date",
      base.replace(/"issuedAt":"[^"]*"/, '"issuedAt":1776135600'),
      "AttestationFieldInvalid",
      (t) => [FIELD.IssuedAt, offsetOfValue(t, "issuedAt")],
    ],
    ["trailing bytes", `${base} x`, "AttestationJsonMalformed", () => [base.length + 1]],
    ["a second value after the object", `${base}{}`, "AttestationJsonMalformed", () => [base.length]],
    [
      "truncated inside a skipped string",
      base.slice(0, base.indexOf("original_owner") + 3),
      "AttestationJsonMalformed",
      () => [base.indexOf("original_owner") + 3],
    ],
    [
      "truncated inside a field",
      base.slice(0, base.indexOf("erc8004") + 3),
      "AttestationJsonMalformed",
      () => [base.indexOf("erc8004") + 3],
    ],
    [
      "the epoch itself as a date",
      base.replace(/"issuedAt":"[^"]*"/, '"issuedAt":"1970-01-01T00:00:00.000Z"'),
      "AttestationFieldInvalid",
      (t) => [FIELD.IssuedAt, offsetOfValue(t, "issuedAt")],
    ],
    ["not an object", `[${base}]`, "AttestationJsonMalformed", () => [0]],
    [
      "mismatched brackets in a skipped value",
      base.replace('"badges":["original_owner"]', '"badges":["original_owner"}'),
      "AttestationJsonMalformed",
      (t) => [t.indexOf('"original_owner"}') + 16],
    ],
    [
      "a raw control byte in a string",
      base.replace("original_owner", "original\nowner"),
      "AttestationJsonMalformed",
      (t) => [t.indexOf("\n")],
    ],
    [
      "a quote inside a literal",
      base.replace('"sybilSignals":[]', '"sybilSignals":tr"ue'),
      "AttestationJsonMalformed",
      (t) => [t.indexOf('tr"ue')],
    ],
    ["an empty object", "{}", "AttestationFieldMissing", () => [FIELD.AgentId]],
    [
      "a legacy v1 block (no owner, attestedAt instead of issuedAt/verifiedAt/expiry)",
      JSON.stringify({
        agentId: 1487,
        chain: "base",
        registry: "erc8004",
        score: 82,
        tier: "established",
        badges: [],
        sybilSeverity: "none",
        sybilSignals: [],
        attestedAt: "2026-04-14T03:00:00.000Z",
      }),
      "AttestationFieldMissing",
      () => [FIELD.Owner],
    ],
    [
      "250 levels of nesting",
      base.replace('"badges":["original_owner"]', `"badges":${"[".repeat(250)}${"]".repeat(250)}`),
      "AttestationJsonTooDeep",
      (t) => [t.indexOf("[") + 248],
    ],
  ];
  for (const [name, text, error, args] of cases) {
    it(name, async () => {
      const { harness } = await loadFixture(deployHarness);
      await expect(harness.parse(bytesOf(text)))
        .to.be.revertedWithCustomError(harness, error)
        .withArgs(...args(text));
    });
  }
});

describe("TrustEs256Lib.verifySignature", () => {
  it("accepts a low-S signature and its high-S twin; refuses another key, a tampered byte, r or s out of range", async () => {
    const { harness } = await loadFixture(deployHarness);
    const key = makeP256Key();
    const other = makeP256Key();
    const call = signText(key, v2Signed(NOW));
    expect((await harness.verify(call.signedJson, call.lowS, key.x, key.y)).valid).to.equal(true);
    expect((await harness.verify(call.signedJson, call.highS, key.x, key.y)).valid).to.equal(true);
    expect((await harness.verify(call.signedJson, call.lowS, other.x, other.y)).valid).to.equal(false);
    const tampered = call.signedJson.replace(/3539/, "3630"); // score 59 -> 60
    expect(tampered).to.not.equal(call.signedJson);
    expect((await harness.verify(tampered, call.lowS, key.x, key.y)).valid).to.equal(false);
    const n = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
    const r = call.lowS.slice(2, 66);
    await expect(harness.verify(call.signedJson, `0x${r}${n}`, key.x, key.y))
      .to.be.revertedWithCustomError(harness, "AttestationSignatureOutOfRange")
      .withArgs(`0x${r}`, `0x${n}`);
    await expect(harness.verify(call.signedJson, `0x${"00".repeat(32)}${call.lowS.slice(66)}`, key.x, key.y)).to.be.revertedWithCustomError(
      harness,
      "AttestationSignatureOutOfRange",
    );
    await expect(harness.verify(call.signedJson, `${call.lowS}00`, key.x, key.y))
      .to.be.revertedWithCustomError(harness, "AttestationSignatureLength")
      .withArgs(65);
  });

  it("refuses a key that is not on the curve", async () => {
    const { harness } = await loadFixture(deployHarness);
    const key = makeP256Key();
    const call = signText(key, v2Signed(NOW));
    const offCurve = `0x${(BigInt(key.y) ^ 1n).toString(16).padStart(64, "0")}`;
    expect((await harness.verify(call.signedJson, call.lowS, key.x, offCurve)).valid).to.equal(false);
  });
});
