// The Base context on the caller's own Hardhat 2 network when that network forks Base (here a loopback Base: the
// seeded simulation served on 127.0.0.1 at the pinned fork block; real Base is not exercised). The caller's network is
// left exactly at the forked block, where Hardhat refuses calls for chain 8453: the context still reads the served
// records through it, and its overlay changes one key only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalChain, startLocalChain } from "../../../src/harness/devnet/local-chain.js";
import {
  type BaseContext,
  DEFAULT_BASE_FORK_BLOCK,
  type ForkableBase,
  startBaseContext,
  startForkableBase,
} from "../../../src/harness/testing/index.js";

let target: ForkableBase;
let callerNetwork: LocalChain;
let ctx: BaseContext;

beforeAll(async () => {
  target = await startForkableBase();
  // The caller's network, as Hardhat 2 makes it with `forking` in its config: forked at the block, nothing mined since.
  callerNetwork = await startLocalChain({ chainId: 8453, hardhatConfig: "standalone" });
  await callerNetwork.provider.request({
    method: "hardhat_reset",
    params: [{ forking: { jsonRpcUrl: target.rpcUrl, blockNumber: target.forkBlock } }],
  });
  ctx = await startBaseContext({ provider: callerNetwork.provider });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await callerNetwork?.provider.request({ method: "hardhat_reset", params: [] }).catch(() => undefined);
  await callerNetwork?.close();
  await target?.close();
});

describe("startBaseContext({ provider }) on the caller's Hardhat 2 network forking a loopback Base", () => {
  it("is a fork at the caller's block, reading every served record through it", async () => {
    expect(ctx.mode).to.equal("fork");
    expect(ctx.forkBlock).to.equal(DEFAULT_BASE_FORK_BLOCK);
    const seededBase = target.records.filter((r) => r.chainId === 8453 && r.registry === "erc8004");
    expect(ctx.sampleKeys.map((k) => k.agentId)).to.deep.equal(seededBase.map((r) => r.agentId));
    for (const r of target.records) {
      expect(await ctx.readRecord(r)).to.deep.equal({
        score: r.score,
        tier: r.tier,
        sybilSeverity: r.sybilSeverity,
        updatedAt: r.updatedAt,
      });
    }
  });

  it("overlays one key only, on the caller's network itself", async () => {
    const [first, second] = target.records;
    await ctx.setRecord(first!, { score: 3, updatedAt: 1_700_000_000 });
    expect((await ctx.readRecord(first!)).score).to.equal(3);
    expect(await ctx.readRecord(second!)).to.deep.equal({
      score: second!.score,
      tier: second!.tier,
      sybilSeverity: second!.sybilSeverity,
      updatedAt: second!.updatedAt,
    });
    await ctx.restoreOracle();
    expect((await ctx.readRecord(first!)).score).to.equal(first!.score);
  });
});
