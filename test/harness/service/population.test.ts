import { describe, expect, it } from "vitest";
import { tierForScore } from "../../../src/config/encodings.js";
import { InvalidArgumentError } from "../../../src/errors.js";
import { agentKey, createPopulation, type Population } from "../../../src/harness/service/index.js";

const AT = new Date("2026-11-20T03:00:00.000Z");
const LATER = new Date("2026-11-21T03:00:00.000Z");

function digest(population: Population): string {
  let h = 0;
  for (const a of population.agents) {
    const line = `${agentKey(a)}|${a.owner}|${a.score}|${a.sybilSeverity}|${a.sybilSignals.join()}|${a.name}|${a.updatedAt.getTime()}`;
    for (let i = 0; i < line.length; i++) h = (Math.imul(h, 31) + line.charCodeAt(i)) | 0;
  }
  return `${population.size}:${h}`;
}

describe("createPopulation", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const a = createPopulation({ seed: 42, size: 300, at: AT });
    const b = createPopulation({ seed: 42, size: 300, at: AT });
    const c = createPopulation({ seed: 43, size: 300, at: AT });
    expect(JSON.stringify(a.agents)).toBe(JSON.stringify(b.agents));
    expect(JSON.stringify(a.agents)).not.toBe(JSON.stringify(c.agents));
  });

  it("covers the required chains and both registries with unique, well-formed agents", () => {
    const population = createPopulation({ seed: 1, size: 2000 });
    const chains = new Set(population.agents.map((a) => a.chain));
    for (const chain of ["base", "ethereum", "bnb", "arbitrum", "optimism", "polygon"]) expect(chains).toContain(chain);
    expect(new Set(population.agents.map((a) => a.registry))).toEqual(new Set(["erc8004", "olas"]));
    expect(new Set(population.agents.map(agentKey)).size).toBe(2000);
    const tiers = new Set<string>();
    for (const agent of population.agents) {
      expect(agent.score).toBeGreaterThanOrEqual(0);
      expect(agent.score).toBeLessThanOrEqual(95);
      expect(Number.isInteger(agent.score)).toBe(true);
      expect(agent.tier).toBe(tierForScore(agent.score));
      expect(agent.owner).toMatch(/^0x[0-9a-f]{40}$/);
      expect(agent.sybilSignals.length === 0).toBe(agent.sybilSeverity === "none");
      expect(agent.badges.earned.includes("original_owner")).toBe(agent.isOriginalOwner);
      expect(agent.badges.warnings.includes("sybil_heavy")).toBe(agent.sybilSeverity === "heavy");
      for (const id of [...agent.badges.earned, ...agent.badges.warnings, ...agent.sybilSignals]) expect(id).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(agent.updatedAt.getTime()).toBeLessThanOrEqual(population.at.getTime());
      expect(agent.registeredAt.getTime()).toBeLessThan(agent.updatedAt.getTime());
      tiers.add(agent.tier);
    }
    expect(tiers).toEqual(new Set(["flagged", "limited", "developing", "established"]));
    // Realistic: most agents sit around the base score, few are established, and some owners hold several agents.
    const established = population.agents.filter((a) => a.tier === "established").length;
    expect(established).toBeGreaterThan(100);
    expect(established).toBeLessThan(600);
    const perOwner = new Map<string, number>();
    for (const a of population.agents) perOwner.set(a.owner, (perOwner.get(a.owner) ?? 0) + 1);
    expect(Math.max(...perOwner.values())).toBeGreaterThan(3);
  });

  it("finds agents by chain (slug, alias or id), id and registry, and by owner case-insensitively", () => {
    const population = createPopulation({ seed: 5, size: 300 });
    const agent = population.agents.find((a) => a.chain === "bnb" && a.registry === "erc8004")!;
    expect(population.get("bnb", agent.agentId)).toBe(agent);
    expect(population.get("bsc", String(agent.agentId), "erc8004")).toBe(agent);
    expect(population.get(56, BigInt(agent.agentId))).toBe(agent);
    expect(population.get("nowhere", agent.agentId)).toBeUndefined();
    expect(population.get("bnb", 10_000_000)).toBeUndefined();
    const owned = population.byOwner(agent.owner.toUpperCase().replace("0X", "0x"));
    expect(owned).toContain(agent);
    expect(owned.every((a) => a.owner === agent.owner)).toBe(true);
    expect(population.byOwner(`0x${"0".repeat(40)}`)).toEqual([]);
  });

  it("rejects bad options", () => {
    expect(() => createPopulation({ seed: 1.5, size: 10 })).toThrow(InvalidArgumentError);
    expect(() => createPopulation({ seed: 1, size: -1 })).toThrow(InvalidArgumentError);
    expect(() => createPopulation({ seed: 1, size: 10, registries: ["nope"] })).toThrow(InvalidArgumentError);
    expect(() => createPopulation({ seed: 1, size: 10, chains: ["atlantis"] })).toThrow(/Unknown chain/);
  });

  it("creates 150,000 agents deterministically", () => {
    const a = createPopulation({ seed: 9, size: 150_000 });
    const b = createPopulation({ seed: 9, size: 150_000 });
    expect(a.size).toBe(150_000);
    expect(a.agents).toHaveLength(150_000);
    expect(digest(a)).toBe(digest(b));
    expect(new Set(a.agents.map(agentKey)).size).toBe(150_000);
  });
});

