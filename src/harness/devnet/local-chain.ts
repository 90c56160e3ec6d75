/**
 * A local EVM chain, in process: Hardhat's network (EDR) with the chain id of your choice (8453 for the
 * kit's local Base simulation), optionally served as a JSON-RPC node on loopback so that code under test
 * reaches it through plain HTTP, exactly as it reaches a remote node.
 *
 * Needs the `hardhat` package (an optional peer dependency of the kit); it is loaded only when a chain starts.
 * The network's configuration comes from the Hardhat project around the working folder, or from Hardhat's
 * defaults when there is none (see `hardhat-network.ts`).
 *
 * @packageDocumentation
 */
import type { EIP1193Provider } from "hardhat/types";
import { type HardhatConfigSource, importHardhat, resolveHardhatNetwork } from "./hardhat-network.js";

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
  /**
   * Where the network configuration comes from: `project` (the Hardhat project's `hardhat.config.ts`),
   * `standalone` (Hardhat's defaults, no configuration file needed) or `auto` (default: the project when there
   * is one). See `hardhat-network.ts`.
   */
  readonly hardhatConfig?: HardhatConfigSource;
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
 * @param options - Chain id, HTTP, stack traces, configuration source.
 * @returns The chain.
 * @throws `ConfigurationError` when Hardhat is not installed (the message names the command that installs it).
 */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const chainId = options.chainId ?? 8453;
  const network = await resolveHardhatNetwork({ chainId, source: options.hardhatConfig, stackTraces: options.stackTraces });
  const { createProvider } = await importHardhat<typeof import("hardhat/internal/core/providers/construction")>(
    "hardhat/internal/core/providers/construction",
  );
  const provider = await createProvider(network.config, "hardhat", network.artifacts);
  if (!options.http) return { chainId, provider, rpcUrl: undefined, close: async () => {} };

  const { JsonRpcServer } = await importHardhat<typeof import("hardhat/internal/hardhat-network/jsonrpc/server")>(
    "hardhat/internal/hardhat-network/jsonrpc/server",
  );
  const server = new JsonRpcServer({ hostname: "127.0.0.1", port: 0, provider });
  const { address, port } = await server.listen();
  return { chainId, provider, rpcUrl: `http://${address}:${port}`, close: () => server.close() };
}
