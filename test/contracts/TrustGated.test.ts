import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { GatedAction__factory, MockTrustOracle__factory, RawResponseOracle__factory } from "../../typechain-types";
import {
  BASE_CHAIN_ID,
  DAY,
  deployTrustStack,
  ERC8004,
  HOUR,
  latestTimestamp,
  makePolicy,
  REFUSAL,
  SYBIL,
  TIER_MIN_SCORE,
} from "../support/fixtures";

const coder = hre.ethers.AbiCoder.defaultAbiCoder();

async function stackWithController() {
  return deployTrustStack({ requireController: true });
}
async function stackWithoutController() {
  return deployTrustStack({ requireController: false });
}

describe("TrustGated: admission", () => {
  it("lets a fresh, high-scoring, low-sybil agent through, via the function body and the modifier", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId, { score: 80, sybilSeverity: SYBIL.low });
    await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, agentOwner.address, 80);
    await gate.connect(agentOwner).actWithModifier(agentId);
    expect(await gate.actions(agentId)).to.equal(2n);
  });

  it("admits a score exactly at minScore, sybil exactly at maxSybilSeverity, and a record exactly maxAge old", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithoutController);
    const now = await latestTimestamp();
    // The next block is mined one second later: the record is then exactly 36 h old.
    await setRecord(agentId, {
      score: TIER_MIN_SCORE.developing,
      sybilSeverity: SYBIL.moderate,
      updatedAt: now + 2 - 36 * HOUR,
    });
    await time.setNextBlockTimestamp(now + 2);
    await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted");
  });
});

