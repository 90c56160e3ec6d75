/**
 * The signed block's grammar on-chain (`TrustAttestationLib.parse`): what the issuer may write and the kit must read
 * as `JSON.parse` does (whitespace, any member order, UTF-8, any valid JSON in the members it skips), and every way
 * the same bytes could be read differently by the TypeScript verifier and the chain, each refused with its error.
 */
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { readTrustSignedBlockV2 } from "../../src/attestation/trust-signed-block";
import { type AttestationParserHarness, AttestationParserHarness__factory } from "../../typechain-types";
import { FIELD, v2Signed } from "../support/onchain-attestations";

const NOW = Date.parse("2026-04-14T10:12:13Z") / 1000;
const BASE = JSON.stringify(v2Signed(NOW, { agentId: "16907", score: 82, badges: ["original_owner", "established_wallet"] }));
const KNOWN_NAMES = Object.keys(FIELD).map((name) => `${name[0]!.toLowerCase()}${name.slice(1)}`);

async function deployHarness() {
  const [deployer] = await hre.ethers.getSigners();
  return { harness: await new AttestationParserHarness__factory(deployer!).deploy() };
}

/** The base block with `member` (raw JSON text, `"name":value`) added before its closing brace. */
function withMember(member: string): string {
  return `${BASE.slice(0, -1)},${member}}`;
}

/** The base block's bytes with the bytes of a badge string replaced by `bytes` (inside its quotes). */
function withBadgeBytes(bytes: number[]): { data: Uint8Array; at: number } {
  const marker = "original_owner";
  const at = Buffer.byteLength(BASE.slice(0, BASE.indexOf(marker)));
  const data = Buffer.concat([
    Buffer.from(BASE.slice(0, BASE.indexOf(marker))),
    Buffer.from(bytes),
    Buffer.from(BASE.slice(BASE.indexOf(marker) + marker.length)),
  ]);
  return { data, at };
}

