/**
 * What a response announces about the rate limit, read generously (`X-RateLimit-*`, the IETF draft's
 * `RateLimit-*` forms, resets as deltas, Unix times or dates) and garbage ignored; and how the limiter takes
 * an announcement in: the limit replaces the one in force, lower or higher, never above a cap; a lower
 * `remaining` than its own count holds requests back until the reset. Simulated clock throughout.
 */
import { describe, expect, it } from "vitest";
import { parseRateLimitHeaders } from "../../src/api/rate-limit-headers.js";
import { createRateLimiter, type RateInForce } from "../../src/api/rate-limiter.js";
import { createFakeClock, FAKE_EPOCH } from "../support/fake-clock.js";

const MINUTE = 60_000;
const parse = (headers: Record<string, string>, now = FAKE_EPOCH) => parseRateLimitHeaders(new Headers(headers), { now });

describe("parseRateLimitHeaders: the forms services use", () => {
  it("X-RateLimit-Limit / -Remaining / -Reset as integers (reset in delta seconds)", () => {
    expect(parse({ "X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "12", "X-RateLimit-Reset": "41" })).toEqual({
      limit: 300,
      remaining: 12,
      resetMs: 41_000,
    });
    expect(parse({ "x-ratelimit-limit": " 30 " })).toEqual({ limit: 30 });
    expect(parse({ "x-ratelimit-remaining": "0" })).toEqual({ remaining: 0 });
  });

  it("a reset as a Unix time in seconds or milliseconds, or as an HTTP date, is measured from now", () => {
    const inSeconds = String(FAKE_EPOCH / 1000 + 25);
    expect(parse({ "x-ratelimit-reset": inSeconds }).resetMs).toBe(25_000);
    expect(parse({ "x-ratelimit-reset": String(FAKE_EPOCH + 7_500) }).resetMs).toBe(7_500);
    expect(parse({ "x-ratelimit-reset": new Date(FAKE_EPOCH + 9_000).toUTCString() }).resetMs).toBe(9_000);
    // In the past: the quota is back already.
    expect(parse({ "x-ratelimit-reset": String(FAKE_EPOCH / 1000 - 100) }).resetMs).toBe(0);
    expect(parse({ "x-ratelimit-reset": "1.5" }).resetMs).toBe(1_500);
  });

  it("the IETF draft's earlier form: RateLimit-Limit / -Remaining / -Reset and RateLimit-Policy: q;w=", () => {
    expect(
      parse({ "RateLimit-Limit": "100", "RateLimit-Remaining": "40", "RateLimit-Reset": "30", "RateLimit-Policy": "100;w=60" }),
    ).toEqual({
      limit: 100,
      windowMs: MINUTE,
      remaining: 40,
      resetMs: 30_000,
    });
    // The limit header with its policies: the first member is the limit in force, its window from the policy.
    expect(parse({ "RateLimit-Limit": "10, 10;w=1, 50;w=60" })).toEqual({ limit: 10, windowMs: 1_000 });
    expect(parse({ "X-RateLimit-Limit": "300;w=60" })).toEqual({ limit: 300, windowMs: MINUTE });
  });

  it("the IETF draft's later structured form: RateLimit-Policy with q and w, RateLimit with r and t", () => {
    expect(parse({ "RateLimit-Policy": '"default";q=100;w=60', RateLimit: '"default";r=50;t=30' })).toEqual({
      limit: 100,
      windowMs: MINUTE,
      remaining: 50,
      resetMs: 30_000,
    });
    // Several policies: the one allowing the fewest requests over time; a quota in bytes is not a request count.
    expect(parse({ "RateLimit-Policy": '"burst";q=100;w=60, "daily";q=1000;w=86400, "bytes";q=10;qu="content-bytes";w=60' })).toEqual({
      limit: 1000,
      windowMs: 86_400_000,
    });
    // Several states: the fewest remaining, with its reset.
    expect(parse({ RateLimit: '"burst";r=80;t=5, "daily";r=3;t=3600' })).toEqual({ remaining: 3, resetMs: 3_600_000 });
  });

  it("the X- header and a policy naming the same quota: the announcement carries the policy's window", () => {
    expect(parse({ "X-RateLimit-Limit": "30", "RateLimit-Policy": '"default";q=30;w=60' })).toEqual({ limit: 30, windowMs: MINUTE });
  });
});

describe("parseRateLimitHeaders: garbage is ignored, never thrown", () => {
  it.each([
    ["x-ratelimit-limit", "banana"],
    ["x-ratelimit-limit", "-5"],
    ["x-ratelimit-limit", "0"],
    ["x-ratelimit-limit", "1e3"],
    ["x-ratelimit-limit", "3.5"],
    ["x-ratelimit-limit", "99999999999999999999"],
    ["x-ratelimit-limit", ";w=60"],
    ["x-ratelimit-remaining", "-1"],
    ["x-ratelimit-remaining", "lots"],
    ["x-ratelimit-reset", "soon"],
    ["x-ratelimit-reset", "-30"],
    ["x-ratelimit-reset", "1e3"],
    ["ratelimit-policy", ';;;,,"q=, =;w'],
    ["ratelimit-policy", '"default";q=abc;w=60'],
    ["ratelimit-policy", '"default";q=0;w=60'],
    ["ratelimit", '"default";r=;t=x'],
    ["ratelimit", '"unterminated;r=5'],
  ])("%s: %j reads as absent", (name, value) => {
    expect(parse({ [name]: value })).toEqual({});
  });

  it("a window that is not a positive number of seconds is dropped, the limit kept", () => {
    expect(parse({ "RateLimit-Policy": "100;w=0" })).toEqual({ limit: 100 });
    expect(parse({ "RateLimit-Policy": "100;w=-60" })).toEqual({ limit: 100 });
    expect(parse({ "RateLimit-Policy": "100;w=forever" })).toEqual({ limit: 100 });
  });

  it("no headers, or a header object that throws, is an empty announcement", () => {
    expect(parse({})).toEqual({});
    const hostile = {
      get(): string | null {
        throw new Error("boom");
      },
    };
    expect(parseRateLimitHeaders(hostile)).toEqual({});
  });
});

describe("rate limiter: following announcements", () => {
  it("an announced lower limit replaces the default one, and the window fills at it", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ now: clock.now, sleep: clock.sleep });
    expect(limiter.rate()).toMatchObject({ limit: 30, perMinute: 30, source: "default", cap: undefined, announced: undefined });
    const changes: RateInForce[] = [];
    limiter.onChange((rate) => changes.push(rate));

    await limiter.acquire();
    limiter.announce({ limit: 3 });
    expect(limiter.limit).toBe(3);
    expect(changes).toEqual([
      { limit: 3, windowMs: MINUTE, perMinute: 3, source: "announced", cap: undefined, announced: { limit: 3, windowMs: MINUTE } },
    ]);
    const grants = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()];
    expect(grants.map((t) => t - FAKE_EPOCH)).toEqual([0, 0, MINUTE]);
    // The same announcement again changes nothing, and says nothing.
    limiter.announce({ limit: 3 });
    expect(changes).toHaveLength(1);
  });

  it("an announced higher limit raises it, and wakes a request already waiting for the window", async () => {
    const clock = createFakeClock();
    // A sleep that never ends by itself: only the limiter's wake-up can end it.
    const naps: number[] = [];
    const sleep = (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve) => {
        naps.push(ms);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    const limiter = createRateLimiter({ limit: 1, now: clock.now, sleep });
    expect(limiter.rate().source).toBe("configured");
    await limiter.acquire();
    const second = limiter.acquire();
    await new Promise((resolve) => setImmediate(resolve));
    expect(naps).toEqual([MINUTE]);
    expect(limiter.state()).toMatchObject({ waiting: 1, available: 0 });

    limiter.announce({ limit: 5 });
    expect(await second).toBe(FAKE_EPOCH); // granted at once, without the clock moving
    expect(limiter.rate()).toMatchObject({ limit: 5, source: "announced" });
  });

  it("never above a configured cap: a higher announcement is held at the cap, a lower one followed", () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 10, cap: 10, now: clock.now, sleep: clock.sleep });
    limiter.announce({ limit: 300 });
    expect(limiter.rate()).toMatchObject({ limit: 10, source: "configured", cap: 10, announced: { limit: 300, windowMs: MINUTE } });
    limiter.announce({ limit: 4 });
    expect(limiter.rate()).toMatchObject({ limit: 4, source: "announced" });
    limiter.announce({ limit: 50 });
    expect(limiter.limit).toBe(10);
    // A default limit above the cap starts at the cap.
    expect(createRateLimiter({ hasApiKey: true, cap: 100 }).rate()).toMatchObject({ limit: 100, source: "configured" });
  });

  it("a limit per another window is converted by rate to the limiter's window (at least one)", () => {
    const limiter = createRateLimiter();
    limiter.announce({ limit: 6000, windowMs: 3_600_000 });
    expect(limiter.rate()).toMatchObject({ limit: 100, perMinute: 100, announced: { limit: 6000, windowMs: 3_600_000 } });
    limiter.announce({ limit: 2, windowMs: 1_000 });
    expect(limiter.limit).toBe(120);
    limiter.announce({ limit: 10, windowMs: 86_400_000 });
    expect(limiter.limit).toBe(1);
  });

  it("a remaining below the limiter's own count holds requests back until the announced reset", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 10, now: clock.now, sleep: clock.sleep });
    await limiter.acquire();
    // The service counted 10 (another process shares the key): none left for 5 s.
    limiter.announce({ limit: 10, remaining: 0, resetMs: 5_000 });
    expect(limiter.state()).toMatchObject({ used: 10, available: 0 });
    expect((await limiter.acquire()) - FAKE_EPOCH).toBe(5_000);
    // After the reset the requests counted elsewhere are gone; the limiter's own two remain.
    expect(limiter.state()).toMatchObject({ used: 2, available: 8 });
  });

  it("a remaining that agrees with the limiter's count, or exceeds it, changes nothing", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 10, now: clock.now, sleep: clock.sleep });
    await limiter.acquire();
    await limiter.acquire();
    limiter.announce({ limit: 10, remaining: 8, resetMs: 60_000 });
    expect(limiter.state()).toMatchObject({ used: 2, available: 8 });
    limiter.announce({ remaining: 9 }); // a response to an earlier request, overtaken
    expect(limiter.state()).toMatchObject({ used: 2, available: 8 });
  });

  it("with a cap below the service's limit, requests used elsewhere only matter once the service's own room runs out", () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 5, cap: 5, now: clock.now, sleep: clock.sleep });
    limiter.announce({ limit: 300, remaining: 100, resetMs: 30_000 }); // 200 used elsewhere, 100 left
    expect(limiter.state().available).toBe(5);
    limiter.announce({ limit: 300, remaining: 2, resetMs: 30_000 });
    expect(limiter.state().available).toBe(2);
  });

  it("a reset longer than the window counts as the window; a fixed limiter ignores announcements", async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 2, now: clock.now, sleep: clock.sleep });
    limiter.announce({ remaining: 0, resetMs: 10 * MINUTE });
    expect((await limiter.acquire()) - FAKE_EPOCH).toBe(MINUTE);

    const fixed = createRateLimiter({ limit: 2, adaptive: false });
    fixed.announce({ limit: 500, remaining: 0, resetMs: 1_000 });
    expect(fixed.state()).toMatchObject({ limit: 2, source: "configured", available: 2, announced: undefined });
  });

  it("a listener that throws does not stop the limiter; onChange returns its own removal", () => {
    const limiter = createRateLimiter();
    const seen: number[] = [];
    limiter.onChange(() => {
      throw new Error("listener bug");
    });
    const off = limiter.onChange((rate) => seen.push(rate.limit));
    limiter.announce({ limit: 40 });
    off();
    limiter.announce({ limit: 50 });
    expect(seen).toEqual([40]);
    expect(limiter.limit).toBe(50);
  });

  it("rejects a cap that is not a positive integer", () => {
    expect(() => createRateLimiter({ cap: 0 })).toThrow(/cap/);
    expect(() => createRateLimiter({ cap: 2.5 })).toThrow(/cap/);
  });
});
