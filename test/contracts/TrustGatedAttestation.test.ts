import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import fc from "fast-check";
import hre from "hardhat";
import { describe, it } from "vitest";
import { readCompactJws } from "../../src/attestation/jws";
import { toAttestationCall } from "../../src/attestation/onchain-call";
import { generateSigningKey } from "../../src/harness/signing";
import {
  AttestedTrustOracle__factory,
  GatedAction__factory,
  MintableTestToken__factory,
  MockIdentityRegistry__factory,
  MockTrustOracle__factory,
  TrustGatedEscrow__factory,
} from "../../typechain-types";
import { buildTrustCheckResponse } from "../support/attestations";
import { BASE_CHAIN_ID, DAY, ERC8004, HOUR, latestTimestamp, makePolicy } from "../support/fixtures";
import { iso, makeP256Key, SYBIL_CODE, signJws, signText, TIER_CODE, tierOf, v2Signed } from "../support/onchain-attestations";

const KID = "rnwy-trust-v2";
const seconds = (isoDate: string) => Math.floor(Date.parse(isoDate) / 1000);

/**
 * The nightly Base oracle (a mock, stale for 90 days), an AttestedTrustOracle over it, a gate (`GatedAction`) and the
 * escrow example pointed at the attested oracle, agent 1 owned by `agentOwner`.
 */
async function deployStack() {
  const [deployer, agentOwner, stranger, client] = await hre.ethers.getSigners();
  const base = await new MockTrustOracle__factory(deployer!).deploy();
  const attested = await new AttestedTrustOracle__factory(deployer!).deploy(deployer!.address, await base.getAddress());
  const key = makeP256Key(KID);
  await attested.setSigningKey(KID, key.x, key.y);
  const identity = await new MockIdentityRegistry__factory(deployer!).deploy();
  await identity.connect(agentOwner!).register(); // agent 1
  const attestedAddress = await attested.getAddress();
  const identityAddress = await identity.getAddress();
  const gateConfig = (oracle: string, requireController: boolean) => ({
    oracle,
    identityRegistry: identityAddress,
    agentChainId: BASE_CHAIN_ID,
    agentRegistry: ERC8004,
    policy: makePolicy({ requireController }),
  });
  const gate = await new GatedAction__factory(deployer!).deploy(gateConfig(attestedAddress, true), deployer!.address);
  const plainGate = await new GatedAction__factory(deployer!).deploy(gateConfig(await base.getAddress(), false), deployer!.address);
  const escrow = await new TrustGatedEscrow__factory(deployer!).deploy(gateConfig(attestedAddress, true), deployer!.address);
  const token = await new MintableTestToken__factory(deployer!).deploy("Test USD", "TUSD");
  await token.mint(client!.address, 10n ** 21n);
  await token.connect(client!).approve(await escrow.getAddress(), hre.ethers.MaxUint256);
  const now = await latestTimestamp();
  // The nightly oracle last wrote agent 1 ninety days ago (a good score, now stale).
  await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 88, 3, 0, now - 90 * DAY);
  return {
    deployer: deployer!,
    agentOwner: agentOwner!,
    stranger: stranger!,
    client: client!,
    base,
    attested,
    key,
    identity,
    gate,
    plainGate,
    escrow,
    token,
    now,
  };
}