describe("TrustAttestationLib.parse: what a JSON serializer may write", () => {
  it("reads the same fields from the block pretty-printed, tab-indented, with CRLF and spaces around every token", async () => {
    const { harness } = await loadFixture(deployHarness);
    const expected = await harness.parse(Buffer.from(BASE));
    const object = JSON.parse(BASE) as Record<string, unknown>;
    const variants = [
      JSON.stringify(object, null, 2),
      JSON.stringify(object, null, "\t"),
      JSON.stringify(object, null, 1).replaceAll("\n", "\r\n"),
      ` \n\t{ ${Object.entries(object)
        .map(([k, v]) => `"${k}" : ${JSON.stringify(v).replaceAll(",", " ,\t")}`)
        .join(" ,\r\n ")} } \r\n`,
    ];
    for (const text of variants) expect(await harness.parse(Buffer.from(text)), text).to.deep.equal(expected);
  });

  it("reads sorted-key (RFC 8785) bytes and members in any order", async () => {
    const { harness } = await loadFixture(deployHarness);
    const expected = await harness.parse(Buffer.from(BASE));
    const object = JSON.parse(BASE) as Record<string, unknown>;
    const sorted = Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const reversed = Object.fromEntries(Object.entries(object).reverse());
    expect(await harness.parse(Buffer.from(JSON.stringify(sorted)))).to.deep.equal(expected);
    expect(await harness.parse(Buffer.from(JSON.stringify(reversed)))).to.deep.equal(expected);
  });

  it("reads blocks that leave the service's own layout midway (where the reader switches to its general path)", async () => {
    const { harness } = await loadFixture(deployHarness);
    const expected = await harness.parse(Buffer.from(BASE));
    const object = JSON.parse(BASE) as Record<string, unknown>;
    const { tier, score, ...rest } = object;
    const variants = [
      BASE.replace(',"tier"', ', "tier"'),
      BASE.replace(',"tier"', ' ,"tier"'),
      BASE.replace('"tier":', '"tier" :'),
      BASE.replace(',"expiry"', ',\n"expiry"'),
      withMember('"extra":[1,2]'),
      `${BASE} \n`,
      JSON.stringify({ ...rest, tier, score }),
      JSON.stringify({ extra: true, ...object }),
    ];
    for (const text of variants) expect(await harness.parse(Buffer.from(text)), text).to.deep.equal(expected);
  });

  it("resumes after any member's value, and reads badges and tiers outside their fast forms", async () => {
    const { harness } = await loadFixture(deployHarness);
    const expected = await harness.parse(Buffer.from(BASE));
    const object = JSON.parse(BASE) as Record<string, unknown>;
    // A space after each member's value in turn: the service's layout stops there, the general reader goes on.
    const names = Object.keys(object);
    const spaced = names.map((name, i) => {
      const before = JSON.stringify(Object.fromEntries(names.slice(0, i + 1).map((n) => [n, object[n]])));
      return `${before.slice(0, -1)} ${BASE.slice(before.length - 1)}`;
    });
    const variants = [
      ...spaced,
      BASE.replace('"original_owner"', '"origin\\u0061l_owner"').replace('"established_wallet"', '"established_wallet" '),
      BASE.replace('["original_owner",', '[ "original_owner",'),
      BASE.replace('"sybilSignals":[]', '"sybilSignals":[ ]'),
    ];
    for (const text of variants) expect(await harness.parse(Buffer.from(text)), text).to.deep.equal(expected);
    // The badges' own value is not read: an escape there changes nothing; a tier in another spelling is refused.
    const escapedBadge = await harness.parse(Buffer.from(BASE.replace('"original_owner"', '"origin\\u0061l_owner"')));
    expect(escapedBadge).to.deep.equal(expected);
    await expect(harness.parse(Buffer.from(BASE.replace('"tier":"established"', '"tier":"est\\u0061blished"'))))
      .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
      .withArgs(FIELD.Tier, BASE.indexOf('"tier":') + 7);
  });

  it("skips any valid JSON in members it does not read, and lets an unknown name repeat", async () => {
    const { harness } = await loadFixture(deployHarness);
    const expected = await harness.parse(Buffer.from(BASE));
    const values = [
      "0",
      "-0",
      "12",
      "1.5e+10",
      "-2E-3",
      "0.25",
      "true",
      "false",
      "null",
      "[]",
      "{}",
      '[1,"a",{"b":[null,{}]},[[]]]',
      '{"\\u0073core":99,"nested":{"tier":"x"}}',
      '"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00"',
      `${"[".repeat(248)}${"]".repeat(248)}`,
    ];
    for (const value of values) {
      expect(await harness.parse(Buffer.from(withMember(`"extra":${value}`))), value).to.deep.equal(expected);
    }
    expect(await harness.parse(Buffer.from(withMember('"extra":1,"extra":2')))).to.deep.equal(expected);
  });

  it("accepts valid UTF-8 of every length, at the edges of each range", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const bytes of [
      [0xc2, 0x80],
      [0xdf, 0xbf],
      [0xe0, 0xa0, 0x80],
      [0xed, 0x9f, 0xbf],
      [0xee, 0x80, 0x80],
      [0xef, 0xbf, 0xbf],
      [0xf0, 0x90, 0x80, 0x80],
      [0xf4, 0x8f, 0xbf, 0xbf],
      [...Buffer.from("é中😀 and more text so that the string spans two words")],
    ]) {
      const { data } = withBadgeBytes(bytes);
      expect((await harness.parse(data)).score, Buffer.from(bytes).toString("hex")).to.equal(82n);
    }
  });

  it("reads a numeric agentId up to 2^53 - 1, the largest JSON.parse keeps exactly", async () => {
    const { harness } = await loadFixture(deployHarness);
    const text = BASE.replace('"agentId":"16907"', '"agentId":9007199254740991');
    expect((await harness.parse(Buffer.from(text))).agentId).to.equal(9007199254740991n);
  });
});

