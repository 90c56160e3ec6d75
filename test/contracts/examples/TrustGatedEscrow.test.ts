import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import {
  BlocklistToken__factory,
  FeeOnTransferToken__factory,
  MintableTestToken__factory,
  MockIdentityRegistry__factory,
  MockTrustOracle__factory,
  ReentrantToken__factory,
  TrustGatedEscrow__factory,
} from "../../../typechain-types";
import { BASE_CHAIN_ID, DAY, ERC8004, HOUR, latestTimestamp, makePolicy, recordSetter, SYBIL } from "../../support/fixtures";

type GateConfig = Parameters<TrustGatedEscrow__factory["deploy"]>[0];

/** `TrustGatedEscrow.EscrowStatus`. */
const STATUS = { None: 0n, Open: 1n, Claimed: 2n, Refunded: 3n } as const;
/** The escrow's gate policy: developing tier, at most moderate sybil, 36 h, controller required. */
const POLICY = makePolicy({ requireController: true });
const MAX_AGE = 36 * HOUR;
const MIN_SCORE = 51;
const UNIT = 10n ** 18n;
const MINTED = 10_000n * UNIT;
const AMOUNT = 1_000n * UNIT;
const AGENT_ID = 1n;

async function deployEscrowStack() {
  const [deployer, client, agentOwner, agentWallet, operator, approved, stranger, newOwner] = await hre.ethers.getSigners();
  if (!deployer || !client || !agentOwner || !agentWallet || !operator || !approved || !stranger || !newOwner) {
    throw new Error("Hardhat network has too few accounts");
  }
  const oracle = await new MockTrustOracle__factory(deployer).deploy();
  const identity = await new MockIdentityRegistry__factory(deployer).deploy();
  await identity.connect(agentOwner).register(); // agent 1
  const config: GateConfig = {
    oracle: await oracle.getAddress(),
    identityRegistry: await identity.getAddress(),
    agentChainId: BASE_CHAIN_ID,
    agentRegistry: ERC8004,
    policy: POLICY,
  };
  const escrow = await new TrustGatedEscrow__factory(deployer).deploy(config, deployer.address);
  const escrowAddress = await escrow.getAddress();
  const token = await new MintableTestToken__factory(deployer).deploy("Test USD", "TUSD");
  await token.mint(client.address, MINTED);
  await token.connect(client).approve(escrowAddress, hre.ethers.MaxUint256);
  const setRecord = recordSetter(oracle);
  await setRecord(AGENT_ID);
  return {
    deployer,
    client,
    agentOwner,
    agentWallet,
    operator,
    approved,
    stranger,
    newOwner,
    oracle,
    identity,
    escrow,
    escrowAddress,
    token,
    config,
    setRecord,
  };
}

/** The stack plus one open escrow of `AMOUNT` for agent 1, deadline 7 days ahead. */
async function openEscrowStack() {
  const stack = await deployEscrowStack();
  const deadline = BigInt((await latestTimestamp()) + 7 * DAY);
  await stack.escrow.connect(stack.client).createEscrow(await stack.token.getAddress(), AGENT_ID, AMOUNT, deadline);
  return { ...stack, escrowId: 1n, deadline };
}

describe("TrustGatedEscrow: deployment and policy", () => {
  it("deploys with the controller check on and reports its gate configuration", async () => {
    const { escrow, config } = await loadFixture(deployEscrowStack);
    const policy = await escrow.trustPolicy();
    expect([policy.minScore, policy.maxSybilSeverity, policy.maxAge, policy.requireController]).to.deep.equal([
      BigInt(MIN_SCORE),
      BigInt(SYBIL.moderate),
      BigInt(MAX_AGE),
      true,
    ]);
    expect(await escrow.trustOracle()).to.equal(config.oracle);
    expect(await escrow.identityRegistry()).to.equal(config.identityRegistry);
    expect(await escrow.escrowCount()).to.equal(0n);
  });

  it("refuses to deploy with a policy that does not require the controller check", async () => {
    const { deployer, config } = await loadFixture(deployEscrowStack);
    const factory = new TrustGatedEscrow__factory(deployer);
    await expect(
      factory.deploy({ ...config, policy: makePolicy({ requireController: false }) }, deployer.address),
    ).to.be.revertedWithCustomError(factory, "ControllerCheckRequired");
  });

  it("refuses to deploy without an identity registry (base validation still applies)", async () => {
    const { deployer, config } = await loadFixture(deployEscrowStack);
    const factory = new TrustGatedEscrow__factory(deployer);
    await expect(factory.deploy({ ...config, identityRegistry: hre.ethers.ZeroAddress }, deployer.address)).to.be.revertedWithCustomError(
      factory,
      "IdentityRegistryNotSet",
    );
  });

  it("the owner cannot disable the controller check, and the policy stays as it was", async () => {
    const { escrow, deployer } = await loadFixture(deployEscrowStack);
    await expect(
      escrow.connect(deployer).setTrustPolicy(makePolicy({ minScore: 30, requireController: false })),
    ).to.be.revertedWithCustomError(escrow, "ControllerCheckRequired");
    const policy = await escrow.trustPolicy();
    expect(policy.requireController).to.equal(true);
    expect(policy.minScore).to.equal(BigInt(MIN_SCORE));
  });

  it("runs the base validation before its own (super first)", async () => {
    const { escrow, deployer } = await loadFixture(deployEscrowStack);
    await expect(escrow.connect(deployer).setTrustPolicy(makePolicy({ minScore: 101, requireController: false })))
      .to.be.revertedWithCustomError(escrow, "MinScoreOutOfRange")
      .withArgs(101, 100);
  });

  it("the owner can still change the limits while keeping the controller check", async () => {
    const { escrow, deployer } = await loadFixture(deployEscrowStack);
    const next = makePolicy({ minScore: 75, maxSybilSeverity: SYBIL.none, maxAge: DAY, requireController: true });
    await expect(escrow.connect(deployer).setTrustPolicy(next))
      .to.emit(escrow, "TrustPolicyChanged")
      .withArgs([MIN_SCORE, SYBIL.moderate, MAX_AGE, true], [75, SYBIL.none, DAY, true]);
    const policy = await escrow.trustPolicy();
    expect([policy.minScore, policy.maxSybilSeverity, policy.maxAge, policy.requireController]).to.deep.equal([75n, 0n, BigInt(DAY), true]);
  });

  it("only the owner may change the policy", async () => {
    const { escrow, stranger } = await loadFixture(deployEscrowStack);
    await expect(escrow.connect(stranger).setTrustPolicy(POLICY))
      .to.be.revertedWithCustomError(escrow, "OwnableUnauthorizedAccount")
      .withArgs(stranger.address);
  });
});

