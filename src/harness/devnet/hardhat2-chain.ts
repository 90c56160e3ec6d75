/**
 * A local chain on Hardhat 2: its in-process network (EDR) built from the project's configuration or from
 * Hardhat's defaults, optionally served by Hardhat's JSON-RPC server on loopback. Hardhat 2 has no public API for
 * either, so this file uses the internals every Hardhat 2 plugin uses (`createProvider`, `JsonRpcServer`,
 * `HardhatContext`, `resolveConfig`); it is loaded only when the installed Hardhat is a 2.x (see `local-chain.ts`).
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Artifacts, HardhatConfig, HardhatRuntimeEnvironment, HardhatUserConfig } from "hardhat/types";
import { ConfigurationError } from "../../errors.js";
import { chooseConfigSource, importHardhat, STANDALONE_BLOCK_GAS_LIMIT } from "./hardhat-network.js";
import type { LocalChain, LocalChainParameters } from "./local-chain-types.js";

/** A resolved Hardhat 2 configuration to build a network from. */
interface ResolvedHardhat2Network {
  /** The configuration; its `hardhat` network has the requested chain id. */
  readonly config: HardhatConfig;
  /** The project's artifacts, for Solidity stack traces (project source only). */
  readonly artifacts: Artifacts | undefined;
}

/**
 * Starts a local chain on Hardhat 2. A fork is made with `hardhat_reset` once the network exists, so that the
 * URL and block asked for win over a fork the project's configuration may already set.
 *
 * @param options - Chain id (resolved), HTTP, stack traces, configuration source, fork.
 * @returns The chain.
 * @throws {@link ConfigurationError} when Hardhat or the project's configuration cannot be loaded.
 */
export async function startHardhat2Chain(options: LocalChainParameters & { readonly chainId: number }): Promise<LocalChain> {
  const network = await resolveHardhat2Network(options);
  const { createProvider } = await importHardhat<typeof import("hardhat/internal/core/providers/construction")>(
    "hardhat/internal/core/providers/construction",
  );
  const provider = await createProvider(network.config, "hardhat", network.artifacts);
  if (options.fork) {
    await provider.request({
      method: "hardhat_reset",
      params: [{ forking: { jsonRpcUrl: options.fork.url, blockNumber: options.fork.blockNumber } }],
    });
  }
  // A fork keeps connections to the forked node open; dropping the fork closes them, so that node can stop.
  const dropFork = async () => {
    if (options.fork) await provider.request({ method: "hardhat_reset", params: [] }).catch(() => undefined);
  };
  if (!options.http) return { chainId: options.chainId, provider, rpcUrl: undefined, close: dropFork };

  const { JsonRpcServer } = await importHardhat<typeof import("hardhat/internal/hardhat-network/jsonrpc/server")>(
    "hardhat/internal/hardhat-network/jsonrpc/server",
  );
  const server = new JsonRpcServer({ hostname: "127.0.0.1", port: 0, provider });
  const { address, port } = await server.listen();
  const close = async () => {
    await server.close();
    await dropFork();
  };
  return { chainId: options.chainId, provider, rpcUrl: `http://${address}:${port}`, close };
}

async function resolveHardhat2Network(options: LocalChainParameters & { readonly chainId: number }): Promise<ResolvedHardhat2Network> {
  const source = await chooseConfigSource(options.hardhatConfig, async () => {
    const { HardhatContext } = await importHardhat<typeof import("hardhat/internal/context")>("hardhat/internal/context");
    return HardhatContext.isCreated();
  });
  if (source === "standalone") {
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
    return { config, artifacts: undefined };
  }
  ensureTypeScriptConfigLoader();
  const { default: hre } = await importHardhat<{ default: HardhatRuntimeEnvironment }>("hardhat");
  const hardhatNetwork = { ...hre.config.networks.hardhat, chainId: options.chainId };
  const config = { ...hre.config, networks: { ...hre.config.networks, hardhat: hardhatNetwork } };
  return { config, artifacts: options.stackTraces ? hre.artifacts : undefined };
}

/**
 * Hardhat 2 loads `hardhat.config.ts` with `require`. Its own command line registers a TypeScript hook first;
 * a program importing Hardhat as a library (the built command line, under plain Node) must do it itself.
 */
function ensureTypeScriptConfigLoader(): void {
  const requireFromProject = createRequire(join(process.cwd(), "package.json"));
  if (requireFromProject.extensions[".ts"] || !existsSync(join(process.cwd(), "hardhat.config.ts"))) return;
  let tsNode: { register(options: object): unknown };
  try {
    tsNode = requireFromProject("ts-node") as typeof tsNode;
  } catch (error) {
    throw new ConfigurationError(
      "Hardhat 2 loads this project's hardhat.config.ts with ts-node, which is not installed: npm install --save-dev ts-node",
      { cause: error },
    );
  }
  tsNode.register({ transpileOnly: true, compilerOptions: { module: "commonjs", moduleResolution: "node" } });
}
