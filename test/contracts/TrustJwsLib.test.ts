/**
 * The compact JWS's pieces on-chain: canonical base64url decoding (`TrustJwsLib.decode`) and the protected header's
 * reader (`TrustJwsHeaderLib.readJwsHeader`), through the JWS parser harness. The whole JWS path (dots, `alg`/`kid`
 * required, kid equality, signature) is tested through the oracle (AttestedTrustOracle.test.ts).
 */
import { randomBytes } from "node:crypto";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { JwsParserHarness__factory } from "../../typechain-types";

async function deployHarness() {
  const [deployer] = await hre.ethers.getSigners();
  return { harness: await new JwsParserHarness__factory(deployer!).deploy() };
}

const ascii = (text: string) => Buffer.from(text, "latin1");

describe("TrustJwsLib.decode: canonical unpadded base64url", () => {
  it("decodes every length from 0 to 100 bytes and every character of the alphabet", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (let length = 0; length <= 100; length++) {
      const bytes = randomBytes(length);
      expect(await harness.decodeBase64Url(ascii(bytes.toString("base64url"))), String(length)).to.equal(`0x${bytes.toString("hex")}`);
    }
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    expect(await harness.decodeBase64Url(ascii(alphabet))).to.equal(`0x${Buffer.from(alphabet, "base64url").toString("hex")}`);
  });

  it("refuses every byte outside the alphabet, at every position of a word", async () => {
    const { harness } = await loadFixture(deployHarness);
    const alphabet = new Set(Buffer.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"));
    for (let byte = 0; byte < 256; byte++) {
      if (alphabet.has(byte)) continue;
      const at = byte % 32;
      const text = Buffer.from("A".repeat(40), "latin1");
      text[at] = byte;
      await expect(harness.decodeBase64Url(text), String(byte)).to.be.revertedWithCustomError(harness, "JwsMalformed").withArgs(at);
    }
  });

  it("refuses a length of 1 modulo 4, padding, characters outside the alphabet, and non-zero unused bits", async () => {
    const { harness } = await loadFixture(deployHarness);
    const text = Buffer.from("trust-check attestation!").toString("base64url"); // 32 characters
    const cases: Array<[string, number]> = [
      [`${text}A`, text.length],
      [`${text.slice(0, -2)}==`, text.length - 2],
      [`${text.slice(0, 5)}+${text.slice(6)}`, 5],
      [`${text.slice(0, 5)}/${text.slice(6)}`, 5],
      [`${text.slice(0, 31)}.`, 31],
      [`${text.slice(0, 7)} ${text.slice(8)}`, 7],
      [`${text.slice(0, 3)}\u00e9${text.slice(4)}`, 3],
      ["QR", 1], // "A" is QQ; R leaves a 1 in the unused bits
      ["QUJ", 2], // "AB" is QUI
      ["QUJDRR", 5], // "ABCE" is QUJDRQ
    ];
    for (const [input, offset] of cases) {
      const expected = Buffer.from(input, "base64url").toString("base64url") === input && !/[^A-Za-z0-9_-]/.test(input);
      expect(expected, `${input} must not be canonical`).to.equal(false);
      await expect(harness.decodeBase64Url(ascii(input)), input)
        .to.be.revertedWithCustomError(harness, "JwsMalformed")
        .withArgs(offset);
    }
  });
});

