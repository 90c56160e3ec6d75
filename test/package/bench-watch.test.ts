/**
 * The watch's benchmark section (scripts/bench/watch.ts) on a small scale, so that `npm run bench` keeps measuring what
 * it says: the synthetic history reaches the follower whole (every block processed, every event a change with its
 * agent), the alert book stays within its bounded set of conditions, the heap is sampled at each step, and the audit's
 * measured requests an hour agree with `auditRequestsPerHour` at both of the service's limits.
 */
import { describe, expect, it } from "vitest";
import { measureAuditRate, measureFollowerMemory, quantile, SERVICE_LIMITS_PER_MINUTE } from "../../scripts/bench/watch";

describe("the watch's benchmark", () => {
  it("drives the follower through every synthetic block and samples the heap at each step", async () => {
    const result = await measureFollowerMemory({
      blocks: 3_000,
      population: 5_000,
      eventsPerBlock: 2,
      sampleEvery: 1_000,
      blocksPerPoll: 500,
      conditions: 50,
    });
    expect(result.samples.map((sample) => sample.block)).toEqual([1_000, 2_000, 3_000]);
    expect(result.changes).toBe(6_000);
    expect(result.outstanding).toBeGreaterThan(0);
    expect(result.outstanding).toBeLessThanOrEqual(50);
    for (const sample of [result.start, ...result.samples]) expect(sample.heapUsed).toBeGreaterThan(0);
  }, 120_000);

  it("measures the audit's requests over one simulated hour: its share of the limit, without a key and with one", () => {
    for (const rate of [SERVICE_LIMITS_PER_MINUTE.anonymous, SERVICE_LIMITS_PER_MINUTE.withKey]) {
      const result = measureAuditRate(rate, { population: 20_000 });
      expect(result.limitPerHour).toBe(rate * 60);
      expect(Math.abs(result.measuredPerHour - result.computedPerHour)).toBeLessThanOrEqual(1);
      expect(result.measuredPerHour).toBeLessThan(result.limitPerHour);
    }
  });

  it("takes quantiles by nearest rank", () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 0.99)).toBe(5);
    expect(quantile([7], 0.5)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
