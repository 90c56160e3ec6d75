import { describe, expect, it } from "vitest";
import { measureAttestationVerification } from "../../scripts/bench/attestation.js";

describe("attestation benchmark functions (speed is printed by npm run bench, not asserted)", () => {
  it("verifies the requested number of realistic responses on each path and reports consistent figures", async () => {
    const result = await measureAttestationVerification({ count: 40, warmup: 5, distinctResponses: 8, includeBoth: true });
    expect(result.count).toBe(40);
    expect(result.raw.count).toBe(40);
    expect(result.both?.count).toBe(40);
    expect(result.ms).toBeGreaterThan(0);
    expect(result.verificationsPerSecond).toBeCloseTo(result.count / (result.ms / 1000), 6);
    expect(result.verificationsPerCpuSecond).toBeCloseTo(result.count / (result.cpuMs / 1000), 6);
    expect(result.raw.perSecond).toBeCloseTo(result.raw.count / (result.raw.ms / 1000), 6);
    expect(result.totalRatio).toBeCloseTo(result.verificationsPerCpuSecond / result.raw.perCpuSecond, 6);
    expect(result.ratio).toBeGreaterThan(0); // the median of the paired slices' ratios
    expect(result.wallRatio).toBeCloseTo(result.verificationsPerSecond / result.raw.perSecond, 6);
  });
});