describe("TrustGated with an attestation in the same call", () => {
  it("passes with a fresh attestation while the nightly record is stale, which alone is refused", async () => {
    const { gate, agentOwner, key, attested } = await loadFixture(deployStack);
    await expect(gate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(gate, "TrustRecordStale");
    const at = await latestTimestamp();
    const call = signText(key, v2Signed(at, { score: 70 }, HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, call.signedJson, call.highS))
      .to.emit(gate, "Acted")
      .and.to.emit(attested, "RecordAdded");
    // The fresh record stays: the plain path passes now too, until it ages past maxAge.
    await expect(gate.connect(agentOwner).act(1n)).to.emit(gate, "Acted");
    expect(await gate.actions(1n)).to.equal(2n);
  });

  it("refuses when the attestation says the agent fails the policy (low score, heavy sybil, old score)", async () => {
    const { gate, agentOwner, key } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    const low = signText(key, v2Signed(at, { score: 40 }, HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, low.signedJson, low.lowS))
      .to.be.revertedWithCustomError(gate, "TrustScoreTooLow")
      .withArgs(1n, 40, 51);
    const heavy = signText(key, v2Signed(at, { score: 90, sybilSeverity: "heavy" }, HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, heavy.signedJson, heavy.lowS))
      .to.be.revertedWithCustomError(gate, "SybilSeverityTooHigh")
      .withArgs(1n, 4, 2);
    // Signed just now, but the score itself was computed 40 h ago: stale for a 36 h policy.
    const old = signText(key, v2Signed(at, { score: 90 }, 40 * HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, old.signedJson, old.lowS)).to.be.revertedWithCustomError(
      gate,
      "TrustRecordStale",
    );
  });

  it("still requires the caller to control the agent", async () => {
    const { gate, stranger, key } = await loadFixture(deployStack);
    const call = signText(key, v2Signed(await latestTimestamp(), { score: 90 }, HOUR));
    await expect(gate.connect(stranger).actWithAttestation(1n, KID, call.signedJson, call.lowS))
      .to.be.revertedWithCustomError(gate, "NotAgentController")
      .withArgs(1n, stranger.address);
  });

  it("passes the oracle's refusals through: another agent, a tampered byte, an expired attestation", async () => {
    const { gate, attested, agentOwner, key } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    const other = signText(key, v2Signed(at, { agentId: "2", score: 90 }, HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, other.signedJson, other.lowS))
      .to.be.revertedWithCustomError(attested, "AttestationSubjectMismatch")
      .withArgs(1n, BASE_CHAIN_ID, ERC8004, 2n, BASE_CHAIN_ID, ERC8004);
    const good = signText(key, v2Signed(at, { score: 90 }, HOUR));
    const tampered = hre.ethers.hexlify(hre.ethers.toUtf8Bytes(good.text.replace('"score":90', '"score":91')));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, tampered, good.lowS))
      .to.be.revertedWithCustomError(attested, "InvalidAttestationSignature")
      .withArgs(KID);
    const expired = signText(key, v2Signed(at - 2 * DAY, { score: 90 }, HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, expired.signedJson, expired.lowS)).to.be.revertedWithCustomError(
      attested,
      "AttestationExpired",
    );
  });

  it("uses the upstream's record when it is fresher than the attestation", async () => {
    const { gate, base, agentOwner, key } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 30, 1, 0, at); // the nightly job ran: agent fell to 30
    const call = signText(key, v2Signed(at, { score: 90 }, 2 * HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, call.signedJson, call.lowS))
      .to.be.revertedWithCustomError(gate, "TrustScoreTooLow")
      .withArgs(1n, 30, 51);
  });

  it("refuses with TrustOracleNotAttested when the gate's oracle takes no attestations", async () => {
    const { plainGate, base, agentOwner, key } = await loadFixture(deployStack);
    const call = signText(key, v2Signed(await latestTimestamp(), { score: 90 }, HOUR));
    await expect(plainGate.connect(agentOwner).actWithAttestation(1n, KID, call.signedJson, call.lowS))
      .to.be.revertedWithCustomError(plainGate, "TrustOracleNotAttested")
      .withArgs(await base.getAddress());
  });
});