describe("TrustGated: every refusal reverts with its custom error and values", () => {
  it("no record → TrustRecordMissing(agentId, chainId, registry)", async () => {
    const { gate, agentOwner } = await loadFixture(stackWithController);
    await expect(gate.connect(agentOwner).act(42n))
      .to.be.revertedWithCustomError(gate, "TrustRecordMissing")
      .withArgs(42n, BASE_CHAIN_ID, ERC8004);
  });

  it("a record on another chain or registry is not this agent's record", async () => {
    const { gate, oracle, agentOwner, agentId } = await loadFixture(stackWithController);
    const now = await latestTimestamp();
    await oracle.setRecord(agentId, 1n, ERC8004, 90, 3, 0, now);
    await oracle.setRecord(agentId, BASE_CHAIN_ID, "olas", 90, 3, 0, now);
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustRecordMissing")
      .withArgs(agentId, BASE_CHAIN_ID, ERC8004);
  });

  it("record dated in the future → TrustRecordFromFuture(agentId, updatedAt, blockTimestamp)", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    const now = await latestTimestamp();
    await setRecord(agentId, { updatedAt: now + 600 });
    await time.setNextBlockTimestamp(now + 10);
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustRecordFromFuture")
      .withArgs(agentId, now + 600, now + 10);
  });

  it("record older than maxAge → TrustRecordStale(agentId, updatedAt, maxAge, blockTimestamp)", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    const now = await latestTimestamp();
    const updatedAt = now - 36 * HOUR;
    await setRecord(agentId, { updatedAt });
    await time.setNextBlockTimestamp(now + 5);
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustRecordStale")
      .withArgs(agentId, updatedAt, 36 * HOUR, now + 5);
  });

  it("a record that was fresh goes stale when time passes (the oracle stopped being written)", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId);
    await gate.connect(agentOwner).act(agentId);
    await time.increase(40 * DAY);
    await expect(gate.connect(agentOwner).act(agentId)).to.be.revertedWithCustomError(gate, "TrustRecordStale");
    const [allowed, refusal] = await gate.trustVerdict(agentId, agentOwner.address);
    expect([allowed, REFUSAL[Number(refusal)]]).to.deep.equal([false, "RecordStale"]);
  });

  it("score below minScore → TrustScoreTooLow(agentId, score, minScore)", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId, { score: TIER_MIN_SCORE.developing - 1, tier: 1 });
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustScoreTooLow")
      .withArgs(agentId, TIER_MIN_SCORE.developing - 1, TIER_MIN_SCORE.developing);
  });

  it("decides by score, not by the on-chain tier code: a high tier code with a low score is refused", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId, { score: 20, tier: 3 });
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustScoreTooLow")
      .withArgs(agentId, 20, TIER_MIN_SCORE.developing);
  });

  it("sybil severity above the maximum → SybilSeverityTooHigh(agentId, severity, max)", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId, { sybilSeverity: SYBIL.elevated });
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "SybilSeverityTooHigh")
      .withArgs(agentId, SYBIL.elevated, SYBIL.moderate);
  });

  it("caller controlling nothing → NotAgentController(agentId, caller)", async () => {
    const { gate, setRecord, stranger, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId);
    await expect(gate.connect(stranger).act(agentId))
      .to.be.revertedWithCustomError(gate, "NotAgentController")
      .withArgs(agentId, stranger.address);
  });

  it("an agent the identity registry does not know → AgentIdentityUnavailable(registry, agentId)", async () => {
    const { gate, setRecord, identity, stranger } = await loadFixture(stackWithController);
    await setRecord(77n);
    await expect(gate.connect(stranger).act(77n))
      .to.be.revertedWithCustomError(gate, "AgentIdentityUnavailable")
      .withArgs(await identity.getAddress(), 77n);
  });

  it("oracle reverting with a custom error → TrustOracleUnavailable(oracle, revert data)", async () => {
    const { gate, oracle, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId);
    await oracle.setReadFailure(1);
    const selector = oracle.interface.getError("MockOracleUnavailable")!.selector;
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustOracleUnavailable")
      .withArgs(await oracle.getAddress(), selector);
    await oracle.setReadFailure(0);
    await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted");
  });

  it("oracle reverting without data → TrustOracleUnavailable(oracle, 0x)", async () => {
    const { gate, oracle, setRecord, agentOwner, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId);
    await oracle.setReadFailure(2);
    await expect(gate.connect(agentOwner).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustOracleUnavailable")
      .withArgs(await oracle.getAddress(), "0x");
  });

  describe("an oracle that answers garbage", () => {
    async function garbageStack() {
      const stack = await deployTrustStack();
      const raw = await new RawResponseOracle__factory(stack.deployer).deploy();
      await stack.gate.setTrustOracle(await raw.getAddress());
      return { ...stack, raw };
    }
    const word = (values: bigint[]) =>
      coder.encode(
        values.map(() => "uint256"),
        values,
      );

    const cases: Array<[string, string]> = [
      ["an empty answer", "0x"],
      ["a short answer (3 words)", word([80n, 3n, 0n])],
      ["a score above 100", word([101n, 3n, 0n, 1n])],
      ["a tier that does not fit uint8", word([80n, 256n, 0n, 1n])],
      ["a sybil code that does not fit uint8", word([80n, 3n, 256n, 1n])],
      ["a date that does not fit uint40", word([80n, 3n, 0n, 2n ** 40n])],
    ];
    for (const [name, response] of cases) {
      it(`${name} → TrustOracleMalformedResponse(oracle, answer)`, async () => {
        const { gate, raw, agentOwner, agentId } = await loadFixture(garbageStack);
        await raw.setResponse(response, false);
        await expect(gate.connect(agentOwner).act(agentId))
          .to.be.revertedWithCustomError(gate, "TrustOracleMalformedResponse")
          .withArgs(await raw.getAddress(), response);
      });
    }

    for (const [name, response] of cases) {
      it(`${name} to a JWS submission → TrustOracleMalformedResponse(oracle, answer)`, async () => {
        const { gate, raw, agentOwner, agentId } = await loadFixture(garbageStack);
        await raw.setResponse(response, false);
        await expect(gate.connect(agentOwner).actWithJwsAttestation(agentId, "rnwy-trust-v2", "0x"))
          .to.be.revertedWithCustomError(gate, "TrustOracleMalformedResponse")
          .withArgs(await raw.getAddress(), response);
      });
    }

    it("keeps at most 256 bytes of a huge revert (no return-data bomb in the error)", async () => {
      const { gate, raw, agentOwner, agentId } = await loadFixture(garbageStack);
      const huge = `0x${"ab".repeat(4096)}`;
      await raw.setResponse(huge, true);
      await expect(gate.connect(agentOwner).act(agentId))
        .to.be.revertedWithCustomError(gate, "TrustOracleUnavailable")
        .withArgs(await raw.getAddress(), `0x${"ab".repeat(256)}`);
    });

    it("accepts a well-formed answer with trailing bytes (only the four words are read)", async () => {
      const { gate, raw, agentOwner, agentId } = await loadFixture(garbageStack);
      const now = await latestTimestamp();
      await raw.setResponse(word([88n, 3n, 0n, BigInt(now), 12345n]), false);
      await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, agentOwner.address, 88);
    });
  });
});

