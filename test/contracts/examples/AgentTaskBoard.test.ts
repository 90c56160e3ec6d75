// AgentTaskBoard with a pluggable admission hook. Every test drives the hook through the board, the contract
// that really calls it: a hook whose magic value never matches what the board expects would pass tests
// that call it directly.

import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import { AbiCoder, concat, id, parseEther, ZeroAddress, zeroPadValue } from "ethers";
import hre from "hardhat";
import { describe, it } from "vitest";
import {
  type AgentTaskBoard,
  AgentTaskBoard__factory,
  MockIdentityRegistry__factory,
  MockTrustOracle__factory,
  NoReturnHook__factory,
  RawResponseOracle__factory,
  type TrustAdmissionHook,
  TrustAdmissionHook__factory,
  WrongSelectorHook__factory,
} from "../../../typechain-types";
import type { TrustPolicyStruct } from "../../../typechain-types/contracts/examples/TrustAdmissionHook";
import { BASE_CHAIN_ID, ERC8004, HOUR, latestTimestamp, makePolicy, REFUSAL, recordSetter, SYBIL } from "../../support/fixtures";

/** `AgentTaskBoard.TaskStatus`, in enum order. */
const Status = { None: 0n, Open: 1n, Taken: 2n, Paid: 3n, Cancelled: 4n, Reclaimed: 5n } as const;
/** `MockTrustOracle.ReadFailure`. */
const ReadFailure = { None: 0, CustomError: 1, EmptyRevert: 2 } as const;

/** The magic value the board expects, computed from the interface's signature, not from any contract. */
const ADMIT_MAGIC = id("admitAgent(address,uint256)").slice(0, 10);
/** The magic value of the buggy hook: the selector of the swapped signature. */
const SWAPPED_MAGIC = id("admitAgent(uint256,address)").slice(0, 10);

const BOUNTY = parseEther("1.5");
const MAX_AGE = 36 * HOUR;
const AGENT_ID = 1n;
const abi = AbiCoder.defaultAbiCoder();

async function deployBoard() {
  const [deployer, client, agentOwner, stranger, agentWallet, newOwner] = await hre.ethers.getSigners();
  if (!deployer || !client || !agentOwner || !stranger || !agentWallet || !newOwner) {
    throw new Error("Hardhat network has too few accounts");
  }
  const oracle = await new MockTrustOracle__factory(deployer).deploy();
  const identity = await new MockIdentityRegistry__factory(deployer).deploy();
  await identity.connect(agentOwner).register(); // agent 1
  await identity.connect(agentOwner).register(); // agent 2, never given a record

  const deployHook = async (policy: Partial<TrustPolicyStruct> = {}): Promise<TrustAdmissionHook> =>
    new TrustAdmissionHook__factory(deployer).deploy(
      {
        oracle: await oracle.getAddress(),
        identityRegistry: await identity.getAddress(),
        agentChainId: BASE_CHAIN_ID,
        agentRegistry: ERC8004,
        policy: makePolicy({ requireController: true, ...policy }),
      },
      deployer.address,
    );
  const hook = await deployHook();
  const board = await new AgentTaskBoard__factory(deployer).deploy(await hook.getAddress(), deployer.address);

  const setRecord = recordSetter(oracle);
  await setRecord(AGENT_ID);

  /** Posts a task from `client` with `BOUNTY`, due in `dueIn` seconds; returns its id and deadline. */
  const post = async (dueIn = 6 * HOUR): Promise<{ taskId: bigint; deadline: number }> => {
    const deadline = (await latestTimestamp()) + dueIn;
    await board.connect(client).postTask(deadline, { value: BOUNTY });
    return { taskId: await board.taskCount(), deadline };
  };

  return {
    deployer,
    client,
    agentOwner,
    stranger,
    agentWallet,
    newOwner,
    oracle,
    identity,
    hook,
    board,
    deployHook,
    setRecord,
    post,
  };
}

