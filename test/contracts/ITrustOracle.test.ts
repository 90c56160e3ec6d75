import { expect } from "chai";
import type { FunctionFragment, Interface } from "ethers";
import hre from "hardhat";
import { describe, it } from "vitest";
import { ITrustOracle__factory, MockTrustOracle__factory, TrustScoreOracle__factory } from "../../typechain-types";

/**
 * The read functions of the oracle deployed on Base (0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4), written out
 * by hand from its published signatures (docs/contracts.md): name, argument types and return types.
 */
const DEPLOYED_ORACLE = [
  { signature: "getScore(uint256,uint256,string)", returns: ["uint8", "uint8", "uint8", "uint40"] },
  { signature: "hasScore(uint256,uint256,string)", returns: ["bool"] },
  { signature: "meetsThreshold(uint256,uint256,string,uint8)", returns: ["bool"] },
  { signature: "agentCount()", returns: ["uint256"] },
] as const;

const selectorOf = (signature: string) => hre.ethers.id(signature).slice(0, 10);

describe("ITrustOracle has the read interface of the Base oracle (IRNWYTrustOracle)", () => {
  it("has exactly the four deployed functions, with the deployed selectors and return types, all view", () => {
    const iface: Interface = ITrustOracle__factory.createInterface();
    const functions = iface.fragments.filter((f): f is FunctionFragment => f.type === "function");
    expect(functions.map((f) => f.format("sighash")).sort()).to.deep.equal(DEPLOYED_ORACLE.map((f) => f.signature).sort());
    for (const expected of DEPLOYED_ORACLE) {
      const fragment = iface.getFunction(expected.signature)!;
      expect(fragment.selector).to.equal(selectorOf(expected.signature));
      expect(fragment.outputs.map((o) => o.type)).to.deep.equal([...expected.returns]);
      expect(fragment.stateMutability).to.equal("view");
    }
  });

  it("pins the four selectors to their literal values", () => {
    const iface: Interface = ITrustOracle__factory.createInterface();
    const selectors = Object.fromEntries(DEPLOYED_ORACLE.map((f) => [f.signature, iface.getFunction(f.signature)!.selector]));
    // keccak256 of each signature, first four bytes: what a caller of the deployed oracle sends.
    expect(selectors).to.deep.equal({
      "getScore(uint256,uint256,string)": "0xd7d0a45a",
      "hasScore(uint256,uint256,string)": "0x2366e38c",
      "meetsThreshold(uint256,uint256,string,uint8)": "0x7da4955a",
      "agentCount()": "0xb7dc1284",
    });
  });

  it("is served, with the same fragments, by the reference oracle and the mock", () => {
    const reference: Interface = ITrustOracle__factory.createInterface();
    const implementations: Interface[] = [TrustScoreOracle__factory.createInterface(), MockTrustOracle__factory.createInterface()];
    for (const iface of implementations) {
      for (const expected of DEPLOYED_ORACLE) {
        expect(iface.getFunction(expected.signature)!.format("full")).to.equal(reference.getFunction(expected.signature)!.format("full"));
      }
    }
  });
});