describe("TrustGated: the controller check", () => {
  it("accepts the owner, the agent wallet, the approved account and an operator; refuses them once rights are gone", async () => {
    const { gate, identity, setRecord, agentOwner, others, agentId } = await loadFixture(stackWithController);
    const [wallet, approved, operator] = others as [typeof agentOwner, typeof agentOwner, typeof agentOwner];
    await setRecord(agentId);
    await identity.connect(agentOwner).setAgentWallet(agentId, wallet.address);
    await identity.connect(agentOwner).approve(approved.address, agentId);
    await identity.connect(agentOwner).setApprovalForAll(operator.address, true);
    for (const account of [agentOwner, wallet, approved, operator]) {
      await expect(gate.connect(account).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, account.address, 80);
    }
    // Rights withdrawn: the operator and the approved account lose access.
    await identity.connect(agentOwner).setApprovalForAll(operator.address, false);
    await identity.connect(agentOwner).approve(hre.ethers.ZeroAddress, agentId);
    for (const account of [approved, operator]) {
      await expect(gate.connect(account).act(agentId))
        .to.be.revertedWithCustomError(gate, "NotAgentController")
        .withArgs(agentId, account.address);
    }
    // A transfer clears the agent wallet, and the previous owner loses control.
    const [newOwner] = others.slice(3) as [typeof agentOwner];
    await identity.connect(agentOwner).transferFrom(agentOwner.address, newOwner.address, agentId);
    for (const account of [agentOwner, wallet]) {
      await expect(gate.connect(account).act(agentId))
        .to.be.revertedWithCustomError(gate, "NotAgentController")
        .withArgs(agentId, account.address);
    }
    await expect(gate.connect(newOwner).act(agentId)).to.emit(gate, "Acted");
  });

  it("is skipped when the policy does not require it", async () => {
    const { gate, setRecord, stranger, agentId } = await loadFixture(stackWithoutController);
    await setRecord(agentId);
    await expect(gate.connect(stranger).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, stranger.address, 80);
  });

  it("runs only after the record checks: a stranger calling for a low-score agent hears about the score", async () => {
    const { gate, setRecord, stranger, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId, { score: 10 });
    await expect(gate.connect(stranger).act(agentId))
      .to.be.revertedWithCustomError(gate, "TrustScoreTooLow")
      .withArgs(agentId, 10, TIER_MIN_SCORE.developing);
  });
});

describe("TrustGated: trustVerdict explains a refusal before a transaction is sent", () => {
  it("returns the same decision as the gated call, with the record", async () => {
    const { gate, setRecord, agentOwner, stranger, agentId } = await loadFixture(stackWithController);
    expect(REFUSAL[Number((await gate.trustVerdict(agentId, agentOwner.address))[1])]).to.equal("RecordMissing");
    const now = await latestTimestamp();
    await setRecord(agentId, { score: 64, tier: 2, sybilSeverity: 1, updatedAt: now });
    const [allowed, refusal, record] = await gate.trustVerdict(agentId, agentOwner.address);
    expect(allowed).to.equal(true);
    expect(REFUSAL[Number(refusal)]).to.equal("None");
    expect([record.score, record.tier, record.sybilSeverity, record.updatedAt]).to.deep.equal([64n, 2n, 1n, BigInt(now)]);
    const [strangerAllowed, strangerRefusal] = await gate.trustVerdict(agentId, stranger.address);
    expect([strangerAllowed, REFUSAL[Number(strangerRefusal)]]).to.deep.equal([false, "NotAgentController"]);
  });

  it("reports an unavailable oracle instead of reverting", async () => {
    const { gate, oracle, agentOwner, agentId } = await loadFixture(stackWithController);
    await oracle.setReadFailure(1);
    const [allowed, refusal] = await gate.trustVerdict(agentId, agentOwner.address);
    expect([allowed, REFUSAL[Number(refusal)]]).to.deep.equal([false, "OracleUnavailable"]);
  });
});

