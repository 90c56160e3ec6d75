import { describe, expect, it } from "vitest";
import { compareAgent, compareCandidates, errorRow, rowAgent } from "../../../src/drift/stages/compare";
import { agent, context, HOUR, noRecord, readFailure, record, verified } from "./fixtures";

describe("compare as a stage", () => {
  it("one row per candidate, in order, then one error row per agent set aside", () => {
    const candidates = [{ agent: agent(1) }, { agent: agent(2) }, { agent: agent(3) }];
    const solana = { chain: "solana", chainId: null, agentId: 7n, registry: "sati" };
    const rows = compareCandidates(
      candidates,
      [record(60), noRecord, readFailure],
      [verified(60), verified(70), verified(70)],
      [{ agent: solana, reason: "not an EVM chain" }],
      context,
    );
    expect(rows.map((r) => [r.chain, r.agentId, r.status])).toEqual([
      ["base", "1", "in-sync"],
      ["base", "2", "missing-onchain"],
      ["base", "3", "error"],
      ["solana", "7", "error"],
    ]);
    expect(rows[3]).toEqual(errorRow(solana, "not an EVM chain"));
  });

  it("writes the agent into the row as the report pins it (decimal id, exact beyond 2^53)", () => {
    expect(rowAgent(agent(123456789012345678901234567890n, "olas"))).toEqual({
      chain: "base",
      chainId: 8453,
      agentId: "123456789012345678901234567890",
      registry: "olas",
    });
  });

  it("lists the differing fields the shared rule finds, on-chain value first", () => {
    const row = compareAgent(agent(1), record(60, { sybilCode: 0 }), verified(45, "low"), context);
    expect(row.reason).toBe("score 60 → 45, tier developing → limited, sybil none → low");
    expect(compareAgent(agent(1), record(60, { ageSeconds: 40 * HOUR }), verified(45), context).status).toBe("stale-onchain");
  });
});