describe("TrustGated with a JWS attestation in the same call (onlyTrustedAgentWithJwsAttestation)", () => {
  const jwsOf = (key: Parameters<typeof signJws>[0], signed: string | object, header?: object) =>
    Buffer.from(signJws(key, signed, header).jws);

  it("passes with the JWS as issued while the nightly record is stale, whatever the header order or payload form", async () => {
    const { gate, agentOwner, key, attested } = await loadFixture(deployStack);
    await expect(gate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(gate, "TrustRecordStale");
    const at = await latestTimestamp();
    const signed = v2Signed(at, { score: 70 }, HOUR);
    await expect(
      gate
        .connect(agentOwner)
        .actWithJwsAttestation(1n, KID, jwsOf(key, JSON.stringify(signed, null, 2), { typ: "JWT", kid: KID, alg: "ES256" })),
    )
      .to.emit(gate, "Acted")
      .and.to.emit(attested, "RecordAdded");
    // The same record again: a no-op on the oracle, the gate still passes.
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, signed))).to.emit(gate, "Acted");
    expect(await gate.actions(1n)).to.equal(2n);
  });

  it("refuses what the policy refuses, and a caller who does not control the agent", async () => {
    const { gate, agentOwner, stranger, key } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, v2Signed(at, { score: 40 }, HOUR))))
      .to.be.revertedWithCustomError(gate, "TrustScoreTooLow")
      .withArgs(1n, 40, 51);
    await expect(gate.connect(stranger).actWithJwsAttestation(1n, KID, jwsOf(key, v2Signed(at, { score: 90 }, HOUR - 1))))
      .to.be.revertedWithCustomError(gate, "NotAgentController")
      .withArgs(1n, stranger.address);
  });

  it("refuses a header kid that starts with U+FEFF as another kid (JwsKidMismatch), as the TypeScript verifier does", async () => {
    const { gate, attested, agentOwner, key } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    const jws = jwsOf(key, v2Signed(at, { score: 90 }, HOUR), { alg: "ES256", kid: `\uFEFF${KID}` });
    const offchain = readCompactJws(jws.toString());
    expect(offchain.ok && offchain.jws.header.kid).to.equal(`\uFEFF${KID}`);
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jws))
      .to.be.revertedWithCustomError(attested, "JwsKidMismatch")
      .withArgs(KID, `\uFEFF${KID}`);
  });

  it("passes the oracle's refusals through: another agent (subject mismatch), another kid, a forged signature", async () => {
    const { gate, attested, agentOwner, key } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, v2Signed(at, { agentId: "2", score: 90 }, HOUR))))
      .to.be.revertedWithCustomError(attested, "AttestationSubjectMismatch")
      .withArgs(1n, BASE_CHAIN_ID, ERC8004, 2n, BASE_CHAIN_ID, ERC8004);
    await expect(
      gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, v2Signed(at, { score: 90 }, HOUR), { alg: "ES256", kid: "x" })),
    )
      .to.be.revertedWithCustomError(attested, "JwsKidMismatch")
      .withArgs(KID, "x");
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(makeP256Key(KID), v2Signed(at, { score: 90 }, HOUR))))
      .to.be.revertedWithCustomError(attested, "InvalidAttestationSignature")
      .withArgs(KID);
  });

  it("refuses with TrustOracleNotAttested when the gate's oracle takes no attestations", async () => {
    const { plainGate, base, agentOwner, key } = await loadFixture(deployStack);
    await expect(
      plainGate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, v2Signed(await latestTimestamp(), { score: 90 }, HOUR))),
    )
      .to.be.revertedWithCustomError(plainGate, "TrustOracleNotAttested")
      .withArgs(await base.getAddress());
  });
});