describe("TrustAttestationLib.parse: where two readers could differ, it refuses", () => {
  it("refuses a second occurrence of each of the 13 known names", async () => {
    const { harness } = await loadFixture(deployHarness);
    const object: Record<string, unknown> = { ...(JSON.parse(BASE) as Record<string, unknown>), found: true };
    for (const [index, name] of KNOWN_NAMES.entries()) {
      const first = name in JSON.parse(BASE) ? "" : `"${name}":true,`;
      const text = withMember(`${first}"${name}":${JSON.stringify(object[name])}`);
      await expect(harness.parse(Buffer.from(text)), name)
        .to.be.revertedWithCustomError(harness, "AttestationFieldDuplicate")
        .withArgs(index, text.lastIndexOf(`"${name}"`));
    }
  });

  it("refuses a top-level name holding any escape, a field's or not; nested names may hold escapes", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const name of ["\\u0061gentId", "sc\\u006fre", "extra\\n", "\\\\"]) {
      const text = withMember(`"${name}":1`);
      await expect(harness.parse(Buffer.from(text)), name)
        .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
        .withArgs(text.lastIndexOf(`"${name}"`));
    }
    expect((await harness.parse(Buffer.from(withMember('"extra":{"\\u0061":1}')))).score).to.equal(82n);
  });

  it("refuses invalid JSON inside a skipped value, at the offending byte", async () => {
    const { harness } = await loadFixture(deployHarness);
    // [value, offset of the error within the value]
    const cases: Array<[string, number]> = [
      ['"\\x"', 1],
      ['"\\u12G4"', 1],
      ['"a\nb"', 2],
      ['"a\u0001"', 2],
      ["01", 1],
      ["1.", 2],
      ["-", 1],
      ["1e", 2],
      ["1e+", 3],
      ["+1", 0],
      [".5", 0],
      ["tru", 0],
      ["nul", 0],
      ["NaN", 0],
      ["'a'", 0],
      ["[1 2]", 3],
      ["[1,]", 3],
      ['{"a"}', 4],
      ["{1:2}", 1],
      ['{"a":1,}', 7],
      ["[}", 1],
      ['{"a":1]', 6],
    ];
    for (const [value, within] of cases) {
      const text = withMember(`"extra":${value}`);
      await expect(harness.parse(Buffer.from(text)), value)
        .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
        .withArgs(text.lastIndexOf(`:${value}`) + 1 + within);
    }
    const deep = withMember(`"extra":${"[".repeat(249)}${"]".repeat(249)}`);
    await expect(harness.parse(Buffer.from(deep)))
      .to.be.revertedWithCustomError(harness, "AttestationJsonTooDeep")
      .withArgs(deep.lastIndexOf(":[") + 1 + 248);
  });

  it("refuses invalid UTF-8: stray continuation, overlong forms, surrogates, above U+10FFFF, truncated sequences", async () => {
    const { harness } = await loadFixture(deployHarness);
    // [bytes, offset of the error within them]
    const cases: Array<[number[], number]> = [
      [[0x80], 0],
      [[0xbf], 0],
      [[0xc0, 0xaf], 0],
      [[0xc1, 0xbf], 0],
      [[0xe0, 0x80, 0x80], 1],
      [[0xe0, 0x9f, 0xbf], 1],
      [[0xed, 0xa0, 0x80], 1],
      [[0xed, 0xbf, 0xbf], 1],
      [[0xf0, 0x80, 0x80, 0x80], 1],
      [[0xf0, 0x8f, 0xbf, 0xbf], 1],
      [[0xf4, 0x90, 0x80, 0x80], 1],
      [[0xf5, 0x80, 0x80, 0x80], 0],
      [[0xff], 0],
      [[0xc3], 1],
      [[0xe2, 0x82], 2],
      [[0xf0, 0x9f, 0x98], 3],
    ];
    for (const [bytes, within] of cases) {
      const { data, at } = withBadgeBytes(bytes);
      await expect(harness.parse(data), Buffer.from(bytes).toString("hex"))
        .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
        .withArgs(at + within);
    }
    const badName = Buffer.concat([Buffer.from(`${BASE.slice(0, -1)},"`), Buffer.from([0xff]), Buffer.from('":1}')]);
    await expect(harness.parse(badName))
      .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
      .withArgs(BASE.length + 1);
  });

  it("refuses a numeric agentId above 2^53 - 1 (JSON.parse would round it), and other numbers than plain digits", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const value of ["9007199254740992", "18446744073709551616", "1.0", "1e3", "-1"]) {
      const text = BASE.replace('"agentId":"16907"', `"agentId":${value}`);
      await expect(harness.parse(Buffer.from(text)), value)
        .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
        .withArgs(FIELD.AgentId, 11);
    }
  });

  it("at one hex digit of the owner, reads every hex digit and refuses every other byte value (0x00-0xff)", async () => {
    const { harness } = await loadFixture(deployHarness);
    const owner = "0x7a16ff8270133f063aab6c9977183d9e72835428";
    // The digit replaced is the "8" before "27": the byte after it is "2", so `\` there starts an invalid escape.
    const digit = owner.indexOf("827");
    const valueAt = BASE.indexOf(`"${owner}"`);
    const at = valueAt + 1 + digit;
    const hex = /^[0-9a-fA-F]$/;
    for (let b = 0; b < 256; b++) {
      const data = Buffer.from(BASE);
      data[at] = b;
      const c = String.fromCharCode(b);
      const call = harness.parse(data);
      if (hex.test(c)) {
        const expected = `${owner.slice(0, digit)}${c.toLowerCase()}${owner.slice(digit + 1)}`;
        expect((await call).owner.toLowerCase(), c).to.equal(expected);
      } else if (b < 0x20 || b === 0x5c || (b >= 0x80 && b <= 0xc1) || b >= 0xf5) {
        // A raw control byte, an invalid escape, or a byte that cannot start a UTF-8 sequence: not JSON.
        await expect(call, `0x${b.toString(16)}`)
          .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
          .withArgs(at);
      } else if (b >= 0xc2) {
        // A UTF-8 lead byte followed by an ASCII digit: not JSON.
        await expect(call, `0x${b.toString(16)}`)
          .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
          .withArgs(at + 1);
      } else if (b === 0x22) {
        // The string ends there and digits follow it: not JSON.
        await expect(call, "quote")
          .to.be.revertedWithCustomError(harness, "AttestationJsonMalformed")
          .withArgs(at + 1);
      } else {
        // Valid JSON, not a hex digit.
        await expect(call, `0x${b.toString(16)}`)
          .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
          .withArgs(FIELD.Owner, valueAt);
      }
    }
  });

  it("reports a field error only once the whole document is valid JSON, the first one in document order", async () => {
    const { harness } = await loadFixture(deployHarness);
    const badScore = BASE.replace('"score":82', '"score":5.5');
    await expect(harness.parse(Buffer.from(`${badScore.slice(0, -1)},"extra":tru}`))).to.be.revertedWithCustomError(
      harness,
      "AttestationJsonMalformed",
    );
    const twoBad = badScore.replace('"tier":"established"', '"tier":"gold"');
    await expect(harness.parse(Buffer.from(twoBad)))
      .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
      .withArgs(FIELD.Score, twoBad.indexOf("5.5"));
    const dupAfterBad = `${twoBad.slice(0, -1)},"score":1}`;
    await expect(harness.parse(Buffer.from(dupAfterBad)))
      .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
      .withArgs(FIELD.Score, twoBad.indexOf("5.5"));
  });
});

