import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The Hardhat 3 consumer project's node:test files run there, under Node 22 (test/package/hardhat3-project.test.ts).
    // Mutation testing's sandbox (.stryker-tmp/) holds a copy of the suites.
    exclude: ["**/node_modules/**", "test/package/hardhat3-project/**", ".stryker-tmp/**"],
    // Registers ts-node in each test process so that Hardhat can load hardhat.config.ts in-process.
    // fast-check's seed: fixed under CI, replayable with FC_SEED (test/support/property-seed.ts).
    setupFiles: ["test/support/register-ts-node.ts", "test/support/property-seed.ts"],
    // Compiles the contracts (and regenerates the typechain types) once, before any test file runs.
    globalSetup: ["test/support/compile-contracts.ts"],
    // Each test file runs in its own process with its own in-process Hardhat network.
    pool: "forks",
    // The default report, then every skipped test with its reason.
    reporters: ["default", "./test/support/skip-summary-reporter.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
