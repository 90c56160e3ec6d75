import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import {
  AttestedTrustOracle__factory,
  GatedAction__factory,
  HeldFirstAttestedTrustOracle__factory,
  MockIdentityRegistry__factory,
  MockTrustOracle__factory,
} from "../../typechain-types";
import { BASE_CHAIN_ID, DAY, ERC8004, HOUR, latestTimestamp, makePolicy } from "../support/fixtures";
import { makeP256Key, signJws, signText, v2Signed } from "../support/onchain-attestations";

const KID = "rnwy-trust-v2";
/** The held-first deployment's max age: a record held here answers alone while at most this old. */
const MAX_AGE = 12 * HOUR;
const seconds = (isoDate: string) => Math.floor(Date.parse(isoDate) / 1000);

/**
 * The Base oracle (a mock), the default attested oracle and a held-first one over it, the same signing key in both,
 * and a gate (`GatedAction`, minimum score 40, max age 36 hours) reading each; agent 1 owned by `agentOwner`.
 */
async function deployBoth() {
  const [deployer, agentOwner] = await hre.ethers.getSigners();
  const base = await new MockTrustOracle__factory(deployer!).deploy();
  const baseAddress = await base.getAddress();
  const fresher = await new AttestedTrustOracle__factory(deployer!).deploy(deployer!.address, baseAddress);
  const heldFirst = await new HeldFirstAttestedTrustOracle__factory(deployer!).deploy(deployer!.address, baseAddress, MAX_AGE);
  const key = makeP256Key(KID);
  await fresher.setSigningKey(KID, key.x, key.y);
  await heldFirst.setSigningKey(KID, key.x, key.y);
  const identity = await new MockIdentityRegistry__factory(deployer!).deploy();
  await identity.connect(agentOwner!).register(); // agent 1
  const gateOf = async (oracle: string) =>
    new GatedAction__factory(deployer!).deploy(
      {
        oracle,
        identityRegistry: await identity.getAddress(),
        agentChainId: BASE_CHAIN_ID,
        agentRegistry: ERC8004,
        policy: makePolicy({ requireController: true }),
      },
      deployer!.address,
    );
  const fresherGate = await gateOf(await fresher.getAddress());
  const heldFirstGate = await gateOf(await heldFirst.getAddress());
  /** Pushes the same signed record to both oracles (what a keeper does). */
  const push = async (score: number, ageSeconds: number) => {
    const signed = v2Signed(await latestTimestamp(), { score }, ageSeconds);
    const jws = Buffer.from(signJws(key, signed).jws);
    await fresher.submitJwsAttestation(KID, jws);
    await heldFirst.submitJwsAttestation(KID, jws);
    return seconds(signed.issuedAt);
  };
  return { deployer: deployer!, agentOwner: agentOwner!, base, baseAddress, fresher, heldFirst, fresherGate, heldFirstGate, key, push };
}

/** How many calls (of any kind) a transaction's trace makes to `target`. */
async function callsTo(hash: string, target: string): Promise<number> {
  const trace = (await hre.network.provider.send("debug_traceTransaction", [hash, { disableStorage: true, disableMemory: true }])) as {
    structLogs: Array<{ op: string; stack?: string[] }>;
  };
  const wanted = BigInt(target);
  return trace.structLogs.filter((step) => {
    if (!["CALL", "STATICCALL", "DELEGATECALL", "CALLCODE"].includes(step.op) || !step.stack) return false;
    // The callee is the second item from the top of the stack.
    return BigInt(`0x${step.stack[step.stack.length - 2]!.replace(/^0x/, "")}`) === wanted;
  }).length;
}

