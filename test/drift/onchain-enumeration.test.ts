// Records the listing lacks must not vanish silently: --events-from auto finds the oracle's deployment block and
// replays its events from there; when it cannot (no historical state, too long a span) or is told not to, the
// report says so loudly, with the flag that looks for them.
import { createPublicClient, custom, type PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { formatSummary } from "../../src/cli/format-summary";
import { ONCHAIN_ENUMERATION_MAX_BLOCKS, onchainEnumerationNote, planOnchainEnumeration } from "../../src/drift/onchain-enumeration";
import { findDeploymentBlock } from "../../src/oracle/deployment-block";
import { report, row } from "../cli/report-fixture";

const ORACLE = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4" as const;

/** A chain on which the oracle's code appears at `deployedAt`; blocks before `prunedBelow` are refused. */
function fakeChain(deployedAt: bigint, prunedBelow = 0n): { client: PublicClient; calls: () => number } {
  let calls = 0;
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method !== "eth_getCode") throw new Error(`unexpected ${method}`);
        calls++;
        const block = BigInt((params as [string, string])[1]);
        if (block < prunedBelow) throw new Error("missing trie node 0xabc (path )\nstate is not available");
        return block >= deployedAt ? "0x6080" : "0x";
      },
    }),
  }) as PublicClient;
  return { client, calls: () => calls };
}

describe("findDeploymentBlock", () => {
  it("bisects eth_getCode to the first block with code, in about log2(head) requests", async () => {
    const chain = fakeChain(12_345_678n);
    expect(await findDeploymentBlock(chain.client, ORACLE, 40_000_000n)).toBe(12_345_678n);
    expect(chain.calls()).toBeLessThanOrEqual(28);
    expect(await findDeploymentBlock(fakeChain(0n).client, ORACLE, 10n)).toBe(0n);
  });
});

describe("planOnchainEnumeration", () => {
  it("auto: replays from the deployment block when the span is small", async () => {
    const plan = await planOnchainEnumeration(fakeChain(900n).client, ORACLE, "auto", 5_000n);
    expect(plan).toEqual({ kind: "replay", fromBlock: 900n, found: "deployment-block" });
  });

  it("a given block is used as given; off is skipped", async () => {
    expect(await planOnchainEnumeration(fakeChain(0n).client, ORACLE, 42n, 100n)).toEqual({
      kind: "replay",
      fromBlock: 42n,
      found: "given",
    });
    expect(await planOnchainEnumeration(fakeChain(0n).client, ORACLE, undefined, 100n)).toEqual({
      kind: "skipped",
      reason: "--events-from off",
    });
  });

  it("auto: skipped, with the reason, on a node without historical state and when the span is too long", async () => {
    const pruned = await planOnchainEnumeration(fakeChain(10n, 9_000n).client, ORACLE, "auto", 10_000n);
    expect(pruned).toEqual({
      kind: "skipped",
      reason: "the oracle's deployment block could not be found (missing trie node 0xabc (path ))",
    });
    const old = await planOnchainEnumeration(fakeChain(1_000n).client, ORACLE, "auto", 1_000n + ONCHAIN_ENUMERATION_MAX_BLOCKS);
    expect(old.kind).toBe("skipped");
    expect(old.kind === "skipped" && old.reason).toMatch(
      /deployed at block 1000, 1000001 blocks ago \(more than 1000000 to replay by default\)/,
    );
  });
});

describe("the report says, loudly, when records the listing lacks were not looked for", () => {
  const triage = (onchainEnumeration: object) => ({
    listed: 1,
    signedFetches: 0,
    fetchesSaved: 1,
    reasons: {},
    auditFraction: 0.01,
    listingContradictions: 0,
    onchainEnumeration,
  });

  it("NOT LOOKED FOR, with the reason and the flag, in the notes and so in the summary", () => {
    const note = onchainEnumerationNote(triage({ fromBlock: null, records: 0, skipped: "--events-from off" }) as never)!;
    expect(note).toMatch(
      /^NOT LOOKED FOR: on-chain records the service's listing lacks \(delisted agents\) were not looked for, because --events-from off; .*--events-from <block>/,
    );
    const summary = formatSummary({
      ...report([row({ agentId: "1" })], { triage: triage({ fromBlock: null, records: 0, skipped: "x" }) as never }),
      notes: [note],
    });
    expect(summary).toContain("note:             NOT LOOKED FOR:");
  });

  it("FAILED when the replay failed; nothing extra when it worked, and the triage line counts what it found", () => {
    expect(
      onchainEnumerationNote(triage({ fromBlock: "7", records: 0, error: "query returned more than 10000 results\nmore" }) as never),
    ).toMatch(/^FAILED: replaying the oracle's events from block 7 failed \(query returned more than 10000 results\)/);
    const found = triage({ fromBlock: "7", records: 12, notListed: 2 });
    expect(onchainEnumerationNote(found as never)).toBeNull();
    expect(formatSummary(report([row({ agentId: "1" })], { triage: found as never }))).toContain(
      "the listing lacks 2 agents the chain holds records for",
    );
    expect(onchainEnumerationNote(undefined)).toBeNull();
  });

  it("with an attested oracle and its upstream, names whose events were not looked for or failed", () => {
    const sources = [
      { oracle: "0xA", role: "attested-oracle", fromBlock: "5", records: 0, error: "node refused\nmore" },
      { oracle: "0xU", role: "upstream", fromBlock: null, records: 0, skipped: "--events-from off" },
    ];
    const note = onchainEnumerationNote(triage({ fromBlock: "5", records: 0, error: "x", skipped: "y", sources }) as never)!;
    expect(note).toBe(
      "NOT LOOKED FOR: on-chain records the service's listing lacks (delisted agents) were not looked for in the events of " +
        "the upstream oracle 0xU (because --events-from off); those it holds do not appear in this report; " +
        "FAILED: replaying the events of the attested oracle 0xA from block 5 (node refused) failed; on-chain records the listing " +
        "lacks may be missing from this report — give --events-from <block> (the earliest deployment block) to replay their " +
        "RecordAdded/RecordRemoved events",
    );
    const replayed = sources.map((s) => ({ oracle: s.oracle, role: s.role, fromBlock: "5", records: 3 }));
    expect(onchainEnumerationNote(triage({ fromBlock: "5", records: 4, notListed: 1, sources: replayed }) as never)).toBeNull();
  });
});