describe("TrustJwsHeaderLib.readJwsHeader", () => {
  const read = async (text: string) => {
    const { harness } = await loadFixture(deployHarness);
    return harness.readJwsHeader(Buffer.from(text));
  };

  it("reads alg and kid in any order, with typ JWT or JOSE, whitespace, and other members skipped", async () => {
    for (const text of [
      '{"alg":"ES256","kid":"rnwy-trust-v2"}',
      '{"kid":"rnwy-trust-v2","alg":"ES256"}',
      '{"typ":"JWT","kid":"rnwy-trust-v2","alg":"ES256"}',
      '{"alg":"ES256","typ":"JOSE","kid":"rnwy-trust-v2"}',
      ' {\n  "alg" : "ES256",\r\n\t"kid":"rnwy-trust-v2" } ',
      '{"cty":"json","x5t":"abc","alg":"ES256","ext":{"a":[1,{"b":null}]},"kid":"rnwy-trust-v2"}',
    ]) {
      const found = await read(text);
      expect([found.hasAlg, found.hasKid], text).to.deep.equal([true, true]);
      expect(text.slice(Number(found.kidOffset), Number(found.kidOffset + found.kidLength)), text).to.equal("rnwy-trust-v2");
    }
    const found = await read('{"typ":"JWT"}');
    expect([found.hasAlg, found.hasKid]).to.deep.equal([false, false]);
  });

  it("refuses crit, jku, x5u, jwk, x5c and b64, naming the member", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const member of ["crit", "jku", "x5u", "jwk", "x5c", "b64"]) {
      const text = `{"alg":"ES256","kid":"k","${member}":${member === "b64" ? "false" : '["x"]'}}`;
      await expect(harness.readJwsHeader(Buffer.from(text)), member)
        .to.be.revertedWithCustomError(harness, "JwsHeaderMemberRefused")
        .withArgs(member, text.indexOf(`"${member}"`));
    }
  });

  it("refuses a duplicate member, known or not, naming it", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const [text, member] of [
      ['{"alg":"ES256","kid":"k","alg":"ES256"}', "alg"],
      ['{"kid":"k","alg":"ES256","kid":"k"}', "kid"],
      ['{"typ":"JWT","alg":"ES256","typ":"JWT"}', "typ"],
      ['{"cty":"a","alg":"ES256","cty":"b"}', "cty"],
    ] as const) {
      await expect(harness.readJwsHeader(Buffer.from(text)), text)
        .to.be.revertedWithCustomError(harness, "JwsHeaderMemberDuplicate")
        .withArgs(member, text.lastIndexOf(`"${member}"`));
    }
  });

  it("refuses an alg other than the string ES256, a typ other than JWT or JOSE, a kid that is not a plain string", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const [text, member] of [
      ['{"alg":"none","kid":"k"}', "alg"],
      ['{"alg":"es256","kid":"k"}', "alg"],
      ['{"alg":"ES256 ","kid":"k"}', "alg"],
      ['{"alg":"HS256","kid":"k"}', "alg"],
      ['{"alg":"ES\\u0032\\u0035\\u0036","kid":"k"}', "alg"],
      ['{"alg":["ES256"],"kid":"k"}', "alg"],
      ['{"alg":"ES256","typ":"jwt","kid":"k"}', "typ"],
      ['{"alg":"ES256","typ":"JWS","kid":"k"}', "typ"],
      ['{"alg":"ES256","kid":7}', "kid"],
      ['{"alg":"ES256","kid":"rnwy\\u002dtrust-v2"}', "kid"],
    ] as const) {
      const value = text.indexOf(`"${member}":`) + member.length + 3;
      await expect(harness.readJwsHeader(Buffer.from(text)), text)
        .to.be.revertedWithCustomError(harness, "JwsHeaderMemberInvalid")
        .withArgs(member, value);
    }
  });

  it("refuses a header that is not one JSON object, or with an escaped member name", async () => {
    const { harness } = await loadFixture(deployHarness);
    for (const [text, offset] of [
      ['["alg","ES256"]', 0],
      ['{"alg":"ES256","kid":"k"}x', 25],
      ['{"\\u0061lg":"ES256","kid":"k"}', 1],
      ['{"alg":"ES256","kid":"k",}', 25],
      ['{"alg":"ES256" "kid":"k"}', 15],
      ["", 0],
    ] as const) {
      await expect(harness.readJwsHeader(Buffer.from(text)), text)
        .to.be.revertedWithCustomError(harness, "JwsHeaderMalformed")
        .withArgs(offset);
    }
  });
});
