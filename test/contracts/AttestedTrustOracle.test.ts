import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { DEFAULT_CLOCK_SKEW_SECONDS } from "../../src/attestation/options";
import { generateSigningKey, signPayload } from "../../src/harness/signing";
import { AttestedTrustOracle__factory, MockTrustOracle__factory, RawResponseOracle__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, ERC8004, latestTimestamp } from "../support/fixtures";
import {
  FIELD,
  iso,
  makeP256Key,
  type P256TestKey,
  SYBIL_CODE,
  signJws,
  signText,
  startSideNetwork,
  TIER_CODE,
  type V2Signed,
  v2Signed,
} from "../support/onchain-attestations";

const KID = "rnwy-trust-v2";
/** The oracle's `MAX_CLOCK_SKEW`, pinned equal to the TypeScript verifier's default by a test below. */
const SKEW = 60;

/** score | tier << 8 | sybil << 16 | updatedAt << 24. */
function packed(score: number, tier: number, sybil: number, updatedAt: number): bigint {
  return BigInt(score) | (BigInt(tier) << 8n) | (BigInt(sybil) << 16n) | (BigInt(updatedAt) << 24n);
}
const seconds = (isoDate: string) => Math.floor(Date.parse(isoDate) / 1000);

async function deployOracle() {
  const [admin, submitter, stranger] = await hre.ethers.getSigners();
  const upstream = await new MockTrustOracle__factory(admin!).deploy();
  const oracle = await new AttestedTrustOracle__factory(admin!).deploy(admin!.address, await upstream.getAddress());
  const key = makeP256Key(KID);
  await oracle.setSigningKey(KID, key.x, key.y);
  const now = await latestTimestamp();
  const submit = (signed: V2Signed | string, options: { key?: P256TestKey; kid?: string; highS?: boolean } = {}) => {
    const call = signText(options.key ?? key, signed);
    return oracle.connect(submitter!).submitAttestation(options.kid ?? KID, call.signedJson, options.highS ? call.highS : call.lowS);
  };
  return { admin: admin!, submitter: submitter!, stranger: stranger!, upstream, oracle, key, now, submit };
}

describe("AttestedTrustOracle: administration", () => {
  it("lets only the admin set and revoke signing keys and chain slugs, each with an event", async () => {
    const { oracle, stranger, admin } = await loadFixture(deployOracle);
    const other = makeP256Key("rnwy-trust-v3");
    const role = await oracle.DEFAULT_ADMIN_ROLE();
    await expect(oracle.connect(stranger).setSigningKey("rnwy-trust-v3", other.x, other.y))
      .to.be.revertedWithCustomError(oracle, "AccessControlUnauthorizedAccount")
      .withArgs(stranger.address, role);
    await expect(oracle.connect(stranger).revokeSigningKey(KID)).to.be.revertedWithCustomError(oracle, "AccessControlUnauthorizedAccount");
    await expect(oracle.connect(stranger).setChainSlug("zora", 7777777)).to.be.revertedWithCustomError(
      oracle,
      "AccessControlUnauthorizedAccount",
    );
    await expect(oracle.connect(admin).setSigningKey("rnwy-trust-v3", other.x, other.y))
      .to.emit(oracle, "SigningKeySet")
      .withArgs("rnwy-trust-v3", other.x, other.y);
    expect(await oracle.signingKey("rnwy-trust-v3")).to.deep.equal([other.x, other.y, false]);
    await expect(oracle.revokeSigningKey("rnwy-trust-v3")).to.emit(oracle, "SigningKeyRevoked").withArgs("rnwy-trust-v3");
    expect(await oracle.signingKey("rnwy-trust-v3")).to.deep.equal([hre.ethers.ZeroHash, hre.ethers.ZeroHash, true]);
    await expect(oracle.setChainSlug("zora", 7777777)).to.emit(oracle, "ChainSlugSet").withArgs("zora", 7777777);
    expect(await oracle.chainIdOfSlug("zora")).to.equal(7777777n);
  });

  it("refuses an empty kid, a key off the curve, revoking an unknown kid, and reusing a revoked one", async () => {
    const { oracle, key } = await loadFixture(deployOracle);
    await expect(oracle.setSigningKey("", key.x, key.y)).to.be.revertedWithCustomError(oracle, "SigningKeyIdEmpty");
    const badY = `0x${(BigInt(key.y) ^ 1n).toString(16).padStart(64, "0")}`;
    await expect(oracle.setSigningKey("k", key.x, badY))
      .to.be.revertedWithCustomError(oracle, "InvalidSigningKey")
      .withArgs("k", key.x, badY);
    await expect(oracle.revokeSigningKey("nope")).to.be.revertedWithCustomError(oracle, "UnknownSigningKey").withArgs("nope");
    await oracle.revokeSigningKey(KID);
    await expect(oracle.revokeSigningKey(KID)).to.be.revertedWithCustomError(oracle, "RevokedSigningKey").withArgs(KID);
    await expect(oracle.setSigningKey(KID, key.x, key.y)).to.be.revertedWithCustomError(oracle, "RevokedSigningKey");
    await expect(oracle.setChainSlug("Base", 1)).to.be.revertedWithCustomError(oracle, "InvalidChainSlug").withArgs("Base");
  });

  it("seeds the service's EVM chain slugs and refuses a zero admin or an upstream without code", async () => {
    const { oracle, admin } = await loadFixture(deployOracle);
    const seeded = {
      ethereum: 1,
      base: 8453,
      bnb: 56,
      gnosis: 100,
      avalanche: 43114,
      celo: 42220,
      arbitrum: 42161,
      polygon: 137,
      optimism: 10,
      monad: 143,
      megaeth: 4326,
      solana: 0,
    };
    for (const [slug, id] of Object.entries(seeded)) expect(await oracle.chainIdOfSlug(slug), slug).to.equal(BigInt(id));
    // The service's slugs are fixed: the admin can neither remap nor remove one, so an admin's mistake cannot make
    // records of one chain count for another.
    for (const [slug, id] of Object.entries(seeded).filter(([, id]) => id !== 0)) {
      for (const next of [0n, 1n, BigInt(id)]) {
        await expect(oracle.connect(admin).setChainSlug(slug, next), `${slug} → ${next}`)
          .to.be.revertedWithCustomError(oracle, "ChainSlugFixed")
          .withArgs(slug, BigInt(id));
      }
    }
    // Prefixes, extensions and other cases of a service slug are not service slugs.
    for (const slug of ["bas", "basement", "base_", "ethereum2", "avalanch", "avalanchee"]) {
      expect(await oracle.chainIdOfSlug(slug), slug).to.equal(0n);
      await expect(oracle.connect(admin).setChainSlug(slug, 7n)).to.emit(oracle, "ChainSlugSet").withArgs(slug, 7n);
      expect(await oracle.chainIdOfSlug(slug), slug).to.equal(7n);
    }
    // Deployment announces each service slug with its chain id.
    const deployed = await new AttestedTrustOracle__factory(admin).deploy(admin.address, hre.ethers.ZeroAddress);
    const announced = (await deployed.queryFilter(deployed.filters.ChainSlugSet())).map((e) => [e.args.slug, Number(e.args.chainId)]);
    expect(Object.fromEntries(announced)).to.deep.equal(Object.fromEntries(Object.entries(seeded).filter(([, id]) => id !== 0)));
    const factory = new AttestedTrustOracle__factory(admin);
    await expect(factory.deploy(hre.ethers.ZeroAddress, hre.ethers.ZeroAddress)).to.be.revertedWithCustomError(
      oracle,
      "AttestedTrustOracleInvalidAdmin",
    );
    await expect(factory.deploy(admin.address, admin.address))
      .to.be.revertedWithCustomError(oracle, "AttestedTrustOracleInvalidUpstream")
      .withArgs(admin.address);
  });
});

