/**
 * A local EVM chain, in process: Hardhat's network (EDR) with the chain id of your choice (8453 for the
 * kit's local Base simulation), optionally served as a JSON-RPC node on loopback so that code under test
 * reaches it through plain HTTP, exactly as it reaches a remote node.
 *
 * Needs the `hardhat` package (a development dependency of the kit); it is loaded only when a chain starts.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { EIP1193Provider } from "hardhat/types";

/** Options of {@link startLocalChain}. */
export interface LocalChainOptions {
  /** Chain id; default 8453 (Base). */
  readonly chainId?: number;
  /** Also serve the chain as a JSON-RPC node on 127.0.0.1 (random port); default false. */
  readonly http?: boolean;
  /**
   * Keep Solidity stack traces (Hardhat reads every build-info for them). Off by default: without them each
   * call executes several times faster, and the chain's callers see plain revert data, as from a real node.
   */
  readonly stackTraces?: boolean;
}

/** A running local chain. */
export interface LocalChain {
  /** The chain id. */
  readonly chainId: number;
  /** EIP-1193 provider of the chain (Hardhat's JSON-RPC methods included: `hardhat_setCode`, `evm_mine`…). */
  readonly provider: EIP1193Provider;
  /** `http://127.0.0.1:<port>` when served over HTTP. */
  readonly rpcUrl: string | undefined;
  /** Stops the HTTP server, if any. */
  close(): Promise<void>;
}

/**
 * Starts a local chain with Hardhat's network configuration (accounts, hardfork, gas limit) and the given
 * chain id.
 *
 * @param options - Chain id, HTTP, stack traces.
 * @returns The chain.
 */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const chainId = options.chainId ?? 8453;
  ensureTypeScriptConfigLoader();
  const { default: hre } = await import("hardhat");
  const { createProvider } = await import("hardhat/internal/core/providers/construction.js");
  const hardhatNetwork = { ...hre.config.networks.hardhat, chainId };
  const config = { ...hre.config, networks: { ...hre.config.networks, hardhat: hardhatNetwork } };
  const provider = await createProvider(config, "hardhat", options.stackTraces ? hre.artifacts : undefined);
  if (!options.http) return { chainId, provider, rpcUrl: undefined, close: async () => {} };

  const { JsonRpcServer } = await import("hardhat/internal/hardhat-network/jsonrpc/server.js");
  const server = new JsonRpcServer({ hostname: "127.0.0.1", port: 0, provider });
  const { address, port } = await server.listen();
  return { chainId, provider, rpcUrl: `http://${address}:${port}`, close: () => server.close() };
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
