// The Base context in fork mode, run for real against a loopback Base: the seeded simulation served on 127.0.0.1
// and mined up to the pinned fork block (startForkableBase). The fork reads the records, owners and code that only
// that chain holds, at the pinned block and not after it, and the overlay (setRecord, clearRecord, makeStale,
// makeOracleRevert) changes the fork's answers for its key only, never the chain it forks. Real Base is not
// exercised here (base-context.test.ts runs against it when the user sets BASE_RPC_URL).
import { type Abi, decodeErrorResult, decodeFunctionResult, encodeFunctionData, getAddress, type Hex } from "viem";
import { base } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BASE_TRUST_ORACLE_ADDRESS } from "../../../src/config/addresses.js";
import type { SeededRecord } from "../../../src/harness/devnet/seeded-population.js";
import { DevnetError } from "../../../src/errors.js";
import {
  type BaseContext,
  DEFAULT_BASE_FORK_BLOCK,
  type ForkableBase,
  type OracleRecordValue,
  startBaseContext,
  startForkableBase,
} from "../../../src/harness/testing/index.js";
import { trustOracleAbi, trustScoreOracleAbi } from "../../../src/oracle/abi.js";
import { GatedAction__factory } from "../../../typechain-types";

const MAX_AGE = 36 * 3600;

let target: ForkableBase;
let ctx: BaseContext;

beforeAll(async () => {
  target = await startForkableBase();
  ctx = await startBaseContext({ mode: "fork", rpcUrl: target.rpcUrl });
}, 120_000);

afterEach(async () => {
  await ctx?.restoreOracle();
});

afterAll(async () => {
  await ctx?.close();
  await target?.close();
});

const valueOf = (r: SeededRecord): OracleRecordValue => ({
  score: r.score,
  tier: r.tier,
  sybilSeverity: r.sybilSeverity,
  updatedAt: r.updatedAt,
});

/** The record the loopback Base itself answers for `r`'s key (read from the chain that was forked). */
async function targetRecord(r: SeededRecord): Promise<OracleRecordValue> {
  const [score, tier, sybilSeverity, updatedAt] = (await target.simulation.provider
    .request({
      method: "eth_call",
      params: [{ to: BASE_TRUST_ORACLE_ADDRESS, data: encodeGetScore(r) }, "latest"],
    })
    .then((data) => decodeGetScore(data as Hex))) as [number, number, number, bigint];
  return { score, tier, sybilSeverity, updatedAt: Number(updatedAt) };
}

const encodeGetScore = (r: SeededRecord): Hex =>
  encodeFunctionData({ abi: trustOracleAbi, functionName: "getScore", args: [r.agentId, BigInt(r.chainId), r.registry] });
const decodeGetScore = (data: Hex) => decodeFunctionResult({ abi: trustOracleAbi, functionName: "getScore", data });

const forkKeys = () => target.records.map((r) => ({ agentId: r.agentId, chainId: r.chainId, registry: r.registry }));