describe("AttestedTrustOracle: submitAttestation", () => {
  it("stores a low-S attestation (updatedAt = issuedAt), emits RecordAdded, then RecordUpdated for a newer one", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const signed = v2Signed(now, { agentId: "16907", score: 82, sybilSeverity: "low" });
    const issuedAt = seconds(signed.issuedAt);
    const key = await oracle.recordKey(16907n, BASE_CHAIN_ID, ERC8004);
    await expect(submit(signed))
      .to.emit(oracle, "RecordAdded")
      .withArgs(key, 16907n, BASE_CHAIN_ID, ERC8004, packed(82, 3, 1, issuedAt));
    expect(await oracle.getScore(16907n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([82n, 3n, 1n, BigInt(issuedAt)]);
    const newer = v2Signed(now, { agentId: "16907", score: 45, sybilSeverity: "heavy" }, 60);
    const tx = submit(newer, { highS: true });
    await expect(tx)
      .to.emit(oracle, "RecordUpdated")
      .withArgs(key, packed(45, 1, 4, seconds(newer.issuedAt)));
    await expect(tx).to.not.emit(oracle, "RecordAdded");
    expect(await oracle.attestedRecord(16907n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([45n, 1n, 4n, BigInt(seconds(newer.issuedAt))]);
  });

  it("accepts the high-S twin of a signature (the service does not normalise S)", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    await expect(submit(v2Signed(now), { highS: true })).to.emit(oracle, "RecordAdded");
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
  });

  it("returns the record it holds: the new one, or the newer one it kept", async () => {
    const { oracle, submit, now, key } = await loadFixture(deployOracle);
    const fresh = v2Signed(now, { score: 70 }, 100);
    const call = signText(key, fresh);
    expect(await oracle.submitAttestation.staticCall(KID, call.signedJson, call.lowS)).to.deep.equal([
      70n,
      2n,
      0n,
      BigInt(seconds(fresh.issuedAt)),
    ]);
    await submit(fresh);
    const older = signText(key, v2Signed(now, { score: 10 }, 5_000));
    expect((await oracle.submitAttestation.staticCall(KID, older.signedJson, older.lowS)).score).to.equal(70n);
  });

  it("treats an older or equally old attestation as a no-op (no event, record kept)", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const held = v2Signed(now, { score: 70 }, 100);
    await submit(held);
    for (const stale of [v2Signed(now, { score: 20 }, 101), { ...v2Signed(now, { score: 21 }), issuedAt: held.issuedAt }]) {
      const tx = submit(stale);
      await expect(tx).to.not.emit(oracle, "RecordUpdated");
      await expect(tx).to.not.emit(oracle, "RecordAdded");
    }
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(70n);
  });

  it("refuses a tampered byte and a signature by another key with InvalidAttestationSignature(kid)", async () => {
    const { oracle, submitter, key, now, submit } = await loadFixture(deployOracle);
    const call = signText(key, v2Signed(now, { score: 40 }));
    const tampered = hre.ethers.hexlify(hre.ethers.toUtf8Bytes(call.text.replace('"score":40', '"score":90')));
    await expect(oracle.connect(submitter).submitAttestation(KID, tampered, call.lowS))
      .to.be.revertedWithCustomError(oracle, "InvalidAttestationSignature")
      .withArgs(KID);
    await expect(submit(v2Signed(now), { key: makeP256Key(KID) }))
      .to.be.revertedWithCustomError(oracle, "InvalidAttestationSignature")
      .withArgs(KID);
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
  });

  it("refuses an unknown kid and a revoked kid", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    await expect(submit(v2Signed(now), { kid: "rnwy-trust-v1" }))
      .to.be.revertedWithCustomError(oracle, "UnknownSigningKey")
      .withArgs("rnwy-trust-v1");
    await oracle.revokeSigningKey(KID);
    await expect(submit(v2Signed(now)))
      .to.be.revertedWithCustomError(oracle, "RevokedSigningKey")
      .withArgs(KID);
  });

  it("has one clock skew on both sides, equal to the TypeScript verifier's default", async () => {
    const { oracle } = await loadFixture(deployOracle);
    expect(await oracle.MAX_CLOCK_SKEW()).to.equal(BigInt(DEFAULT_CLOCK_SKEW_SECONDS));
    expect(SKEW).to.equal(DEFAULT_CLOCK_SKEW_SECONDS);
  });

  it("refuses an attestation more than the skew past its expiry, and accepts one at the skew's last second", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const signed = v2Signed(now + 5 - 86_400);
    const expiry = seconds(signed.expiry);
    await time.setNextBlockTimestamp(expiry + SKEW + 1);
    await expect(submit(signed))
      .to.be.revertedWithCustomError(oracle, "AttestationExpired")
      .withArgs(expiry, expiry + SKEW + 1);
    const atEdge = v2Signed(expiry + SKEW + 2 - 86_400);
    await time.setNextBlockTimestamp(seconds(atEdge.expiry) + SKEW);
    await expect(submit(atEdge)).to.emit(oracle, "RecordAdded");
  });

  it("refuses verifiedAt more than the allowed skew (60 s) after the block, and accepts it at the limit", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const block = now + 100;
    await time.setNextBlockTimestamp(block);
    const ahead = { ...v2Signed(block), verifiedAt: iso(block + SKEW + 1) };
    await expect(submit(ahead))
      .to.be.revertedWithCustomError(oracle, "AttestationFromFuture")
      .withArgs(block + SKEW + 1, block);
    const within = { ...v2Signed(block + 1, {}, 0), issuedAt: iso(block + 1 + SKEW), verifiedAt: iso(block + 1 + SKEW) };
    await time.setNextBlockTimestamp(block + 1);
    await expect(submit(within)).to.emit(oracle, "RecordAdded");
  });

  it("refuses issuedAt after verifiedAt (a score is computed before it is signed), even by one second in the past", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const late = { ...v2Signed(now), issuedAt: iso(now - 10), verifiedAt: iso(now - 11) };
    await expect(submit(late))
      .to.be.revertedWithCustomError(oracle, "AttestationDatesOutOfOrder")
      .withArgs(now - 10, now - 11);
    // A forger's issuedAt ahead of the block (the old bound was the skew on issuedAt alone) is refused the same way.
    const ahead = { ...v2Signed(now), issuedAt: iso(now + SKEW) };
    await expect(submit(ahead))
      .to.be.revertedWithCustomError(oracle, "AttestationDatesOutOfOrder")
      .withArgs(now + SKEW, now);
    const equal = { ...v2Signed(now), issuedAt: iso(now), verifiedAt: iso(now) };
    await expect(submit(equal)).to.emit(oracle, "RecordAdded");
  });

  it("refuses a chain slug without an EVM chain id (solana), and accepts one the admin added", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    await expect(submit(v2Signed(now, { chain: "solana", registry: "sati", owner: null })))
      .to.be.revertedWithCustomError(oracle, "UnknownChainSlug")
      .withArgs("solana");
    await expect(submit(v2Signed(now, { chain: "zora" })))
      .to.be.revertedWithCustomError(oracle, "UnknownChainSlug")
      .withArgs("zora");
    await expect(submit(v2Signed(now, { chain: "Base" })))
      .to.be.revertedWithCustomError(oracle, "UnknownChainSlug")
      .withArgs("Base");
    await oracle.setChainSlug("zora", 7777777);
    await submit(v2Signed(now, { chain: "zora" }));
    expect(await oracle.hasScore(1n, 7777777n, ERC8004)).to.equal(true);
    await submit(v2Signed(now, { chain: "ethereum", registry: "olas", agentId: "9" }));
    expect(await oracle.hasScore(9n, 1n, "olas")).to.equal(true);
  });

  it("refuses signed bytes it cannot read, with the reader's error", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const text = JSON.stringify(v2Signed(now));
    await expect(submit(`${text.slice(0, -1)},}`))
      .to.be.revertedWithCustomError(oracle, "AttestationJsonMalformed")
      .withArgs(text.length);
    await expect(submit(text.replace('"tier":"developing"', '"tier":"gold"'))).to.be.revertedWithCustomError(
      oracle,
      "AttestationFieldInvalid",
    );
  });

  it("stores the top-level values of a block with look-alike keys in a string and a nested object", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    const signed = { ...v2Signed(now, { score: 33, badges: ['"score":99', 'x\\"score\\":98'] }), extra: { score: 97, issuedAt: iso(now) } };
    await submit(signed);
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(33n);
  });

  it("refuses a signature of the wrong length or with r or s out of range", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const call = signText(key, v2Signed(now));
    await expect(oracle.submitAttestation(KID, call.signedJson, call.lowS.slice(0, -2)))
      .to.be.revertedWithCustomError(oracle, "AttestationSignatureLength")
      .withArgs(63);
    await expect(
      oracle.submitAttestation(KID, call.signedJson, `0x${"ff".repeat(32)}${call.lowS.slice(66)}`),
    ).to.be.revertedWithCustomError(oracle, "AttestationSignatureOutOfRange");
  });

  it("submitAttestationFor refuses an attestation about another agent, chain or registry", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const call = signText(key, v2Signed(now, { agentId: "5" }));
    await expect(oracle.submitAttestationFor(6n, BASE_CHAIN_ID, ERC8004, KID, call.signedJson, call.lowS))
      .to.be.revertedWithCustomError(oracle, "AttestationSubjectMismatch")
      .withArgs(6n, BASE_CHAIN_ID, ERC8004, 5n, BASE_CHAIN_ID, ERC8004);
    await expect(oracle.submitAttestationFor(5n, 1n, ERC8004, KID, call.signedJson, call.lowS)).to.be.revertedWithCustomError(
      oracle,
      "AttestationSubjectMismatch",
    );
    await expect(oracle.submitAttestationFor(5n, BASE_CHAIN_ID, "olas", KID, call.signedJson, call.lowS)).to.be.revertedWithCustomError(
      oracle,
      "AttestationSubjectMismatch",
    );
    await expect(oracle.submitAttestationFor(5n, BASE_CHAIN_ID, ERC8004, KID, call.signedJson, call.lowS)).to.emit(oracle, "RecordAdded");
  });
});

