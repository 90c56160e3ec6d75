/**
 * `TrustGated` at the edges of its inputs, driven through a gated contract (`GatedAction`) on Hardhat's network:
 * an identity registry whose `ownerOf` answers a word above 2^160 - 1 (no address: the controller check must not
 * truncate it into one), and `minScore` at its bounds (0 and 100 stored and enforced, 101 refused).
 */
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { expect } from "chai";
import hre from "hardhat";
import { describe, it } from "vitest";
import { GatedAction__factory, RawResponseOracle__factory } from "../../typechain-types";
import { BASE_CHAIN_ID, deployTrustStack, ERC8004, makePolicy, REFUSAL } from "../support/fixtures";

const ADDRESS_LIMIT = 2n ** 160n;

/** A gate whose identity registry answers every call (`ownerOf` among them) with one configured word. */
async function rawRegistryStack() {
  const stack = await deployTrustStack({ requireController: true });
  // RawResponseOracle answers any selector with the bytes it is given: here, the registry's `ownerOf` word. Its
  // other answers (agent wallet, approved account, operator) are the same word, which matches no account either.
  const registry = await new RawResponseOracle__factory(stack.deployer).deploy();
  const gate = await new GatedAction__factory(stack.deployer).deploy(
    {
      oracle: await stack.oracle.getAddress(),
      identityRegistry: await registry.getAddress(),
      agentChainId: BASE_CHAIN_ID,
      agentRegistry: ERC8004,
      policy: makePolicy({ requireController: true }),
    },
    stack.deployer.address,
  );
  await stack.setRecord(stack.agentId, { score: 80 });
  const answerOwner = (word: bigint) => registry.setResponse(hre.ethers.toBeHex(word, 32), false);
  return { ...stack, gate, registry, answerOwner };
}

describe("TrustGated: an identity registry answering an owner word that is no address", () => {
  it("admits the caller whose address the registry answers (the word in range)", async () => {
    const { gate, agentOwner, agentId, answerOwner } = await loadFixture(rawRegistryStack);
    await answerOwner(BigInt(agentOwner.address));
    await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, agentOwner.address, 80);
  });

  for (const [name, high] of [
    ["2^160 + the caller's address", ADDRESS_LIMIT],
    ["2^255 + the caller's address", 2n ** 255n],
  ] as const) {
    it(`refuses ${name} with AgentIdentityUnavailable, though its low 160 bits are the caller`, async () => {
      const { gate, registry, agentOwner, agentId, answerOwner } = await loadFixture(rawRegistryStack);
      await answerOwner(high + BigInt(agentOwner.address));
      await expect(gate.connect(agentOwner).act(agentId))
        .to.be.revertedWithCustomError(gate, "AgentIdentityUnavailable")
        .withArgs(await registry.getAddress(), agentId);
      await expect(gate.connect(agentOwner).actWithModifier(agentId)).to.be.revertedWithCustomError(gate, "AgentIdentityUnavailable");
      const [allowed, refusal] = await gate.trustVerdict(agentId, agentOwner.address);
      expect([allowed, REFUSAL[Number(refusal)]]).to.deep.equal([false, "AgentIdentityUnavailable"]);
    });
  }
});

describe("TrustGated: minScore at its bounds", () => {
  async function stack() {
    return deployTrustStack({ requireController: false });
  }

  it("minScore 100 is stored and admits only a score of 100", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stack);
    await gate.setTrustPolicy(makePolicy({ minScore: 100 }));
    expect((await gate.trustPolicy()).minScore).to.equal(100n);
    await setRecord(agentId, { score: 99 });
    await expect(gate.connect(agentOwner).act(agentId)).to.be.revertedWithCustomError(gate, "TrustScoreTooLow").withArgs(agentId, 99, 100);
    await setRecord(agentId, { score: 100 });
    await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, agentOwner.address, 100);
  });

  it("minScore 0 is stored and admits a score of 0", async () => {
    const { gate, setRecord, agentOwner, agentId } = await loadFixture(stack);
    await gate.setTrustPolicy(makePolicy({ minScore: 0 }));
    expect((await gate.trustPolicy()).minScore).to.equal(0n);
    await setRecord(agentId, { score: 0, tier: 0 });
    await expect(gate.connect(agentOwner).act(agentId)).to.emit(gate, "Acted").withArgs(agentId, agentOwner.address, 0);
  });

  it("minScore 101 is refused with MinScoreOutOfRange(101, 100), by the setter and at deployment, and the policy is kept", async () => {
    const { deployer, gate, oracle, identity } = await loadFixture(stack);
    await expect(gate.setTrustPolicy(makePolicy({ minScore: 101 })))
      .to.be.revertedWithCustomError(gate, "MinScoreOutOfRange")
      .withArgs(101, 100);
    expect((await gate.trustPolicy()).minScore).to.equal(51n);
    const config = {
      oracle: await oracle.getAddress(),
      identityRegistry: await identity.getAddress(),
      agentChainId: BASE_CHAIN_ID,
      agentRegistry: ERC8004,
    };
    const factory = new GatedAction__factory(deployer);
    await expect(factory.deploy({ ...config, policy: makePolicy({ minScore: 101 }) }, deployer.address))
      .to.be.revertedWithCustomError(gate, "MinScoreOutOfRange")
      .withArgs(101, 100);
    const atBound = await factory.deploy({ ...config, policy: makePolicy({ minScore: 100 }) }, deployer.address);
    expect((await atBound.trustPolicy()).minScore).to.equal(100n);
  });
});