describe("TrustAttestationLib.parse: found, which only a wallet's proof of absence says false", () => {
  it("reads a block that says found: true as the block without it: after the service's layout, first, midway", async () => {
    const { harness } = await loadFixture(deployHarness);
    const expected = await harness.parse(Buffer.from(BASE));
    for (const text of [
      withMember('"found":true'),
      BASE.replace("{", '{"found":true,'),
      BASE.replace(',"tier"', ', "found" :\ttrue,"tier"'),
    ]) {
      expect(await harness.parse(Buffer.from(text)), text).to.deep.equal(expected);
    }
  });

  it("refuses found as false or as any other JSON value than true, at the value, and a second found at its name", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const value of ["false", '"false"', '"true"', "0", "1", "null", "{}", "[true]"]) {
      const text = withMember(`"found":${value}`);
      await expect(harness.parse(Buffer.from(text)), value)
        .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
        .withArgs(FIELD.Found, text.lastIndexOf(value));
    }
    const twice = withMember('"found":true,"found":true');
    await expect(harness.parse(Buffer.from(twice)))
      .to.be.revertedWithCustomError(harness, "AttestationFieldDuplicate")
      .withArgs(FIELD.Found, twice.lastIndexOf('"found"'));
  });

  it("refuses found: false before the agent fields, and a wallet's proof of absence, before any missing field", async () => {
    const { harness } = await loadFixture(deployHarness);
    const wallet = '"wallet":"0x00000000000000000000000000000000deadbeef"';
    for (const text of [
      BASE.replace("{", `{"found":false,${wallet},`),
      `{"found":false,${wallet},"issuedAt":"2026-04-14T10:12:13.000Z"}`,
    ]) {
      await expect(harness.parse(Buffer.from(text)), text)
        .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
        .withArgs(FIELD.Found, 9);
    }
  });

  it("refuses exactly as the TypeScript reader does, naming the same field at the same byte", async () => {
    const { harness } = await loadFixture(deployHarness);
    const badScore = BASE.replace('"score":82', '"score":101');
    const cases = [
      withMember('"found":false'),
      withMember('"found":"false"'),
      withMember('"found":null'),
      withMember('"found":0'),
      withMember('"found":true,"found":false'),
      withMember('"found":false,"found":true'),
      withMember('"\\u0066ound":false'),
      withMember('"found":fals'),
      withMember('"found":truex'),
      withMember('"found":false,'),
      `${badScore.slice(0, -1)},"found":false}`,
      badScore.replace("{", '{"found":false,'),
      BASE.replace('"agentId":"16907",', '"found":false,'),
    ];
    for (const text of cases) {
      const offchain = readTrustSignedBlockV2(Buffer.from(text));
      expect(offchain.ok, text).to.equal(false);
      if (offchain.ok) continue;
      await expectRefusal(harness, text, offchain);
    }
  });
});