describe("AttestedTrustOracle: submitJwsAttestation, the JWS as issued", () => {
  const submitJws = (oracle: Awaited<ReturnType<typeof deployOracle>>["oracle"], jws: string, kid = KID) =>
    oracle.submitJwsAttestation(kid, Buffer.from(jws, "latin1"));

  it("stores the record of the service's JWS (jose via signPayload) and the same record as the sig form", async () => {
    const { oracle, now } = await loadFixture(deployOracle);
    const jose = await generateSigningKey("rnwy-trust-v9");
    const hex = (b64: string) => `0x${Buffer.from(b64, "base64url").toString("hex")}`;
    await oracle.setSigningKey("rnwy-trust-v9", hex(jose.publicJwk.x!), hex(jose.publicJwk.y!));
    const signed = v2Signed(now, { score: 77, sybilSeverity: "moderate" });
    const { jws } = await signPayload(signed, jose);
    await expect(submitJws(oracle, jws, "rnwy-trust-v9")).to.emit(oracle, "RecordAdded");
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([77n, 3n, 2n, BigInt(seconds(signed.issuedAt))]);
  });

  it("verifies the bytes as issued: any header member order, typ, whitespace; sorted-key and pretty payloads; high-S", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const headers = [
      { alg: "ES256", kid: KID },
      { kid: KID, alg: "ES256" },
      { typ: "JWT", alg: "ES256", kid: KID },
      { alg: "ES256", kid: KID, typ: "JOSE", cty: "json" },
      `{ "kid" : "${KID}",\n  "alg":"ES256" }`,
    ];
    let agent = 10;
    for (const header of headers) {
      for (const form of ["insertion", "sorted", "pretty"] as const) {
        agent += 1;
        const signed = v2Signed(now, { agentId: String(agent), score: 60 + (agent % 30) });
        const sorted = Object.fromEntries(Object.entries(signed).sort(([a], [b]) => (a < b ? -1 : 1)));
        const payload =
          form === "insertion" ? JSON.stringify(signed) : form === "sorted" ? JSON.stringify(sorted) : JSON.stringify(signed, null, 2);
        const call = signJws(key, payload, header);
        await expect(submitJws(oracle, agent % 2 ? call.highS : call.jws), `${JSON.stringify(header)} ${form}`).to.emit(
          oracle,
          "RecordAdded",
        );
        expect((await oracle.getScore(BigInt(agent), BASE_CHAIN_ID, ERC8004))[0]).to.equal(BigInt(60 + (agent % 30)));
      }
    }
  });

  it("refuses a header without alg or kid, with another kid, alg none, or crit, each with its error", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const payload = v2Signed(now);
    const afterKid = `{"alg":"ES256","kid":"${KID}",`.length;
    const cases: Array<[object | string, string, unknown[]]> = [
      [{ kid: KID }, "JwsHeaderMemberMissing", ["alg"]],
      [{ alg: "ES256" }, "JwsHeaderMemberMissing", ["kid"]],
      [{ alg: "ES256", kid: "rnwy-trust-v3" }, "JwsKidMismatch", [KID, "rnwy-trust-v3"]],
      [{ alg: "none", kid: KID }, "JwsHeaderMemberInvalid", ["alg", 7]],
      [{ alg: "ES256", kid: KID, crit: ["exp"] }, "JwsHeaderMemberRefused", ["crit", afterKid]],
      [{ alg: "ES256", kid: KID, jwk: {} }, "JwsHeaderMemberRefused", ["jwk", afterKid]],
      [`{"alg":"ES256","kid":"${KID}","alg":"ES256"}`, "JwsHeaderMemberDuplicate", ["alg", afterKid]],
    ];
    for (const [header, error, args] of cases) {
      await expect(submitJws(oracle, signJws(key, payload, header).jws), JSON.stringify(header))
        .to.be.revertedWithCustomError(oracle, error)
        .withArgs(...args);
    }
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
  });

  it("decodes the jose header's text canonically on its fast path: a bad character or unused bits are refused where they are", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const [, payload, signature] = signJws(key, v2Signed(now)).jws.split(".") as [string, string, string];
    const header = Buffer.from(`{"alg":"ES256","kid":"${KID}"}`).toString("base64url"); // 37 bytes: 50 characters
    const last = header.length - 1;
    const cases: Array<[string, number]> = [
      [`${header.slice(0, 30)}+${header.slice(31)}`, 30], // in the part decoded after the 28 compared characters
      [`${header.slice(0, last)}${String.fromCharCode(header.charCodeAt(last) + 1)}`, last], // unused bits not zero
    ];
    for (const [text, offset] of cases) {
      await expect(submitJws(oracle, `${text}.${payload}.${signature}`), text)
        .to.be.revertedWithCustomError(oracle, "JwsMalformed")
        .withArgs(offset);
    }
  });

  it("refuses a JWS that is not three canonical base64url parts with a 64-byte signature", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const { jws } = signJws(key, v2Signed(now));
    const [header, payload, signature] = jws.split(".") as [string, string, string];
    // Characters that make the payload part's length 1 modulo 4.
    const pad = (5 - (payload.length % 4)) % 4;
    const cases: Array<[string, string, unknown[]]> = [
      [`${header}.${payload}`, "JwsMalformed", [header.length + 1 + payload.length]],
      [`${header}${payload}${signature}`, "JwsMalformed", [jws.length - 2]],
      [`${header}.${payload}.${signature}.`, "AttestationSignatureLength", [65]],
      [`${header}.${payload}.${signature.slice(0, 84)}`, "AttestationSignatureLength", [63]],
      [`${header}.${payload}.${signature}==`, "AttestationSignatureLength", [66]],
      [`${header}.${payload.slice(0, 10)}+${payload.slice(11)}.${signature}`, "JwsMalformed", [header.length + 11]],
      [`${header}.${payload}${"A".repeat(pad)}.${signature}`, "JwsMalformed", [header.length + payload.length + pad]],
      [`${header}=.${payload}.${signature}`, "JwsMalformed", [header.length]],
    ];
    for (const [text, error, args] of cases) {
      await expect(submitJws(oracle, text), text.slice(0, 40))
        .to.be.revertedWithCustomError(oracle, error)
        .withArgs(...args);
    }
  });

  it("refuses a changed byte of the header, the payload or the signature with InvalidAttestationSignature", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const call = signJws(key, v2Signed(now, { score: 40 }));
    const other = signJws(key, v2Signed(now, { score: 90 }));
    const [header, , signature] = call.jws.split(".") as [string, string, string];
    const [, otherPayload] = other.jws.split(".") as [string, string, string];
    const typHeader = Buffer.from(`{"alg":"ES256","kid":"${KID}","typ":"JWT"}`).toString("base64url");
    for (const forged of [`${header}.${otherPayload}.${signature}`, `${typHeader}.${call.jws.split(".")[1]}.${signature}`]) {
      await expect(submitJws(oracle, forged)).to.be.revertedWithCustomError(oracle, "InvalidAttestationSignature").withArgs(KID);
    }
    const flipped = Buffer.from(signature, "base64url");
    flipped[40]! ^= 1;
    await expect(submitJws(oracle, `${call.jws.slice(0, call.jws.lastIndexOf(".") + 1)}${flipped.toString("base64url")}`))
      .to.be.revertedWithCustomError(oracle, "InvalidAttestationSignature")
      .withArgs(KID);
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
  });

  it("refuses the payload's grammar violations through the JWS as through the sig form", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const text = JSON.stringify(v2Signed(now));
    const duplicate = `${text.slice(0, -1)},"score":95}`;
    await expect(submitJws(oracle, signJws(key, duplicate).jws))
      .to.be.revertedWithCustomError(oracle, "AttestationFieldDuplicate")
      .withArgs(FIELD.Score, duplicate.lastIndexOf('"score"'));
    const escaped = `{"sc\\u006fre":95,${text.slice(1)}`;
    await expect(submitJws(oracle, signJws(key, escaped).jws))
      .to.be.revertedWithCustomError(oracle, "AttestationJsonMalformed")
      .withArgs(1);
  });

  it("submitJwsAttestationFor refuses an attestation about another agent, chain or registry", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const jws = Buffer.from(signJws(key, v2Signed(now, { agentId: "5" })).jws);
    await expect(oracle.submitJwsAttestationFor(6n, BASE_CHAIN_ID, ERC8004, KID, jws))
      .to.be.revertedWithCustomError(oracle, "AttestationSubjectMismatch")
      .withArgs(6n, BASE_CHAIN_ID, ERC8004, 5n, BASE_CHAIN_ID, ERC8004);
    await expect(oracle.submitJwsAttestationFor(5n, 1n, ERC8004, KID, jws)).to.be.revertedWithCustomError(
      oracle,
      "AttestationSubjectMismatch",
    );
    await expect(oracle.submitJwsAttestationFor(5n, BASE_CHAIN_ID, "olas", KID, jws)).to.be.revertedWithCustomError(
      oracle,
      "AttestationSubjectMismatch",
    );
    await expect(oracle.submitJwsAttestationFor(5n, BASE_CHAIN_ID, ERC8004, KID, jws)).to.emit(oracle, "RecordAdded");
  });
});

