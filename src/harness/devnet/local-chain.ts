/**
 * A local EVM chain, in process: Hardhat's network (EDR) with the chain id of your choice (8453 for the
 * kit's local Base simulation), optionally served as a JSON-RPC node on loopback so that code under test
 * reaches it through plain HTTP, exactly as it reaches a remote node.
 *
 * Needs the `hardhat` package (an optional peer dependency of the kit), Hardhat 2 or Hardhat 3; it is loaded
 * only when a chain starts. This is the one place that knows which major is installed: it reads the installed
 * Hardhat's version and hands the chain to `hardhat2-chain.ts` or `hardhat3-chain.ts`. The network's
 * configuration comes from the Hardhat project around the working folder, or from Hardhat's defaults when there
 * is none (see `hardhat-network.ts`).
 *
 * @packageDocumentation
 */
import { type HardhatConfigSource, installedHardhatMajor } from "./hardhat-network.js";
import type { Eip1193Provider } from "./revert-transport.js";

/** Options of {@link startLocalChain}. */
export interface LocalChainOptions {
  /** Chain id; default 8453 (Base). */
  readonly chainId?: number;
  /** Also serve the chain as a JSON-RPC node on 127.0.0.1 (random port); default false. */
  readonly http?: boolean;
  /**
   * Keep Solidity stack traces (Hardhat reads every build-info for them). Off by default: without them each
   * call executes several times faster, and the chain's callers see plain revert data, as from a real node.
   * Hardhat 2 only: Hardhat 3 decides this itself.
   */
  readonly stackTraces?: boolean;
  /**
   * Where the network configuration comes from: `project` (the Hardhat project's `hardhat.config.ts`),
   * `standalone` (Hardhat's defaults, no configuration file needed) or `auto` (default: the project when there
   * is one). See `hardhat-network.ts`.
   */
  readonly hardhatConfig?: HardhatConfigSource;
  /**
   * Fork this chain from a node (the chain id above is kept), one local block mined on top of the forked block;
   * default no fork.
   */
  readonly fork?: LocalChainFork | undefined;
}

/** A fork of a chain: the node to fork and the block to fork at. */
export interface LocalChainFork {
  /** JSON-RPC URL of the node to fork. */
  readonly url: string;
  /** Block to fork at; default the node's latest. */
  readonly blockNumber?: number | undefined;
}

/** A running local chain. */
export interface LocalChain {
  /** The chain id. */
  readonly chainId: number;
  /** EIP-1193 provider of the chain (Hardhat's JSON-RPC methods included: `hardhat_setCode`, `evm_mine`…). */
  readonly provider: Eip1193Provider;
  /** `http://127.0.0.1:<port>` when served over HTTP. */
  readonly rpcUrl: string | undefined;
  /** Stops the HTTP server, if any. */
  close(): Promise<void>;
}

/**
 * Starts a local chain with Hardhat's network configuration (accounts, hardfork, gas limit) and the given
 * chain id, on the installed Hardhat (2 or 3).
 *
 * @param options - Chain id, HTTP, stack traces, configuration source, fork.
 * @returns The chain.
 * @throws `ConfigurationError` when Hardhat is not installed (the message names the command that installs it), or
 *   cannot load the project's configuration, or (Hardhat 2) stack traces are asked of a standalone network.
 */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const resolved = { ...options, chainId: options.chainId ?? 8453 };
  const chain =
    installedHardhatMajor() === 3
      ? await (await import("./hardhat3-chain.js")).startHardhat3Chain(resolved)
      : await (await import("./hardhat2-chain.js")).startHardhat2Chain(resolved);
  if (options.fork) await mineOnTopOfFork(chain);
  return chain;
}

/**
 * Mines one local block on top of a fresh fork, so that calls at `latest` run on it under the node's own hardfork.
 * At the forked block itself both Hardhat 2 and Hardhat 3 refuse calls when they know no hardfork history of the
 * chain id (Base's 8453 among them: "No known hardfork for execution on historical block").
 */
async function mineOnTopOfFork(chain: LocalChain): Promise<void> {
  try {
    await chain.provider.request({ method: "evm_mine", params: [] });
  } catch (error) {
    await chain.close();
    throw error;
  }
}
