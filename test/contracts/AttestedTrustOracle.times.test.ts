/**
 * Every RFC 3339 date-time the service may sign, on-chain: `issuedAt`, `verifiedAt` and `expiry` in any of the forms
 * RFC 3339 allows (0 to 9 fraction digits, `Z` or a numeric offset, `t` and `z` in either case) are read as the Unix
 * second of the instant (the offset applied, the fraction dropped), by both readers of the signed block (the
 * service's own layout and the general path), and a JWS carrying them is stored by `AttestedTrustOracle` through a
 * gate with `updatedAt` equal to that second. What is not such an instant is refused with the field and the offset
 * of its value, through the gate too.
 */
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import {
  AttestationParserHarness__factory,
  AttestedTrustOracle__factory,
  GatedAction__factory,
  MockTrustOracle__factory,
} from "../../typechain-types";
import { BASE_CHAIN_ID, DAY, ERC8004, HOUR, latestTimestamp, makePolicy } from "../support/fixtures";
import { FIELD, makeP256Key, signJws, type V2Signed, v2Signed } from "../support/onchain-attestations";

const KID = "rnwy-trust-v2";
type TimeField = "issuedAt" | "verifiedAt" | "expiry";
const FIELD_CODE: Record<TimeField, number> = { issuedAt: FIELD.IssuedAt, verifiedAt: FIELD.VerifiedAt, expiry: FIELD.Expiry };

/** How a time is written: its fraction digits (none when empty), its offset (`Z`, `z` or `±hh:mm`), `t` lower case. */
interface TimeForm {
  readonly name: string;
  readonly fraction: string;
  readonly offset: string;
  readonly lowerT?: boolean;
}

/** Every form the reader accepts, the service's sample first. */
const FORMS: readonly TimeForm[] = [
  { name: "the service's sample (milliseconds, +00:00)", fraction: "243", offset: "+00:00" },
  { name: "microseconds, +00:00", fraction: "243517", offset: "+00:00" },
  { name: "no fraction, Z", fraction: "", offset: "Z" },
  { name: "one fraction digit", fraction: "9", offset: "Z" },
  { name: "nine fraction digits", fraction: "999999999", offset: "Z" },
  { name: "+05:30", fraction: "", offset: "+05:30" },
  { name: "-08:00 with milliseconds", fraction: "120", offset: "-08:00" },
  { name: "+23:59", fraction: "5", offset: "+23:59" },
  { name: "-00:00", fraction: "", offset: "-00:00" },
  { name: "lower-case t and z", fraction: "7", offset: "z", lowerT: true },
];

/** The Unix second `seconds` written in `form` (the wall-clock time of its offset, then the offset). */
function writeTime(seconds: number, form: TimeForm): string {
  const match = /^([+-])(\d\d):(\d\d)$/.exec(form.offset);
  const east = match ? (match[1] === "+" ? 1 : -1) * (Number(match[2]) * 3600 + Number(match[3]) * 60) : 0;
  const local = new Date((seconds + east) * 1000).toISOString().slice(0, 19);
  const text = `${local}${form.fraction ? `.${form.fraction}` : ""}${form.offset}`;
  return form.lowerT ? text.replace("T", "t") : text;
}

/** The byte offset of field `name`'s value in `text` (after its name, the colon and any whitespace). */
function offsetOfValue(text: string, name: string): number {
  const after = text.indexOf(`"${name}":`) + name.length + 3;
  return Buffer.byteLength(text.slice(0, after + /^\s*/.exec(text.slice(after))![0].length));
}

/** `signed` pretty-printed with its members in reverse order: the general reader's path from its first member. */
const generalLayout = (signed: V2Signed) => JSON.stringify(Object.fromEntries(Object.entries(signed).reverse()), null, 1);

async function deployStack() {
  const [deployer, agent] = await hre.ethers.getSigners();
  const upstream = await new MockTrustOracle__factory(deployer!).deploy();
  const oracle = await new AttestedTrustOracle__factory(deployer!).deploy(deployer!.address, await upstream.getAddress());
  const key = makeP256Key(KID);
  await oracle.setSigningKey(KID, key.x, key.y);
  const gate = await new GatedAction__factory(deployer!).deploy(
    {
      oracle: await oracle.getAddress(),
      identityRegistry: hre.ethers.ZeroAddress,
      agentChainId: BASE_CHAIN_ID,
      agentRegistry: ERC8004,
      policy: makePolicy(),
    },
    deployer!.address,
  );
  const harness = await new AttestationParserHarness__factory(deployer!).deploy();
  return { oracle, gate, key, agent: agent!, harness };
}