describe("TrustGated: policy and ownership", () => {
  it("exposes its configuration", async () => {
    const { gate, oracle, identity } = await loadFixture(stackWithController);
    expect(await gate.trustOracle()).to.equal(await oracle.getAddress());
    expect(await gate.identityRegistry()).to.equal(await identity.getAddress());
    expect(await gate.agentDomain()).to.deep.equal([BASE_CHAIN_ID, ERC8004]);
    const policy = await gate.trustPolicy();
    expect([policy.minScore, policy.maxSybilSeverity, policy.maxAge, policy.requireController]).to.deep.equal([
      51n,
      2n,
      BigInt(36 * HOUR),
      true,
    ]);
  });

  it("emits the initial policy and oracle at deployment", async () => {
    const { deployer, oracle, identity } = await loadFixture(stackWithController);
    const factory = new GatedAction__factory(deployer);
    const policy = makePolicy({ minScore: 75 });
    const gate = await factory.deploy(
      {
        oracle: await oracle.getAddress(),
        identityRegistry: await identity.getAddress(),
        agentChainId: BASE_CHAIN_ID,
        agentRegistry: ERC8004,
        policy,
      },
      deployer.address,
    );
    const tx = gate.deploymentTransaction()!;
    await expect(tx)
      .to.emit(gate, "TrustPolicyChanged")
      .withArgs([0, 0, 0, false], [policy.minScore, policy.maxSybilSeverity, policy.maxAge, policy.requireController]);
    await expect(tx)
      .to.emit(gate, "TrustOracleChanged")
      .withArgs(hre.ethers.ZeroAddress, await oracle.getAddress());
  });

  it("lets only the owner change the policy, emits the change, and applies it at once", async () => {
    const { gate, setRecord, agentOwner, stranger, agentId } = await loadFixture(stackWithController);
    await setRecord(agentId, { score: 60 });
    await gate.connect(agentOwner).act(agentId);
    const tighter = makePolicy({ minScore: TIER_MIN_SCORE.established, requireController: true });
    await expect(gate.connect(stranger).setTrustPolicy(tighter))
      .to.be.revertedWithCustomError(gate, "OwnableUnauthorizedAccount")
      .withArgs(stranger.address);
    await expect(gate.setTrustPolicy(tighter))
      .to.emit(gate, "TrustPolicyChanged")
      .withArgs([51, 2, 36 * HOUR, true], [75, 2, 36 * HOUR, true]);
    await expect(gate.connect(agentOwner).act(agentId)).to.be.revertedWithCustomError(gate, "TrustScoreTooLow").withArgs(agentId, 60, 75);
  });

  it("refuses policies no record could meet or that it cannot enforce", async () => {
    const { deployer, gate, oracle } = await loadFixture(stackWithController);
    await expect(gate.setTrustPolicy(makePolicy({ minScore: 101 })))
      .to.be.revertedWithCustomError(gate, "MinScoreOutOfRange")
      .withArgs(101, 100);
    await expect(gate.setTrustPolicy(makePolicy({ maxSybilSeverity: 5 })))
      .to.be.revertedWithCustomError(gate, "MaxSybilSeverityOutOfRange")
      .withArgs(5, 4);
    await expect(gate.setTrustPolicy(makePolicy({ maxAge: 0 }))).to.be.revertedWithCustomError(gate, "ZeroMaxAge");
    const noRegistry = {
      oracle: await oracle.getAddress(),
      identityRegistry: hre.ethers.ZeroAddress,
      agentChainId: BASE_CHAIN_ID,
      agentRegistry: ERC8004,
      policy: makePolicy({ requireController: true }),
    };
    const factory = new GatedAction__factory(deployer);
    await expect(factory.deploy(noRegistry, deployer.address)).to.be.revertedWithCustomError(gate, "IdentityRegistryNotSet");
    await expect(
      factory.deploy({ ...noRegistry, policy: makePolicy(), agentRegistry: "r".repeat(32) }, deployer.address),
    ).to.be.revertedWithCustomError(gate, "StringTooLong");
  });

  it("lets only the owner move the gate to another oracle, which must have code", async () => {
    const { deployer, gate, oracle, stranger, agentOwner, agentId } = await loadFixture(stackWithController);
    const next = await new MockTrustOracle__factory(deployer).deploy();
    await expect(gate.connect(stranger).setTrustOracle(await next.getAddress()))
      .to.be.revertedWithCustomError(gate, "OwnableUnauthorizedAccount")
      .withArgs(stranger.address);
    await expect(gate.setTrustOracle(stranger.address))
      .to.be.revertedWithCustomError(gate, "InvalidTrustOracle")
      .withArgs(stranger.address);
    await expect(gate.setTrustOracle(await next.getAddress()))
      .to.emit(gate, "TrustOracleChanged")
      .withArgs(await oracle.getAddress(), await next.getAddress());
    // The old oracle's records no longer count.
    await oracle.setRecord(agentId, BASE_CHAIN_ID, ERC8004, 90, 3, 0, await latestTimestamp());
    await expect(gate.connect(agentOwner).act(agentId)).to.be.revertedWithCustomError(gate, "TrustRecordMissing");
  });

  it("transfers ownership in two steps", async () => {
    const { gate, deployer, stranger } = await loadFixture(stackWithController);
    await gate.transferOwnership(stranger.address);
    expect(await gate.owner()).to.equal(deployer.address);
    expect(await gate.pendingOwner()).to.equal(stranger.address);
    await expect(gate.connect(stranger).setTrustPolicy(makePolicy()))
      .to.be.revertedWithCustomError(gate, "OwnableUnauthorizedAccount")
      .withArgs(stranger.address);
    await gate.connect(stranger).acceptOwnership();
    expect(await gate.owner()).to.equal(stranger.address);
    await expect(gate.connect(stranger).setTrustPolicy(makePolicy({ minScore: 30 }))).to.emit(gate, "TrustPolicyChanged");
    await expect(gate.connect(deployer).setTrustPolicy(makePolicy()))
      .to.be.revertedWithCustomError(gate, "OwnableUnauthorizedAccount")
      .withArgs(deployer.address);
  });
});