describe("AttestedTrustOracle: a byte-order mark is a byte like any other", () => {
  const BOM = "\uFEFF";
  const submitJws = (oracle: Awaited<ReturnType<typeof deployOracle>>["oracle"], jws: string) =>
    oracle.submitJwsAttestation(KID, Buffer.from(jws, "latin1"));

  it("reads a member named with a leading BOM as an unknown member, never as the field it resembles", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const signed = v2Signed(now, { agentId: "31" });
    // In place of verifiedAt: the block lacks verifiedAt.
    const renamed = JSON.stringify(signed).replace('"verifiedAt"', `"${BOM}verifiedAt"`);
    await expect(submitJws(oracle, signJws(key, renamed).jws))
      .to.be.revertedWithCustomError(oracle, "AttestationFieldMissing")
      .withArgs(FIELD.VerifiedAt);
    // Beside verifiedAt, holding a date far ahead: skipped, so not refused as from the future, and the record stored.
    const beside = JSON.stringify({ ...signed, [`${BOM}verifiedAt`]: iso(now + 365 * 86_400) });
    await expect(submitJws(oracle, signJws(key, beside).jws)).to.emit(oracle, "RecordAdded");
    expect((await oracle.attestedRecord(31n, BASE_CHAIN_ID, ERC8004)).updatedAt).to.equal(BigInt(seconds(signed.issuedAt)));
  });

  it("refuses a payload or a header that starts with a BOM as malformed JSON at offset 0", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const payload = `${BOM}${JSON.stringify(v2Signed(now))}`;
    await expect(submitJws(oracle, signJws(key, payload).jws))
      .to.be.revertedWithCustomError(oracle, "AttestationJsonMalformed")
      .withArgs(0);
    const header = `${BOM}{"alg":"ES256","kid":"${KID}"}`;
    await expect(submitJws(oracle, signJws(key, JSON.stringify(v2Signed(now)), header).jws))
      .to.be.revertedWithCustomError(oracle, "JwsHeaderMalformed")
      .withArgs(0);
  });

  it("refuses a header kid with a BOM as another key id (JwsKidMismatch)", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const call = signJws(key, JSON.stringify(v2Signed(now)), { alg: "ES256", kid: `${BOM}${KID}` });
    await expect(submitJws(oracle, call.jws)).to.be.revertedWithCustomError(oracle, "JwsKidMismatch").withArgs(KID, `${BOM}${KID}`);
  });
});

