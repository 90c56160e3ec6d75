// The pure parts of the embedded drift environment: the nightly run time, snapshot records, delisted agents.
import { expect } from "chai";
import { describe, it } from "vitest";
import { createTrustEncoding } from "../../../src/config/encodings.js";
import { InvalidArgumentError } from "../../../src/errors.js";
import { pickDelistedAgents } from "../../../src/harness/devnet/delisted-agents.js";
import { latestNightlyRun, type SnapshotAgent, snapshotRecords } from "../../../src/harness/devnet/nightly-snapshot.js";
import { agentKey, createPopulation } from "../../../src/harness/service/index.js";

describe("latestNightlyRun", () => {
  const cases: Array<[string, string]> = [
    ["2026-11-22T17:51:00.000Z", "2026-11-22T03:00:00.000Z"],
    ["2026-11-22T03:00:00.000Z", "2026-11-22T03:00:00.000Z"],
    ["2026-11-22T02:59:59.999Z", "2026-11-21T03:00:00.000Z"],
    ["2027-01-01T01:00:00.000Z", "2026-12-31T03:00:00.000Z"],
    ["2028-03-01T00:00:00.000Z", "2028-02-29T03:00:00.000Z"],
  ];
  for (const [now, run] of cases) {
    it(`${now} → ${run}`, () => {
      expect(latestNightlyRun(new Date(now)).toISOString()).to.equal(run);
    });
  }
});

describe("snapshotRecords", () => {
  const at = new Date("2026-11-22T03:00:00Z");
  const agents: SnapshotAgent[] = [
    { agentId: 1, chain: "base", registry: "erc8004", score: 80, tier: "established", sybilSeverity: "none", updatedAt: at },
    { agentId: 2, chain: "polygon", registry: "olas", score: 20, tier: "flagged", sybilSeverity: "heavy", updatedAt: at },
    { agentId: 3n, chain: "bnb", registry: "erc8004", score: 55, tier: "developing", sybilSeverity: "moderate", updatedAt: at },
  ];

  it("maps chains to ids and names to the kit's codes, keeping order and dates", () => {
    expect(snapshotRecords(agents)).to.deep.equal([
      { agentId: 1n, chainId: 8453, registry: "erc8004", score: 80, tier: 3, sybilSeverity: 0, updatedAt: at },
      { agentId: 2n, chainId: 137, registry: "olas", score: 20, tier: 0, sybilSeverity: 4, updatedAt: at },
      { agentId: 3n, chainId: 56, registry: "erc8004", score: 55, tier: 2, sybilSeverity: 2, updatedAt: at },
    ]);
  });

  it("uses the encoding given", () => {
    const encoding = createTrustEncoding({
      tiers: ["established", "developing", "limited", "flagged"],
      sybilSeverities: ["heavy", "elevated", "moderate", "low", "none"],
    });
    const records = snapshotRecords(agents, { encoding });
    expect(records.map((r) => [r.tier, r.sybilSeverity])).to.deep.equal([
      [0, 4],
      [3, 0],
      [1, 2],
    ]);
  });

  it("dates a stale chain's records at staleAt, and only those", () => {
    const staleAt = new Date(at.getTime() - 3 * 86_400_000);
    const records = snapshotRecords(agents, { staleChains: ["polygon"], staleAt });
    expect(records.map((r) => r.updatedAt)).to.deep.equal([at, staleAt, at]);
  });

  it("refuses stale chains without a date, and non-EVM chains", () => {
    expect(() => snapshotRecords(agents, { staleChains: ["polygon"] })).to.throw(InvalidArgumentError);
    expect(() => snapshotRecords([{ ...agents[0]!, chain: "solana" }])).to.throw(InvalidArgumentError, /not an EVM chain/);
  });
});

describe("pickDelistedAgents", () => {
  const at = new Date("2026-11-22T03:00:00Z");
  const population = createPopulation({ seed: 3, size: 2_000, at });
  const highest = new Map<string, number>();
  for (const a of population.agents) {
    const slot = `${a.chain}:${a.registry}`;
    highest.set(slot, Math.max(highest.get(slot) ?? 0, a.agentId));
  }

  it("picks agents the population does not have, inside its id ranges, outside excluded chains", () => {
    const delisted = pickDelistedAgents(population, { count: 12, seed: 3, at, excludeChains: ["base"] });
    expect(delisted).to.have.length(12);
    expect(new Set(delisted.map(agentKey)).size).to.equal(12);
    for (const agent of delisted) {
      expect(population.get(agent.chain, agent.agentId, agent.registry), agentKey(agent)).to.equal(undefined);
      expect(agent.chain).to.not.equal("base");
      expect(agent.agentId).to.be.below(highest.get(`${agent.chain}:${agent.registry}`)!);
      expect(agent.updatedAt.getTime()).to.equal(at.getTime());
      expect(agent.score).to.be.within(0, 95);
    }
  });

  it("never collides with agents registered later", () => {
    const delisted = pickDelistedAgents(population, { count: 20, seed: 5, at });
    const later = population.advance({ seed: 5, changedFraction: 0, newAgents: 1_000, at: new Date(at.getTime() + 3_600_000) });
    for (const agent of delisted) expect(later.get(agent.chain, agent.agentId, agent.registry), agentKey(agent)).to.equal(undefined);
  });

  it("is deterministic for a seed and differs between seeds", () => {
    const a = pickDelistedAgents(population, { count: 8, seed: 11, at });
    const b = pickDelistedAgents(population, { count: 8, seed: 11, at });
    const c = pickDelistedAgents(population, { count: 8, seed: 12, at });
    expect(a).to.deep.equal(b);
    expect(a.map(agentKey)).to.not.deep.equal(c.map(agentKey));
  });

  it("falls back to ids far above the range when there are too few gaps", () => {
    const source = {
      chains: ["base"],
      registries: ["erc8004"],
      agents: [1, 2, 4, 5].map((agentId) => ({ agentId, chain: "base", registry: "erc8004" })),
    };
    const delisted = pickDelistedAgents(source, { count: 3, seed: 1, at });
    expect(delisted.map((d) => d.agentId)).to.deep.equal([3, 1_000_005, 1_000_006]);
  });

  it("refuses a bad count and an empty choice of chains", () => {
    expect(pickDelistedAgents(population, { count: 0, seed: 1, at })).to.deep.equal([]);
    expect(() => pickDelistedAgents(population, { count: -1, seed: 1, at })).to.throw(InvalidArgumentError);
    expect(() => pickDelistedAgents(population, { count: 1, seed: 1, at, excludeChains: population.chains })).to.throw(
      InvalidArgumentError,
    );
  });
});