describe("TrustGatedEscrow: createEscrow", () => {
  it("locks the funds, records the escrow and emits EscrowCreated", async () => {
    const { escrow, escrowAddress, token, client } = await loadFixture(deployEscrowStack);
    const tokenAddress = await token.getAddress();
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, AMOUNT, deadline))
      .to.emit(escrow, "EscrowCreated")
      .withArgs(1n, client.address, AGENT_ID, tokenAddress, AMOUNT, deadline);
    expect(await token.balanceOf(client.address)).to.equal(9_000n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(1_000n * UNIT);
    const recorded = await escrow.getEscrow(1n);
    expect(recorded.token).to.equal(tokenAddress);
    expect(recorded.deadline).to.equal(deadline);
    expect(recorded.status).to.equal(STATUS.Open);
    expect(recorded.client).to.equal(client.address);
    expect(recorded.agentId).to.equal(AGENT_ID);
    expect(recorded.amount).to.equal(AMOUNT);
    expect(await escrow.escrowCount()).to.equal(1n);
  });

  it("numbers escrows from 1 upwards and keeps them apart", async () => {
    const { escrow, escrowAddress, token, client } = await loadFixture(deployEscrowStack);
    const tokenAddress = await token.getAddress();
    const deadline = BigInt((await latestTimestamp()) + DAY);
    expect(await escrow.connect(client).createEscrow.staticCall(tokenAddress, AGENT_ID, 5n, deadline)).to.equal(1n);
    await escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, 5n, deadline);
    await expect(escrow.connect(client).createEscrow(tokenAddress, 2n, 7n, deadline + 1n))
      .to.emit(escrow, "EscrowCreated")
      .withArgs(2n, client.address, 2n, tokenAddress, 7n, deadline + 1n);
    expect((await escrow.getEscrow(1n)).amount).to.equal(5n);
    expect((await escrow.getEscrow(2n)).amount).to.equal(7n);
    expect((await escrow.getEscrow(2n)).agentId).to.equal(2n);
    expect((await escrow.getEscrow(3n)).status).to.equal(STATUS.None);
    expect(await escrow.escrowCount()).to.equal(2n);
    expect(await token.balanceOf(escrowAddress)).to.equal(12n);
  });

  it("reverts ZeroAmount for a zero amount", async () => {
    const { escrow, token, client } = await loadFixture(deployEscrowStack);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(await token.getAddress(), AGENT_ID, 0n, deadline)).to.be.revertedWithCustomError(
      escrow,
      "ZeroAmount",
    );
  });

  it("reverts DeadlineNotInFuture for a deadline in the past or equal to the block time", async () => {
    const { escrow, token, client } = await loadFixture(deployEscrowStack);
    const tokenAddress = await token.getAddress();
    const blockTime = (await latestTimestamp()) + 100;
    await time.setNextBlockTimestamp(blockTime);
    await expect(escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, AMOUNT, BigInt(blockTime - 1)))
      .to.be.revertedWithCustomError(escrow, "DeadlineNotInFuture")
      .withArgs(blockTime - 1, blockTime);
    await time.setNextBlockTimestamp(blockTime + 10);
    await expect(escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, AMOUNT, BigInt(blockTime + 10)))
      .to.be.revertedWithCustomError(escrow, "DeadlineNotInFuture")
      .withArgs(blockTime + 10, blockTime + 10);
    await time.setNextBlockTimestamp(blockTime + 20);
    await expect(escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, AMOUNT, BigInt(blockTime + 21))).to.emit(
      escrow,
      "EscrowCreated",
    );
  });

  it("reverts TokenHasNoCode for a token address without code", async () => {
    const { escrow, client, stranger } = await loadFixture(deployEscrowStack);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(stranger.address, AGENT_ID, AMOUNT, deadline))
      .to.be.revertedWithCustomError(escrow, "TokenHasNoCode")
      .withArgs(stranger.address);
  });

  it("surfaces the token's own error when the allowance is too small", async () => {
    const { escrow, escrowAddress, token, client } = await loadFixture(deployEscrowStack);
    await token.connect(client).approve(escrowAddress, AMOUNT - 1n);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(await token.getAddress(), AGENT_ID, AMOUNT, deadline))
      .to.be.revertedWithCustomError(token, "ERC20InsufficientAllowance")
      .withArgs(escrowAddress, AMOUNT - 1n, AMOUNT);
  });

  it("reverts SafeERC20FailedOperation when transferFrom returns false", async () => {
    const { escrow, token, client } = await loadFixture(deployEscrowStack);
    const tokenAddress = await token.getAddress();
    await token.setTransfersReturnFalse(true);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, AMOUNT, deadline))
      .to.be.revertedWithCustomError(escrow, "SafeERC20FailedOperation")
      .withArgs(tokenAddress);
  });

  it("reverts NothingReceived when the transfer delivers nothing (100 % fee token)", async () => {
    const { escrow, escrowAddress, client, deployer } = await loadFixture(deployEscrowStack);
    const burnAll = await new FeeOnTransferToken__factory(deployer).deploy("Burn All", "BURN", 10_000n);
    const burnAllAddress = await burnAll.getAddress();
    await burnAll.mint(client.address, AMOUNT);
    await burnAll.mint(escrowAddress, 3n); // a balance already there must not count as received
    await burnAll.connect(client).approve(escrowAddress, AMOUNT);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(burnAllAddress, AGENT_ID, AMOUNT, deadline))
      .to.be.revertedWithCustomError(escrow, "NothingReceived")
      .withArgs(burnAllAddress, AMOUNT, 3n, 3n);
    expect(await burnAll.balanceOf(client.address)).to.equal(AMOUNT);
    expect(await escrow.escrowCount()).to.equal(0n);
  });
});

