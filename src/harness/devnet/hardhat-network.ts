/**
 * Loading Hardhat, whichever major version the project installed, and where a local chain's network
 * configuration comes from.
 *
 * Hardhat is an optional peer dependency of the kit (Hardhat 2 from 2.29.1, or Hardhat 3), needed only by the
 * harness's local chains. It is loaded here, lazily, and its absence is reported as a {@link ConfigurationError}
 * that says what to install.
 *
 * Two sources of configuration:
 * - `project`: the Hardhat project around the working folder (its `hardhat.config.ts`, loaded by Hardhat as
 *   `import("hardhat")` does), so that a test suite's chain has the project's accounts, hardfork and limits;
 * - `standalone`: Hardhat's defaults, with the block gas limit below. No configuration file is read, so it runs
 *   in any folder (what `trustgate drift --demo` uses).
 *
 * `auto` picks `project` when a Hardhat runtime already exists (under `npx hardhat test`), `HARDHAT_CONFIG` is
 * set, or a Hardhat configuration file is found from the working folder up; else `standalone`.
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConfigurationError } from "../../errors.js";

/** Where a local chain's Hardhat network configuration comes from (see the module notes). */
export type HardhatConfigSource = "auto" | "project" | "standalone";

/** The Hardhat 2 version the harness is tested with (this repository's own), and that the install hint names. */
export const HARDHAT_PEER_VERSION = "2.29.1";

/** The Hardhat 3 version the harness is tested with (in a Hardhat 3 project, on Node 22), and that the install hint names. */
export const HARDHAT3_PEER_VERSION = "3.18.0";

/** The command that installs the optional peer dependency the harness's local chains need, for either major. */
export const HARDHAT_INSTALL_COMMAND = `npm install --save-dev hardhat@${HARDHAT3_PEER_VERSION} (Hardhat 3, Node 22 or later) or hardhat@${HARDHAT_PEER_VERSION} (Hardhat 2)`;

/** The Hardhat majors the harness runs on. */
export type HardhatMajor = 2 | 3;

/**
 * Block gas limit of a standalone network: that of this repository's `hardhat.config.ts`, so that large
 * publish batches fit in a block whichever source is used.
 */
export const STANDALONE_BLOCK_GAS_LIMIT = 60_000_000;

/** Configuration file names of Hardhat 2 and Hardhat 3 projects. */
const CONFIG_FILES = [
  "hardhat.config.ts",
  "hardhat.config.mts",
  "hardhat.config.cts",
  "hardhat.config.js",
  "hardhat.config.mjs",
  "hardhat.config.cjs",
] as const;

/**
 * Imports a Hardhat module, turning its absence into a clear error.
 *
 * Hardhat is looked up from the working folder's project first (the user's project owns its peer dependencies,
 * and under `npx hardhat test` that is the Hardhat already running), then from this package's location (where
 * npm puts a peer next to the package; also this repository's own `node_modules`). The first matters when the
 * kit is linked into a project (a path dependency): its real location is outside the project.
 *
 * @param subpath - `hardhat`, or a file of the package by its path under it.
 * @returns The module.
 * @throws {@link ConfigurationError} when Hardhat is not installed, naming the command that installs it.
 */
export async function importHardhat<T>(subpath: string): Promise<T> {
  return (await import(pathToFileURL(resolveHardhatFile(subpath)).href)) as T;
}

function resolveHardhatFile(subpath: string): string {
  const bases = [join(process.cwd(), "package.json"), fileURLToPath(import.meta.url)];
  for (const base of bases) {
    try {
      return createRequire(base).resolve(subpath);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new ConfigurationError(`The harness's local chain needs the optional peer dependency hardhat: ${HARDHAT_INSTALL_COMMAND}`, {
    details: `${subpath} is not found from ${process.cwd()} nor from the trustgate package`,
  });
}

/**
 * The major version of the Hardhat the harness would load (found as {@link importHardhat} finds it).
 *
 * @returns 2 or 3.
 * @throws {@link ConfigurationError} when Hardhat is not installed, or when its version is neither 2 nor 3 (naming
 *   the versions to install).
 */
export function installedHardhatMajor(): HardhatMajor {
  const file = resolveHardhatFile("hardhat/package.json");
  const version = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
  const major = typeof version === "string" ? Number(version.split(".")[0]) : Number.NaN;
  if (major === 2 || major === 3) return major;
  throw new ConfigurationError(
    `The harness's local chain runs on Hardhat 2 or 3, not hardhat@${String(version)}: ${HARDHAT_INSTALL_COMMAND}`,
    {
      details: `found ${file}`,
    },
  );
}

/**
 * Resolves a configuration source: `auto` becomes `project` when `HARDHAT_CONFIG` is set, when `runtimeExists`
 * says so (a Hardhat command is running), or when a Hardhat configuration file is found from the working folder
 * up; else `standalone`.
 *
 * @param source - The source asked for; default `auto`.
 * @param runtimeExists - Whether the installed Hardhat already runs in this process (each major knows how to tell).
 * @returns `project` or `standalone`.
 */
export async function chooseConfigSource(
  source: HardhatConfigSource | undefined,
  runtimeExists: () => Promise<boolean>,
): Promise<"project" | "standalone"> {
  if (source === "project" || source === "standalone") return source;
  if (process.env.HARDHAT_CONFIG || (await runtimeExists())) return "project";
  for (let dir = process.cwd(); ;) {
    if (CONFIG_FILES.some((file) => existsSync(join(dir, file)))) return "project";
    const parent = join(dir, "..");
    if (parent === dir) return "standalone";
    dir = parent;
  }
}
