import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import type { TrustScoreOracle } from "../../typechain-types";
import { TrustScoreOracle__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, ERC8004, latestTimestamp } from "../support/fixtures";

type ScoreUpdate = TrustScoreOracle.ScoreUpdateStruct;

function update(overrides: Partial<ScoreUpdate> & Pick<ScoreUpdate, "updatedAt">): ScoreUpdate {
  return {
    agentId: 1n,
    chainId: BASE_CHAIN_ID,
    registry: ERC8004,
    score: 70,
    tier: 2,
    sybilSeverity: 0,
    ...overrides,
  };
}

/** The record word of events and storage: score | tier << 8 | sybil << 16 | updatedAt << 24. */
function packed(score: number, tier: number, sybilSeverity: number, updatedAt: number): bigint {
  return BigInt(score) | (BigInt(tier) << 8n) | (BigInt(sybilSeverity) << 16n) | (BigInt(updatedAt) << 24n);
}

async function deployOracle() {
  const [admin, publisher, stranger] = await hre.ethers.getSigners();
  const oracle = await new TrustScoreOracle__factory(admin!).deploy(admin!.address);
  await oracle.grantRole(await oracle.PUBLISHER_ROLE(), publisher!.address);
  const now = await latestTimestamp();
  return { oracle, admin: admin!, publisher: publisher!, stranger: stranger!, now };
}

describe("TrustScoreOracle: roles", () => {
  it("gives the constructor's admin both the admin and the publisher role", async () => {
    const { oracle, admin } = await loadFixture(deployOracle);
    expect(await oracle.hasRole(await oracle.DEFAULT_ADMIN_ROLE(), admin.address)).to.equal(true);
    expect(await oracle.hasRole(await oracle.PUBLISHER_ROLE(), admin.address)).to.equal(true);
  });

  it("refuses publish and remove from accounts without the publisher role", async () => {
    const { oracle, stranger, now } = await loadFixture(deployOracle);
    const role = await oracle.PUBLISHER_ROLE();
    await expect(oracle.connect(stranger).publish([update({ updatedAt: now })]))
      .to.be.revertedWithCustomError(oracle, "AccessControlUnauthorizedAccount")
      .withArgs(stranger.address, role);
    await expect(oracle.connect(stranger).remove([{ agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004 }]))
      .to.be.revertedWithCustomError(oracle, "AccessControlUnauthorizedAccount")
      .withArgs(stranger.address, role);
  });
});