describe("TrustAttestationLib.parse: a byte-order mark, a character like any other to both readers", () => {
  it("refuses U+FEFF before the block, and reads a name starting with U+FEFF as an unknown member, as the TypeScript reader does", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const text of [`\uFEFF${BASE}`, BASE.replace('"verifiedAt"', '"\uFEFFverifiedAt"'), BASE.replace('"score"', '"\uFEFFscore"')]) {
      const offchain = readTrustSignedBlockV2(Buffer.from(text));
      expect(offchain.ok, text).to.equal(false);
      if (!offchain.ok) await expectRefusal(harness, text, offchain);
    }
    const beside = withMember('"\uFEFFscore":5,"\uFEFFverifiedAt":"2030-01-01T00:00:00Z"');
    const offchain = readTrustSignedBlockV2(Buffer.from(beside));
    const { verifiedAt } = JSON.parse(BASE) as { verifiedAt: string };
    expect(offchain.ok && [offchain.block.score, offchain.block.verifiedAt]).to.deep.equal([82, Math.floor(Date.parse(verifiedAt) / 1000)]);
    expect(await harness.parse(Buffer.from(beside))).to.deep.equal(await harness.parse(Buffer.from(BASE)));
  });
});

/** Expects the chain's error for `text` to be the one the TypeScript reader's refusal mirrors, with its field and offset. */
async function expectRefusal(
  harness: AttestationParserHarness,
  text: string,
  refusal: Exclude<ReturnType<typeof readTrustSignedBlockV2>, { ok: true }>,
): Promise<void> {
  const call = harness.parse(Buffer.from(text));
  const field = FIELD[`${refusal.field[0]!.toUpperCase()}${refusal.field.slice(1)}` as keyof typeof FIELD];
  switch (refusal.fault) {
    case "invalid":
      return expect(call, text).to.be.revertedWithCustomError(harness, "AttestationFieldInvalid").withArgs(field, refusal.offset);
    case "duplicate":
      return expect(call, text).to.be.revertedWithCustomError(harness, "AttestationFieldDuplicate").withArgs(field, refusal.offset);
    case "missing":
      return expect(call, text).to.be.revertedWithCustomError(harness, "AttestationFieldMissing").withArgs(field);
    case "malformed":
      return expect(call, text).to.be.revertedWithCustomError(harness, "AttestationJsonMalformed").withArgs(refusal.offset);
    case "too-deep":
      return expect(call, text).to.be.revertedWithCustomError(harness, "AttestationJsonTooDeep").withArgs(refusal.offset);
  }
}
