import { describe, expect, it } from "vitest";
import { readOnchain } from "../../../src/drift/stages/read-onchain";
import { recordKeyOf } from "../../../src/oracle/record-key";
import { agent, ORACLE } from "./fixtures";

describe("read on-chain", () => {
  it("asks the chain nothing when there is nothing to read", async () => {
    const chain = {
      request: async () => {
        throw new Error("must not be called");
      },
    } as never;
    expect(await readOnchain([], { chain, oracle: ORACLE })).toEqual([]);
  });

  it("keys each agent's record by chain id, agent id and registry (the one conversion)", () => {
    expect(recordKeyOf(agent(5n, "olas"))).toEqual({ agentId: 5n, chainId: 8453, registry: "olas" });
  });

  it("turns a chain that fails into one failed result per agent, never a throw", async () => {
    const chain = {
      request: async () => {
        throw new Error("connection refused");
      },
    } as never;
    const results = await readOnchain([agent(1), agent(2)], {
      chain,
      oracle: ORACLE,
      blockNumber: 1n,
      readerMode: "eth-call",
    });
    expect(results.map((r) => [r.key.agentId, r.ok])).toEqual([
      [1n, false],
      [2n, false],
    ]);
  });
});