describe("TrustScoreOracle: publish", () => {
  it("stores records readable through getScore, hasScore, meetsThreshold and agentCount", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    await oracle
      .connect(publisher)
      .publish([
        update({ agentId: 1n, score: 82, tier: 3, sybilSeverity: 1, updatedAt: now - 10 }),
        update({ agentId: 2n, chainId: 1n, registry: "olas", score: 40, tier: 1, sybilSeverity: 4, updatedAt: now }),
      ]);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([82n, 3n, 1n, BigInt(now - 10)]);
    expect(await oracle.getScore(2n, 1n, "olas")).to.deep.equal([40n, 1n, 4n, BigInt(now)]);
    expect(await oracle.hasScore(2n, 1n, "olas")).to.equal(true);
    expect(await oracle.hasScore(2n, BASE_CHAIN_ID, "olas")).to.equal(false);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 82)).to.equal(true);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 83)).to.equal(false);
    expect(await oracle.agentCount()).to.equal(2n);
  });

  it("answers zeros, hasScore false and meetsThreshold false (even for threshold 0) for an unknown agent", async () => {
    const { oracle } = await loadFixture(deployOracle);
    expect(await oracle.getScore(9n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([0n, 0n, 0n, 0n]);
    expect(await oracle.hasScore(9n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    expect(await oracle.meetsThreshold(9n, BASE_CHAIN_ID, ERC8004, 0)).to.equal(false);
  });

  it("emits RecordAdded (full key and record word) for a new key, RecordUpdated (key hash and word) after", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    const key = await oracle.recordKey(1n, BASE_CHAIN_ID, ERC8004);
    expect(key).to.equal(hre.ethers.solidityPackedKeccak256(["uint256", "uint256", "string"], [1n, BASE_CHAIN_ID, ERC8004]));
    const first = oracle.connect(publisher).publish([update({ score: 60, sybilSeverity: 1, updatedAt: now - 100 })]);
    await expect(first)
      .to.emit(oracle, "RecordAdded")
      .withArgs(key, 1n, BASE_CHAIN_ID, ERC8004, packed(60, 2, 1, now - 100));
    await expect(first).to.not.emit(oracle, "RecordUpdated");
    const second = oracle.connect(publisher).publish([update({ score: 61, updatedAt: now - 50 })]);
    await expect(second).to.not.emit(oracle, "RecordAdded");
    await expect(second)
      .to.emit(oracle, "RecordUpdated")
      .withArgs(key, packed(61, 2, 0, now - 50));
    expect(await oracle.agentCount()).to.equal(1n);
  });

  it("treats republishing the same record as a no-op (no event, no change)", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    const record = update({ score: 60, updatedAt: now - 100 });
    await oracle.connect(publisher).publish([record]);
    const again = oracle.connect(publisher).publish([record]);
    await expect(again).to.not.emit(oracle, "RecordUpdated");
    await expect(again).to.not.emit(oracle, "RecordAdded");
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([60n, 2n, 0n, BigInt(now - 100)]);
    expect(await oracle.agentCount()).to.equal(1n);
  });

  it("counts each key once within a batch that writes it twice (second entry newer)", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    await oracle
      .connect(publisher)
      .publish([update({ score: 50, tier: 1, updatedAt: now - 20 }), update({ score: 52, updatedAt: now - 10 })]);
    expect(await oracle.agentCount()).to.equal(1n);
    expect((await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(52n);
  });

  describe("rejects the whole batch with an error naming the offending entry", () => {
    const bad: Array<[string, (now: number) => Partial<ScoreUpdate>, string, (now: number, block: number) => unknown[]]> = [
      ["a score above 100", () => ({ score: 101 }), "ScoreOutOfRange", () => [1, 101, 100]],
      ["a tier outside the encoding", () => ({ tier: 4 }), "TierOutOfRange", () => [1, 4, 3]],
      ["a sybil code outside the encoding", () => ({ sybilSeverity: 5 }), "SybilSeverityOutOfRange", () => [1, 5, 4]],
      ["an empty registry name", () => ({ registry: "" }), "UpdateEmptyRegistry", () => [1]],
      ["updatedAt 0", () => ({ updatedAt: 0 }), "UpdateZeroTimestamp", () => [1]],
      ["updatedAt in the future", (now) => ({ updatedAt: now + 3600 }), "UpdateFromFuture", (now, block) => [1, now + 3600, block]],
    ];
    for (const [name, override, error, args] of bad) {
      it(name, async () => {
        const { oracle, publisher, now } = await loadFixture(deployOracle);
        const block = now + 10;
        await time.setNextBlockTimestamp(block);
        const batch = [
          update({ agentId: 5n, updatedAt: now - 1 }),
          update({ agentId: 6n, updatedAt: now - 1, ...override(now) }),
          update({ agentId: 7n, updatedAt: now - 1 }),
        ];
        await expect(oracle.connect(publisher).publish(batch))
          .to.be.revertedWithCustomError(oracle, error)
          .withArgs(...args(now, block));
        // All or nothing: the valid first entry was not stored.
        expect(await oracle.hasScore(5n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
        expect(await oracle.agentCount()).to.equal(0n);
      });
    }

    it("an update older than the stored record (an old snapshot never overwrites a newer one)", async () => {
      const { oracle, publisher, now } = await loadFixture(deployOracle);
      await oracle.connect(publisher).publish([update({ score: 70, updatedAt: now - 10 })]);
      await expect(oracle.connect(publisher).publish([update({ agentId: 2n, updatedAt: now }), update({ score: 20, updatedAt: now - 11 })]))
        .to.be.revertedWithCustomError(oracle, "UpdateNotNewer")
        .withArgs(1, now - 10, now - 11);
      expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([70n, 2n, 0n, BigInt(now - 10)]);
      expect(await oracle.hasScore(2n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    });

    it("a different record with the same updatedAt as the stored one", async () => {
      const { oracle, publisher, now } = await loadFixture(deployOracle);
      await oracle.connect(publisher).publish([update({ score: 70, updatedAt: now - 10 })]);
      await expect(oracle.connect(publisher).publish([update({ score: 71, updatedAt: now - 10 })]))
        .to.be.revertedWithCustomError(oracle, "UpdateNotNewer")
        .withArgs(0, now - 10, now - 10);
    });

    it("an empty batch", async () => {
      const { oracle, publisher } = await loadFixture(deployOracle);
      await expect(oracle.connect(publisher).publish([])).to.be.revertedWithCustomError(oracle, "TrustScoreOracleEmptyBatch");
      await expect(oracle.connect(publisher).remove([])).to.be.revertedWithCustomError(oracle, "TrustScoreOracleEmptyBatch");
    });
  });

  it("accepts the boundary values of every field", async () => {
    const { oracle, publisher } = await loadFixture(deployOracle);
    const block = (await latestTimestamp()) + 10;
    await time.setNextBlockTimestamp(block);
    await oracle
      .connect(publisher)
      .publish([
        update({ score: 100, tier: 3, sybilSeverity: 4, updatedAt: block }),
        update({ agentId: 2n, score: 0, tier: 0, sybilSeverity: 0, updatedAt: 1 }),
      ]);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([100n, 3n, 4n, BigInt(block)]);
    expect(await oracle.getScore(2n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([0n, 0n, 0n, 1n]);
  });
});

describe("TrustScoreOracle: remove", () => {
  it("removes records, updates the count, emits RecordRemoved, and allows a later republish", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    await oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now }), update({ agentId: 2n, updatedAt: now })]);
    const key = await oracle.recordKey(1n, BASE_CHAIN_ID, ERC8004);
    await expect(oracle.connect(publisher).remove([{ agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004 }]))
      .to.emit(oracle, "RecordRemoved")
      .withArgs(key, 1n, BASE_CHAIN_ID, ERC8004);
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 0)).to.equal(false);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([0n, 0n, 0n, 0n]);
    expect(await oracle.agentCount()).to.equal(1n);
    // A newer snapshot re-adds the key, announced again in full.
    await time.increase(10);
    await expect(oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now + 5 })]))
      .to.emit(oracle, "RecordAdded")
      .withArgs(key, 1n, BASE_CHAIN_ID, ERC8004, packed(70, 2, 0, now + 5));
    expect(await oracle.agentCount()).to.equal(2n);
  });

  it("keeps monotonicity across a removal: an older snapshot of a removed key is refused with the removed date", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    await oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now })]);
    await oracle.connect(publisher).remove([{ agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004 }]);
    // An older snapshot (a replayed or late batch) must not resurrect the key with stale data.
    await expect(
      oracle.connect(publisher).publish([update({ agentId: 2n, updatedAt: now }), update({ agentId: 1n, updatedAt: now - 1000 })]),
    )
      .to.be.revertedWithCustomError(oracle, "UpdateNotNewerThanRemoved")
      .withArgs(1, now, now - 1000);
    // As old as the removed record is not newer either, even when it is the very record removed.
    await expect(oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now })]))
      .to.be.revertedWithCustomError(oracle, "UpdateNotNewerThanRemoved")
      .withArgs(0, now, now);
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([0n, 0n, 0n, 0n]);
    expect(await oracle.agentCount()).to.equal(0n);
  });

  it("keeps the latest removed date through several removals, and removing a removed key is RecordNotFound", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    const key = { agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004 };
    await oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now - 100 })]);
    await oracle.connect(publisher).remove([key]);
    await expect(oracle.connect(publisher).remove([key]))
      .to.be.revertedWithCustomError(oracle, "RecordNotFound")
      .withArgs(0, 1n, BASE_CHAIN_ID, ERC8004);
    await oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now - 50 })]);
    await oracle.connect(publisher).remove([key]);
    await expect(oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now - 60 })]))
      .to.be.revertedWithCustomError(oracle, "UpdateNotNewerThanRemoved")
      .withArgs(0, now - 50, now - 60);
    await oracle.connect(publisher).publish([update({ agentId: 1n, score: 80, updatedAt: now - 49 })]);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([80n, 2n, 0n, BigInt(now - 49)]);
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
  });

  it("reverts the whole removal when one key is not held", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    await oracle.connect(publisher).publish([update({ agentId: 1n, updatedAt: now })]);
    await expect(
      oracle.connect(publisher).remove([
        { agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004 },
        { agentId: 3n, chainId: BASE_CHAIN_ID, registry: "olas" },
      ]),
    )
      .to.be.revertedWithCustomError(oracle, "RecordNotFound")
      .withArgs(1, 3n, BASE_CHAIN_ID, "olas");
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
  });
});