describe("TrustGatedEscrow: claim by the agent's controller", () => {
  it("pays the agent's owner exactly the escrowed amount and emits EscrowClaimed with the score", async () => {
    const { escrow, escrowAddress, token, agentOwner, escrowId, setRecord } = await loadFixture(openEscrowStack);
    await setRecord(AGENT_ID, { score: 77 });
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(escrowId, AGENT_ID, agentOwner.address, AMOUNT, 77);
    expect(await token.balanceOf(agentOwner.address)).to.equal(1_000n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(0n);
    expect((await escrow.getEscrow(escrowId)).status).to.equal(STATUS.Claimed);
  });

  it("pays the agent wallet registered in the identity registry", async () => {
    const { escrow, escrowAddress, token, identity, agentOwner, agentWallet, escrowId } = await loadFixture(openEscrowStack);
    await identity.connect(agentOwner).setAgentWallet(AGENT_ID, agentWallet.address);
    await expect(escrow.connect(agentWallet).claim(escrowId))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(escrowId, AGENT_ID, agentWallet.address, AMOUNT, 80);
    expect(await token.balanceOf(agentWallet.address)).to.equal(1_000n * UNIT);
    expect(await token.balanceOf(agentOwner.address)).to.equal(0n);
    expect(await token.balanceOf(escrowAddress)).to.equal(0n);
  });

  it("pays an operator approved for all of the owner's agents", async () => {
    const { escrow, token, identity, agentOwner, operator, escrowId } = await loadFixture(openEscrowStack);
    await expect(escrow.connect(operator).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "NotAgentController")
      .withArgs(AGENT_ID, operator.address);
    await identity.connect(agentOwner).setApprovalForAll(operator.address, true);
    await expect(escrow.connect(operator).claim(escrowId))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(escrowId, AGENT_ID, operator.address, AMOUNT, 80);
    expect(await token.balanceOf(operator.address)).to.equal(1_000n * UNIT);
  });

  it("pays the account approved for this one agent", async () => {
    const { escrow, token, identity, agentOwner, approved, escrowId } = await loadFixture(openEscrowStack);
    await identity.connect(agentOwner).approve(approved.address, AGENT_ID);
    await expect(escrow.connect(approved).claim(escrowId))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(escrowId, AGENT_ID, approved.address, AMOUNT, 80);
    expect(await token.balanceOf(approved.address)).to.equal(1_000n * UNIT);
  });

  it("follows the agent when it changes hands: the old owner is refused, the new owner is paid", async () => {
    const { escrow, token, identity, agentOwner, newOwner, escrowId } = await loadFixture(openEscrowStack);
    await identity.connect(agentOwner).transferFrom(agentOwner.address, newOwner.address, AGENT_ID);
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "NotAgentController")
      .withArgs(AGENT_ID, agentOwner.address);
    await escrow.connect(newOwner).claim(escrowId);
    expect(await token.balanceOf(newOwner.address)).to.equal(1_000n * UNIT);
    expect(await token.balanceOf(agentOwner.address)).to.equal(0n);
  });

  it("accepts a claim exactly at the deadline and refuses one a second later", async () => {
    const first = await loadFixture(openEscrowStack);
    await time.setNextBlockTimestamp(first.deadline - 1n);
    await first.setRecord(AGENT_ID, { updatedAt: Number(first.deadline) - HOUR });
    await time.setNextBlockTimestamp(first.deadline);
    await expect(first.escrow.connect(first.agentOwner).claim(first.escrowId)).to.emit(first.escrow, "EscrowClaimed");

    const { escrow, agentOwner, escrowId, deadline, setRecord } = await loadFixture(openEscrowStack);
    await time.setNextBlockTimestamp(deadline);
    await setRecord(AGENT_ID, { updatedAt: Number(deadline) });
    await time.setNextBlockTimestamp(deadline + 1n);
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "ClaimDeadlinePassed")
      .withArgs(escrowId, deadline, deadline + 1n);
  });

  it("pays each escrow once: a second claim reverts EscrowAlreadySettled(Claimed)", async () => {
    const { escrow, escrowAddress, token, agentOwner, escrowId } = await loadFixture(openEscrowStack);
    await escrow.connect(agentOwner).claim(escrowId);
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "EscrowAlreadySettled")
      .withArgs(escrowId, STATUS.Claimed);
    expect(await token.balanceOf(agentOwner.address)).to.equal(1_000n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(0n);
  });

  it("reverts UnknownEscrow for an id that was never created (including 0)", async () => {
    const { escrow, agentOwner } = await loadFixture(openEscrowStack);
    await expect(escrow.connect(agentOwner).claim(2n)).to.be.revertedWithCustomError(escrow, "UnknownEscrow").withArgs(2n);
    await expect(escrow.connect(agentOwner).claim(0n)).to.be.revertedWithCustomError(escrow, "UnknownEscrow").withArgs(0n);
  });

  it("reverts SafeERC20FailedOperation when the payout transfer returns false, leaving the escrow open", async () => {
    const { escrow, escrowAddress, token, agentOwner, escrowId } = await loadFixture(openEscrowStack);
    await token.setTransfersReturnFalse(true);
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "SafeERC20FailedOperation")
      .withArgs(await token.getAddress());
    expect((await escrow.getEscrow(escrowId)).status).to.equal(STATUS.Open);
    expect(await token.balanceOf(escrowAddress)).to.equal(AMOUNT);
  });
});

