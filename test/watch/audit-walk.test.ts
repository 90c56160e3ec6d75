// The slow audit's walk: its share of the rate accrued over injected times, the order it walks the population in,
// the wrap-around, the cursor a restart continues from, and the requests per hour it spends.
import { describe, expect, it } from "vitest";
import type { AgentRef } from "../../src/agent/agent-ref";
import { InvalidArgumentError } from "../../src/errors";
import { auditRequestsPerHour, createAuditWalk, DEFAULT_AUDIT_SHARE } from "../../src/watch/audit-walk";

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const population: AgentRef[] = Array.from({ length: 25 }, (_, i) => ({
  chain: "base",
  chainId: 8453,
  agentId: BigInt(i + 1),
  registry: "erc8004",
}));
const ids = (agents: readonly AgentRef[]) => agents.map((a) => Number(a.agentId));

describe("auditRequestsPerHour", () => {
  it("spends a third of the rate by default: 600 an hour at 30 a minute, 6,000 with a key's 300", () => {
    expect(DEFAULT_AUDIT_SHARE).toBeCloseTo(1 / 3, 12);
    expect(auditRequestsPerHour(30)).toBeCloseTo(600, 9);
    expect(auditRequestsPerHour(300)).toBeCloseTo(6000, 9);
    expect(auditRequestsPerHour(30, 0.5)).toBeCloseTo(900, 9);
  });

  it("refuses a rate or a share that cannot be spent", () => {
    expect(() => auditRequestsPerHour(0)).toThrow(InvalidArgumentError);
    expect(() => auditRequestsPerHour(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => auditRequestsPerHour(30, 0)).toThrow(/share/);
    expect(() => auditRequestsPerHour(30, 1.5)).toThrow(/share/);
  });
});

describe("createAuditWalk", () => {
  it("audits the share accrued since the last call, in population order: 10 a minute at 30/min", () => {
    const walk = createAuditWalk(population, { ratePerMinute: 30, now: at(0) });
    expect(walk.next(at(0))).toEqual([]);
    expect(ids(walk.next(at(30)))).toEqual([1, 2, 3, 4, 5]);
    expect(walk.cursor).toBe(5);
    expect(ids(walk.next(at(90)))).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(walk.size).toBe(25);
  });

  it("keeps the fraction of a request between calls: 15 calls 4 s apart audit 10 agents in the minute", () => {
    const walk = createAuditWalk(population, { ratePerMinute: 30, now: at(0) });
    const counts = Array.from({ length: 15 }, (_, i) => walk.next(at(4 * (i + 1))).length);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
    expect(Math.max(...counts)).toBe(1);
    expect(walk.cursor).toBe(10);
  });

  it("wraps around at the end of the population and starts over", () => {
    const walk = createAuditWalk(population, { ratePerMinute: 30, now: at(0) });
    const seen: number[] = [];
    for (let minute = 1; minute <= 3; minute++) seen.push(...ids(walk.next(at(60 * minute))));
    expect(seen).toEqual([...Array.from({ length: 25 }, (_, i) => i + 1), 1, 2, 3, 4, 5]);
    expect(walk.cursor).toBe(5);
  });

  it("holds what accrues during a pause to one minute's worth: no burst after an hour without a call", () => {
    const walk = createAuditWalk(population, { ratePerMinute: 30, now: at(0) });
    expect(walk.next(at(3600))).toHaveLength(10);
    expect(walk.next(at(3600))).toHaveLength(0);
  });

  it("never audits an agent twice in one call, whatever the rate", () => {
    const small = population.slice(0, 5);
    const walk = createAuditWalk(small, { ratePerMinute: 300, share: 1, now: at(0) });
    expect(ids(walk.next(at(60)))).toEqual([1, 2, 3, 4, 5]);
  });

  it("continues from a restart's cursor, wrapped when the population shrank", () => {
    expect(ids(createAuditWalk(population, { ratePerMinute: 30, cursor: 20, now: at(0) }).next(at(30)))).toEqual([21, 22, 23, 24, 25]);
    const wrapped = createAuditWalk(population, { ratePerMinute: 30, cursor: 27, now: at(0) });
    expect(wrapped.cursor).toBe(2);
    expect(ids(wrapped.next(at(12)))).toEqual([3, 4]);
  });

  it("accrues nothing when the clock goes back, then accrues from the new time", () => {
    const walk = createAuditWalk(population, { ratePerMinute: 30, now: at(600) });
    expect(walk.next(at(0))).toEqual([]);
    expect(ids(walk.next(at(6)))).toEqual([1]);
  });

  it("follows the share given: a tenth of 300/min is 30 a minute", () => {
    const walk = createAuditWalk(population, { ratePerMinute: 300, share: 0.1, now: at(0) });
    expect(walk.next(at(30))).toHaveLength(15);
  });

  it("walks nothing in an empty population", () => {
    const walk = createAuditWalk([], { ratePerMinute: 30, cursor: 4, now: at(0) });
    expect(walk.next(at(600))).toEqual([]);
    expect(walk.cursor).toBe(0);
    expect(walk.size).toBe(0);
  });

  it("refuses a cursor that is not a whole index, and a rate it cannot spend", () => {
    expect(() => createAuditWalk(population, { ratePerMinute: 30, cursor: -1, now: at(0) })).toThrow(/cursor/);
    expect(() => createAuditWalk(population, { ratePerMinute: 30, cursor: 1.5, now: at(0) })).toThrow(/cursor/);
    expect(() => createAuditWalk(population, { ratePerMinute: -30, now: at(0) })).toThrow(InvalidArgumentError);
  });
});