describe("Population.advance", () => {
  const base = createPopulation({ seed: 11, size: 1000, at: AT });

  it("changes exactly the reported agents, some across tier boundaries, and leaves the original untouched", () => {
    const before = JSON.stringify(base.agents);
    const next = base.advance({ seed: 3, changedFraction: 0.1, newAgents: 25, at: LATER });
    expect(JSON.stringify(base.agents)).toBe(before);
    expect(base.size).toBe(1000);

    const changed = new Set(next.changes.changedKeys);
    let differing = 0;
    for (let i = 0; i < base.size; i++) {
      const old = base.agents[i]!;
      const now = next.agents[i]!;
      expect(agentKey(now)).toBe(agentKey(old));
      const differs =
        old.score !== now.score ||
        old.sybilSeverity !== now.sybilSeverity ||
        old.sybilSignals.join() !== now.sybilSignals.join() ||
        old.updatedAt.getTime() !== now.updatedAt.getTime();
      expect(differs).toBe(changed.has(agentKey(old)));
      if (differs) {
        differing++;
        expect(now.updatedAt.toISOString()).toBe(LATER.toISOString());
        expect(now.tier).toBe(tierForScore(now.score));
      } else {
        expect(now).toBe(old);
      }
    }
    expect(differing).toBe(changed.size);

    const scoreChanges = next.changes.changed.filter((c) => c.scoreChanged);
    expect(scoreChanges).toHaveLength(100);
    expect(next.changes.changed.filter((c) => c.crossed.length > 0)).toHaveLength(30);
    expect(next.changes.changed.filter((c) => c.tierChanged).length).toBeGreaterThan(0);
    expect(next.changes.changed.filter((c) => c.sybilChanged).length).toBe(Math.round((0.1 / 3) * 1000));
    for (const change of next.changes.changed) {
      expect(change.before.score).toBe(base.get(change.chain, change.agentId, change.registry)!.score);
      expect(change.after.score).toBe(next.get(change.chain, change.agentId, change.registry)!.score);
      expect(change.tierChanged).toBe(change.before.tier !== change.after.tier);
    }
    expect(next.changes.since.toISOString()).toBe(AT.toISOString());
    expect(next.at.toISOString()).toBe(LATER.toISOString());
  });

  it("appends new agents registered since the snapshot", () => {
    const next = base.advance({ seed: 3, changedFraction: 0, newAgents: 25, at: LATER });
    expect(next.size).toBe(1025);
    expect(next.changes.changed).toHaveLength(0);
    expect(next.changes.addedKeys).toHaveLength(25);
    expect(next.agents.slice(1000).map(agentKey)).toEqual(next.changes.addedKeys);
    for (const agent of next.changes.added) {
      expect(base.get(agent.chain, agent.agentId, agent.registry)).toBeUndefined();
      expect(agent.updatedAt.toISOString()).toBe(LATER.toISOString());
      expect(agent.ageDays).toBe(0);
      expect(agent.registeredAt.getTime()).toBeGreaterThan(AT.getTime());
    }
    expect(new Set(next.agents.map(agentKey)).size).toBe(1025);
  });

  it("is deterministic, chains, and honours extra thresholds", () => {
    const options = { seed: 8, changedFraction: 0.2, newAgents: 5, at: LATER, thresholds: [60], crossingFraction: 1 };
    const a = base.advance(options);
    const b = base.advance(options);
    expect(JSON.stringify(a.agents)).toBe(JSON.stringify(b.agents));
    expect(JSON.stringify(a.changes)).toBe(JSON.stringify(b.changes));
    expect(a.changes.changed.filter((c) => c.scoreChanged).every((c) => c.crossed.length > 0)).toBe(true);
    expect(a.changes.changed.some((c) => c.crossed.includes(60))).toBe(true);
    const c = a.advance({ seed: 9, changedFraction: 0.05, at: new Date("2026-11-22T03:00:00.000Z") });
    expect(c.changes.since.toISOString()).toBe(LATER.toISOString());
    expect(c.size).toBe(a.size);
  });

  it("rejects an advance into the past and fractions out of range", () => {
    expect(() => base.advance({ seed: 1, changedFraction: 0.1, at: AT })).toThrow(InvalidArgumentError);
    expect(() => base.advance({ seed: 1, changedFraction: 1.5, at: LATER })).toThrow(InvalidArgumentError);
    expect(() => base.advance({ seed: 1, changedFraction: 0.1, at: LATER, thresholds: [0] })).toThrow(InvalidArgumentError);
  });

  it("adds Solana SATI agents with base58 owners on request, leaving the EVM agents unchanged", () => {
    const evm = createPopulation({ seed: 5, size: 300 });
    const withSolana = createPopulation({ seed: 5, size: 300, solanaAgents: 12 });
    expect(withSolana.agents.slice(0, 300)).toEqual(evm.agents);
    const sati = withSolana.agents.slice(300);
    expect(sati).toHaveLength(12);
    for (const agent of sati) {
      expect(agent).toMatchObject({ chain: "solana", registry: "sati" });
      expect(agent.owner).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(withSolana.get("solana", agent.agentId, "sati")).toBe(agent);
      expect(withSolana.byOwner(agent.owner)).toContain(agent);
    }
    expect(withSolana.byOwner(sati[0]!.owner.toLowerCase())).toEqual([]);
    expect(createPopulation({ seed: 5, size: 300, solanaAgents: 12 }).agents).toEqual(withSolana.agents);
    expect(() => createPopulation({ seed: 5, size: 1, solanaAgents: -1 })).toThrow(/solanaAgents/);
  });
});