/** The board's balance, to check that a refused payout moved nothing. */
async function balanceOf(board: AgentTaskBoard): Promise<bigint> {
  return hre.ethers.provider.getBalance(await board.getAddress());
}

/** The raw revert data of a call that must revert (Hardhat's provider error carries it as `data`). */
async function revertData(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    if (typeof data === "string") return data;
    throw error;
  }
  throw new Error("the call did not revert");
}

/** Pins the next block's timestamp at `seconds` after the latest one and returns it. */
async function nextBlockIn(seconds: number): Promise<number> {
  const at = (await latestTimestamp()) + seconds;
  await time.setNextBlockTimestamp(at);
  return at;
}

describe("AgentTaskBoard: deployment", () => {
  it("installs the hook given to the constructor, with an event, under the given owner", async () => {
    const { board, hook, deployer } = await loadFixture(deployBoard);
    expect(await board.admissionHook()).to.equal(await hook.getAddress());
    expect(await board.owner()).to.equal(deployer.address);
    expect(await board.taskCount()).to.equal(0n);
    await expect(board.deploymentTransaction())
      .to.emit(board, "AdmissionHookChanged")
      .withArgs(ZeroAddress, await hook.getAddress());
  });

  it("refuses a hook without code at deployment", async () => {
    const { deployer, stranger } = await loadFixture(deployBoard);
    const factory = new AgentTaskBoard__factory(deployer);
    await expect(factory.deploy(stranger.address, deployer.address))
      .to.be.revertedWithCustomError(factory, "InvalidAdmissionHook")
      .withArgs(stranger.address);
    await expect(factory.deploy(ZeroAddress, deployer.address))
      .to.be.revertedWithCustomError(factory, "InvalidAdmissionHook")
      .withArgs(ZeroAddress);
  });
});

