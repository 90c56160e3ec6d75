/**
 * What happens after a signing key leaks, through the public contracts: records remember the key id they were
 * stored under, revoking it takes them back, an honest attestation under a live key then replaces them whatever its
 * `issuedAt`, events name the key id, a future-dated record never shadows a current upstream one, and a key id holds
 * one key for its whole life.
 */
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import {
  AttestedTrustOracle__factory,
  GatedAction__factory,
  MockIdentityRegistry__factory,
  MockTrustOracle__factory,
} from "../../typechain-types";
import { BASE_CHAIN_ID, DAY, ERC8004, HOUR, latestTimestamp, makePolicy } from "../support/fixtures";
import { iso, makeP256Key, signJws, signText, v2Signed } from "../support/onchain-attestations";

const LEAKED = "rnwy-trust-v2";
const NEXT = "rnwy-trust-v3";
const SKEW = 60;

/** score | tier << 8 | sybil << 16 | updatedAt << 24. */
function packed(score: number, tier: number, sybil: number, updatedAt: number): bigint {
  return BigInt(score) | (BigInt(tier) << 8n) | (BigInt(sybil) << 16n) | (BigInt(updatedAt) << 24n);
}

/**
 * The nightly oracle (a mock), an AttestedTrustOracle over it holding the key that will leak, and a gate on the
 * attested oracle. Agent 1 is owned by `agentOwner`; its honest score is 70 (developing, passes).
 */
async function deployStack() {
  const [admin, agentOwner, forger] = await hre.ethers.getSigners();
  const base = await new MockTrustOracle__factory(admin!).deploy();
  const oracle = await new AttestedTrustOracle__factory(admin!).deploy(admin!.address, await base.getAddress());
  const leaked = makeP256Key(LEAKED);
  const next = makeP256Key(NEXT);
  await oracle.setSigningKey(LEAKED, leaked.x, leaked.y);
  const identity = await new MockIdentityRegistry__factory(admin!).deploy();
  await identity.connect(agentOwner!).register(); // agent 1
  const gate = await new GatedAction__factory(admin!).deploy(
    {
      oracle: await oracle.getAddress(),
      identityRegistry: await identity.getAddress(),
      agentChainId: BASE_CHAIN_ID,
      agentRegistry: ERC8004,
      policy: makePolicy({ requireController: true }),
    },
    admin!.address,
  );
  const now = await latestTimestamp();
  return { admin: admin!, agentOwner: agentOwner!, forger: forger!, base, oracle, leaked, next, gate, now };
}