describe("AttestedTrustOracle: every RFC 3339 form of the signed times", () => {
  it("stores a JWS through the gate with updatedAt = the Unix second of issuedAt, whatever the form", async () => {
    const { oracle, gate, key, agent } = await loadFixture(deployStack);
    let agentId = 100n;
    for (const form of FORMS) {
      agentId += 1n;
      const now = await latestTimestamp();
      const issued = now - HOUR;
      const signed = v2Signed(now, {
        agentId: agentId.toString(),
        score: 80,
        issuedAt: writeTime(issued, form),
        verifiedAt: writeTime(now, form),
        expiry: writeTime(now + DAY, form),
      });
      await expect(gate.connect(agent).actWithJwsAttestation(agentId, KID, Buffer.from(signJws(key, signed).jws)), form.name).to.emit(
        gate,
        "Acted",
      );
      const record = await oracle.attestedRecord(agentId, BASE_CHAIN_ID, ERC8004);
      expect(record.updatedAt, `${form.name}: ${signed.issuedAt}`).to.equal(BigInt(issued));
    }
  });

  it("reads each time in each form as the same second in the service's layout and on the general path", async () => {
    const { harness } = await loadFixture(deployStack);
    const now = Date.parse("2026-04-14T10:38:38Z") / 1000;
    for (const form of FORMS) {
      for (const field of ["issuedAt", "verifiedAt", "expiry"] as const) {
        const at = { issuedAt: now - 2 * HOUR, verifiedAt: now, expiry: now + DAY }[field];
        const signed = v2Signed(now, { [field]: writeTime(at, form) });
        for (const text of [JSON.stringify(signed), generalLayout(signed)]) {
          const att = await harness.parse(Buffer.from(text));
          expect(att[field], `${form.name}, ${field}: ${text}`).to.equal(BigInt(at));
        }
      }
    }
  });

  it("applies the offset across a day, a month, a year and a leap day, and keeps the fraction out (floor)", async () => {
    const { harness } = await loadFixture(deployStack);
    const cases: Array<[string, string]> = [
      ["2026-04-14T10:38:38.243+00:00", "2026-04-14T10:38:38Z"],
      ["2026-04-14T10:38:38.999999999Z", "2026-04-14T10:38:38Z"],
      ["2026-01-01T02:00:00+05:30", "2025-12-31T20:30:00Z"],
      ["2025-12-31T20:00:00.5-08:00", "2026-01-01T04:00:00Z"],
      ["2024-03-01T00:15:00+01:00", "2024-02-29T23:15:00Z"],
      ["2024-02-28T23:59:59-23:59", "2024-02-29T23:58:59Z"],
      ["1970-01-01T00:00:00-00:01", "1970-01-01T00:01:00Z"],
      ["1970-01-01T00:00:01z", "1970-01-01T00:00:01Z"],
      ["9999-12-31T23:59:59.999999999-23:59", "10000-01-01T23:58:59Z"],
    ];
    const expected = (utc: string) => {
      const m = /^(\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z$/.exec(utc)!;
      return BigInt(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000);
    };
    for (const [text, utc] of cases) {
      const signed = v2Signed(Date.parse("2026-04-14T10:38:38Z") / 1000, { issuedAt: text });
      for (const layout of [JSON.stringify(signed), generalLayout(signed)]) {
        expect((await harness.parse(Buffer.from(layout))).issuedAt, text).to.equal(expected(utc));
      }
    }
  });

  it("compares the signed times in whole seconds: a fraction never orders two times of the same second", async () => {
    const { oracle, key } = await loadFixture(deployStack);
    const now = (await latestTimestamp()) + 1;
    await hre.network.provider.send("evm_setNextBlockTimestamp", [now]);
    // issuedAt .554 after verifiedAt .105 in the same second, verifiedAt 60.5 s ahead of the block: both floor to
    // seconds that are in order and within the clock skew.
    const stamp = (seconds: number, fraction: string) => writeTime(seconds, { name: "", fraction, offset: "Z" });
    const signed = v2Signed(now, {
      agentId: "7",
      issuedAt: stamp(now + 60, "554"),
      verifiedAt: stamp(now + 60, "105"),
      expiry: stamp(now + DAY, "000"),
    });
    await expect(oracle.submitJwsAttestation(KID, Buffer.from(signJws(key, signed).jws))).to.emit(oracle, "RecordAdded");
    expect((await oracle.attestedRecord(7n, BASE_CHAIN_ID, ERC8004)).updatedAt).to.equal(BigInt(now + 60));
    // 61 s ahead (whatever the fraction) is beyond the skew.
    const later = (await latestTimestamp()) + 1;
    await hre.network.provider.send("evm_setNextBlockTimestamp", [later]);
    const ahead = v2Signed(later, { agentId: "8", issuedAt: stamp(later, "0"), verifiedAt: stamp(later + 61, "0") });
    await expect(oracle.submitJwsAttestation(KID, Buffer.from(signJws(key, ahead).jws)))
      .to.be.revertedWithCustomError(oracle, "AttestationFromFuture")
      .withArgs(later + 61, later);
  });
});

describe("AttestedTrustOracle: what is not an RFC 3339 instant is refused, with the field and its offset", () => {
  /** Each refusal as a rewrite of a valid time `2026-04-14T10:38:38.243+00:00`-like text of the field. */
  const REFUSED: ReadonlyArray<[string, (time: string) => string]> = [
    ["February 30", (t) => `2026-02-30${t.slice(10)}`],
    ["February 29 of a year that is not a leap year", (t) => `2026-02-29${t.slice(10)}`],
    ["February 29 of 2100", (t) => `2100-02-29${t.slice(10)}`],
    ["month 13", (t) => `2026-13${t.slice(7)}`],
    ["month 00", (t) => `2026-00${t.slice(7)}`],
    ["day 00", (t) => `${t.slice(0, 8)}00${t.slice(10)}`],
    ["hour 24", (t) => `${t.slice(0, 11)}24${t.slice(13)}`],
    ["minute 60", (t) => `${t.slice(0, 14)}60${t.slice(16)}`],
    ["second 60 (a leap second)", (t) => `${t.slice(0, 17)}60${t.slice(19)}`],
    ["an offset of +24:00", (t) => `${t.slice(0, 19)}+24:00`],
    ["an offset of -05:60", (t) => `${t.slice(0, 19)}-05:60`],
    ["a space for T", (t) => `${t.slice(0, 10)} ${t.slice(11)}`],
    ["an empty fraction", (t) => `${t.slice(0, 19)}.Z`],
    ["an empty fraction before an offset", (t) => `${t.slice(0, 19)}.+00:00`],
    ["ten fraction digits", (t) => `${t.slice(0, 19)}.1234567890Z`],
    ["+0000 without its colon", (t) => `${t.slice(0, 19)}+0000`],
    ["an offset without minutes", (t) => `${t.slice(0, 19)}+05`],
    ["an offset with one hour digit", (t) => `${t.slice(0, 19)}+5:30`],
    ["no offset (local time)", (t) => t.slice(0, 19)],
    ["a comma for the fraction's point", (t) => `${t.slice(0, 19)},5Z`],
    ["a letter after Z", (t) => `${t.slice(0, 19)}ZZ`],
    ["a byte after the offset", (t) => `${t.slice(0, 19)}+00:000`],
    ["a year before 1970", (t) => `1969${t.slice(4)}`],
    ["the epoch itself (0 is no date)", () => "1970-01-01T00:00:00Z"],
    ["an instant before the epoch through its offset", () => "1970-01-01T00:30:00+01:00"],
    ["a five-digit year", (t) => `0${t}`],
    ["a date without time", (t) => t.slice(0, 10)],
    ["an escaped T", (t) => `${t.slice(0, 10)}\\u0054${t.slice(11)}`],
    ["a colon-less time", (t) => `${t.slice(0, 13)}${t.slice(14)}`],
    ["a full-width digit", (t) => `２${t.slice(1)}`],
  ];

  it("refuses each non-instant in each signed time, in both readers", async () => {
    const { harness } = await loadFixture(deployStack);
    const now = Date.parse("2026-04-14T10:38:38Z") / 1000;
    for (const field of ["issuedAt", "verifiedAt", "expiry"] as const) {
      for (const [name, rewrite] of REFUSED) {
        const signed = v2Signed(now, { [field]: rewrite(writeTime(now, FORMS[0]!)) });
        for (const text of [
          JSON.stringify(signed).replaceAll("\\\\u0054", "\\u0054"),
          generalLayout(signed).replaceAll("\\\\u0054", "\\u0054"),
        ]) {
          await expect(harness.parse(Buffer.from(text)), `${field}, ${name}: ${text}`)
            .to.be.revertedWithCustomError(harness, "AttestationFieldInvalid")
            .withArgs(FIELD_CODE[field], offsetOfValue(text, field));
        }
      }
    }
  });

  it("refuses each non-instant through the gate with the oracle's error, the field and its offset", async () => {
    const { oracle, gate, key, agent } = await loadFixture(deployStack);
    const now = await latestTimestamp();
    const fields: TimeField[] = ["issuedAt", "verifiedAt", "expiry"];
    for (const [i, [name, rewrite]] of REFUSED.entries()) {
      const field = fields[i % fields.length]!;
      const at = { issuedAt: now - HOUR, verifiedAt: now, expiry: now + DAY }[field];
      const signed = v2Signed(now, { score: 80, [field]: rewrite(writeTime(at, FORMS[0]!)) });
      const payload = JSON.stringify(signed).replaceAll("\\\\u0054", "\\u0054");
      await expect(gate.connect(agent).actWithJwsAttestation(1n, KID, Buffer.from(signJws(key, payload).jws)), `${field}, ${name}`)
        .to.be.revertedWithCustomError(oracle, "AttestationFieldInvalid")
        .withArgs(FIELD_CODE[field], offsetOfValue(payload, field));
    }
  });
});
