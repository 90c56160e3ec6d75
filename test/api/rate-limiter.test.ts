import { describe, expect, it } from "vitest";
import { maxInAnyWindow, measureRateLimiter } from "../../scripts/bench/rate-limiter.js";
import { rateLimiterFromOptions } from "../../src/api/options.js";
import { createRateLimiter } from "../../src/api/rate-limiter.js";
import { RATE_LIMITS } from "../../src/config/service.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { createRng } from "../../src/harness/prng.js";
import { createFakeClock } from "../support/fake-clock.js";

const MINUTE = 60_000;

/** A seeded PRNG so that "random" arrival patterns are the same on every run. */
function rng(seed: number): () => number {
  const generator = createRng(seed);
  return () => generator.next();
}

describe("rate limiter: limits", () => {
  it("defaults to the service's limits: 30/min anonymous, 300/min with a key", () => {
    expect(RATE_LIMITS).toEqual({ anonymous: 30, withApiKey: 300 });
    expect(createRateLimiter().limit).toBe(30);
    expect(createRateLimiter({ hasApiKey: true }).limit).toBe(300);
    expect(createRateLimiter({ hasApiKey: true, limit: 7 }).limit).toBe(7);
    expect(createRateLimiter().windowMs).toBe(MINUTE);
  });

  it("client options pick the limit by key presence, accept an override, and false means no limiter", () => {
    expect(rateLimiterFromOptions({})?.limit).toBe(30);
    expect(rateLimiterFromOptions({ apiKey: "k" })?.limit).toBe(300);
    expect(rateLimiterFromOptions({ apiKey: "" })?.limit).toBe(30);
    expect(rateLimiterFromOptions({ apiKey: "k", rateLimit: 12 })?.limit).toBe(12);
    expect(rateLimiterFromOptions({ rateLimit: false })).toBeUndefined();
    const shared = createRateLimiter({ limit: 3 });
    expect(rateLimiterFromOptions({ rateLimit: shared })).toBe(shared);
  });

  it("rejects a limit that is not a positive integer, and a non-positive window", () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      expect(() => createRateLimiter({ limit })).toThrow(InvalidArgumentError);
      expect(() => rateLimiterFromOptions({ rateLimit: limit })).toThrow(InvalidArgumentError);
    }
    expect(() => createRateLimiter({ windowMs: 0 })).toThrow(InvalidArgumentError);
  });
});