describe("AgentTaskBoard: life cycle", () => {
  it("posts, takes and pays a task, moving exactly the bounty, with events", async () => {
    const { board, client, agentOwner } = await loadFixture(deployBoard);
    const deadline = (await latestTimestamp()) + 6 * HOUR;

    const posting = board.connect(client).postTask(deadline, { value: BOUNTY });
    await expect(posting).to.changeEtherBalances([client, board], [-BOUNTY, BOUNTY]);
    await expect(posting).to.emit(board, "TaskPosted").withArgs(1n, client.address, BOUNTY, deadline);
    expect(await board.taskCount()).to.equal(1n);
    let task = await board.getTask(1n);
    expect(task.client).to.equal(client.address);
    expect(task.deadline).to.equal(BigInt(deadline));
    expect(task.status).to.equal(Status.Open);
    expect(task.agentAccount).to.equal(ZeroAddress);
    expect(task.bounty).to.equal(BOUNTY);
    expect(task.agentId).to.equal(0n);

    await expect(board.connect(agentOwner).takeTask(1n, AGENT_ID)).to.emit(board, "TaskTaken").withArgs(1n, AGENT_ID, agentOwner.address);
    task = await board.getTask(1n);
    expect(task.status).to.equal(Status.Taken);
    expect(task.agentAccount).to.equal(agentOwner.address);
    expect(task.agentId).to.equal(AGENT_ID);

    const approval = board.connect(client).approveDelivery(1n);
    await expect(approval).to.changeEtherBalances([client, agentOwner, board], [0n, BOUNTY, -BOUNTY]);
    await expect(approval).to.emit(board, "DeliveryApproved").withArgs(1n, AGENT_ID, agentOwner.address, BOUNTY);
    expect((await board.getTask(1n)).status).to.equal(Status.Paid);
    expect(await balanceOf(board)).to.equal(0n);

    await expect(board.connect(client).approveDelivery(1n)).to.be.revertedWithCustomError(board, "TaskNotTaken").withArgs(1n, Status.Paid);
    await expect(board.connect(client).reclaimBounty(1n))
      .to.be.revertedWithCustomError(board, "TaskNotReclaimable")
      .withArgs(1n, Status.Paid);
  });

  it("pays the account that took the task: the agent wallet, not the agent's owner", async () => {
    const { board, identity, client, agentOwner, agentWallet, post } = await loadFixture(deployBoard);
    await identity.connect(agentOwner).setAgentWallet(AGENT_ID, agentWallet.address);
    const { taskId } = await post();
    await expect(board.connect(agentWallet).takeTask(taskId, AGENT_ID))
      .to.emit(board, "TaskTaken")
      .withArgs(taskId, AGENT_ID, agentWallet.address);
    await expect(board.connect(client).approveDelivery(taskId)).to.changeEtherBalances(
      [agentWallet, agentOwner, board],
      [BOUNTY, 0n, -BOUNTY],
    );
  });

  it("numbers tasks from 1 and keeps each task's bounty apart", async () => {
    const { board, client, stranger, agentOwner, post } = await loadFixture(deployBoard);
    const first = await post();
    const deadline = (await latestTimestamp()) + HOUR;
    await expect(board.connect(stranger).postTask(deadline, { value: 7n }))
      .to.emit(board, "TaskPosted")
      .withArgs(2n, stranger.address, 7n, deadline);
    expect(first.taskId).to.equal(1n);
    expect(await board.taskCount()).to.equal(2n);
    expect(await balanceOf(board)).to.equal(BOUNTY + 7n);

    await board.connect(agentOwner).takeTask(2n, AGENT_ID);
    await expect(board.connect(stranger).approveDelivery(2n)).to.changeEtherBalances([agentOwner, board, client], [7n, -7n, 0n]);
    expect((await board.getTask(1n)).status).to.equal(Status.Open);
  });

  it("refuses a task without bounty or with a deadline that is not in the future", async () => {
    const { board, client } = await loadFixture(deployBoard);
    const later = (await latestTimestamp()) + HOUR;
    await expect(board.connect(client).postTask(later)).to.be.revertedWithCustomError(board, "ZeroBounty");

    const at = await nextBlockIn(10);
    await expect(board.connect(client).postTask(at, { value: BOUNTY }))
      .to.be.revertedWithCustomError(board, "DeadlineNotInFuture")
      .withArgs(at, at);
    // A reverted transaction is still mined, so each pin moves on by a second.
    await time.setNextBlockTimestamp(at + 1);
    await expect(board.connect(client).postTask(at - 100, { value: BOUNTY }))
      .to.be.revertedWithCustomError(board, "DeadlineNotInFuture")
      .withArgs(at - 100, at + 1);
    await time.setNextBlockTimestamp(at + 2);
    await expect(board.connect(client).postTask(at + 3, { value: BOUNTY }))
      .to.emit(board, "TaskPosted")
      .withArgs(1n, client.address, BOUNTY, at + 3);
  });
});

