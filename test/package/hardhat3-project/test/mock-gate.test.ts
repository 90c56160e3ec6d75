// The README's AgentVault behind MockTrustOracle and MockIdentityRegistry, on Hardhat 3's network (node:test + viem).
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { network } from "hardhat";

const BASE = 8453n;

describe("AgentVault gated by the mock oracle (Hardhat 3, node:test, viem)", async () => {
  const { viem } = await network.create();
  const [owner, stranger] = await viem.getWalletClients();
  const oracle = await viem.deployContract("MockTrustOracle");
  const registry = await viem.deployContract("MockIdentityRegistry");
  const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: true };
  const config = { oracle: oracle.address, identityRegistry: registry.address, agentChainId: BASE, agentRegistry: "erc8004", policy };
  const vault = await viem.deployContract("AgentVault", [config, owner!.account.address]);
  const publicClient = await viem.getPublicClient();

  before(async () => {
    await registry.write.registerWithId([owner!.account.address, 1n]);
    const now = (await publicClient.getBlock()).timestamp;
    await oracle.write.setRecord([1n, BASE, "erc8004", 80, 3, 0, Number(now)]);
  });

  it("admits the controller of a trusted agent", async () => {
    await vault.write.withdrawFor([1n, 5n]);
  });

  it("refuses a low score with TrustScoreTooLow", async () => {
    const now = (await publicClient.getBlock()).timestamp;
    await oracle.write.setRecord([1n, BASE, "erc8004", 20, 1, 0, Number(now)]);
    await viem.assertions.revertWithCustomError(vault.write.withdrawFor([1n, 5n]), vault, "TrustScoreTooLow");
  });

  it("refuses a stranger with NotAgentController", async () => {
    const now = (await publicClient.getBlock()).timestamp;
    await oracle.write.setRecord([1n, BASE, "erc8004", 80, 3, 0, Number(now)]);
    await viem.assertions.revertWithCustomError(
      vault.write.withdrawFor([1n, 5n], { account: stranger!.account }),
      vault,
      "NotAgentController",
    );
  });

  it("refuses an agent without a record with TrustRecordMissing", async () => {
    await registry.write.registerWithId([owner!.account.address, 2n]);
    await viem.assertions.revertWithCustomError(vault.write.withdrawFor([2n, 5n]), vault, "TrustRecordMissing");
    assert.ok(true);
  });
});
