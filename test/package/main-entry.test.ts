import { describe, expect, it } from "vitest";
import * as harness from "../../src/harness/index";
import * as service from "../../src/harness/service/index";
import * as testing from "../../src/harness/testing/index";
import * as kit from "../../src/index";
import { HARNESS_ONLY_EXPORTS, MAIN_ENTRY_EXPORTS } from "../support/main-entry-exports";

/**
 * The main entry, `trustgate`, exports the SDK only: configuration, reader, client, verification and the drift
 * job. (The built `dist/index.js` is checked against the same list by the packaging test.)
 */
describe("the main entry (src/index.ts)", () => {
  it("exports exactly the kit's public names", () => {
    expect(Object.keys(kit).sort()).toEqual([...MAIN_ENTRY_EXPORTS].sort());
  });

  it("exports the drift job as a library: runDrift and its exit-code rule", () => {
    expect(typeof kit.runDrift).toBe("function");
    expect(typeof kit.exitCodeOf).toBe("function");
    expect(kit.DRIFT_EXIT_CODES).toMatchObject({ ok: 0, usage: 2, drift: 3, unverified: 4 });
    expect(typeof kit.verifyTrustAttestation).toBe("function");
    expect(typeof kit.readTrustRecords).toBe("function");
    expect(typeof kit.createTrustApiClient).toBe("function");
  });

  it("exports none of the harness's stand-ins, which the harness entries do export", () => {
    const entries: Record<string, Record<string, unknown>> = { harness, service, testing };
    for (const name of HARNESS_ONLY_EXPORTS) {
      expect(Object.keys(kit), name).not.toContain(name);
      expect(name in harness, `trustgate/harness exports ${name}`).toBe(true);
    }
    expect(Object.keys(entries.service!)).toContain("startTrustService");
    expect(Object.keys(entries.testing!)).toContain("startBaseContext");
  });

  it("shares no function or class with the harness unless the harness re-exports it from the kit", () => {
    const kitValues = new Set<unknown>(Object.values(kit));
    const harnessOwn = Object.entries(harness).filter(([, value]) => typeof value === "function" && !kitValues.has(value));
    expect(harnessOwn.length).toBeGreaterThan(20);
    for (const [name] of harnessOwn) expect(Object.keys(kit)).not.toContain(name);
  });
});