describe("Base context forking a loopback Base at the pinned block (Hardhat 2; real Base is not exercised in CI)", () => {
  it("forks the loopback chain at the pinned default block, with the override in front of the forked oracle", async () => {
    expect(target.forkBlock).to.equal(DEFAULT_BASE_FORK_BLOCK);
    expect(ctx.mode).to.equal("fork");
    expect(ctx.forkBlock).to.equal(DEFAULT_BASE_FORK_BLOCK);
    expect(await ctx.publicClient.getChainId()).to.equal(8453);
    expect(Number(await ctx.publicClient.getBlockNumber())).to.be.at.least(DEFAULT_BASE_FORK_BLOCK);
    // The oracle's original code is the one the loopback chain runs: forked, not placed by the context.
    const forked = await ctx.publicClient.getCode({ address: ctx.originalOracleCode });
    const served = (await target.simulation.provider.request({
      method: "eth_getCode",
      params: [target.simulation.oracle, "latest"],
    })) as Hex;
    expect(forked?.toLowerCase()).to.equal(served.toLowerCase());
  });

  it("finds the loopback chain's agents as sample keys and reads each of their records through the fork", async () => {
    const seededBase = target.records.filter((r) => r.chainId === 8453 && r.registry === "erc8004");
    expect(ctx.sampleKeys.map((k) => k.agentId)).to.deep.equal(seededBase.map((r) => r.agentId));
    for (const r of target.records) {
      const expected = valueOf(r);
      expect(await targetRecord(r), `the loopback chain's record of ${r.agentId}`).to.deep.equal(expected);
      expect(await ctx.readRecord(r), `the fork's record of ${r.agentId}`).to.deep.equal(expected);
    }
    const count = await ctx.publicClient.readContract({ address: ctx.oracle, abi: trustOracleAbi, functionName: "agentCount" });
    expect(count).to.equal(BigInt(target.records.length));
  });

  it("names the loopback registry's owners as controllers", async () => {
    for (const [agentId, owner] of target.owners) expect(await ctx.controllerOf(agentId)).to.equal(getAddress(owner));
    await expect(ctx.controllerOf(target.owners.size + 1)).rejects.toBeInstanceOf(DevnetError);
  });

  it("forks the pinned block, not the head: a record published on the loopback chain afterwards is absent", async () => {
    const sim = target.simulation;
    // Dated a minute back: the next block of the mined-ahead loopback chain may carry an earlier timestamp than the
    // latest one read here, and the oracle refuses a record dated after its block (UpdateFromFuture).
    const now = (await sim.latestTimestamp()) - 60;
    const late: SeededRecord = { agentId: 9000n, chainId: 8453, registry: "erc8004", score: 70, tier: 2, sybilSeverity: 0, updatedAt: now };
    await sim.publish([late]);
    expect(await targetRecord(late)).to.deep.equal(valueOf(late));
    expect((await ctx.readRecord(late)).updatedAt).to.equal(0);
    // Forking the loopback chain's new head does see it.
    const head = Number(BigInt((await sim.provider.request({ method: "eth_blockNumber", params: [] })) as string));
    const atHead = await startBaseContext({ mode: "fork", rpcUrl: target.rpcUrl, forkBlock: head, probe: 1 });
    try {
      expect(await atHead.readRecord(late)).to.deep.equal(valueOf(late));
    } finally {
      await atHead.close();
    }
  });

  it("setRecord, clearRecord and makeStale change the fork's answer for their key only, never the loopback chain's", async () => {
    const [first, second, third, ...rest] = target.records;
    const untouched = [...rest];
    await ctx.setRecord(first!, { score: 3, sybilSeverity: 4, updatedAt: 1_700_000_000 });
    await ctx.clearRecord(second!);
    const stale = await ctx.makeStale(third!, 10 * 86_400);
    expect(await ctx.readRecord(first!)).to.deep.equal({ score: 3, tier: 0, sybilSeverity: 4, updatedAt: 1_700_000_000 });
    expect(await ctx.readRecord(second!)).to.deep.equal({ score: 0, tier: 0, sybilSeverity: 0, updatedAt: 0 });
    expect(stale).to.deep.equal({ ...valueOf(third!), updatedAt: (await ctx.latestTimestamp()) - 10 * 86_400 });
    for (const r of untouched) expect(await ctx.readRecord(r), `record of ${r.agentId} (${r.registry})`).to.deep.equal(valueOf(r));
    for (const r of [first!, second!, third!]) expect(await targetRecord(r)).to.deep.equal(valueOf(r));
    await ctx.restoreOracle();
    for (const key of forkKeys()) {
      const r = target.records.find((x) => x.agentId === key.agentId && x.registry === key.registry && x.chainId === key.chainId)!;
      expect(await ctx.readRecord(key)).to.deep.equal(valueOf(r));
    }
  });

  it("makeOracleRevert reverts the fork's oracle only; the loopback chain keeps answering", async () => {
    await ctx.makeOracleRevert();
    await expect(ctx.readRecord(target.records[0]!)).rejects.toThrow();
    expect(await targetRecord(target.records[0]!)).to.deep.equal(valueOf(target.records[0]!));
    await ctx.restoreOracle();
    expect(await ctx.readRecord(target.records[0]!)).to.deep.equal(valueOf(target.records[0]!));
  });

  it("roles still come from the forked storage: the loopback publisher may publish on the fork, a stranger may not", async () => {
    const publisher = await ctx.impersonate(target.simulation.publisher);
    const now = (await ctx.latestTimestamp()) - 60;
    const record = { agentId: 5000n, chainId: 8453n, registry: "erc8004", score: 60, tier: 2, sybilSeverity: 0, updatedAt: now };
    const hash = await ctx.walletClient(publisher).writeContract({
      account: publisher,
      chain: base,
      address: ctx.oracle,
      abi: trustScoreOracleAbi,
      functionName: "publish",
      args: [[record]],
    });
    expect((await ctx.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    expect((await ctx.readRecord({ agentId: 5000n })).score).to.equal(60);
    expect(await targetRecord({ ...record, chainId: 8453, updatedAt: now })).to.deep.equal({
      score: 0,
      tier: 0,
      sybilSeverity: 0,
      updatedAt: 0,
    });
    const stranger = await ctx.impersonate("0x5757575757575757575757575757575757575757");
    await expect(
      ctx.publicClient.simulateContract({
        account: stranger,
        address: ctx.oracle,
        abi: trustScoreOracleAbi,
        functionName: "publish",
        args: [[{ ...record, agentId: 5001n }]],
      }),
    ).rejects.toThrow(/AccessControlUnauthorizedAccount/);
  });

  it("a gate deployed on the fork decides on the loopback chain's records, and on the overlay where one is set", async () => {
    const fresh = target.records.find(
      (r) => r.chainId === 8453 && r.registry === "erc8004" && r.score >= 51 && r.sybilSeverity <= 2 && isFresh(r),
    )!;
    const staleOne = target.records.find((r) => r.chainId === 8453 && r.registry === "erc8004" && !isFresh(r))!;
    const deployer = ctx.accounts[0]!;
    const config = {
      oracle: ctx.oracle,
      identityRegistry: ctx.identityRegistry,
      agentChainId: 8453n,
      agentRegistry: "erc8004",
      policy: { minScore: 51, maxSybilSeverity: 2, maxAge: MAX_AGE, requireController: true },
    };
    const abi = GatedAction__factory.abi as Abi;
    const deployHash = await ctx
      .walletClient(deployer)
      .deployContract({ abi, bytecode: GatedAction__factory.bytecode as Hex, args: [config, deployer], account: deployer, chain: base });
    const gate = (await ctx.publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
    const act = async (agentId: bigint) => {
      const controller = await ctx.impersonate(target.owners.get(agentId)!);
      return ctx.publicClient.simulateContract({ account: controller, address: gate, abi, functionName: "act", args: [agentId] });
    };
    await expect(act(fresh.agentId)).resolves.toBeTruthy();
    const refusal = await act(staleOne.agentId).catch((error: unknown) => error);
    expect(errorName(refusal, abi)).to.deep.equal({ errorName: "TrustRecordStale", args: [staleOne.agentId, staleOne.updatedAt, MAX_AGE] });
    await ctx.setRecord(staleOne, { score: 90 });
    await expect(act(staleOne.agentId)).resolves.toBeTruthy();
  });
});

/** Whether a seeded record is fresh at the fork (the simulation backdates every sixth by three days). */
function isFresh(r: SeededRecord): boolean {
  const newest = Math.max(...target.records.map((x) => x.updatedAt));
  return newest - r.updatedAt < MAX_AGE / 2;
}

/** The custom error (name and first three values) a simulated call failed with. */
function errorName(error: unknown, abi: Abi): { errorName: string; args: readonly unknown[] } {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    const data = (e as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x")) {
      const decoded = decodeErrorResult({ abi, data: data as Hex });
      return { errorName: decoded.errorName, args: (decoded.args ?? []).slice(0, 3) };
    }
  }
  throw new Error(`no revert data on ${String(error)}`);
}
