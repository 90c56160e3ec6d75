/**
 * The main entry, `trustgate`, holds what a TypeScript developer calls: at most 60 runtime names, none of them a zod
 * schema, and none of the harness's stand-ins. (Its exact list is snapshotted in entry-exports.test.ts; the
 * installed tarball's entry is checked against the same rules by installed-package.test.ts, its declarations by
 * declarations.test.ts.)
 */
import { describe, expect, it } from "vitest";
import * as harness from "../../src/harness/index";
import * as service from "../../src/harness/service/index";
import * as testing from "../../src/harness/testing/index";
import * as kit from "../../src/index";
import { MAX_MAIN_ENTRY_NAMES, zodSchemaNames } from "../support/entry-names";

/**
 * Names the harness exports (`trustgate/harness`, `trustgate/service`, `trustgate/testing`) that must never reach the
 * main entry: the stand-ins for the outside world.
 */
const HARNESS_ONLY_EXPORTS: readonly string[] = [
  "installMulticall3",
  "generateSigningKey",
  "exportSigningKey",
  "importSigningKey",
  "signPayload",
  "signBytes",
  "signCompactJws",
  "serializeSigned",
  "createAttestation",
  "signJwt",
  "createJwtAttestation",
  "startTrustService",
  "createPopulation",
  "loadOrCreateKeyFile",
  "startBaseSimulation",
  "startLocalChain",
  "startEmbeddedDriftEnvironment",
  "startDemoDriftEnvironment",
  "startSubmissionSimulator",
  "publishTrustRecords",
  "startBaseContext",
  "installOracleOverride",
  "baseForkBlockFromEnv",
  "createRng",
  "hashSeed",
];

describe("the main entry (src/index.ts)", () => {
  it(`has at most ${MAX_MAIN_ENTRY_NAMES} runtime names, none of them a zod schema`, () => {
    expect(Object.keys(kit).length).toBeGreaterThan(30);
    expect(Object.keys(kit).length).toBeLessThanOrEqual(MAX_MAIN_ENTRY_NAMES);
    expect(zodSchemaNames(kit)).toEqual([]);
  });

  it("recognises a zod schema (the check is not vacuous)", async () => {
    const published = await import("../../src/published/index");
    expect(zodSchemaNames(published)).toContain("trustCheckSchema");
  });

  it("exports the SDK's calls: reader, client, verifier, policy", () => {
    expect(typeof kit.verifyTrustAttestation).toBe("function");
    expect(typeof kit.readTrustRecords).toBe("function");
    expect(typeof kit.createTrustApiClient).toBe("function");
    expect(typeof kit.evaluateTrustPolicy).toBe("function");
    expect(typeof kit.toAttestationCall).toBe("function");
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
