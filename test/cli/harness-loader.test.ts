// The command line's loader of the harness: each export it loads is the harness entry's own function, typed as the
// kit knows it (src/cli/harness-exports.ts), and an entry without it is a broken installation, said so.
import { describe, expect, it } from "vitest";
import type { HarnessExports } from "../../src/cli/harness-exports";
import { loadHarnessExport } from "../../src/cli/harness-loader";
import * as harness from "../../src/harness/index";

// The harness's functions fit the types the kit loads them under: tsc fails here when one of them drifts.
const expected: HarnessExports = {
  startDemoDriftEnvironment: harness.startDemoDriftEnvironment,
  startSubmissionSimulator: harness.startSubmissionSimulator,
};

describe("loading the harness", () => {
  it("returns each export of the harness entry, the very function", async () => {
    for (const name of Object.keys(expected) as (keyof HarnessExports)[]) {
      expect(await loadHarnessExport(name, { importHarness: async () => harness })).toBe(expected[name]);
    }
  });

  it("refuses an entry that does not export the name as a function", async () => {
    for (const entry of [{}, null, { startSubmissionSimulator: "not a function" }]) {
      await expect(loadHarnessExport("startSubmissionSimulator", { importHarness: async () => entry })).rejects.toThrow(
        "trustgate/harness does not export startSubmissionSimulator: the installed package is incomplete",
      );
    }
  });
});
