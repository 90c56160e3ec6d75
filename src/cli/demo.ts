/**
 * `trustgate drift --demo`: the drift job against the embedded local environment (a local Base chain and the
 * local signing service, synthetic data, no network).
 *
 * That environment is part of the harness, not of the kit: the command line never imports it from its own
 * files. It loads the package's public `trustgate/harness` entry at run time, and only for `--demo`, the way any
 * program using the package would. The harness runs its chain on Hardhat, an optional peer dependency: without
 * it, `--demo` is a configuration error (exit 2) whose one line says what to install.
 *
 * Rules:
 * - `--rpc` and `--api` say where the chain and the trust service are. A part not given comes from the
 *   embedded environment only with `--demo`; without `--demo` both are required (a usage error, exit 2).
 * - `--demo` with both `--rpc` and `--api` has nothing to stand in for: refused.
 *
 * @packageDocumentation
 */
import { ConfigurationError } from "../errors.js";
import type { DriftRunArgs } from "./drift-args.js";
import type { StartEmbeddedEnvironment } from "./harness-exports.js";
import { type HarnessLoader, isHardhatInstalled, loadHarnessExport } from "./harness-loader.js";

export { HARNESS_ENTRY } from "./harness-loader.js";

/** The Hardhat 2 version `--demo` is tested with: one of the two the install hint names. */
export const DEMO_HARDHAT_VERSION = "2.29.1";

/** The Hardhat 3 version `--demo` is tested with (on Node 22): one of the two the install hint names. */
export const DEMO_HARDHAT3_VERSION = "3.18.0";

/** How to install Hardhat for `--demo` and the local chain: either major. */
export const HARDHAT_INSTALL_HINT = `npm install --save-dev hardhat@${DEMO_HARDHAT3_VERSION} (Hardhat 3, Node 22 or later) or hardhat@${DEMO_HARDHAT_VERSION} (Hardhat 2)`;

/** The one line printed when `--demo` cannot run because Hardhat is not installed (after `trustgate: `). */
export const DEMO_NEEDS_HARDHAT = `trustgate drift --demo needs the optional peer dependency hardhat: ${HARDHAT_INSTALL_HINT}`;

/**
 * The stderr line that says which parts of a `--demo` run are embedded.
 *
 * @param args - The validated arguments of a run with at least one embedded part.
 * @returns The line, without the `trustgate: ` prefix.
 */
export function demoNotice(args: DriftRunArgs): string {
  const scope = args.settings.scope.kind === "all" ? "; scanning every agent it lists" : "";
  if (args.embedded.chain && args.embedded.api) {
    return `--demo: using the embedded local Base chain and trust service (synthetic data, no network)${scope}`;
  }
  if (args.embedded.chain) return "--demo: no --rpc given, using the embedded local Base chain (simulated oracle records)";
  return "--demo: no --api given, using the embedded local trust service (synthetic attestations)";
}

/** How {@link loadDemoEnvironment} finds its parts, replaceable in tests (see `harness-loader.ts`). */
export type DemoLoader = HarnessLoader;

/**
 * Loads the embedded environment's starter from the harness, after checking that Hardhat is installed.
 *
 * @param loader - Replacements of the Hardhat check and the import, for tests.
 * @returns A function that starts the environment.
 * @throws {@link ConfigurationError} ({@link DEMO_NEEDS_HARDHAT}) when Hardhat is not installed; an `Error` when
 *   the harness entry does not export `startDemoDriftEnvironment` (a broken installation).
 */
export async function loadDemoEnvironment(loader: DemoLoader = {}): Promise<StartEmbeddedEnvironment> {
  if (!isHardhatInstalled(loader)) throw new ConfigurationError(DEMO_NEEDS_HARDHAT);
  return loadHarnessExport("startDemoDriftEnvironment", loader);
}