describe("AgentTaskBoard: trust gate refusals surface through takeTask", () => {
  it("refuses an agent with no record", async () => {
    const { board, hook, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await expect(board.connect(agentOwner).takeTask(taskId, 2n))
      .to.be.revertedWithCustomError(hook, "TrustRecordMissing")
      .withArgs(2n, BASE_CHAIN_ID, ERC8004);
    expect((await board.getTask(taskId)).status).to.equal(Status.Open);
  });

  it("refuses a stale record, and admits one exactly maxAge old", async () => {
    const { board, hook, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    const at = (await latestTimestamp()) + 100;
    await setRecord(AGENT_ID, { updatedAt: at - MAX_AGE - 1 });
    await time.setNextBlockTimestamp(at);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "TrustRecordStale")
      .withArgs(AGENT_ID, at - MAX_AGE - 1, MAX_AGE, at);

    // The reverted transaction was mined at `at`; the record below is written at `at + 1`.
    await setRecord(AGENT_ID, { updatedAt: at + 2 - MAX_AGE });
    await time.setNextBlockTimestamp(at + 2);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.emit(board, "TaskTaken")
      .withArgs(taskId, AGENT_ID, agentOwner.address);
  });

  it("refuses a record dated after the current block", async () => {
    const { board, hook, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    const at = (await latestTimestamp()) + 100;
    await setRecord(AGENT_ID, { updatedAt: at + 1 });
    await time.setNextBlockTimestamp(at);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "TrustRecordFromFuture")
      .withArgs(AGENT_ID, at + 1, at);
  });

  it("refuses a score below the policy's minimum", async () => {
    const { board, hook, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await setRecord(AGENT_ID, { score: 50 });
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "TrustScoreTooLow")
      .withArgs(AGENT_ID, 50, 51);
    const [allowed, refusal] = await hook.trustVerdict(AGENT_ID, agentOwner.address);
    expect(allowed).to.equal(false);
    expect(REFUSAL[Number(refusal)]).to.equal("ScoreTooLow");
  });

  it("refuses a sybil severity above the policy's maximum", async () => {
    const { board, hook, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await setRecord(AGENT_ID, { sybilSeverity: SYBIL.elevated });
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "SybilSeverityTooHigh")
      .withArgs(AGENT_ID, SYBIL.elevated, SYBIL.moderate);
  });

  it("checks the board's caller, not the board, as the agent's controller", async () => {
    const { board, hook, stranger, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await expect(board.connect(stranger).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "NotAgentController")
      .withArgs(AGENT_ID, stranger.address);
  });

  it("refuses an agent the identity registry does not know", async () => {
    const { board, hook, identity, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await setRecord(99n);
    await expect(board.connect(agentOwner).takeTask(taskId, 99n))
      .to.be.revertedWithCustomError(hook, "AgentIdentityUnavailable")
      .withArgs(await identity.getAddress(), 99n);
  });

  it("refuses while the oracle reverts, with or without a reason", async () => {
    const { board, hook, oracle, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await oracle.setReadFailure(ReadFailure.CustomError);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "TrustOracleUnavailable")
      .withArgs(await oracle.getAddress(), oracle.interface.encodeErrorResult("MockOracleUnavailable", []));
    await oracle.setReadFailure(ReadFailure.EmptyRevert);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(hook, "TrustOracleUnavailable")
      .withArgs(await oracle.getAddress(), "0x");
    await oracle.setReadFailure(ReadFailure.None);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID)).to.emit(board, "TaskTaken");
  });
});

describe("AgentTaskBoard: trust re-checked at payout", () => {
  it("does not pay an agent whose score collapsed after taking the task, and pays once it recovers", async () => {
    const { board, hook, client, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    await setRecord(AGENT_ID, { score: 20 });

    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(hook, "TrustScoreTooLow")
      .withArgs(AGENT_ID, 20, 51);
    expect(await balanceOf(board)).to.equal(BOUNTY);
    expect((await board.getTask(taskId)).status).to.equal(Status.Taken);

    await setRecord(AGENT_ID, { score: 75 });
    await expect(board.connect(client).approveDelivery(taskId)).to.changeEtherBalances([agentOwner, board], [BOUNTY, -BOUNTY]);
  });

  it("does not pay on a record that went stale; the client reclaims after the deadline", async () => {
    const { board, hook, client, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const recordedAt = await latestTimestamp();
    await setRecord(AGENT_ID, { updatedAt: recordedAt });
    const { taskId, deadline } = await post(3 * 24 * HOUR);
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);

    const at = recordedAt + MAX_AGE + 1; // the nightly refresh stopped
    await time.setNextBlockTimestamp(at);
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(hook, "TrustRecordStale")
      .withArgs(AGENT_ID, recordedAt, MAX_AGE, at);

    await time.setNextBlockTimestamp(deadline + 1);
    const reclaim = board.connect(client).reclaimBounty(taskId);
    await expect(reclaim).to.changeEtherBalances([client, agentOwner, board], [BOUNTY, 0n, -BOUNTY]);
    await expect(reclaim).to.emit(board, "BountyReclaimed").withArgs(taskId, client.address, BOUNTY);
    expect((await board.getTask(taskId)).status).to.equal(Status.Reclaimed);
  });

  it("does not pay the taker once the agent's identity changed hands", async () => {
    const { board, hook, identity, client, agentOwner, stranger, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    await identity.connect(agentOwner).transferFrom(agentOwner.address, stranger.address, AGENT_ID);
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(hook, "NotAgentController")
      .withArgs(AGENT_ID, agentOwner.address);
    expect(await balanceOf(board)).to.equal(BOUNTY);
  });

  it("applies the hook in place at payout, not the one in place at take", async () => {
    const { board, client, agentOwner, deployHook, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    const strict = await deployHook({ minScore: 90 });
    await board.setAdmissionHook(await strict.getAddress());
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(strict, "TrustScoreTooLow")
      .withArgs(AGENT_ID, 80, 90);
  });
});

describe("AgentTaskBoard: cancel, reclaim and state checks", () => {
  it("lets the client cancel an untaken task and get the bounty back, once", async () => {
    const { board, client, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    const cancel = board.connect(client).cancelTask(taskId);
    await expect(cancel).to.changeEtherBalances([client, board], [BOUNTY, -BOUNTY]);
    await expect(cancel).to.emit(board, "TaskCancelled").withArgs(taskId, client.address, BOUNTY);
    expect((await board.getTask(taskId)).status).to.equal(Status.Cancelled);

    await expect(board.connect(client).cancelTask(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotOpen")
      .withArgs(taskId, Status.Cancelled);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(board, "TaskNotOpen")
      .withArgs(taskId, Status.Cancelled);
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotTaken")
      .withArgs(taskId, Status.Cancelled);
    await expect(board.connect(client).reclaimBounty(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotReclaimable")
      .withArgs(taskId, Status.Cancelled);
  });

  it("refuses a cancel by anyone but the client, and of a taken task", async () => {
    const { board, client, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await expect(board.connect(agentOwner).cancelTask(taskId))
      .to.be.revertedWithCustomError(board, "NotTaskClient")
      .withArgs(taskId, agentOwner.address, client.address);
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    await expect(board.connect(client).cancelTask(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotOpen")
      .withArgs(taskId, Status.Taken);
  });

  it("refuses approval by anyone but the client, and of a task nobody took", async () => {
    const { board, client, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotTaken")
      .withArgs(taskId, Status.Open);
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    await expect(board.connect(agentOwner).approveDelivery(taskId))
      .to.be.revertedWithCustomError(board, "NotTaskClient")
      .withArgs(taskId, agentOwner.address, client.address);
  });

  it("refuses to take a task twice, or after its deadline", async () => {
    const { board, agentOwner, agentWallet, identity, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    await identity.connect(agentOwner).setAgentWallet(AGENT_ID, agentWallet.address);
    await expect(board.connect(agentWallet).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(board, "TaskNotOpen")
      .withArgs(taskId, Status.Taken);

    const late = await post(HOUR);
    await time.setNextBlockTimestamp(late.deadline + 1);
    await expect(board.connect(agentOwner).takeTask(late.taskId, AGENT_ID))
      .to.be.revertedWithCustomError(board, "TaskExpired")
      .withArgs(late.taskId, late.deadline, late.deadline + 1);
    expect((await board.getTask(late.taskId)).status).to.equal(Status.Open);
  });

  it("admits a take at the deadline's exact second", async () => {
    const { board, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId, deadline } = await post(HOUR);
    await time.setNextBlockTimestamp(deadline);
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.emit(board, "TaskTaken")
      .withArgs(taskId, AGENT_ID, agentOwner.address);
  });

  it("lets the client reclaim a taken task only after its deadline, once", async () => {
    const { board, client, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId, deadline } = await post(HOUR);
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);

    await time.setNextBlockTimestamp(deadline);
    await expect(board.connect(client).reclaimBounty(taskId))
      .to.be.revertedWithCustomError(board, "DeadlineNotReached")
      .withArgs(taskId, deadline, deadline);
    await time.setNextBlockTimestamp(deadline + 1);
    await expect(board.connect(agentOwner).reclaimBounty(taskId))
      .to.be.revertedWithCustomError(board, "NotTaskClient")
      .withArgs(taskId, agentOwner.address, client.address);

    const reclaim = board.connect(client).reclaimBounty(taskId); // now past the deadline
    await expect(reclaim).to.changeEtherBalances([client, agentOwner, board], [BOUNTY, 0n, -BOUNTY]);
    await expect(reclaim).to.emit(board, "BountyReclaimed").withArgs(taskId, client.address, BOUNTY);

    await expect(board.connect(client).reclaimBounty(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotReclaimable")
      .withArgs(taskId, Status.Reclaimed);
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(board, "TaskNotTaken")
      .withArgs(taskId, Status.Reclaimed);
  });

  it("lets the client reclaim an untaken task after its deadline", async () => {
    const { board, client, post } = await loadFixture(deployBoard);
    const { taskId, deadline } = await post(HOUR);
    await time.setNextBlockTimestamp(deadline + 1);
    await expect(board.connect(client).reclaimBounty(taskId)).to.changeEtherBalances([client, board], [BOUNTY, -BOUNTY]);
    expect((await board.getTask(taskId)).status).to.equal(Status.Reclaimed);
  });

  it("still lets the client approve after the deadline while the bounty is not reclaimed", async () => {
    const { board, client, agentOwner, setRecord, post } = await loadFixture(deployBoard);
    const { taskId, deadline } = await post(HOUR);
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    await time.increaseTo(deadline + 10);
    await setRecord(AGENT_ID); // fresh record after the nightly refresh
    await expect(board.connect(client).approveDelivery(taskId)).to.changeEtherBalances([agentOwner, board], [BOUNTY, -BOUNTY]);
  });

  it("refuses every action on an unknown task", async () => {
    const { board, client, agentOwner } = await loadFixture(deployBoard);
    await expect(board.connect(agentOwner).takeTask(42n, AGENT_ID)).to.be.revertedWithCustomError(board, "TaskNotFound").withArgs(42n);
    await expect(board.connect(client).approveDelivery(42n)).to.be.revertedWithCustomError(board, "TaskNotFound").withArgs(42n);
    await expect(board.connect(client).cancelTask(42n)).to.be.revertedWithCustomError(board, "TaskNotFound").withArgs(42n);
    await expect(board.connect(client).reclaimBounty(42n)).to.be.revertedWithCustomError(board, "TaskNotFound").withArgs(42n);
    expect((await board.getTask(42n)).status).to.equal(Status.None);
  });
});

describe("AgentTaskBoard: hook replacement", () => {
  it("lets the owner replace the hook, with an event, and the new hook decides", async () => {
    const { board, hook, agentOwner, deployHook, post } = await loadFixture(deployBoard);
    const strict = await deployHook({ minScore: 85 });
    await expect(board.setAdmissionHook(await strict.getAddress()))
      .to.emit(board, "AdmissionHookChanged")
      .withArgs(await hook.getAddress(), await strict.getAddress());
    expect(await board.admissionHook()).to.equal(await strict.getAddress());
    const { taskId } = await post();
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(strict, "TrustScoreTooLow")
      .withArgs(AGENT_ID, 80, 85);
  });

  it("refuses a replacement by anyone but the owner, or without code", async () => {
    const { board, hook, stranger, deployer, deployHook } = await loadFixture(deployBoard);
    const other = await deployHook();
    await expect(board.connect(stranger).setAdmissionHook(await other.getAddress()))
      .to.be.revertedWithCustomError(board, "OwnableUnauthorizedAccount")
      .withArgs(stranger.address);
    await expect(board.connect(deployer).setAdmissionHook(stranger.address))
      .to.be.revertedWithCustomError(board, "InvalidAdmissionHook")
      .withArgs(stranger.address);
    await expect(board.connect(deployer).setAdmissionHook(ZeroAddress))
      .to.be.revertedWithCustomError(board, "InvalidAdmissionHook")
      .withArgs(ZeroAddress);
    expect(await board.admissionHook()).to.equal(await hook.getAddress());
  });

  it("hands the right to replace the hook over in two steps", async () => {
    const { board, deployer, newOwner, deployHook } = await loadFixture(deployBoard);
    const other = await deployHook();
    await board.transferOwnership(newOwner.address);
    await expect(board.connect(newOwner).setAdmissionHook(await other.getAddress()))
      .to.be.revertedWithCustomError(board, "OwnableUnauthorizedAccount")
      .withArgs(newOwner.address);
    await board.connect(newOwner).acceptOwnership();
    await expect(board.connect(deployer).setAdmissionHook(await other.getAddress()))
      .to.be.revertedWithCustomError(board, "OwnableUnauthorizedAccount")
      .withArgs(deployer.address);
    await expect(board.connect(newOwner).setAdmissionHook(await other.getAddress())).to.emit(board, "AdmissionHookChanged");
  });
});

describe("AgentTaskBoard: broken hooks fail closed", () => {
  it("refuses every agent behind a hook that returns the wrong magic value (the selector bypass)", async () => {
    const { board, deployer, agentOwner, stranger, post } = await loadFixture(deployBoard);
    const wrong = await new WrongSelectorHook__factory(deployer).deploy();
    const wrongAddress = await wrong.getAddress();
    await board.setAdmissionHook(wrongAddress);
    expect(SWAPPED_MAGIC).to.not.equal(ADMIT_MAGIC);
    expect(await wrong.WRONG_MAGIC()).to.equal(SWAPPED_MAGIC);

    const { taskId } = await post();
    // A trusted agent's controller: the hook "admits", but with the wrong value.
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(board, "AgentNotAdmitted")
      .withArgs(wrongAddress, agentOwner.address, AGENT_ID, SWAPPED_MAGIC);
    // Someone who controls no agent and an agent without a record: a bypass would let them in.
    await expect(board.connect(stranger).takeTask(taskId, 2n))
      .to.be.revertedWithCustomError(board, "AgentNotAdmitted")
      .withArgs(wrongAddress, stranger.address, 2n, SWAPPED_MAGIC);
    expect((await board.getTask(taskId)).status).to.equal(Status.Open);
  });

  it("does not pay through a wrong-magic hook installed after the take", async () => {
    const { board, deployer, client, agentOwner, post } = await loadFixture(deployBoard);
    const { taskId } = await post();
    await board.connect(agentOwner).takeTask(taskId, AGENT_ID);
    const wrong = await new WrongSelectorHook__factory(deployer).deploy();
    await board.setAdmissionHook(await wrong.getAddress());
    await expect(board.connect(client).approveDelivery(taskId))
      .to.be.revertedWithCustomError(board, "AgentNotAdmitted")
      .withArgs(await wrong.getAddress(), agentOwner.address, AGENT_ID, SWAPPED_MAGIC);
    expect(await balanceOf(board)).to.equal(BOUNTY);
  });

  it("refuses behind a hook that returns nothing", async () => {
    const { board, deployer, agentOwner, post } = await loadFixture(deployBoard);
    const silent = await new NoReturnHook__factory(deployer).deploy();
    await board.setAdmissionHook(await silent.getAddress());
    const { taskId } = await post();
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(board, "AdmissionHookMalformedResponse")
      .withArgs(await silent.getAddress(), agentOwner.address, AGENT_ID, "0x");
  });

  it("refuses behind a contract that lacks admitAgent and has no fallback", async () => {
    const { board, agentOwner, post } = await loadFixture(deployBoard);
    const boardAddress = await board.getAddress();
    await board.setAdmissionHook(boardAddress);
    const { taskId } = await post();
    await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
      .to.be.revertedWithCustomError(board, "AdmissionHookReverted")
      .withArgs(boardAddress, agentOwner.address, AGENT_ID);
  });

  describe("with a hook answering raw bytes", () => {
    async function rawHook() {
      const stack = await deployBoard();
      const raw = await new RawResponseOracle__factory(stack.deployer).deploy();
      await stack.board.setAdmissionHook(await raw.getAddress());
      const { taskId } = await stack.post();
      return { ...stack, raw, rawAddress: await raw.getAddress(), taskId };
    }

    it("admits exactly the ABI-encoded magic value (extra trailing data ignored)", async () => {
      const { board, raw, agentOwner, taskId, post } = await loadFixture(rawHook);
      await raw.setResponse(abi.encode(["bytes4"], [ADMIT_MAGIC]), false);
      await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
        .to.emit(board, "TaskTaken")
        .withArgs(taskId, AGENT_ID, agentOwner.address);

      const second = await post();
      await raw.setResponse(abi.encode(["bytes4", "uint256"], [ADMIT_MAGIC, 1n]), false);
      await expect(board.connect(agentOwner).takeTask(second.taskId, AGENT_ID))
        .to.emit(board, "TaskTaken")
        .withArgs(second.taskId, AGENT_ID, agentOwner.address);
    });

    it("refuses a short answer, dirty low bytes, or a zero value", async () => {
      const { board, raw, rawAddress, agentOwner, taskId } = await loadFixture(rawHook);
      const take = () => board.connect(agentOwner).takeTask(taskId, AGENT_ID);

      await raw.setResponse(ADMIT_MAGIC, false); // 4 bytes, not padded
      await expect(take())
        .to.be.revertedWithCustomError(board, "AdmissionHookMalformedResponse")
        .withArgs(rawAddress, agentOwner.address, AGENT_ID, ADMIT_MAGIC);

      const almost = abi.encode(["bytes4"], [ADMIT_MAGIC]).slice(0, 2 + 62); // 31 bytes
      await raw.setResponse(almost, false);
      await expect(take())
        .to.be.revertedWithCustomError(board, "AdmissionHookMalformedResponse")
        .withArgs(rawAddress, agentOwner.address, AGENT_ID, almost);

      const dirty = concat([ADMIT_MAGIC, zeroPadValue("0x01", 28)]);
      await raw.setResponse(dirty, false);
      await expect(take())
        .to.be.revertedWithCustomError(board, "AdmissionHookMalformedResponse")
        .withArgs(rawAddress, agentOwner.address, AGENT_ID, dirty);

      await raw.setResponse(abi.encode(["bytes4"], ["0x00000000"]), false);
      await expect(take())
        .to.be.revertedWithCustomError(board, "AgentNotAdmitted")
        .withArgs(rawAddress, agentOwner.address, AGENT_ID, "0x00000000");
    });

    it("surfaces an empty revert as AdmissionHookReverted", async () => {
      const { board, raw, rawAddress, agentOwner, taskId } = await loadFixture(rawHook);
      await raw.setResponse("0x", true);
      await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
        .to.be.revertedWithCustomError(board, "AdmissionHookReverted")
        .withArgs(rawAddress, agentOwner.address, AGENT_ID);
    });

    it("bubbles the hook's revert data up byte for byte", async () => {
      const { board, hook, raw, agentOwner, taskId } = await loadFixture(rawHook);
      const reason = hook.interface.encodeErrorResult("TrustScoreTooLow", [7n, 10, 51]);
      await raw.setResponse(reason, true);
      await expect(board.connect(agentOwner).takeTask(taskId, AGENT_ID))
        .to.be.revertedWithCustomError(hook, "TrustScoreTooLow")
        .withArgs(7n, 10, 51);

      const odd = "0xdeadbeef0102"; // not a whole ABI word: still passed through unchanged
      await raw.setResponse(odd, true);
      expect(await revertData(board.connect(agentOwner).takeTask.staticCall(taskId, AGENT_ID))).to.equal(odd);
    });
  });
});