describe("AttestedTrustOracle: a leaked key, end to end through a gate", () => {
  it("a forged record passes the gate; revoking the kid stops it; an honest, older-scored attestation under the next kid is stored and decides", async () => {
    const { oracle, gate, agentOwner, forger, leaked, next, admin } = await loadFixture(deployStack);
    const at = await latestTimestamp();
    // The forger holds the leaked key: it signs a flagged agent's record with score 95, issuedAt = now.
    const forged = signJws(leaked, v2Signed(at, { score: 95 }, 0));
    await oracle.connect(forger).submitJwsAttestation(LEAKED, Buffer.from(forged.jws));
    await expect(gate.connect(agentOwner).act(1n)).to.emit(gate, "Acted").withArgs(1n, agentOwner.address, 95);

    // The admin installs the service's next trust kid and revokes the leaked one: the gate no longer passes on it.
    await oracle.connect(admin).setSigningKey(NEXT, next.x, next.y);
    await oracle.connect(admin).revokeSigningKey(LEAKED);
    await expect(gate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(gate, "TrustRecordMissing");
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);

    // The service's next attestation: the agent's real score (40, limited), computed two hours before the forgery.
    const now = await latestTimestamp();
    const honest = signJws(next, v2Signed(now, { score: 40 }, 2 * HOUR));
    const key = await oracle.recordKey(1n, BASE_CHAIN_ID, ERC8004);
    await expect(oracle.connect(agentOwner).submitJwsAttestation(NEXT, Buffer.from(honest.jws)))
      .to.emit(oracle, "RecordUpdated")
      .withArgs(key, packed(40, 1, 0, now - 2 * HOUR))
      .and.to.emit(oracle, "RecordSignedBy")
      .withArgs(key, NEXT);
    await expect(gate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(gate, "TrustScoreTooLow").withArgs(1n, 40, 51);
  });

  it("through the gate path: the caller's honest attestation replaces a revoked key's record and the gate decides on it", async () => {
    const { oracle, gate, agentOwner, forger, leaked, next, admin } = await loadFixture(deployStack);
    // Griefing: the forger locks the agent out with a flagged record dated now.
    const at = await latestTimestamp();
    await oracle.connect(forger).submitJwsAttestation(LEAKED, Buffer.from(signJws(leaked, v2Signed(at, { score: 5 }, 0)).jws));
    await oracle.connect(admin).setSigningKey(NEXT, next.x, next.y);
    await oracle.connect(admin).revokeSigningKey(LEAKED);
    const now = await latestTimestamp();
    const honest = signJws(next, v2Signed(now, { score: 70 }, HOUR));
    await expect(gate.connect(agentOwner).actWithJwsAttestation(1n, NEXT, Buffer.from(honest.jws))).to.emit(gate, "Acted");
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(70n);
  });
});

describe("AttestedTrustOracle: records remember their key id", () => {
  it("revoking a kid makes its records read as absent, and the upstream's record answers again", async () => {
    const { oracle, base, leaked, admin, now } = await loadFixture(deployStack);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 66, 2, 0, now - 30 * DAY);
    await oracle.submitAttestation(LEAKED, ...signedArgs(leaked, v2Signed(now, { score: 91 }, 0)));
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(91n);
    await oracle.connect(admin).revokeSigningKey(LEAKED);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([66n, 2n, 0n, BigInt(now - 30 * DAY)]);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 90)).to.equal(false);
    expect(await oracle.attestedRecord(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([0n, 0n, 0n, 0n]);
  });

  it("after revocation, an attestation older than the revoked record but newer than the upstream's is stored; one older than the upstream's is a no-op", async () => {
    const { oracle, base, leaked, next, admin, now } = await loadFixture(deployStack);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 66, 2, 0, now - 10 * HOUR);
    await oracle.submitAttestation(LEAKED, ...signedArgs(leaked, v2Signed(now, { score: 91 }, 0)));
    await oracle.connect(admin).setSigningKey(NEXT, next.x, next.y);
    await oracle.connect(admin).revokeSigningKey(LEAKED);
    const t = await latestTimestamp();
    // Older than the upstream's record: reads keep answering the upstream's, nothing is written.
    await expect(oracle.submitAttestation(NEXT, ...signedArgs(next, v2Signed(t, { score: 30 }, 11 * HOUR)))).not.to.emit(
      oracle,
      "RecordUpdated",
    );
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(66n);
    await expect(oracle.submitAttestation(NEXT, ...signedArgs(next, v2Signed(t, { score: 72 }, 2 * HOUR)))).to.emit(
      oracle,
      "RecordUpdated",
    );
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(72n);
  });

  it("a live key's records are untouched by another kid's revocation", async () => {
    const { oracle, next, admin, now } = await loadFixture(deployStack);
    await oracle.connect(admin).setSigningKey(NEXT, next.x, next.y);
    await oracle.submitAttestation(NEXT, ...signedArgs(next, v2Signed(now, { score: 80 }, 0)));
    await oracle.connect(admin).revokeSigningKey(LEAKED);
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(80n);
    // A live key's record is replaced only by a later-scored attestation, as before.
    const t = await latestTimestamp();
    await expect(oracle.submitAttestation(NEXT, ...signedArgs(next, v2Signed(t, { score: 10 }, HOUR)))).not.to.emit(
      oracle,
      "RecordUpdated",
    );
  });

  it("names the kid of every record stored, so that a key's records can be listed from the logs", async () => {
    const { oracle, leaked, next, admin, now } = await loadFixture(deployStack);
    await oracle.connect(admin).setSigningKey(NEXT, next.x, next.y);
    await oracle.submitAttestation(LEAKED, ...signedArgs(leaked, v2Signed(now, { agentId: "1" }, 0)));
    await oracle.submitJwsAttestation(LEAKED, Buffer.from(signJws(leaked, v2Signed(now, { agentId: "2" }, 0)).jws));
    await oracle.submitAttestation(NEXT, ...signedArgs(next, v2Signed(now, { agentId: "3" }, 0)));
    const byLeaked = await oracle.queryFilter(oracle.filters.RecordSignedBy(undefined, LEAKED));
    expect(byLeaked.map((log) => log.args.key)).to.deep.equal([
      await oracle.recordKey(1n, BASE_CHAIN_ID, ERC8004),
      await oracle.recordKey(2n, BASE_CHAIN_ID, ERC8004),
    ]);
    expect(byLeaked.every((log) => log.topics[2] === hre.ethers.id(LEAKED))).to.equal(true);
  });

  it("names the kid when it changes: a refresh under the same kid emits no RecordSignedBy, one under another kid does", async () => {
    const { oracle, leaked, next, admin, now } = await loadFixture(deployStack);
    await oracle.connect(admin).setSigningKey(NEXT, next.x, next.y);
    await oracle.submitAttestation(LEAKED, ...signedArgs(leaked, v2Signed(now, {}, 600)));
    const t = await latestTimestamp();
    await expect(oracle.submitAttestation(LEAKED, ...signedArgs(leaked, v2Signed(t, {}, 300))))
      .to.emit(oracle, "RecordUpdated")
      .and.not.to.emit(oracle, "RecordSignedBy");
    await expect(oracle.submitAttestation(NEXT, ...signedArgs(next, v2Signed(t, {}, 100))))
      .to.emit(oracle, "RecordSignedBy")
      .withArgs(await oracle.recordKey(1n, BASE_CHAIN_ID, ERC8004), NEXT);
  });
});

