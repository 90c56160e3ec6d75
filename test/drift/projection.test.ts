import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../src/api/rate-limiter";
import { projectFetches, ratePerMinuteOf } from "../../src/drift/projection";

describe("projectFetches", () => {
  it("600 signed fetches at 30 a minute take 20 minutes, and 2 with a key (300 a minute)", () => {
    expect(projectFetches({ signedFetches: 600, ratePerMinute: 30, apiKey: false, rateConfigured: false })).toEqual({
      signedFetches: 600,
      ratePerMinute: 30,
      projectedSeconds: 1200,
      apiKey: false,
      withApiKey: { ratePerMinute: 300, projectedSeconds: 120 },
    });
  });

  it("says nothing about a key when one is used, when the rate was set by hand, or when the rate is already that high", () => {
    expect(projectFetches({ signedFetches: 600, ratePerMinute: 300, apiKey: true, rateConfigured: false })).toMatchObject({
      projectedSeconds: 120,
      apiKey: true,
      withApiKey: null,
    });
    expect(projectFetches({ signedFetches: 600, ratePerMinute: 10, apiKey: false, rateConfigured: true })).toMatchObject({
      projectedSeconds: 3600,
      withApiKey: null,
    });
    expect(projectFetches({ signedFetches: 600, ratePerMinute: 60_000, apiKey: false, rateConfigured: false }).withApiKey).toBeNull();
  });

  it("rounds up, and has no duration without a limiter", () => {
    expect(projectFetches({ signedFetches: 1, ratePerMinute: 60_000, apiKey: false, rateConfigured: true }).projectedSeconds).toBe(1);
    expect(projectFetches({ signedFetches: 0, ratePerMinute: 30, apiKey: false, rateConfigured: false })).toMatchObject({
      projectedSeconds: 0,
      withApiKey: { ratePerMinute: 300, projectedSeconds: 0 },
    });
    expect(projectFetches({ signedFetches: 42_010, ratePerMinute: null, apiKey: false, rateConfigured: false })).toEqual({
      signedFetches: 42_010,
      ratePerMinute: null,
      projectedSeconds: null,
      apiKey: false,
      withApiKey: null,
    });
  });
});

describe("ratePerMinuteOf", () => {
  it("reads the limit in force, scaled to a minute", () => {
    expect(ratePerMinuteOf(createRateLimiter())).toBe(30);
    expect(ratePerMinuteOf(createRateLimiter({ hasApiKey: true }))).toBe(300);
    expect(ratePerMinuteOf({ limit: 5, windowMs: 1_000 })).toBe(300);
    expect(ratePerMinuteOf(undefined)).toBeNull();
  });
});