describe("HeldFirstAttestedTrustOracle: a held record in force answers alone", () => {
  it("admits by the held record without calling the upstream, where the default answers the upstream's fresher record", async () => {
    const { base, baseAddress, fresherGate, heldFirstGate, agentOwner, fresher, heldFirst, push } = await loadFixture(deployBoth);
    const heldAt = await push(70, HOUR);
    // The Base oracle then writes a fresher, failing score for the agent.
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 10, 0, 0, heldAt + 600);
    expect((await fresher.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(10n);
    expect(await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([70n, 2n, 0n, BigInt(heldAt)]);
    expect(await heldFirst.meetsThreshold(1n, BASE_CHAIN_ID, ERC8004, 70)).to.equal(true);
    expect(await heldFirst.hasScore(1n, BASE_CHAIN_ID, ERC8004)).to.equal(true);
    await expect(fresherGate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(fresherGate, "TrustScoreTooLow");
    const admitted = await (await heldFirstGate.connect(agentOwner).act(1n)).wait();
    expect(await heldFirstGate.actions(1n)).to.equal(1n);
    expect(await callsTo(admitted!.hash, baseAddress)).to.equal(0);
    // The default's gated read does ask the upstream (the trace does see such a call).
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 90, 3, 0, heldAt + 1200);
    const viaFresher = await (await fresherGate.connect(agentOwner).act(1n)).wait();
    expect(await callsTo(viaFresher!.hash, baseAddress)).to.equal(1);
  });

  it("falls back on the upstream when nothing is held here", async () => {
    const { base, baseAddress, heldFirst, heldFirstGate, agentOwner } = await loadFixture(deployBoth);
    const now = await latestTimestamp();
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 66, 2, 0, now - HOUR);
    expect(await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([66n, 2n, 0n, BigInt(now - HOUR)]);
    const receipt = await (await heldFirstGate.connect(agentOwner).act(1n)).wait();
    expect(await callsTo(receipt!.hash, baseAddress)).to.equal(1);
    await base.clearRecord(1n, BASE_CHAIN_ID, ERC8004);
    await expect(heldFirstGate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(heldFirstGate, "TrustRecordMissing");
  });

  it("falls back on the upstream when the held record's key id is revoked", async () => {
    const { base, heldFirst, heldFirstGate, agentOwner, push } = await loadFixture(deployBoth);
    const heldAt = await push(70, HOUR);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 20, 0, 0, heldAt - DAY);
    expect((await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(70n);
    await heldFirst.revokeSigningKey(KID);
    expect(await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004)).to.deep.equal([20n, 0n, 0n, BigInt(heldAt - DAY)]);
    await expect(heldFirstGate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(heldFirstGate, "TrustScoreTooLow");
  });

  it("answers the fresher of the two once the held record is older than its max age, and alone up to its last second", async () => {
    const { base, heldFirst, heldFirstGate, agentOwner, push } = await loadFixture(deployBoth);
    const heldAt = await push(70, 0);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 15, 0, 0, heldAt + 60);
    // At exactly MAX_AGE after the record's date, it still answers alone.
    await time.setNextBlockTimestamp(heldAt + MAX_AGE);
    await heldFirstGate.connect(agentOwner).act(1n);
    expect(await heldFirstGate.actions(1n)).to.equal(1n);
    // One second later it is past the max age: the upstream's fresher record answers, and the gate refuses.
    await time.setNextBlockTimestamp(heldAt + MAX_AGE + 1);
    await expect(heldFirstGate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(heldFirstGate, "TrustScoreTooLow");
    await hre.network.provider.send("evm_mine", []);
    expect((await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(15n);
    // Past the max age with an older upstream record, the fresher is still the held one.
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 15, 0, 0, heldAt - 60);
    expect((await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(70n);
  });

  it("never lets a held record dated after the block answer alone", async () => {
    const { base, key, heldFirst } = await loadFixture(deployBoth);
    const now = await latestTimestamp();
    // Stored within the clock skew, dated 30 seconds ahead of the next block.
    const ahead = signText(
      key,
      v2Signed(now, {
        score: 80,
        issuedAt: new Date((now + 31) * 1000).toISOString(),
        verifiedAt: new Date((now + 31) * 1000).toISOString(),
      }),
    );
    await heldFirst.submitAttestation(KID, ahead.signedJson, ahead.lowS);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 33, 1, 0, now - HOUR);
    expect((await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(33n);
  });
});

describe("HeldFirstAttestedTrustOracle: submissions compare with what reads answer", () => {
  it("stores an attestation newer than the held record though older than the upstream's, which the default treats as a no-op", async () => {
    const { base, fresher, heldFirst, key, push } = await loadFixture(deployBoth);
    const heldAt = await push(70, 3 * HOUR);
    await base.setRecord(1n, BASE_CHAIN_ID, ERC8004, 10, 0, 0, heldAt + 2 * HOUR);
    const between = Buffer.from(signJws(key, v2Signed(await latestTimestamp(), { score: 50 }, 2 * HOUR - 60)).jws);
    await expect(fresher.submitJwsAttestation(KID, between)).to.not.emit(fresher, "RecordUpdated");
    await expect(heldFirst.submitJwsAttestation(KID, between)).to.emit(heldFirst, "RecordUpdated");
    expect((await heldFirst.getScore(1n, BASE_CHAIN_ID, ERC8004))[0]).to.equal(50n);
    // One not newer than the held record is a no-op, and a gate carrying it is judged on the held record.
    const older = Buffer.from(signJws(key, v2Signed(await latestTimestamp(), { score: 99 }, 4 * HOUR)).jws);
    await expect(heldFirst.submitJwsAttestation(KID, older)).to.not.emit(heldFirst, "RecordUpdated");
    expect((await heldFirst.submitJwsAttestationFor.staticCall(1n, BASE_CHAIN_ID, ERC8004, KID, older)).score).to.equal(50n);
  });

  it("a gate carrying a newer attestation stores it and is judged on it, as with the default", async () => {
    const { heldFirstGate, heldFirst, agentOwner, key, push } = await loadFixture(deployBoth);
    await push(20, 2 * HOUR);
    await expect(heldFirstGate.connect(agentOwner).act(1n)).to.be.revertedWithCustomError(heldFirstGate, "TrustScoreTooLow");
    const jws = Buffer.from(signJws(key, v2Signed(await latestTimestamp(), { score: 75 }, HOUR)).jws);
    await expect(heldFirstGate.connect(agentOwner).actWithJwsAttestation(1n, KID, jws))
      .to.emit(heldFirstGate, "Acted")
      .and.to.emit(heldFirst, "RecordUpdated");
  });
});

describe("HeldFirstAttestedTrustOracle: the read policy a deployment has", () => {
  it("heldFirstRecordMaxAge says 0 for the default and the max age for held first", async () => {
    const { fresher, heldFirst } = await loadFixture(deployBoth);
    expect(await fresher.heldFirstRecordMaxAge()).to.equal(0n);
    expect(await heldFirst.heldFirstRecordMaxAge()).to.equal(BigInt(MAX_AGE));
  });

  it("refuses a max age of 0 (the default's policy) or above 2^40 - 1, and accepts both ends", async () => {
    const { deployer, baseAddress } = await loadFixture(deployBoth);
    const factory = new HeldFirstAttestedTrustOracle__factory(deployer);
    for (const maxAge of [0n, 2n ** 40n]) {
      await expect(factory.deploy(deployer.address, baseAddress, maxAge))
        .to.be.revertedWithCustomError(factory, "HeldFirstRecordMaxAgeInvalid")
        .withArgs(maxAge);
    }
    for (const maxAge of [1n, 2n ** 40n - 1n]) {
      const oracle = await factory.deploy(deployer.address, baseAddress, maxAge);
      expect(await oracle.heldFirstRecordMaxAge()).to.equal(maxAge);
    }
  });
});
