import { describe, expect, it } from "vitest";
import { parseAgentRefList } from "../../../src/agent/agent-ref";
import type { TrustApiClient } from "../../../src/api/client";
import type { AgentListItem } from "../../../src/published/index";
import type { ScanProgress } from "../../../src/drift/progress";
import { enumerateList, enumerateListing } from "../../../src/drift/stages/enumerate";
import { ORACLE } from "./fixtures";

/** An API client whose listing yields `items` (and that fails any other call). */
function listingApi(items: readonly AgentListItem[]): TrustApiClient {
  return {
    async *iterateAgents() {
      yield* items;
    },
  } as unknown as TrustApiClient;
}

/** A chain client that answers nothing (the event replay fails). */
const deadChain = {
  request: async () => {
    throw new Error("connection refused");
  },
} as never;

describe("enumerate: from an explicit list", () => {
  it("keeps EVM agents as candidates in order and sets the others aside with their reason", () => {
    const agents = parseAgentRefList("base:2, solana:7:sati, bsc:1:olas");
    const enumeration = enumerateList(agents);
    expect(enumeration.candidates.map((c) => c.agent)).toEqual([agents[0], agents[2]]);
    expect(enumeration.candidates.every((c) => c.listed === undefined)).toBe(true);
    expect(enumeration.unscannable).toEqual([
      { agent: agents[1], reason: 'chain "solana" is not an EVM chain: the oracle holds no records for it' },
    ]);
    expect(enumeration.listing).toBeUndefined();
  });
});

describe("enumerate: from the service's listing", () => {
  const items: AgentListItem[] = [
    {
      agentId: 5,
      chain: "base",
      registry: "ERC8004",
      score: 60,
      tier: "developing",
      sybilSeverity: null,
      updatedAt: "2026-11-22T03:00:00Z",
    },
    { agentId: "5", chain: "base-mainnet", score: 61, tier: "developing" }, // the same agent again: first listing wins
    { agentId: "123456789012345678901234567890", chain: "bsc", registry: "olas", score: 40 }, // no tier, no sybil: incomplete
    { agentId: 9, chain: "solana", registry: "sati", score: 70 },
    { agentId: 3, chain: "atlantis", score: 70 },
    { agentId: 4, chain: "base", registry: "nowhere", score: 70 },
  ];

  it("resolves chains, lower-cases registries, keeps what the listing says and sets aside what the oracle cannot hold", async () => {
    const progress: ScanProgress[] = [];
    const enumeration = await enumerateListing({
      api: listingApi(items),
      chain: deadChain,
      oracle: ORACLE,
      onProgress: (p) => progress.push(p),
    });
    expect(enumeration.candidates).toEqual([
      {
        agent: { chain: "base", chainId: 8453, agentId: 5n, registry: "erc8004" },
        listed: { score: 60, tier: "developing", sybilSeverity: "none", at: new Date("2026-11-22T03:00:00Z") },
      },
      { agent: { chain: "bnb", chainId: 56, agentId: 123456789012345678901234567890n, registry: "olas" }, listed: { score: 40 } },
    ]);
    expect(enumeration.unscannable.map((u) => [u.agent.chain, u.agent.chainId, u.reason])).toEqual([
      ["solana", null, 'chain "solana" is not an EVM chain the oracle can hold records for'],
      ["atlantis", null, 'chain "atlantis" is not an EVM chain the oracle can hold records for'],
      ["base", 8453, expect.stringContaining('unknown registry "nowhere"')],
    ]);
    expect(enumeration.listing).toEqual({ listed: 6 });
    expect(progress.at(-1)).toEqual({ stage: "listing", done: 6, total: 6 });
  });

  it("records a failed event replay instead of throwing", async () => {
    const enumeration = await enumerateListing({
      api: listingApi(items.slice(0, 1)),
      chain: deadChain,
      oracle: ORACLE,
      eventSources: [{ oracle: ORACLE, role: "oracle", fromBlock: 10n }],
    });
    expect(enumeration.candidates).toHaveLength(1);
    expect(enumeration.listing?.onchainEnumeration).toMatchObject({
      fromBlock: "10",
      records: 0,
      error: expect.stringContaining("connection refused"),
    });
  });
});

describe("enumerate: several oracles' events (an attested oracle and its upstream)", () => {
  it("sums them up and keeps each source; a failed and a skipped source are named with their oracle", async () => {
    const attested = "0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const enumeration = await enumerateListing({
      api: listingApi([]),
      chain: deadChain,
      oracle: ORACLE,
      eventSources: [
        { oracle: attested, role: "attested-oracle", fromBlock: 10n },
        { oracle: ORACLE, role: "upstream", skipped: "--events-from off" },
      ],
    });
    expect(enumeration.listing?.onchainEnumeration).toEqual({
      fromBlock: "10",
      records: 0,
      error: expect.stringMatching(new RegExp(`^the attested oracle ${attested}: .*connection refused`)),
      skipped: `the upstream oracle ${ORACLE}: --events-from off`,
      sources: [
        { oracle: attested, role: "attested-oracle", fromBlock: "10", records: 0, error: expect.stringContaining("connection refused") },
        { oracle: ORACLE, role: "upstream", fromBlock: null, records: 0, skipped: "--events-from off" },
      ],
    });
  });
});
