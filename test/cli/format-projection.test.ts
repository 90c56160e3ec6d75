import { describe, expect, it } from "vitest";
import { formatProjection } from "../../src/cli/format-projection";
import { projectFetches } from "../../src/drift/projection";

describe("formatProjection", () => {
  it("says the fetches, the rate, the duration and, without a key, what a key would make it", () => {
    expect(formatProjection(projectFetches({ signedFetches: 600, ratePerMinute: 30, apiKey: false, rateConfigured: false }))).toEqual([
      "600 signed attestations to fetch at 30 requests/min (no API key): about 20m",
      "with an API key (300 requests/min) about 2m: --api-key or TRUSTGATE_API_KEY",
    ]);
    // A keyless --all of 150,000 agents: about a day.
    expect(formatProjection(projectFetches({ signedFetches: 42_010, ratePerMinute: 30, apiKey: false, rateConfigured: false }))[0]).toBe(
      "42010 signed attestations to fetch at 30 requests/min (no API key): about 23h 20m",
    );
  });

  it("is one line with a key, with a rate set by hand, and without a limit", () => {
    expect(formatProjection(projectFetches({ signedFetches: 600, ratePerMinute: 300, apiKey: true, rateConfigured: false }))).toEqual([
      "600 signed attestations to fetch at 300 requests/min: about 2m",
    ]);
    expect(formatProjection(projectFetches({ signedFetches: 1, ratePerMinute: 60_000, apiKey: false, rateConfigured: true }))).toEqual([
      // A rate set by hand (as against the embedded service): a key would not change it, so it is not mentioned.
      "1 signed attestation to fetch at 60000 requests/min: about 1s",
    ]);
    expect(formatProjection(projectFetches({ signedFetches: 3, ratePerMinute: null, apiKey: false, rateConfigured: false }))).toEqual([
      "3 signed attestations to fetch, no client-side rate limit",
    ]);
  });
});
