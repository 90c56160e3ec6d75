/**
 * How the command line reaches the harness (`trustgate/harness`: the embedded environment of `drift --demo`, the
 * local chain of `doctor`'s `onchain-submit` check). The kit's sources never import the harness's files: it is
 * loaded at run time by the package's public entry name, the way any program using the package would, and only when
 * a command needs it. The harness runs its chains on Hardhat, an optional peer dependency, whose presence is checked
 * first.
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { HarnessExports } from "./harness-exports.js";

/** The package entry that holds the harness (`src/harness/index.ts`, built to `dist/harness/`). */
export const HARNESS_ENTRY = "trustgate/harness";

/** How the harness is found, replaceable in tests. */
export interface HarnessLoader {
  /** Whether `hardhat` can be loaded; default: resolved from the working folder's project or this package. */
  readonly hardhatInstalled?: () => boolean;
  /** Imports the harness entry; default `import("trustgate/harness")`. */
  readonly importHarness?: () => Promise<unknown>;
}

/**
 * Whether Hardhat can be loaded (from the working folder's project or from this package, where the harness looks
 * too).
 *
 * @param loader - The replacement of the check, if any.
 * @returns True when installed.
 */
export function isHardhatInstalled(loader: HarnessLoader = {}): boolean {
  return (loader.hardhatInstalled ?? (() => canResolve("hardhat")))();
}

/**
 * Imports the harness and returns one of its exported functions, under the type the kit knows it by.
 *
 * @param name - The export (`startDemoDriftEnvironment`, `startSubmissionSimulator`).
 * @param loader - The replacement of the import, if any.
 * @returns The function.
 * @throws An `Error` when the entry does not export such a function (a broken installation), or the import's error.
 */
export async function loadHarnessExport<Name extends keyof HarnessExports>(
  name: Name,
  loader: HarnessLoader = {},
): Promise<HarnessExports[Name]> {
  const harness = (await (loader.importHarness ?? importByName)()) as Record<string, unknown> | null;
  const exported = harness?.[name];
  if (typeof exported !== "function") {
    throw new Error(`${HARNESS_ENTRY} does not export ${name}: the installed package is incomplete`);
  }
  return exported as HarnessExports[Name];
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

/** Whether `name` resolves from the working folder's project or from this package. */
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