describe("AttestedTrustOracle: dates bounded by the block", () => {
  it("a record dated after the block never shadows a current upstream record, and answers once the chain catches up", async () => {
    const { oracle, base, leaked, now } = await loadFixture(deployStack);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 66, 2, 0, now - HOUR);
    const block = now + 10;
    await time.setNextBlockTimestamp(block);
    const ahead = { ...v2Signed(block, { score: 90 }, 0), issuedAt: iso(block + 30), verifiedAt: iso(block + 30) };
    await expect(oracle.submitAttestation(LEAKED, ...signedArgs(leaked, ahead))).to.emit(oracle, "RecordAdded");
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(66n);
    await time.increaseTo(block + 30);
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).score).to.equal(90n);
  });

  it("uses one skew for verifiedAt, equal to the TypeScript verifier's", async () => {
    const { oracle } = await loadFixture(deployStack);
    expect(await oracle.MAX_CLOCK_SKEW()).to.equal(BigInt(SKEW));
  });
});

describe("AttestedTrustOracle: a key id holds one key", () => {
  it("refuses other coordinates under a held kid, and does nothing for the same ones", async () => {
    const { oracle, leaked, next, admin } = await loadFixture(deployStack);
    await expect(oracle.connect(admin).setSigningKey(LEAKED, next.x, next.y))
      .to.be.revertedWithCustomError(oracle, "SigningKeyAlreadySet")
      .withArgs(LEAKED, leaked.x, leaked.y);
    await expect(oracle.connect(admin).setSigningKey(LEAKED, leaked.x, leaked.y)).not.to.emit(oracle, "SigningKeySet");
    expect(await oracle.signingKey(LEAKED)).to.deep.equal([leaked.x, leaked.y, false]);
  });

  it("refuses the same x with the other y (the point's negation, p - y): the whole key is compared", async () => {
    const { oracle, leaked, admin } = await loadFixture(deployStack);
    const p = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
    const negated = `0x${(p - BigInt(leaked.y)).toString(16).padStart(64, "0")}`;
    await expect(oracle.connect(admin).setSigningKey(LEAKED, leaked.x, negated))
      .to.be.revertedWithCustomError(oracle, "SigningKeyAlreadySet")
      .withArgs(LEAKED, leaked.x, leaked.y);
    expect(await oracle.signingKey(LEAKED)).to.deep.equal([leaked.x, leaked.y, false]);
  });

  it("refuses the curve point with x = 0, which would collide with 'no key'", async () => {
    const { oracle, admin } = await loadFixture(deployStack);
    const zero = hre.ethers.ZeroHash;
    // P-256 has a point with x = 0: y = sqrt(b) mod p.
    const y = "0x66485c780e2f83d72433bd5d84a06bb6541c2af31dae871728bf856a174f93f4";
    await expect(oracle.connect(admin).setSigningKey("zero-x", zero, y))
      .to.be.revertedWithCustomError(oracle, "InvalidSigningKey")
      .withArgs("zero-x", zero, y);
  });
});

/** `submitAttestation`'s `(signedJson, signature)` for a block signed by `key`. */
function signedArgs(key: ReturnType<typeof makeP256Key>, block: object): [string, string] {
  const call = signText(key, block);
  return [call.signedJson, call.lowS];
}
