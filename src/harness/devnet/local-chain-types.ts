/**
 * The shapes of a local chain: the options it starts with and what a running one offers. Apart from `local-chain.ts`,
 * which picks the Hardhat major, so that the chain of each major (`hardhat2-chain.ts`, `hardhat3-chain.ts`) can name
 * them without importing the file that imports it.
 *
 * @packageDocumentation
 */
import type { HardhatConfigSource } from "./hardhat-network.js";
import type { Eip1193Provider } from "./revert-transport.js";

/** Options of `startLocalChain` (`local-chain.ts`). */
export interface LocalChainParameters {
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