describe("A record stored from the future cannot block a gate call (the 60-second front-run)", () => {
  const jwsOf = (key: Parameters<typeof signJws>[0], signed: object) => Buffer.from(signJws(key, signed).jws);

  /** Anyone stores an attestation computed and signed `MAX_CLOCK_SKEW` (60 s) after the block; its block time. */
  async function frontRun(stack: Awaited<ReturnType<typeof deployStack>>): Promise<number> {
    const { attested, stranger, key } = stack;
    const at = (await latestTimestamp()) + 1;
    await time.setNextBlockTimestamp(at);
    await (await attested.connect(stranger).submitJwsAttestation(KID, jwsOf(key, v2Signed(at + 60, { score: 90 }, 0)))).wait();
    expect((await attested.attestedRecord(1n, BASE_CHAIN_ID, ERC8004)).updatedAt).to.equal(BigInt(at + 60));
    return at;
  }

  it("passes a gate call carrying a current attestation while the upstream's record is stale (JWS and sig forms)", async () => {
    const stack = await loadFixture(deployStack);
    const { gate, attested, agentOwner, key } = stack;
    await frontRun(stack);
    // Without an attestation the gate reads the stale upstream record (the one from the future does not shadow it).
    await expect(gate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(gate, "TrustRecordStale");
    const signed = v2Signed(await latestTimestamp(), { score: 70 }, HOUR);
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, signed)))
      .to.emit(gate, "Acted")
      .and.to.emit(attested, "RecordUpdated");
    expect((await attested.attestedRecord(1n, BASE_CHAIN_ID, ERC8004)).updatedAt).to.equal(BigInt(seconds(signed.issuedAt)));
    // The sig form, after another front-run.
    await frontRun(stack);
    const call = signText(key, v2Signed(await latestTimestamp(), { score: 71 }, HOUR));
    await expect(gate.connect(agentOwner).actWithAttestation(1n, KID, call.signedJson, call.lowS)).to.emit(gate, "Acted");
  });

  it("passes a gate call carrying a current attestation when the upstream holds no record", async () => {
    const stack = await loadFixture(deployStack);
    const { gate, base, agentOwner, key } = stack;
    await base.clearRecord(1n, BASE_CHAIN_ID, ERC8004);
    await frontRun(stack);
    // Without an attestation: the only record is from the future.
    await expect(gate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(gate, "TrustRecordFromFuture");
    const signed = v2Signed(await latestTimestamp(), { score: 70 }, HOUR);
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, signed))).to.emit(gate, "Acted");
    // The escrow example too.
    await frontRun(stack);
    const { escrow, client, token } = stack;
    await escrow.connect(client).createEscrow(await token.getAddress(), 1n, 1000n, BigInt((await latestTimestamp()) + DAY));
    await expect(
      escrow.connect(agentOwner).claimWithJwsAttestation(1n, KID, jwsOf(key, v2Signed(await latestTimestamp(), { score: 72 }, HOUR))),
    )
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(1n, 1n, agentOwner.address, 1000n, 72);
  });

  it("stores the record from the future again only by a new submission: a current record then holds until it", async () => {
    const stack = await loadFixture(deployStack);
    const { attested, gate, agentOwner, key } = stack;
    const at = await frontRun(stack);
    const current = v2Signed(await latestTimestamp(), { score: 70 }, HOUR);
    await gate.connect(agentOwner).actWithJwsAttestation(1n, KID, jwsOf(key, current));
    // The current record is what reads answer now; the future one, submitted again, replaces it (it is newer).
    expect((await attested.getScore(1n, BASE_CHAIN_ID, ERC8004))[3]).to.equal(BigInt(seconds(current.issuedAt)));
    await expect(attested.submitJwsAttestation(KID, jwsOf(key, v2Signed(at + 60, { score: 90 }, 0)))).to.emit(attested, "RecordUpdated");
  });
});

