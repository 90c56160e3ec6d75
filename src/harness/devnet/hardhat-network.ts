/**
 * Where a local chain's Hardhat network configuration comes from, and loading Hardhat itself.
 *
 * Hardhat is an optional peer dependency of the kit, needed only by the harness's local chains. It is loaded
 * here, lazily, and its absence is reported as a {@link ConfigurationError} that says what to install.
 *
 * Two sources of configuration:
 * - `project`: the Hardhat project around the working folder (its `hardhat.config.ts`, loaded by Hardhat as
 *   `import("hardhat")` does), so that a test suite's chain has the project's accounts, hardfork and limits;
 * - `standalone`: Hardhat's defaults resolved in memory, with the block gas limit below. No configuration
 *   file is read, so it runs in any folder (what `trustgate drift --demo` uses).
 *
 * `auto` picks `project` when a Hardhat runtime already exists (under `npx hardhat test`), `HARDHAT_CONFIG` is
 * set, or a Hardhat configuration file is found from the working folder up; else `standalone`.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Artifacts, HardhatConfig, HardhatRuntimeEnvironment, HardhatUserConfig } from "hardhat/types";
import { ConfigurationError } from "../../errors.js";

/** Where a local chain's Hardhat network configuration comes from (see the module notes). */
export type HardhatConfigSource = "auto" | "project" | "standalone";

/** The Hardhat version the harness is tested with, and that the install hint names. */
export const HARDHAT_PEER_VERSION = "2.29.1";

/** The command that installs the optional peer dependency the harness's local chains need. */
export const HARDHAT_INSTALL_COMMAND = `npm install --save-dev hardhat@${HARDHAT_PEER_VERSION}`;

/**
 * Block gas limit of a standalone network: that of this repository's `hardhat.config.ts`, so that large
 * publish batches fit in a block whichever source is used.
 */
export const STANDALONE_BLOCK_GAS_LIMIT = 60_000_000;

const CONFIG_FILES = ["hardhat.config.ts", "hardhat.config.cts", "hardhat.config.cjs", "hardhat.config.js"] as const;

/** A resolved Hardhat configuration to build a network from. */
export interface ResolvedHardhatNetwork {
  /** Which source it came from. */
  readonly source: "project" | "standalone";
  /** The configuration; its `hardhat` network has the requested chain id. */
  readonly config: HardhatConfig;
  /** The project's artifacts, for Solidity stack traces (project source only). */
  readonly artifacts: Artifacts | undefined;
}

/** Options of {@link resolveHardhatNetwork}. */
export interface ResolveHardhatNetworkOptions {
  /** Chain id of the network. */
  readonly chainId: number;
  /** Source of the configuration; default `auto`. */
  readonly source?: HardhatConfigSource | undefined;
  /** Hand the project's artifacts over for Solidity stack traces (needs the `project` source). */
  readonly stackTraces?: boolean | undefined;
}

/**
 * Resolves the Hardhat configuration of a local chain.
 *
 * @param options - Chain id, source, stack traces.
 * @returns The configuration, with the chain id applied to its `hardhat` network.
 * @throws {@link ConfigurationError} when Hardhat is not installed (naming the command that installs it), or
 *   when stack traces are asked of a standalone network (they need a project's artifacts).
 */
export async function resolveHardhatNetwork(options: ResolveHardhatNetworkOptions): Promise<ResolvedHardhatNetwork> {
  const source = options.source ?? "auto";
  const chosen = source === "auto" ? ((await insideHardhatProject()) ? "project" : "standalone") : source;
  if (chosen === "standalone") {
    if (options.stackTraces) {
      throw new ConfigurationError("Solidity stack traces need a Hardhat project's artifacts: use the project configuration source");
    }
    const { resolveConfig } = await importHardhat<typeof import("hardhat/internal/core/config/config-resolution")>(
      "hardhat/internal/core/config/config-resolution",
    );
    const userConfig: HardhatUserConfig = {
      networks: { hardhat: { chainId: options.chainId, blockGasLimit: STANDALONE_BLOCK_GAS_LIMIT } },
      // Paths (the fork cache among them) are under the working folder, as in a project there.
      paths: { root: process.cwd() },
    };
    // Hardhat resolves its paths from the configuration file's real path, which must exist; there is none here,
    // so this module's own file stands in (only its location is read, and `paths.root` overrides it).
    const config = resolveConfig(fileURLToPath(import.meta.url), userConfig);
    return { source: "standalone", config, artifacts: undefined };
  }
  ensureTypeScriptConfigLoader();
  const { default: hre } = await importHardhat<{ default: HardhatRuntimeEnvironment }>("hardhat");
  const hardhatNetwork = { ...hre.config.networks.hardhat, chainId: options.chainId };
  const config = { ...hre.config, networks: { ...hre.config.networks, hardhat: hardhatNetwork } };
  return { source: "project", config, artifacts: options.stackTraces ? hre.artifacts : undefined };
}

/**
 * Imports a Hardhat module, turning its absence into a clear error.
 *
 * Hardhat is looked up from the working folder's project first (the user's project owns its peer dependencies,
 * and under `npx hardhat test` that is the Hardhat already running), then from this package's location (where
 * npm puts a peer next to the package; also this repository's own `node_modules`). The first matters when the
 * kit is linked into a project (a path dependency): its real location is outside the project.
 *
 * @param subpath - `hardhat` or one of its files (`hardhat/internal/…js`).
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

/** Whether a Hardhat runtime exists or a Hardhat configuration applies to the working folder. */
async function insideHardhatProject(): Promise<boolean> {
  if (process.env.HARDHAT_CONFIG) return true;
  const { HardhatContext } = await importHardhat<typeof import("hardhat/internal/context")>("hardhat/internal/context");
  if (HardhatContext.isCreated()) return true;
  for (let dir = process.cwd(); ;) {
    if (CONFIG_FILES.some((file) => existsSync(join(dir, file)))) return true;
    const parent = join(dir, "..");
    if (parent === dir) return false;
    dir = parent;
  }
}

/**
 * Hardhat loads `hardhat.config.ts` with `require`. Its own command line registers a TypeScript hook first;
 * a program importing Hardhat as a library (the built command line, under plain Node) must do it itself.
 */
function ensureTypeScriptConfigLoader(): void {
  const requireFromProject = createRequire(join(process.cwd(), "package.json"));
  if (requireFromProject.extensions[".ts"] || !existsSync(join(process.cwd(), "hardhat.config.ts"))) return;
  const tsNode = requireFromProject("ts-node") as { register(options: object): unknown };
  tsNode.register({ transpileOnly: true, compilerOptions: { module: "commonjs", moduleResolution: "node" } });
}