describe("AttestedTrustOracle: the no-op, before the header, the key and the signature are checked", () => {
  it("returns the record held for an attestation not newer than it, storing nothing, whatever its signature", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const held = v2Signed(now, { score: 70 }, 100);
    await oracle.submitJwsAttestation(KID, Buffer.from(signJws(key, held).jws));
    const older = signJws(makeP256Key(KID), v2Signed(now, { score: 20 }, 200), { alg: "none", kid: "other" });
    expect(await oracle.submitJwsAttestation.staticCall(KID, Buffer.from(older.jws))).to.deep.equal([
      70n,
      2n,
      0n,
      BigInt(seconds(held.issuedAt)),
    ]);
    const tx = oracle.submitJwsAttestation(KID, Buffer.from(older.jws));
    await expect(tx).to.not.emit(oracle, "RecordUpdated");
    const sig = signText(makeP256Key(KID), v2Signed(now, { score: 21 }, 100));
    await expect(oracle.submitAttestation("unknown-kid", sig.signedJson, sig.lowS)).to.not.emit(oracle, "RecordUpdated");
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(70n);
  });

  it("treats an attestation dated exactly as the upstream's record as not newer: nothing stored, one second later stored", async () => {
    const { oracle, upstream, submit, now } = await loadFixture(deployOracle);
    const signed = v2Signed(now, { score: 90 }, 100);
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 30, 1, 0, seconds(signed.issuedAt));
    const tie = submit(signed);
    await expect(tie).to.not.emit(oracle, "RecordAdded");
    expect((await oracle.attestedRecord(1n, BASE_CHAIN_ID, ERC8004)).updatedAt).to.equal(0n);
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(30n);
    await expect(submit(v2Signed(now, { score: 90 }, 99))).to.emit(oracle, "RecordAdded");
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(90n);
  });

  it("compares with the fresher of its own and the upstream's record; an upstream record from the future does not count", async () => {
    const { oracle, upstream, key, now } = await loadFixture(deployOracle);
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 33, 1, 0, now - 50);
    const older = signJws(key, v2Signed(now, { score: 90 }, 100));
    await expect(oracle.submitJwsAttestation(KID, Buffer.from(older.jws))).to.not.emit(oracle, "RecordAdded");
    expect(await oracle.submitJwsAttestationFor.staticCall(1n, BASE_CHAIN_ID, ERC8004, KID, Buffer.from(older.jws))).to.deep.equal([
      33n,
      1n,
      0n,
      BigInt(now - 50),
    ]);
    await upstream.setRecord(2n, BASE_CHAIN_ID, ERC8004, 33, 1, 0, now + 86_400);
    const fresh = signJws(key, v2Signed(now, { agentId: "2", score: 90 }, 100));
    await expect(oracle.submitJwsAttestation(KID, Buffer.from(fresh.jws))).to.emit(oracle, "RecordAdded");
    expect((await oracle.getScore(2n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(90n);
  });

  it("still refuses what is checked before it: malformed bytes, an expired or future attestation, an unknown chain, another subject", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    await oracle.submitJwsAttestation(KID, Buffer.from(signJws(key, v2Signed(now, { score: 70 }, 100)).jws));
    const old = (overrides: Partial<V2Signed>, at = now) =>
      Buffer.from(signJws(key, { ...v2Signed(at, { score: 20 }, 5_000), ...overrides }).jws);
    await expect(oracle.submitJwsAttestation(KID, old({ tier: "gold" }))).to.be.revertedWithCustomError(oracle, "AttestationFieldInvalid");
    await expect(oracle.submitJwsAttestation(KID, old({}, now - 2 * 86_400))).to.be.revertedWithCustomError(oracle, "AttestationExpired");
    await expect(oracle.submitJwsAttestation(KID, old({ verifiedAt: iso(now + 3_600) }))).to.be.revertedWithCustomError(
      oracle,
      "AttestationFromFuture",
    );
    await expect(oracle.submitJwsAttestation(KID, old({ chain: "zora" }))).to.be.revertedWithCustomError(oracle, "UnknownChainSlug");
    await expect(oracle.submitJwsAttestationFor(2n, BASE_CHAIN_ID, ERC8004, KID, old({}))).to.be.revertedWithCustomError(
      oracle,
      "AttestationSubjectMismatch",
    );
  });
});