describe("rate limiter: never more than N in any 60 s window (simulated clock)", () => {
  it("a burst of 1,000 anonymous acquires: 30 per window, exactly one window apart, no idle time", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    const grants = await Promise.all(Array.from({ length: 1000 }, () => limiter.acquire()));

    expect(maxInAnyWindow(grants, MINUTE)).toBe(30);
    // Granted in call order, never earlier than the window allows, and never later than needed.
    for (let i = 0; i < grants.length; i++) {
      expect(grants[i]).toBe(start + Math.floor(i / 30) * MINUTE);
    }
  });

  it("with a key the limit is 300: a burst of 3,000 gets exactly 300 per window", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ hasApiKey: true, now: clock.now, sleep: clock.sleep });
    const grants = await Promise.all(Array.from({ length: 3000 }, () => limiter.acquire()));
    expect(maxInAnyWindow(grants, MINUTE)).toBe(300);
    expect(grants[299]! - grants[0]!).toBe(0);
    expect(grants[300]! - grants[0]!).toBe(MINUTE);
    expect(grants[2999]! - grants[0]!).toBe(9 * MINUTE);
  });

  it("random arrivals, including bursts straddling minute boundaries, never exceed the limit", async () => {
    for (const [limit, seed] of [
      [30, 1],
      [300, 2],
      [5, 3],
    ] as const) {
      // Start 59.5 s into a minute: a limiter with fixed per-minute buckets would let 2N through here.
      const clock = createFakeClock(Date.UTC(2026, 10, 22, 10, 0, 59, 500));
      const limiter = createRateLimiter({ limit, now: clock.now, sleep: clock.sleep });
      const random = rng(seed);
      const grants: number[] = [];
      for (let i = 0; i < limit * 40; i++) {
        // Mostly short gaps (offered load about twice the limit), sometimes long pauses that empty the window.
        // (a run of about 3N arrivals between pauses, long enough to fill a window).
        const pause = random() < 1 / (3 * limit);
        clock.advance(pause ? Math.floor(random() * 90_000) : Math.floor((random() * MINUTE) / limit));
        grants.push(await limiter.acquire());
      }
      expect(maxInAnyWindow(grants, MINUTE)).toBeLessThanOrEqual(limit);
      // The load was high enough to hit the limit, so the check above is not vacuous.
      expect(maxInAnyWindow(grants, MINUTE)).toBe(limit);
      // Grants never go back in time.
      for (let i = 1; i < grants.length; i++) expect(grants[i]!).toBeGreaterThanOrEqual(grants[i - 1]!);
    }
  });

  it("terminates and holds the limit with a fractional clock (performance.now-style timestamps)", async () => {
    // Regression: with fractional times, `t + (oldest + window − t)` can round to just below the target, and
    // a wait of ~0 ms would spin forever without the clock moving on.
    const clock = createFakeClock(1_000.123456789);
    const limiter = createRateLimiter({ limit: 300, now: clock.now, sleep: clock.sleep });
    const random = rng(9);
    const pending: Promise<number>[] = [];
    for (let i = 0; i < 1_000; i++) {
      clock.advance(random() * 66.7);
      pending.push(limiter.acquire());
      await Promise.resolve();
    }
    const grants = await Promise.all(pending);
    expect(grants).toHaveLength(1_000);
    expect(maxInAnyWindow(grants, MINUTE)).toBeLessThanOrEqual(300);
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(clock.sleeps.every((ms) => Number.isInteger(ms) && ms >= 1)).toBe(true);
  });

  it("tryAcquire grants while there is room, then refuses without counting", () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 3, now: clock.now, sleep: clock.sleep });
    expect([limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire(), limiter.tryAcquire()]).toEqual([true, true, true, false]);
    expect(limiter.state()).toMatchObject({ used: 3, available: 0 });
    clock.advance(MINUTE - 1);
    expect(limiter.tryAcquire()).toBe(false);
    clock.advance(1);
    expect(limiter.state()).toMatchObject({ used: 0, available: 3 });
    expect(limiter.tryAcquire()).toBe(true);
  });
});

describe("rate limiter: pauses (429 with Retry-After)", () => {
  it("pauseUntil holds every request back until the given time, even with room in the window", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 100, now: clock.now, sleep: clock.sleep });
    const t0 = clock.now();
    await limiter.acquire();
    limiter.pauseUntil(t0 + 7_000);
    expect(limiter.state()).toMatchObject({ available: 0, pausedUntil: t0 + 7_000 });
    expect(limiter.tryAcquire()).toBe(false);
    const grants = await Promise.all([limiter.acquire(), limiter.acquire()]);
    expect(grants).toEqual([t0 + 7_000, t0 + 7_000]);
    expect(limiter.state().pausedUntil).toBeUndefined();
  });

  it("a pause can be extended but never shortened", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 100, now: clock.now, sleep: clock.sleep });
    const t0 = clock.now();
    limiter.pauseUntil(t0 + 10_000);
    limiter.pauseUntil(t0 + 2_000);
    expect(await limiter.acquire()).toBe(t0 + 10_000);
    limiter.pauseUntil(t0 + 15_000);
    expect(await limiter.acquire()).toBe(t0 + 15_000);
  });

  it("a pause and a full window combine: the later of the two wins", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 2, now: clock.now, sleep: clock.sleep });
    const t0 = clock.now();
    await limiter.acquire();
    await limiter.acquire();
    limiter.pauseUntil(t0 + 5_000);
    // Paused until +5 s, and then the window is still full until +60 s.
    expect(await limiter.acquire()).toBe(t0 + MINUTE);
  });
});

describe("rate limiter benchmark", () => {
  it("reports the most requests in any window against the limit (simulated)", async () => {
    const burst = await measureRateLimiter({ limitPerMinute: 30, requests: 600, simulated: true });
    expect(burst).toMatchObject({ limit: 30, requests: 600, maxInAnyWindow: 30, withinLimit: true, windowMs: MINUTE });
    expect(burst.spanMs).toBe(19 * MINUTE);

    const random = await measureRateLimiter({ limitPerMinute: 300, requests: 3000, simulated: true, arrival: "random" });
    expect(random.withinLimit).toBe(true);
    expect(random.maxInAnyWindow).toBeLessThanOrEqual(300);
  });
});
