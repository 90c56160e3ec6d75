/**
 * The one record type: what `readTrustRecord` returns is what `evaluateTrustPolicy` evaluates (type-checked by `tsc`,
 * run here against a viem client whose transport answers `getScore`), with the time converters of `trust-record.ts`.
 */
import { createPublicClient, custom, encodeAbiParameters } from "viem";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  evaluateTrustPolicy,
  readTrustRecord,
  sybilSeverityName,
  tierName,
  type TrustPolicy,
  type TrustRecord,
  type TrustRecordRead,
  updatedAtDate,
} from "../../src/index";
import { unixSeconds } from "../../src/trust-record";

const NOW = 1_800_000_000;
const POLICY: TrustPolicy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: false };

/** A viem client whose node answers every `eth_call` with one `getScore` answer. */
function clientAnswering(score: number, tier: number, sybil: number, updatedAt: number) {
  const answer = encodeAbiParameters(
    [{ type: "uint8" }, { type: "uint8" }, { type: "uint8" }, { type: "uint40" }],
    [score, tier, sybil, updatedAt],
  );
  return createPublicClient({
    transport: custom({
      request: async ({ method }: { method: string }) => {
        if (method === "eth_call") return answer;
        if (method === "eth_blockNumber") return "0x10";
        if (method === "eth_chainId") return "0x2105";
        throw new Error(`unexpected ${method}`);
      },
    }),
  });
}

describe("the record readTrustRecord returns", () => {
  it("is a TrustRecord, which evaluateTrustPolicy takes as it is", async () => {
    expectTypeOf<TrustRecordRead>().toMatchTypeOf<TrustRecord>();
    expectTypeOf<Parameters<typeof evaluateTrustPolicy>[0]>().toEqualTypeOf<TrustRecord>();
    const read = await readTrustRecord(clientAnswering(60, 2, 1, NOW - 3600), { agentId: 1n, chain: "base" });
    if (!read.ok) throw read.error;
    expect(evaluateTrustPolicy(read, POLICY, NOW)).toBe("None");
    const low = await readTrustRecord(clientAnswering(50, 1, 1, NOW - 3600), { agentId: 1n, chain: "base" });
    if (!low.ok) throw low.error;
    expect(evaluateTrustPolicy(low, POLICY, NOW)).toBe("ScoreTooLow");
    const stale = await readTrustRecord(clientAnswering(60, 2, 3, NOW - 40 * 3600), { agentId: 1n, chain: "base" });
    if (!stale.ok) throw stale.error;
    expect(evaluateTrustPolicy(stale, POLICY, NOW)).toBe("RecordStale");
  });

  it("keeps tier and sybil severity as the stored codes and the time as Unix seconds; the converters name and date them", async () => {
    const read = await readTrustRecord(clientAnswering(82, 3, 2, NOW), { agentId: 1n, chain: "base" });
    if (!read.ok) throw read.error;
    expect({ score: read.score, tier: read.tier, sybilSeverity: read.sybilSeverity, updatedAt: read.updatedAt }).toEqual({
      score: 82,
      tier: 3,
      sybilSeverity: 2,
      updatedAt: NOW,
    });
    expect([tierName(read.tier), sybilSeverityName(read.sybilSeverity)]).toEqual(["established", "moderate"]);
    expect(updatedAtDate(read)?.toISOString()).toBe(new Date(NOW * 1000).toISOString());
    expect(unixSeconds(updatedAtDate(read)!)).toBe(NOW);
  });

  it("without a record: every value 0, no date, and the policy refuses it as missing", async () => {
    const read = await readTrustRecord(clientAnswering(0, 0, 0, 0), { agentId: 1n, chain: "base" });
    if (!read.ok) throw read.error;
    expect(read.hasScore).toBe(false);
    expect(updatedAtDate(read)).toBeNull();
    expect(evaluateTrustPolicy(read, POLICY, NOW)).toBe("RecordMissing");
  });

  it("unixSeconds rounds down to the whole second the chain stores", () => {
    expect(unixSeconds(new Date(NOW * 1000 + 999))).toBe(NOW);
  });
});