describe("TrustScoreOracle: storage", () => {
  it("keeps each record in a single storage slot", async () => {
    const { oracle, publisher, now } = await loadFixture(deployOracle);
    await oracle.connect(publisher).publish([update({ score: 93, tier: 3, sybilSeverity: 2, updatedAt: now })]);
    // _records is slot 0: TrustScoreOracleBase comes first in the inheritance order (AccessControl's _roles is slot 2).
    const key = await oracle.recordKey(1n, BASE_CHAIN_ID, ERC8004);
    const slot = hre.ethers.keccak256(hre.ethers.AbiCoder.defaultAbiCoder().encode(["bytes32", "uint256"], [key, 0n]));
    const raw = BigInt(await hre.ethers.provider.getStorage(await oracle.getAddress(), slot));
    expect(raw).to.equal(packed(93, 3, 2, now));
    const next = BigInt(slot) + 1n;
    expect(BigInt(await hre.ethers.provider.getStorage(await oracle.getAddress(), next))).to.equal(0n);
    // Removal leaves only the tombstone in the same slot: the removed date above bit 64, no record below.
    await oracle.connect(publisher).remove([{ agentId: 1n, chainId: BASE_CHAIN_ID, registry: ERC8004 }]);
    expect(BigInt(await hre.ethers.provider.getStorage(await oracle.getAddress(), slot))).to.equal(BigInt(now) << 64n);
  });
});
