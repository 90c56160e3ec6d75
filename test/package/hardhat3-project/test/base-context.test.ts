// trustgate/testing's Base context on the test's own Hardhat 3 network: the gate deployed there reads the oracle the
// context overrides, at Base's addresses, on chain 8453.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { network } from "hardhat";
import { type BaseContext, startBaseContext } from "trustgate/testing";

describe("startBaseContext on network.create()'s connection (Hardhat 3)", async () => {
  const connection = await network.create({ override: { chainId: 8453 } });
  const { viem } = connection;
  let base: BaseContext;
  let vault: Awaited<ReturnType<typeof viem.deployContract<"AgentVault">>>;

  before(async () => {
    base = await startBaseContext({ provider: connection.provider });
    const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: true };
    const config = { oracle: base.oracle, identityRegistry: base.identityRegistry, agentChainId: 8453n, agentRegistry: "erc8004", policy };
    vault = await viem.deployContract("AgentVault", [config, base.accounts[0]!]);
  });
  after(() => base.close());

  const asController = async (agentId: bigint) => {
    const controller = await base.controllerOf(agentId);
    return { account: controller };
  };

  it("is a simulation of Base on the caller's chain", async () => {
    assert.equal(base.mode, "simulation");
    assert.equal(Number(await connection.provider.request({ method: "eth_chainId" })), 8453);
    assert.ok(base.sampleKeys.length > 0);
  });

  it("admits an agent with a fresh, high score, sent by its controller", async () => {
    const key = base.sampleKeys[0]!;
    await base.setRecord(key, { score: 80 });
    await vault.write.withdrawFor([key.agentId, 1n], await asController(key.agentId));
  });

  it("refuses a score too low", async () => {
    const key = base.sampleKeys[0]!;
    await base.setRecord(key, { score: 10 });
    await viem.assertions.revertWithCustomError(
      vault.write.withdrawFor([key.agentId, 1n], await asController(key.agentId)),
      vault,
      "TrustScoreTooLow",
    );
  });

  it("refuses a stale record", async () => {
    const key = base.sampleKeys[0]!;
    await base.setRecord(key, { score: 80 });
    await base.makeStale(key, 3 * 86_400);
    await viem.assertions.revertWithCustomError(
      vault.write.withdrawFor([key.agentId, 1n], await asController(key.agentId)),
      vault,
      "TrustRecordStale",
    );
  });

  it("refuses while the oracle reverts, and admits again once restored", async () => {
    const key = base.sampleKeys[0]!;
    await base.setRecord(key, { score: 80 });
    await base.makeOracleRevert();
    await viem.assertions.revertWithCustomError(
      vault.write.withdrawFor([key.agentId, 1n], await asController(key.agentId)),
      vault,
      "TrustOracleUnavailable",
    );
    await base.restoreOracle();
    await base.setRecord(key, { score: 80 });
    await vault.write.withdrawFor([key.agentId, 1n], await asController(key.agentId));
  });

  it("refuses a stranger", async () => {
    const key = base.sampleKeys[0]!;
    await base.setRecord(key, { score: 80 });
    const controller = await base.controllerOf(key.agentId);
    const stranger = base.accounts.find((a) => a.toLowerCase() !== controller.toLowerCase())!;
    await viem.assertions.revertWithCustomError(
      vault.write.withdrawFor([key.agentId, 1n], { account: stranger }),
      vault,
      "NotAgentController",
    );
  });

  it("admits an impersonated controller that is not one of the node's accounts", async () => {
    const key = base.sampleKeys[1]!;
    await base.setRecord(key, { score: 80 });
    const outsider = "0x00000000000000000000000000000000000a11ce" as const;
    const [owner] = base.accounts;
    const registry = await viem.getContractAt("MockIdentityRegistry", base.identityRegistry);
    await registry.write.registerWithId([outsider, 999_999n], { account: owner! });
    await base.setRecord({ agentId: 999_999n }, { score: 90 });
    await base.impersonate(outsider);
    await vault.write.withdrawFor([999_999n, 1n], { account: outsider });
  });
});