describe("TrustGatedEscrow: claim refused by the gate (funds stay locked)", () => {
  async function expectStillOpen(stack: Awaited<ReturnType<typeof openEscrowStack>>): Promise<void> {
    expect((await stack.escrow.getEscrow(stack.escrowId)).status).to.equal(STATUS.Open);
    expect(await stack.token.balanceOf(stack.escrowAddress)).to.equal(AMOUNT);
    expect(await stack.token.balanceOf(stack.agentOwner.address)).to.equal(0n);
  }

  it("no record → TrustRecordMissing(agentId, chainId, registry)", async () => {
    const stack = await loadFixture(openEscrowStack);
    await stack.oracle.clearRecord(AGENT_ID, BASE_CHAIN_ID, ERC8004);
    await expect(stack.escrow.connect(stack.agentOwner).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "TrustRecordMissing")
      .withArgs(AGENT_ID, BASE_CHAIN_ID, ERC8004);
    await expectStillOpen(stack);
  });

  it("record older than maxAge → TrustRecordStale(agentId, updatedAt, maxAge, blockTimestamp)", async () => {
    const stack = await loadFixture(openEscrowStack);
    const updatedAt = (await latestTimestamp()) + 1;
    await time.setNextBlockTimestamp(updatedAt);
    await stack.setRecord(AGENT_ID, { updatedAt });
    // Exactly maxAge old is still accepted; one second more is stale.
    await time.setNextBlockTimestamp(updatedAt + MAX_AGE + 1);
    await expect(stack.escrow.connect(stack.agentOwner).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "TrustRecordStale")
      .withArgs(AGENT_ID, updatedAt, MAX_AGE, updatedAt + MAX_AGE + 1);
    await expectStillOpen(stack);
  });

  it("record dated in the future → TrustRecordFromFuture(agentId, updatedAt, blockTimestamp)", async () => {
    const stack = await loadFixture(openEscrowStack);
    const now = await latestTimestamp();
    await stack.setRecord(AGENT_ID, { updatedAt: now + HOUR });
    await time.setNextBlockTimestamp(now + 10);
    await expect(stack.escrow.connect(stack.agentOwner).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "TrustRecordFromFuture")
      .withArgs(AGENT_ID, now + HOUR, now + 10);
    await expectStillOpen(stack);
  });

  it("score below minScore → TrustScoreTooLow(agentId, score, minScore)", async () => {
    const stack = await loadFixture(openEscrowStack);
    await stack.setRecord(AGENT_ID, { score: MIN_SCORE - 1 });
    await expect(stack.escrow.connect(stack.agentOwner).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "TrustScoreTooLow")
      .withArgs(AGENT_ID, MIN_SCORE - 1, MIN_SCORE);
    await expectStillOpen(stack);
  });

  it("sybil severity above the limit → SybilSeverityTooHigh(agentId, severity, max)", async () => {
    const stack = await loadFixture(openEscrowStack);
    await stack.setRecord(AGENT_ID, { sybilSeverity: SYBIL.elevated });
    await expect(stack.escrow.connect(stack.agentOwner).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "SybilSeverityTooHigh")
      .withArgs(AGENT_ID, SYBIL.elevated, SYBIL.moderate);
    await expectStillOpen(stack);
  });

  it("caller who does not control the agent (a stranger, or the client) → NotAgentController(agentId, caller)", async () => {
    const stack = await loadFixture(openEscrowStack);
    await expect(stack.escrow.connect(stack.stranger).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "NotAgentController")
      .withArgs(AGENT_ID, stack.stranger.address);
    await expect(stack.escrow.connect(stack.client).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "NotAgentController")
      .withArgs(AGENT_ID, stack.client.address);
    await expectStillOpen(stack);
  });

  it("agent unknown to the identity registry → AgentIdentityUnavailable(registry, agentId)", async () => {
    const { escrow, token, client, agentOwner, identity, setRecord } = await loadFixture(openEscrowStack);
    const unregistered = 7n;
    await setRecord(unregistered);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await escrow.connect(client).createEscrow(await token.getAddress(), unregistered, AMOUNT, deadline);
    await expect(escrow.connect(agentOwner).claim(2n))
      .to.be.revertedWithCustomError(escrow, "AgentIdentityUnavailable")
      .withArgs(await identity.getAddress(), unregistered);
  });

  it("oracle reverting → TrustOracleUnavailable(oracle, revert data); the claim works again once it recovers", async () => {
    const stack = await loadFixture(openEscrowStack);
    const { oracle, escrow, agentOwner, escrowId } = stack;
    await oracle.setReadFailure(1); // CustomError
    const reason = oracle.interface.getError("MockOracleUnavailable")!.selector;
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "TrustOracleUnavailable")
      .withArgs(await oracle.getAddress(), reason);
    await expectStillOpen(stack);
    await oracle.setReadFailure(0);
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(escrowId, AGENT_ID, agentOwner.address, AMOUNT, 80);
  });

  it("a tighter policy set by the owner applies to escrows already open", async () => {
    const stack = await loadFixture(openEscrowStack);
    await stack.escrow.connect(stack.deployer).setTrustPolicy(makePolicy({ minScore: 90, requireController: true }));
    await expect(stack.escrow.connect(stack.agentOwner).claim(stack.escrowId))
      .to.be.revertedWithCustomError(stack.escrow, "TrustScoreTooLow")
      .withArgs(AGENT_ID, 80, 90);
    await expectStillOpen(stack);
  });
});