describe("A /api/trust-check response, as the service signs it, through toAttestationCall", () => {
  it("is stored by submitJwsAttestation in the jws form (first), and passes the gate in the sig form without its jws", async () => {
    const { gate, attested, agentOwner } = await loadFixture(deployStack);
    const key = await generateSigningKey("rnwy-trust-v2b");
    const hex = (b64: string) => `0x${Buffer.from(b64, "base64url").toString("hex")}`;
    await attested.setSigningKey(key.kid, hex(key.publicJwk.x!), hex(key.publicJwk.y!));
    const at = (await latestTimestamp()) * 1000;
    const response = await buildTrustCheckResponse(key, {
      agent: { agentId: "1", score: 77, sybilSeverity: null },
      issuedAt: new Date(at - HOUR * 1000),
      verifiedAt: new Date(at),
    });
    const wire = JSON.parse(JSON.stringify(response)) as typeof response;
    const call = toAttestationCall({ attestation: { ...wire.attestation, jws: undefined } });
    expect(call.form).to.equal("sig");
    await expect(gate.connect(agentOwner).actWithAttestation(1n, call.kid, call.signedJson, call.signature)).to.emit(gate, "Acted");
    expect((await attested.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(77n);
    const jwsFirst = toAttestationCall(wire);
    expect(jwsFirst.form).to.equal("jws");
    await expect(attested.submitJwsAttestation(jwsFirst.kid, jwsFirst.jws!)).to.not.be.reverted;
  });

  it("passes the gate with the JWS form of a jws-only response, and stores another agent's through submitJwsAttestation", async () => {
    const { gate, attested, agentOwner } = await loadFixture(deployStack);
    const key = await generateSigningKey("rnwy-trust-v2c");
    const hex = (b64: string) => `0x${Buffer.from(b64, "base64url").toString("hex")}`;
    await attested.setSigningKey(key.kid, hex(key.publicJwk.x!), hex(key.publicJwk.y!));
    const at = (await latestTimestamp()) * 1000;
    const respond = async (agentId: string, score: number) => {
      const response = await buildTrustCheckResponse(key, {
        agent: { agentId, score, sybilSeverity: null },
        issuedAt: new Date(at - HOUR * 1000),
        verifiedAt: new Date(at),
      });
      return toAttestationCall(JSON.parse(JSON.stringify({ attestation: { ...response.attestation, sig: undefined } })));
    };
    const mine = await respond("1", 78);
    expect(mine.form).to.equal("jws");
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, mine.kid, mine.jws!)).to.emit(gate, "Acted");
    expect((await attested.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(78n);
    const other = await respond("2", 64);
    await expect(attested.submitJwsAttestation(other.kid, other.jws!)).to.emit(attested, "RecordAdded");
    expect((await attested.getScore(2n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(64n);
  });
});

describe("TrustGatedEscrow.claimWithJwsAttestation", () => {
  it("pays the agent's controller against the JWS while the nightly record is stale, and refuses a failing agent", async () => {
    const { escrow, token, client, agentOwner, stranger, key } = await loadFixture(deployStack);
    const deadline = BigInt((await latestTimestamp()) + 7 * DAY);
    await escrow.connect(client).createEscrow(await token.getAddress(), 1n, 1000n, deadline);
    await escrow.connect(client).createEscrow(await token.getAddress(), 1n, 500n, deadline);
    const at = await latestTimestamp();
    const low = Buffer.from(signJws(key, v2Signed(at, { score: 45 }, HOUR)).jws);
    await expect(escrow.connect(agentOwner).claimWithJwsAttestation(1n, KID, low))
      .to.be.revertedWithCustomError(escrow, "TrustScoreTooLow")
      .withArgs(1n, 45, 51);
    const good = Buffer.from(signJws(key, v2Signed(at, { score: 77 }, HOUR - 10)).jws);
    await expect(escrow.connect(stranger).claimWithJwsAttestation(1n, KID, good)).to.be.revertedWithCustomError(
      escrow,
      "NotAgentController",
    );
    await expect(escrow.connect(agentOwner).claimWithJwsAttestation(1n, KID, good))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(1n, 1n, agentOwner.address, 1000n, 77);
    await expect(escrow.connect(agentOwner).claimWithJwsAttestation(1n, KID, good)).to.be.revertedWithCustomError(
      escrow,
      "EscrowAlreadySettled",
    );
    // The same attestation again for the second escrow: a no-op on the oracle, the claim passes on the record held.
    await expect(escrow.connect(agentOwner).claimWithJwsAttestation(2n, KID, good)).to.emit(escrow, "EscrowClaimed");
    expect(await token.balanceOf(agentOwner.address)).to.equal(1500n);
  });
});

describe("TrustGatedEscrow.claimWithAttestation", () => {
  it("pays the agent's controller against a fresh attestation while the nightly record is stale", async () => {
    const { escrow, token, client, agentOwner, key } = await loadFixture(deployStack);
    const deadline = BigInt((await latestTimestamp()) + 7 * DAY);
    await escrow.connect(client).createEscrow(await token.getAddress(), 1n, 1000n, deadline);
    await expect(escrow.connect(agentOwner).claim(1n)).to.be.revertedWithCustomError(escrow, "TrustRecordStale");
    const call = signText(key, v2Signed(await latestTimestamp(), { score: 77 }, HOUR));
    await expect(escrow.connect(agentOwner).claimWithAttestation(1n, KID, call.signedJson, call.lowS))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(1n, 1n, agentOwner.address, 1000n, 77);
    expect(await token.balanceOf(agentOwner.address)).to.equal(1000n);
    await expect(escrow.connect(agentOwner).claimWithAttestation(1n, KID, call.signedJson, call.lowS)).to.be.revertedWithCustomError(
      escrow,
      "EscrowAlreadySettled",
    );
  });

  it("refuses when the attestation shows a failing agent, and leaves the escrow open", async () => {
    const { escrow, token, client, agentOwner, key } = await loadFixture(deployStack);
    const deadline = BigInt((await latestTimestamp()) + 7 * DAY);
    await escrow.connect(client).createEscrow(await token.getAddress(), 1n, 1000n, deadline);
    const call = signText(key, v2Signed(await latestTimestamp(), { score: 45 }, HOUR));
    await expect(escrow.connect(agentOwner).claimWithAttestation(1n, KID, call.signedJson, call.lowS))
      .to.be.revertedWithCustomError(escrow, "TrustScoreTooLow")
      .withArgs(1n, 45, 51);
    expect((await escrow.getEscrow(1n)).status).to.equal(1n);
  });
});

describe("AttestedTrustOracle property: the stored record equals the signed fields", () => {
  it("for many random v2 blocks signed and submitted (low-S and high-S)", async () => {
    const { attested, key, agentOwner } = await loadFixture(deployStack);
    const sybilNames = [null, ...Object.keys(SYBIL_CODE)];
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          agentId: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
          numericId: fc.boolean(),
          chain: fc.constantFrom("base", "ethereum", "arbitrum", "optimism", "megaeth"),
          registry: fc.constantFrom("erc8004", "olas", "virtuals"),
          score: fc.integer({ min: 0, max: 95 }),
          tierFromScore: fc.boolean(),
          tier: fc.constantFrom(...Object.keys(TIER_CODE)),
          sybil: fc.constantFrom(...sybilNames),
          badges: fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }),
          signals: fc.array(fc.constantFrom("common_funder", "sweep_pattern", "coordination"), { maxLength: 3 }),
          ageSeconds: fc.integer({ min: 0, max: 30 * DAY }),
          ms: fc.integer({ min: 0, max: 999 }),
          highS: fc.boolean(),
        }),
        async (r) => {
          const now = (await latestTimestamp()) + 1;
          const tier = r.tierFromScore ? tierOf(r.score) : r.tier;
          const signed = v2Signed(now, {
            agentId: r.numericId && r.agentId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r.agentId) : r.agentId.toString(),
            chain: r.chain,
            registry: r.registry,
            score: r.score,
            tier,
            badges: r.badges,
            sybilSeverity: r.sybil,
            sybilSignals: r.signals,
            issuedAt: iso(now - r.ageSeconds, r.ms),
          });
          const call = signText(key, signed);
          const chainId = await attested.chainIdOfSlug(r.chain);
          const before = await attested.attestedRecord(r.agentId, chainId, r.registry);
          await time.setNextBlockTimestamp(now);
          await attested.connect(agentOwner).submitAttestation(KID, call.signedJson, r.highS ? call.highS : call.lowS);
          const stored = await attested.attestedRecord(r.agentId, chainId, r.registry);
          const issuedAt = BigInt(seconds(signed.issuedAt));
          if (issuedAt > before.updatedAt) {
            expect([stored.score, stored.tier, stored.sybilSeverity, stored.updatedAt]).to.deep.equal([
              BigInt(r.score),
              BigInt(TIER_CODE[tier]!),
              BigInt(r.sybil === null ? 0 : SYBIL_CODE[r.sybil]!),
              issuedAt,
            ]);
          } else {
            expect(stored).to.deep.equal(before);
          }
          checked += 1;
        },
      ),
      { numRuns: 60, seed: 11 },
    );
    expect(checked).to.equal(60);
  });
});
