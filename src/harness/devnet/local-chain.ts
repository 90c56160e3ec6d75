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
import { installedHardhatMajor } from "./hardhat-network.js";
import type { LocalChain, LocalChainParameters } from "./local-chain-types.js";

export type { LocalChain, LocalChainFork, LocalChainParameters } from "./local-chain-types.js";

/**
 * Starts a local chain with Hardhat's network configuration (accounts, hardfork, gas limit) and the given
 * chain id, on the installed Hardhat (2 or 3).
 *
 * @param options - Chain id, HTTP, stack traces, configuration source, fork.
 * @returns The chain.
 * @throws `ConfigurationError` when Hardhat is not installed (the message names the command that installs it), or
 *   cannot load the project's configuration, or (Hardhat 2) stack traces are asked of a standalone network.
 */
export async function startLocalChain(options: LocalChainParameters = {}): Promise<LocalChain> {
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
