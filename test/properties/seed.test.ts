/**
 * The seed of the property tests (test/support/property-seed.ts): fixed under CI, replayable with `FC_SEED`, fresh
 * otherwise; and set for every suite, since both vitest configurations run it as a setup file.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import wholeSuite from "../../vitest.config.mjs";
import unitSuite from "../../vitest.unit.config.mjs";
import { CI_PROPERTY_SEED, propertySeed } from "../support/property-seed.js";

describe("the property tests' seed", () => {
  it("is FC_SEED when given (a failed run replayed), under CI or not", () => {
    expect(propertySeed({ FC_SEED: "-1819918769" })).toBe(-1_819_918_769);
    expect(propertySeed({ FC_SEED: " 42 ", CI: "true" })).toBe(42);
  });

  it("is the fixed CI seed under CI, and fresh (fast-check's own) elsewhere", () => {
    expect(propertySeed({ CI: "true" })).toBe(CI_PROPERTY_SEED);
    expect(propertySeed({ CI: "1", FC_SEED: "" })).toBe(CI_PROPERTY_SEED);
    expect(propertySeed({})).toBeUndefined();
    expect(propertySeed({ CI: "false" })).toBeUndefined();
  });

  it("refuses an FC_SEED that is not an integer", () => {
    expect(() => propertySeed({ FC_SEED: "abc" })).toThrow('FC_SEED must be an integer, got "abc"');
    expect(() => propertySeed({ FC_SEED: "1.5" })).toThrow(/FC_SEED must be an integer/);
  });

  it("is set for this run by the setup file of both vitest configurations", () => {
    expect(fc.readConfigureGlobal().seed).toBe(propertySeed(process.env));
    for (const config of [wholeSuite, unitSuite]) expect(config.test?.setupFiles).toContain("test/support/property-seed.ts");
  });
});
