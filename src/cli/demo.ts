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
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConfigurationError } from "../errors.js";
import type { DriftRunArgs } from "./drift-args.js";
import type { EmbeddedEndpoints } from "./drift-config.js";

/**
 * What the command line needs of a started embedded environment (the harness's `EmbeddedDriftEnvironment`,
 * from `startDemoDriftEnvironment` in `src/harness/demo.ts`, is one).
 */
export interface EmbeddedEnvironment extends EmbeddedEndpoints {
  readonly chainId: number;
  /** Stops the local chain and service. */
  close(): Promise<void> | void;
}

/** Starts the embedded environment; `now` is the scenario's clock (default the system clock). */
export type StartEmbeddedEnvironment = (options?: { readonly now?: Date }) => Promise<EmbeddedEnvironment>;

/** The package entry that holds the embedded environment (`src/harness/index.ts`, built to `dist/harness/`). */
export const HARNESS_ENTRY = "trustgate/harness";

/** The Hardhat version `--demo` is tested with: the one the install hint names. */
export const DEMO_HARDHAT_VERSION = "2.29.1";

/** The one line printed when `--demo` cannot run because Hardhat is not installed (after `trustgate: `). */
export const DEMO_NEEDS_HARDHAT = `trustgate drift --demo needs the optional peer dependency hardhat: npm install --save-dev hardhat@${DEMO_HARDHAT_VERSION}`;

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

/** How {@link loadDemoEnvironment} finds its parts, replaceable in tests. */
export interface DemoLoader {
  /** Whether `hardhat` can be loaded; default: resolved from the working folder's project or this package. */
  readonly hardhatInstalled?: () => boolean;
  /** Imports the harness entry; default `import("trustgate/harness")`. */
  readonly importHarness?: () => Promise<unknown>;
}

/**
 * Loads the embedded environment's starter from the harness, after checking that Hardhat is installed.
 *
 * @param loader - Replacements of the Hardhat check and the import, for tests.
 * @returns A function that starts the environment.
 * @throws {@link ConfigurationError} ({@link DEMO_NEEDS_HARDHAT}) when Hardhat is not installed; an `Error` when
 *   the harness entry does not export `startDemoDriftEnvironment` (a broken installation).
 */
export async function loadDemoEnvironment(loader: DemoLoader = {}): Promise<StartEmbeddedEnvironment> {
  const installed = loader.hardhatInstalled ?? (() => canResolve("hardhat"));
  if (!installed()) throw new ConfigurationError(DEMO_NEEDS_HARDHAT);
  const harness = (await (loader.importHarness ?? importByName)()) as { startDemoDriftEnvironment?: unknown } | null;
  const start = harness?.startDemoDriftEnvironment;
  if (typeof start !== "function") {
    throw new Error(`${HARNESS_ENTRY} does not export startDemoDriftEnvironment: the installed package is incomplete`);
  }
  return (options) => (start as StartEmbeddedEnvironment)(options);
}

/**
 * Imports the harness by its package name (a variable specifier: the kit's sources never name the harness's
 * files). Node finds `trustgate/harness` in the `node_modules` the package is installed in, or (running this
 * repository's sources) by the package's reference to itself. A package linked into a project (a path
 * dependency) is neither: its real location is outside the project's `node_modules`, and `dist/` has a
 * `package.json` of its own, which hides the package's name. Then the entry is taken from the package's own
 * `exports` map, the way Node would have.
 */
async function importByName(): Promise<unknown> {
  const specifier: string = HARNESS_ENTRY;
  try {
    return await import(specifier);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    const entry = entryFromOwnExports(specifier);
    if (entry === undefined) throw error;
    return import(pathToFileURL(entry).href);
  }
}

/** The file a subpath of this package names in its `exports` map (`import` condition), found from this module up. */
function entryFromOwnExports(specifier: string): string | undefined {
  const [name, ...rest] = specifier.split("/");
  const subpath = `./${rest.join("/")}`;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; exports?: Record<string, unknown> };
      const target = pkg.name === name ? pkg.exports?.[subpath] : undefined;
      const file = typeof target === "string" ? target : (target as { import?: unknown } | undefined)?.import;
      if (typeof file === "string") return join(dir, file);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether `name` resolves from the working folder's project or from this package (where the harness looks too). */
function canResolve(name: string): boolean {
  return [join(process.cwd(), "package.json"), import.meta.url].some((base) => {
    try {
      createRequire(base).resolve(name);
      return true;
    } catch {
      return false;
    }
  });
}
