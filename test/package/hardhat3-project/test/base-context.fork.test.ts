// trustgate/testing's Base context forking a Base on Hardhat 3, both ways: started by the kit (startBaseContext()
// with BASE_RPC_URL set, through Hardhat 3's forking override) and on the test's own forked connection
// (network.create({ override: { chainId: 8453, forking } })). The packaging test serves a loopback Base (the kit's
// seeded simulation, mined to the pinned fork block) as BASE_RPC_URL: real Base is not exercised there. Each context
// reads the served chain's records through the fork, and its overlay changes its key only, never the served chain.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { network } from "hardhat";
import { trustOracleAbi } from "trustgate";
import { type BaseContext, DEFAULT_BASE_FORK_BLOCK, startBaseContext } from "trustgate/testing";
import { createPublicClient, http } from "viem";

const BASE_RPC_URL = process.env.BASE_RPC_URL;
const skip = BASE_RPC_URL === undefined ? "BASE_RPC_URL is not set: no Base to fork" : false;

/** The record the served chain itself holds for an agent (Base, erc8004) at the fork block. */
async function servedRecord(agentId: bigint) {
  const served = createPublicClient({ transport: http(BASE_RPC_URL) });
  const [score, tier, sybilSeverity, updatedAt] = await served.readContract({
    address: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
    abi: trustOracleAbi,
    functionName: "getScore",
    args: [agentId, 8453n, "erc8004"],
    blockNumber: BigInt(DEFAULT_BASE_FORK_BLOCK),
  });
  return { score, tier, sybilSeverity, updatedAt: Number(updatedAt) };
}

/** Checks shared by both ways of forking: the served records through the fork, and an overlay on one key only. */
async function readsTheServedChainAndOverlaysOneKey(base: BaseContext) {
  assert.equal(base.mode, "fork");
  assert.equal(base.forkBlock, DEFAULT_BASE_FORK_BLOCK);
  assert.equal(await base.publicClient.getChainId(), 8453);
  assert.ok(base.sampleKeys.length > 2, "the fork finds the served chain's agents");
  for (const key of base.sampleKeys) assert.deepEqual(await base.readRecord(key), await servedRecord(key.agentId));

  const [first, ...others] = base.sampleKeys;
  await base.setRecord(first!, { score: 3, sybilSeverity: 4, updatedAt: 1_700_000_000 });
  assert.deepEqual(await base.readRecord(first!), { score: 3, tier: 0, sybilSeverity: 4, updatedAt: 1_700_000_000 });
  for (const key of others) assert.deepEqual(await base.readRecord(key), await servedRecord(key.agentId));
  assert.notEqual((await servedRecord(first!.agentId)).score, 3, "the served chain keeps its record");
  await base.restoreOracle();
  assert.deepEqual(await base.readRecord(first!), await servedRecord(first!.agentId));
}

describe("startBaseContext() forking BASE_RPC_URL through Hardhat 3's forking override", { skip }, () => {
  let base: BaseContext;
  before(async () => {
    base = await startBaseContext();
  });
  after(() => base?.close());

  it("reads the served chain's records through the fork, and the overlay changes its key only", async () => {
    await readsTheServedChainAndOverlaysOneKey(base);
  });
});

describe("startBaseContext on the test's own forked connection (Hardhat 3)", { skip }, () => {
  let connection: Awaited<ReturnType<typeof network.create>>;
  let base: BaseContext;
  before(async () => {
    connection = await network.create({
      override: { chainId: 8453, forking: { url: BASE_RPC_URL!, blockNumber: DEFAULT_BASE_FORK_BLOCK } },
    });
    base = await startBaseContext({ provider: connection.provider });
  });
  after(async () => {
    await base?.close();
    await connection?.close();
  });

  it("reads the served chain's records through the fork, and the overlay changes its key only", async () => {
    await readsTheServedChainAndOverlaysOneKey(base);
  });

  it("puts the gate the test deploys with viem on the fork: admitted, then refused on the overlay's low score", async () => {
    const { viem } = connection;
    const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: true };
    const config = { oracle: base.oracle, identityRegistry: base.identityRegistry, agentChainId: 8453n, agentRegistry: "erc8004", policy };
    const vault = await viem.deployContract("AgentVault", [config, base.accounts[0]!]);
    const key = base.sampleKeys[0]!;
    const controller = await base.impersonate(await base.controllerOf(key.agentId));
    await base.setRecord(key, { score: 80 });
    await vault.write.withdrawFor([key.agentId, 1n], { account: controller });
    await base.setRecord(key, { score: 10 });
    await viem.assertions.revertWithCustomError(
      vault.write.withdrawFor([key.agentId, 1n], { account: controller }),
      vault,
      "TrustScoreTooLow",
    );
    await base.restoreOracle();
  });
});