describe("TrustGatedEscrow: refund", () => {
  it("returns the funds to the client after the deadline and emits EscrowRefunded", async () => {
    const { escrow, escrowAddress, token, client, escrowId, deadline } = await loadFixture(openEscrowStack);
    expect(await token.balanceOf(client.address)).to.equal(9_000n * UNIT);
    await time.setNextBlockTimestamp(deadline + 1n);
    await expect(escrow.connect(client).refund(escrowId))
      .to.emit(escrow, "EscrowRefunded")
      .withArgs(escrowId, client.address, client.address, AMOUNT);
    expect(await token.balanceOf(client.address)).to.equal(10_000n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(0n);
    expect((await escrow.getEscrow(escrowId)).status).to.equal(STATUS.Refunded);
  });

  it("reverts RefundDeadlineNotReached before and exactly at the deadline", async () => {
    const { escrow, client, escrowId, deadline } = await loadFixture(openEscrowStack);
    const now = BigInt(await latestTimestamp());
    await time.setNextBlockTimestamp(now + 1n);
    await expect(escrow.connect(client).refund(escrowId))
      .to.be.revertedWithCustomError(escrow, "RefundDeadlineNotReached")
      .withArgs(escrowId, deadline, now + 1n);
    await time.setNextBlockTimestamp(deadline);
    await expect(escrow.connect(client).refund(escrowId))
      .to.be.revertedWithCustomError(escrow, "RefundDeadlineNotReached")
      .withArgs(escrowId, deadline, deadline);
  });

  it("reverts NotEscrowClient for anyone but the client, including the agent's owner", async () => {
    const { escrow, client, stranger, agentOwner, escrowId, deadline } = await loadFixture(openEscrowStack);
    await time.increaseTo(deadline + 1n);
    await expect(escrow.connect(stranger).refund(escrowId))
      .to.be.revertedWithCustomError(escrow, "NotEscrowClient")
      .withArgs(escrowId, stranger.address, client.address);
    await expect(escrow.connect(agentOwner).refund(escrowId))
      .to.be.revertedWithCustomError(escrow, "NotEscrowClient")
      .withArgs(escrowId, agentOwner.address, client.address);
  });

  it("reverts UnknownEscrow for an id that was never created", async () => {
    const { escrow, client } = await loadFixture(openEscrowStack);
    await expect(escrow.connect(client).refund(9n)).to.be.revertedWithCustomError(escrow, "UnknownEscrow").withArgs(9n);
  });

  it("a claimed escrow cannot be refunded: EscrowAlreadySettled(Claimed)", async () => {
    const { escrow, client, agentOwner, escrowId, deadline, token } = await loadFixture(openEscrowStack);
    await escrow.connect(agentOwner).claim(escrowId);
    await time.increaseTo(deadline + 1n);
    await expect(escrow.connect(client).refund(escrowId))
      .to.be.revertedWithCustomError(escrow, "EscrowAlreadySettled")
      .withArgs(escrowId, STATUS.Claimed);
    expect(await token.balanceOf(client.address)).to.equal(9_000n * UNIT);
  });

  it("a refunded escrow can be neither refunded again nor claimed: EscrowAlreadySettled(Refunded)", async () => {
    const { escrow, escrowAddress, client, agentOwner, escrowId, deadline, token, setRecord } = await loadFixture(openEscrowStack);
    await time.increaseTo(deadline + 1n);
    await escrow.connect(client).refund(escrowId);
    await expect(escrow.connect(client).refund(escrowId))
      .to.be.revertedWithCustomError(escrow, "EscrowAlreadySettled")
      .withArgs(escrowId, STATUS.Refunded);
    await setRecord(AGENT_ID);
    await expect(escrow.connect(agentOwner).claim(escrowId))
      .to.be.revertedWithCustomError(escrow, "EscrowAlreadySettled")
      .withArgs(escrowId, STATUS.Refunded);
    expect(await token.balanceOf(client.address)).to.equal(10_000n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(0n);
  });

  it("does not depend on the oracle: the client is refunded while the oracle reverts", async () => {
    const { escrow, oracle, client, escrowId, deadline, token } = await loadFixture(openEscrowStack);
    await oracle.setReadFailure(1);
    await time.increaseTo(deadline + 1n);
    await expect(escrow.connect(client).refund(escrowId))
      .to.emit(escrow, "EscrowRefunded")
      .withArgs(escrowId, client.address, client.address, AMOUNT);
    expect(await token.balanceOf(client.address)).to.equal(10_000n * UNIT);
  });

  it("refunds only its own escrow: another open escrow of the same token stays funded", async () => {
    const { escrow, escrowAddress, token, client, agentOwner, escrowId, deadline, setRecord } = await loadFixture(openEscrowStack);
    const tokenAddress = await token.getAddress();
    await escrow.connect(client).createEscrow(tokenAddress, AGENT_ID, 250n * UNIT, deadline + 10n * BigInt(DAY));
    await time.increaseTo(deadline + 1n);
    await escrow.connect(client).refund(escrowId);
    expect(await token.balanceOf(escrowAddress)).to.equal(250n * UNIT);
    await setRecord(AGENT_ID);
    await escrow.connect(agentOwner).claim(2n);
    expect(await token.balanceOf(agentOwner.address)).to.equal(250n * UNIT);
    expect(await token.balanceOf(client.address)).to.equal(9_750n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(0n);
  });
});

describe("TrustGatedEscrow: fee-on-transfer token", () => {
  async function feeTokenStack() {
    const stack = await deployEscrowStack();
    // 1 % of every transfer is burnt.
    const feeToken = await new FeeOnTransferToken__factory(stack.deployer).deploy("Taxed", "TAX", 100n);
    await feeToken.mint(stack.client.address, 10_000n);
    await feeToken.connect(stack.client).approve(stack.escrowAddress, hre.ethers.MaxUint256);
    return { ...stack, feeToken, feeTokenAddress: await feeToken.getAddress() };
  }

  it("records the amount received, not the amount sent, and emits it", async () => {
    const { escrow, escrowAddress, client, feeToken, feeTokenAddress } = await loadFixture(feeTokenStack);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await expect(escrow.connect(client).createEscrow(feeTokenAddress, AGENT_ID, 1_000n, deadline))
      .to.emit(escrow, "EscrowCreated")
      .withArgs(1n, client.address, AGENT_ID, feeTokenAddress, 990n, deadline);
    expect((await escrow.getEscrow(1n)).amount).to.equal(990n);
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(990n);
    expect(await feeToken.balanceOf(client.address)).to.equal(9_000n);
  });

  it("claims send exactly the recorded amounts (two escrows drain the contract to zero) and report what arrived", async () => {
    const { escrow, escrowAddress, client, agentOwner, feeToken, feeTokenAddress } = await loadFixture(feeTokenStack);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await escrow.connect(client).createEscrow(feeTokenAddress, AGENT_ID, 1_000n, deadline); // 990 received
    await escrow.connect(client).createEscrow(feeTokenAddress, AGENT_ID, 500n, deadline); // 495 received
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(1_485n);

    // 990 sent, 1 % of it (9, rounded down) burnt on the way out: the event carries the 981 that arrived.
    await expect(escrow.connect(agentOwner).claim(1n))
      .to.emit(escrow, "EscrowClaimed")
      .withArgs(1n, AGENT_ID, agentOwner.address, 981n, 80);
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(495n);
    expect(await feeToken.balanceOf(agentOwner.address)).to.equal(981n);

    await escrow.connect(agentOwner).claim(2n);
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(0n);
    expect(await feeToken.balanceOf(agentOwner.address)).to.equal(981n + 491n);
  });

  it("refunds exactly the recorded amount and reports what arrived", async () => {
    const { escrow, escrowAddress, client, feeToken, feeTokenAddress } = await loadFixture(feeTokenStack);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await escrow.connect(client).createEscrow(feeTokenAddress, AGENT_ID, 2_000n, deadline); // 1 980 received
    await time.increaseTo(deadline + 1n);
    // 1 980 sent back, 19 burnt on the way: the event says what the client received.
    await expect(escrow.connect(client).refund(1n)).to.emit(escrow, "EscrowRefunded").withArgs(1n, client.address, client.address, 1_961n);
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(0n);
    // 8 000 left + 1 980 refunded − 19 burnt on the way back.
    expect(await feeToken.balanceOf(client.address)).to.equal(9_961n);
  });
});

describe("TrustGatedEscrow: re-entrancy through a malicious token", () => {
  async function reentrantStack() {
    const stack = await deployEscrowStack();
    const evil = await new ReentrantToken__factory(stack.deployer).deploy("Evil", "EVIL");
    const evilAddress = await evil.getAddress();
    await evil.mint(stack.client.address, 10_000n);
    await evil.connect(stack.client).approve(stack.escrowAddress, hre.ethers.MaxUint256);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await stack.escrow.connect(stack.client).createEscrow(evilAddress, AGENT_ID, 1_000n, deadline);
    await stack.escrow.connect(stack.client).createEscrow(evilAddress, AGENT_ID, 500n, deadline);
    return { ...stack, evil, evilAddress, deadline };
  }

  it("control: the token's hook really calls the escrow from inside a claim payout", async () => {
    const { escrow, escrowAddress, evil, agentOwner } = await loadFixture(reentrantStack);
    await evil.arm(escrowAddress, escrow.interface.encodeFunctionData("escrowCount"));
    await expect(escrow.connect(agentOwner).claim(1n))
      .to.emit(evil, "Reentered")
      .withArgs(escrowAddress, hre.ethers.AbiCoder.defaultAbiCoder().encode(["uint256"], [2n]));
    expect(await evil.balanceOf(agentOwner.address)).to.equal(1_000n);
  });

  it("blocks a re-entrant claim of another escrow during a claim payout", async () => {
    const { escrow, escrowAddress, evil, agentOwner } = await loadFixture(reentrantStack);
    await evil.arm(escrowAddress, escrow.interface.encodeFunctionData("claim", [2n]));
    await expect(escrow.connect(agentOwner).claim(1n)).to.be.revertedWithCustomError(escrow, "ReentrancyGuardReentrantCall");
    expect((await escrow.getEscrow(1n)).status).to.equal(STATUS.Open);
    expect((await escrow.getEscrow(2n)).status).to.equal(STATUS.Open);
    expect(await evil.balanceOf(escrowAddress)).to.equal(1_500n);
    expect(await evil.balanceOf(agentOwner.address)).to.equal(0n);
  });

  it("blocks a re-entrant refund during a refund payout", async () => {
    const { escrow, escrowAddress, evil, client, deadline } = await loadFixture(reentrantStack);
    await time.increaseTo(deadline + 1n);
    await evil.arm(escrowAddress, escrow.interface.encodeFunctionData("refund", [2n]));
    await expect(escrow.connect(client).refund(1n)).to.be.revertedWithCustomError(escrow, "ReentrancyGuardReentrantCall");
    expect((await escrow.getEscrow(1n)).status).to.equal(STATUS.Open);
    expect(await evil.balanceOf(escrowAddress)).to.equal(1_500n);
    expect(await evil.balanceOf(client.address)).to.equal(8_500n);
  });

  it("blocks a re-entrant claim from inside the deposit of createEscrow", async () => {
    const { escrow, escrowAddress, evil, evilAddress, client, deadline } = await loadFixture(reentrantStack);
    await evil.arm(escrowAddress, escrow.interface.encodeFunctionData("claim", [1n]));
    await expect(escrow.connect(client).createEscrow(evilAddress, AGENT_ID, 100n, deadline)).to.be.revertedWithCustomError(
      escrow,
      "ReentrancyGuardReentrantCall",
    );
    expect(await escrow.escrowCount()).to.equal(2n);
    expect(await evil.balanceOf(escrowAddress)).to.equal(1_500n);
  });
});

describe("TrustGatedEscrow: refund to another address (a client the token blocks)", () => {
  async function blockedClientStack() {
    const stack = await deployEscrowStack();
    const blockToken = await new BlocklistToken__factory(stack.deployer).deploy("Blocklisted USD", "BUSD");
    const blockTokenAddress = await blockToken.getAddress();
    await blockToken.mint(stack.client.address, AMOUNT);
    await blockToken.connect(stack.client).approve(stack.escrowAddress, AMOUNT);
    const deadline = BigInt((await latestTimestamp()) + DAY);
    await stack.escrow.connect(stack.client).createEscrow(blockTokenAddress, AGENT_ID, AMOUNT, deadline);
    // After the deposit the issuer blocks the client: the token refuses every transfer to it from now on.
    await blockToken.setBlocked(stack.client.address, true);
    await time.increaseTo(deadline + 1n);
    return { ...stack, blockToken, blockTokenAddress, deadline };
  }

  it("control: refund to the blocked client reverts with the token's error and the escrow stays open", async () => {
    const { escrow, client, blockToken } = await loadFixture(blockedClientStack);
    await expect(escrow.connect(client).refund(1n)).to.be.revertedWithCustomError(blockToken, "AccountBlocked").withArgs(client.address);
    expect((await escrow.getEscrow(1n)).status).to.equal(STATUS.Open);
  });

  it("the client names another recipient with refundTo, which receives the funds", async () => {
    const { escrow, escrowAddress, client, newOwner, blockToken } = await loadFixture(blockedClientStack);
    await expect(escrow.connect(client).refundTo(1n, newOwner.address))
      .to.emit(escrow, "EscrowRefunded")
      .withArgs(1n, client.address, newOwner.address, AMOUNT);
    expect(await blockToken.balanceOf(newOwner.address)).to.equal(AMOUNT);
    expect(await blockToken.balanceOf(escrowAddress)).to.equal(0n);
    expect((await escrow.getEscrow(1n)).status).to.equal(STATUS.Refunded);
  });

  it("only the client may name the recipient, and not the zero address nor the escrow itself", async () => {
    const { escrow, escrowAddress, client, stranger } = await loadFixture(blockedClientStack);
    await expect(escrow.connect(stranger).refundTo(1n, stranger.address))
      .to.be.revertedWithCustomError(escrow, "NotEscrowClient")
      .withArgs(1n, stranger.address, client.address);
    await expect(escrow.connect(client).refundTo(1n, hre.ethers.ZeroAddress))
      .to.be.revertedWithCustomError(escrow, "InvalidRefundRecipient")
      .withArgs(hre.ethers.ZeroAddress);
    await expect(escrow.connect(client).refundTo(1n, escrowAddress))
      .to.be.revertedWithCustomError(escrow, "InvalidRefundRecipient")
      .withArgs(escrowAddress);
  });
});

describe("TrustGatedEscrow: sweeping the surplus", () => {
  /** One open escrow of AMOUNT, plus 7 tokens sent to the escrow directly (or a rebase: the same to the escrow). */
  async function surplusStack() {
    const stack = await openEscrowStack();
    await stack.token.mint(stack.escrowAddress, 7n * UNIT);
    return stack;
  }

  it("sends the owner-named recipient the balance beyond what open escrows owe, never what they owe", async () => {
    const { escrow, escrowAddress, token, deployer, stranger, agentOwner, escrowId } = await loadFixture(surplusStack);
    const tokenAddress = await token.getAddress();
    expect(await escrow.owedBalance(tokenAddress)).to.equal(AMOUNT);
    expect(await escrow.surplusOf(tokenAddress)).to.equal(7n * UNIT);
    await expect(escrow.connect(deployer).sweepSurplus(tokenAddress, stranger.address))
      .to.emit(escrow, "SurplusSwept")
      .withArgs(tokenAddress, stranger.address, 7n * UNIT);
    expect(await token.balanceOf(stranger.address)).to.equal(7n * UNIT);
    expect(await token.balanceOf(escrowAddress)).to.equal(AMOUNT);
    await expect(escrow.connect(deployer).sweepSurplus(tokenAddress, stranger.address))
      .to.be.revertedWithCustomError(escrow, "NoSurplus")
      .withArgs(tokenAddress, AMOUNT, AMOUNT);
    // The open escrow is still paid in full.
    await escrow.connect(agentOwner).claim(escrowId);
    expect(await token.balanceOf(agentOwner.address)).to.equal(AMOUNT);
    expect(await escrow.owedBalance(tokenAddress)).to.equal(0n);
  });

  it("after settlement the whole remaining balance is surplus", async () => {
    const { escrow, token, deployer, client, escrowId, deadline } = await loadFixture(surplusStack);
    const tokenAddress = await token.getAddress();
    await time.increaseTo(deadline + 1n);
    await escrow.connect(client).refund(escrowId);
    await token.mint(await escrow.getAddress(), 5n * UNIT);
    await expect(escrow.connect(deployer).sweepSurplus(tokenAddress, client.address))
      .to.emit(escrow, "SurplusSwept")
      .withArgs(tokenAddress, client.address, 12n * UNIT);
    expect(await token.balanceOf(await escrow.getAddress())).to.equal(0n);
  });

  it("a token with no escrow at all can be swept entirely", async () => {
    const { escrow, deployer, stranger } = await loadFixture(deployEscrowStack);
    const stray = await new MintableTestToken__factory(deployer).deploy("Stray", "STR");
    await stray.mint(await escrow.getAddress(), 3n);
    await expect(escrow.connect(deployer).sweepSurplus(await stray.getAddress(), stranger.address))
      .to.emit(escrow, "SurplusSwept")
      .withArgs(await stray.getAddress(), stranger.address, 3n);
  });

  it("only the owner may sweep, and not to the zero address nor to the escrow itself", async () => {
    const { escrow, escrowAddress, token, deployer, client } = await loadFixture(surplusStack);
    const tokenAddress = await token.getAddress();
    await expect(escrow.connect(client).sweepSurplus(tokenAddress, client.address))
      .to.be.revertedWithCustomError(escrow, "OwnableUnauthorizedAccount")
      .withArgs(client.address);
    await expect(escrow.connect(deployer).sweepSurplus(tokenAddress, hre.ethers.ZeroAddress))
      .to.be.revertedWithCustomError(escrow, "InvalidSweepRecipient")
      .withArgs(hre.ethers.ZeroAddress);
    await expect(escrow.connect(deployer).sweepSurplus(tokenAddress, escrowAddress))
      .to.be.revertedWithCustomError(escrow, "InvalidSweepRecipient")
      .withArgs(escrowAddress);
  });

  it("counts what fee-on-transfer escrows actually hold, so their payouts stay covered", async () => {
    const { escrow, escrowAddress, deployer, client, agentOwner, stranger } = await loadFixture(deployEscrowStack);
    const feeToken = await new FeeOnTransferToken__factory(deployer).deploy("Taxed", "TAX", 100n);
    const feeTokenAddress = await feeToken.getAddress();
    await feeToken.mint(client.address, 10_000n);
    await feeToken.connect(client).approve(escrowAddress, hre.ethers.MaxUint256);
    await escrow.connect(client).createEscrow(feeTokenAddress, AGENT_ID, 1_000n, BigInt((await latestTimestamp()) + DAY)); // 990 held
    await feeToken.mint(escrowAddress, 10n);
    expect(await escrow.owedBalance(feeTokenAddress)).to.equal(990n);
    await escrow.connect(deployer).sweepSurplus(feeTokenAddress, stranger.address);
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(990n);
    await escrow.connect(agentOwner).claim(1n);
    expect(await feeToken.balanceOf(escrowAddress)).to.equal(0n);
  });
});
