import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { MockTrustOracle__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, ERC8004, latestTimestamp } from "../support/fixtures";

async function deployMock() {
  const [deployer] = await hre.ethers.getSigners();
  const oracle = await new MockTrustOracle__factory(deployer!).deploy();
  return { oracle, now: await latestTimestamp() };
}

describe("MockTrustOracle", () => {
  it("stores any record as given, including future dates and out-of-range codes", async () => {
    const { oracle, now } = await loadFixture(deployMock);
    await oracle.setRecord(1n, BASE_CHAIN_ID, ERC8004, 250, 9, 7, now + 86_400);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([250n, 9n, 7n, BigInt(now + 86_400)]);
    expect(await oracle.agentCount()).to.equal(1n);
  });

  it("backdates a record without touching its score, and refuses to date a missing one", async () => {
    const { oracle, now } = await loadFixture(deployMock);
    await oracle.setRecord(1n, BASE_CHAIN_ID, ERC8004, 80, 3, 1, now);
    await oracle.setUpdatedAt(1n, BASE_CHAIN_ID, ERC8004, now - 90 * 86_400);
    expect(await oracle.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([80n, 3n, 1n, BigInt(now - 90 * 86_400)]);
    await expect(oracle.setUpdatedAt(2n, BASE_CHAIN_ID, ERC8004, now))
      .to.be.revertedWithCustomError(oracle, "RecordMissing")
      .withArgs(2n, BASE_CHAIN_ID, ERC8004);
  });

  it("clears records and keeps agentCount right (clearing twice is harmless)", async () => {
    const { oracle, now } = await loadFixture(deployMock);
    await oracle.setRecord(1n, BASE_CHAIN_ID, ERC8004, 80, 3, 1, now);
    await oracle.setRecord(2n, BASE_CHAIN_ID, ERC8004, 40, 1, 0, now);
    await expect(oracle.clearRecord(1n, BASE_CHAIN_ID, ERC8004)).to.emit(oracle, "RecordRemoved");
    await expect(oracle.clearRecord(1n, BASE_CHAIN_ID, ERC8004)).to.not.emit(oracle, "RecordRemoved");
    expect(await oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(false);
    expect(await oracle.agentCount()).to.equal(1n);
    // A record dated 0 is no record.
    await oracle.setRecord(2n, BASE_CHAIN_ID, ERC8004, 40, 1, 0, 0);
    expect(await oracle.agentCount()).to.equal(0n);
  });

  it("makes every read fail with a custom error or an empty revert, and recovers", async () => {
    const { oracle, now } = await loadFixture(deployMock);
    await oracle.setRecord(1n, BASE_CHAIN_ID, ERC8004, 80, 3, 1, now);
    await expect(oracle.setReadFailure(1)).to.emit(oracle, "ReadFailureSet").withArgs(1);
    const reads = [
      () => oracle.getScore(1n, BASE_CHAIN_ID, ERC8004),
      () => oracle.hasScore(1n, BASE_CHAIN_ID, ERC8004),
      () => oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 1),
      () => oracle.agentCount(),
    ];
    for (const read of reads) await expect(read()).to.be.revertedWithCustomError(oracle, "MockOracleUnavailable");
    await oracle.setReadFailure(2);
    for (const read of reads) await expect(read()).to.be.revertedWithoutReason();
    await oracle.setReadFailure(0);
    expect(await oracle.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 80)).to.equal(true);
  });
});
