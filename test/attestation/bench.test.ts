import { describe, expect, it } from "vitest";
import { measureAttestationVerification } from "../../scripts/bench/attestation.js";

describe("measureAttestationVerification (benchmark function; speed is printed by npm run bench, not asserted)", () => {
  it("verifies the requested number of realistic responses and reports consistent figures", async () => {
    const result = await measureAttestationVerification({ count: 40, warmup: 5, distinctResponses: 8 });
    expect(result.count).toBe(40);
    expect(result.ms).toBeGreaterThan(0);
    expect(result.verificationsPerSecond).toBeCloseTo(result.count / (result.ms / 1000), 6);
    expect(result.verificationsPerCpuSecond).toBeCloseTo(result.count / (result.cpuMs / 1000), 6);
  });
});