describe("AttestedTrustOracle: submitJwsAttestations, a batch", () => {
  it("stores every newer attestation, skips the others, and answers how many it wrote", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    await oracle.submitJwsAttestation(KID, Buffer.from(signJws(key, v2Signed(now, { agentId: "1", score: 70 }, 100)).jws));
    const jwss = [
      signJws(key, v2Signed(now, { agentId: "1", score: 10 }, 200)).jws, // older: no-op
      signJws(key, v2Signed(now, { agentId: "2", score: 62 }, 100)).jws,
      signJws(key, v2Signed(now, { agentId: "3", score: 63 }, 100)).highS,
    ].map((jws) => Buffer.from(jws));
    expect(await oracle.submitJwsAttestations.staticCall([KID, KID, KID], jwss)).to.equal(2n);
    await expect(oracle.submitJwsAttestations([KID, KID, KID], jwss)).to.emit(oracle, "RecordAdded");
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(70n);
    expect((await oracle.getScore(2n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(62n);
    expect((await oracle.getScore(3n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(63n);
    expect(await oracle.submitJwsAttestations.staticCall([], [])).to.equal(0n);
  });

  it("reverts whole on any refusal, with that refusal's error, and on a length mismatch", async () => {
    const { oracle, key, now } = await loadFixture(deployOracle);
    const good = Buffer.from(signJws(key, v2Signed(now, { agentId: "2" })).jws);
    const forged = Buffer.from(signJws(makeP256Key(KID), v2Signed(now, { agentId: "3" })).jws);
    await expect(oracle.submitJwsAttestations([KID, KID], [good, forged]))
      .to.be.revertedWithCustomError(oracle, "InvalidAttestationSignature")
      .withArgs(KID);
    expect(await oracle.hasScore(2n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    await expect(oracle.submitJwsAttestations([KID], [good, good]))
      .to.be.revertedWithCustomError(oracle, "AttestationBatchLengthMismatch")
      .withArgs(1, 2);
  });
});

describe("AttestedTrustOracle: reads answer with the fresher of its own record and the upstream's", () => {
  it("getScore, hasScore and meetsThreshold take the newer record, whichever holds it", async () => {
    const { oracle, upstream, submit, now } = await loadFixture(deployOracle);
    // Upstream only: passed through.
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 80, 3, 0, now - 90 * 86_400);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([80n, 3n, 0n, BigInt(now - 90 * 86_400)]);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 80)).to.equal(true);
    // A fresher attestation wins over the stale upstream record.
    const signed = v2Signed(now, { score: 40 });
    await submit(signed);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([40n, 1n, 0n, BigInt(seconds(signed.issuedAt))]);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 41)).to.equal(false);
    // The upstream refreshed after the attestation: its record wins again.
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 66, 2, 1, now);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([66n, 2n, 1n, BigInt(now)]);
    // An upstream record dated in the future never replaces a record held here.
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 95, 3, 0, now + 86_400);
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(40n);
    // Neither holds one.
    expect(await oracle.hasScore(2n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    expect(await oracle.meetsThreshold(2n, BASE_CHAIN_ID, ERC8004, 0)).to.equal(false);
  });

  it("on a tie between its own record and the upstream's, answers its own", async () => {
    const { oracle, upstream, submit, now } = await loadFixture(deployOracle);
    const signed = v2Signed(now, { score: 70 }, 100);
    await submit(signed);
    const at = seconds(signed.issuedAt);
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 20, 0, 4, at);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([70n, 2n, 0n, BigInt(at)]);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 70)).to.equal(true);
    // One second later, the upstream's is the fresher.
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 20, 0, 4, at + 1);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([20n, 0n, 4n, BigInt(at + 1)]);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 70)).to.equal(false);
  });

  it("keeps answering from its own records while the upstream reverts or answers garbage", async () => {
    const { oracle, upstream, submit, now, admin, key } = await loadFixture(deployOracle);
    const signed = v2Signed(now, { score: 61 });
    await submit(signed);
    const own = [61n, 2n, 0n, BigInt(seconds(signed.issuedAt))];
    for (const mode of [1, 2]) {
      await upstream.setReadFailure(mode);
      expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal(own);
      expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
      expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 61)).to.equal(true);
      expect(await oracle.agentCount()).to.equal(1n);
    }
    const raw = await new RawResponseOracle__factory(admin).deploy();
    const garbageFed = await new AttestedTrustOracle__factory(admin).deploy(admin.address, await raw.getAddress());
    await garbageFed.setSigningKey(KID, key.x, key.y);
    await raw.setResponse("0x", true);
    const call = signText(key, signed);
    await garbageFed.submitAttestation(KID, call.signedJson, call.lowS);
    const coder = hre.ethers.AbiCoder.defaultAbiCoder();
    // An upstream record fresher than the one held here (ten minutes after it, in the past): answered when whole.
    const fresher = coder.encode(["uint256", "uint256", "uint256", "uint256"], [90, 3, 0, own[3]! + 600n]);
    for (const [response, reverts] of [
      ["0x1234", false],
      [coder.encode(["uint256", "uint256", "uint256", "uint256"], [101, 3, 0, now]), false],
      [coder.encode(["uint256", "uint256", "uint256", "uint256"], [90, 3, 0, 2n ** 40n]), false],
      [coder.encode(["uint256", "uint256", "uint256", "uint256"], [90, 256, 0, now]), false],
      [coder.encode(["uint256", "uint256", "uint256", "uint256"], [90, 3, 256, now]), false],
      // A well-formed record one byte short: the last word is not all there.
      [fresher.slice(0, -2), false],
      [`0x${"ff".repeat(10_000)}`, true],
      [`0x${"ff".repeat(10_000)}`, false],
    ] as const) {
      await raw.setResponse(response, reverts);
      expect(await garbageFed.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal(own);
      expect(await garbageFed.hasScore(2n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
      expect(await garbageFed.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 61)).to.equal(true);
    }
    await raw.setResponse(fresher, false);
    expect(await garbageFed.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([90n, 3n, 0n, own[3]! + 600n]);
  });

  it("without an upstream, answers from its own records only", async () => {
    const { admin, key, now } = await loadFixture(deployOracle);
    const alone = await new AttestedTrustOracle__factory(admin).deploy(admin.address, hre.ethers.ZeroAddress);
    await alone.setSigningKey(KID, key.x, key.y);
    expect(await alone.upstream()).to.equal(hre.ethers.ZeroAddress);
    const call = signText(key, v2Signed(now, { score: 52 }));
    await alone.submitAttestation(KID, call.signedJson, call.lowS);
    expect((await alone.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(52n);
    expect(await alone.agentCount()).to.equal(1n);
  });

  it("agentCount: the upstream's count plus keys held here that the upstream did not hold", async () => {
    const { oracle, upstream, submit, now } = await loadFixture(deployOracle);
    await upstream.setRecord(1n, BASE_CHAIN_ID, ERC8004, 70, 2, 0, now - 86_400);
    await upstream.setRecord(2n, BASE_CHAIN_ID, ERC8004, 70, 2, 0, now - 86_400);
    expect(await oracle.agentCount()).to.equal(2n);
    await submit(v2Signed(now, { agentId: "1" })); // upstream holds it: not counted twice
    await submit(v2Signed(now, { agentId: "3" })); // new
    expect(await oracle.agentCount()).to.equal(3n);
  });

  it("agentCount: counts records under every slug, an added one too, and keeps them across a remap or a removal of an added one", async () => {
    const { oracle, admin, submit, now } = await loadFixture(deployOracle);
    await oracle.connect(admin).setChainSlug("zora", 7777777);
    await submit(v2Signed(now, { agentId: "1" }));
    await submit(v2Signed(now, { agentId: "1", chain: "ethereum" }));
    await submit(v2Signed(now, { agentId: "1", chain: "zora" }));
    await submit(v2Signed(now, { agentId: "2", chain: "zora" }));
    expect(await oracle.agentCount()).to.equal(4n);
    // Remapped, removed, set again: the slug's chain id changes, its count stays, and it is summed once.
    await oracle.connect(admin).setChainSlug("zora", 7777778);
    expect(await oracle.chainIdOfSlug("zora")).to.equal(7777778n);
    await oracle.connect(admin).setChainSlug("zora", 0);
    expect(await oracle.chainIdOfSlug("zora")).to.equal(0n);
    await oracle.connect(admin).setChainSlug("zora", 7777778);
    expect(await oracle.agentCount()).to.equal(4n);
    await submit(v2Signed(now, { agentId: "3", chain: "zora" }));
    expect(await oracle.agentCount()).to.equal(5n);
    // A slug removed refuses attestations at once; its records stay counted.
    await oracle.connect(admin).setChainSlug("zora", 0);
    await expect(submit(v2Signed(now, { agentId: "4", chain: "zora" })))
      .to.be.revertedWithCustomError(oracle, "UnknownChainSlug")
      .withArgs("zora");
    expect(await oracle.agentCount()).to.equal(5n);
  });

  it("refuses a chain id above 2^128 - 1 for a slug (its entry keeps the chain id in 128 bits)", async () => {
    const { oracle, admin } = await loadFixture(deployOracle);
    await expect(oracle.connect(admin).setChainSlug("big", 2n ** 128n))
      .to.be.revertedWithCustomError(oracle, "ChainIdOutOfRange")
      .withArgs("big", 2n ** 128n);
    await oracle.connect(admin).setChainSlug("big", 2n ** 128n - 1n);
    expect(await oracle.chainIdOfSlug("big")).to.equal(2n ** 128n - 1n);
  });
});

describe("AttestedTrustOracle: without the P-256 precompile (OpenZeppelin's Solidity fallback)", () => {
  it("accepts low-S and high-S and refuses a bad signature, at a gas cost that shows the fallback ran", async () => {
    const { key, now } = await loadFixture(deployOracle);
    const measure = async (network: Awaited<ReturnType<typeof startSideNetwork>> | null) => {
      const signer = network ? network.signers[0]! : (await hre.ethers.getSigners())[0]!;
      const oracle = await new AttestedTrustOracle__factory(signer).deploy(await signer.getAddress(), hre.ethers.ZeroAddress);
      await oracle.setSigningKey(KID, key.x, key.y);
      const at = network ? await network.latestTimestamp() : await latestTimestamp();
      const low = signText(key, v2Signed(at, { agentId: "1" }));
      const high = signText(key, v2Signed(at, { agentId: "2" }));
      const receiptLow = await (await oracle.submitAttestation(KID, low.signedJson, low.lowS)).wait();
      const receiptHigh = await (await oracle.submitAttestation(KID, high.signedJson, high.highS)).wait();
      expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
      expect(await oracle.hasScore(2n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
      const wrong = signText(makeP256Key(), v2Signed(at, { agentId: "3" }));
      await expect(oracle.submitAttestation(KID, wrong.signedJson, wrong.lowS)).to.be.revertedWithCustomError(
        oracle,
        "InvalidAttestationSignature",
      );
      return [Number(receiptLow!.gasUsed), Number(receiptHigh!.gasUsed)];
    };
    void now;
    const withPrecompile = await measure(null);
    const fallback = await measure(await startSideNetwork({ hardfork: "prague" }));
    const rip7212 = await measure(await startSideNetwork({ hardfork: "prague", enableRip7212: true }));
    // The Solidity verification costs well over 150,000 gas more than either precompile.
    for (const i of [0, 1]) {
      expect(fallback[i]! - withPrecompile[i]!).to.be.greaterThan(150_000);
      expect(fallback[i]! - rip7212[i]!).to.be.greaterThan(150_000);
      expect(Math.abs(rip7212[i]! - withPrecompile[i]!)).to.be.lessThan(5_000);
    }
  });
});

describe("AttestedTrustOracle: the codes stored", () => {
  it("maps every tier and sybil name to the kit's codes", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    let agent = 100;
    for (const [tier, tierCode] of Object.entries(TIER_CODE)) {
      for (const [sybil, sybilCode] of Object.entries(SYBIL_CODE)) {
        agent += 1;
        await submit(v2Signed(now, { agentId: String(agent), tier, sybilSeverity: sybil }));
        const [, t, s] = await oracle.getScore(BigInt(agent), BASE_CHAIN_ID, ERC8004);
        expect([t, s]).to.deep.equal([BigInt(tierCode), BigInt(sybilCode)]);
      }
    }
  });
});

describe("AttestedTrustOracle: found, which only a wallet's proof of absence says false", () => {
  const wallet = "0x00000000000000000000000000000000deadbeef";

  it("refuses an agent's block that says found: false, by submitAttestation and by submitJwsAttestation, and stores nothing", async () => {
    const { oracle, submitter, key, submit, now } = await loadFixture(deployOracle);
    const signed = { found: false, wallet, ...v2Signed(now) };
    const at = JSON.stringify(signed).indexOf("false");
    await expect(submit(signed)).to.be.revertedWithCustomError(oracle, "AttestationFieldInvalid").withArgs(FIELD.Found, at);
    await expect(oracle.connect(submitter).submitJwsAttestation(KID, Buffer.from(signJws(key, signed).jws, "latin1")))
      .to.be.revertedWithCustomError(oracle, "AttestationFieldInvalid")
      .withArgs(FIELD.Found, at);
    const afterFields = { ...v2Signed(now), found: false };
    await expect(submit(afterFields))
      .to.be.revertedWithCustomError(oracle, "AttestationFieldInvalid")
      .withArgs(FIELD.Found, JSON.stringify(afterFields).lastIndexOf("false"));
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
  });

  it("refuses a wallet's signed proof of absence, found before any missing field", async () => {
    const { oracle, submit, now } = await loadFixture(deployOracle);
    await expect(submit(JSON.stringify({ found: false, wallet, issuedAt: iso(now) })))
      .to.be.revertedWithCustomError(oracle, "AttestationFieldInvalid")
      .withArgs(FIELD.Found, 9);
  });

  it("stores the record of a block that says found: true, in the JWS and in the sig form", async () => {
    const { oracle, submitter, key, submit, now } = await loadFixture(deployOracle);
    await expect(submit({ found: true, ...v2Signed(now, { score: 64 }) })).to.emit(oracle, "RecordAdded");
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(64n);
    const jws = signJws(key, { ...v2Signed(now, { agentId: "2", score: 71 }), found: true }).jws;
    await expect(oracle.connect(submitter).submitJwsAttestation(KID, Buffer.from(jws, "latin1"))).to.emit(oracle, "RecordAdded");
    expect((await oracle.getScore(2n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(71n);
  });
});
