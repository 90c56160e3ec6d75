/**
 * What `deploy` takes and gives: its options, the action taken on each contract and the run's result. Apart
 * from `deploy.ts` so that its steps (resolve, plan, execute, record) can name them without importing it.
 *
 * @packageDocumentation
 */
import type { Address, Hash } from "viem";
import type { NetworkDeployConfig } from "./config.js";
import type { CreationGasMethod } from "./creation-gas.js";
import type { JsonValue } from "./deployments-file.js";
import type { DeployProvider } from "./sender.js";
import type { SigningKeysResult } from "./signing-keys.js";

/** Options of `deploy`. */
export interface DeployParameters {
  /** Name of the network in the configuration (`hardhat`, `localhost`, `baseSepolia`, `base`). */
  readonly network: string;
  /** That network's configuration. */
  readonly config: NetworkDeployConfig;
  /** The chain. Its chain id must equal `config.chainId`. */
  readonly provider: DeployProvider;
  /** Directory of the deployments files (`deployments/`). */
  readonly deploymentsDir: string;
  /** Hardhat's artifacts directory; default `<cwd>/artifacts`. */
  readonly artifactsDir?: string | undefined;
  /** Print what would be deployed, with arguments and estimated gas, and send nothing. */
  readonly dryRun?: boolean | undefined;
  /** Required to send anything on Ethereum or Base mainnet. */
  readonly confirmMainnet?: boolean | undefined;
  /** Environment holding `DEPLOYER_PRIVATE_KEY`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Reads a Hardhat configuration variable (`npx hardhat vars set`), consulted when the environment has no key. */
  readonly readVar?: ((name: string) => string | undefined) | undefined;
  /** Git commit to record; default `git rev-parse HEAD` of the working directory (`-dirty` with local changes). */
  readonly gitCommit?: string | null | undefined;
  /** Receives one line per event; default none. */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * Whether the deployments file is read and written (default true). False for a throw-away chain (the
   * in-process `hardhat` network): its deployments vanish with it, and a file written for it would be trusted
   * by a later run against another chain with the same id (`localhost` is 31337 too).
   */
  readonly recordDeployments?: boolean | undefined;
  /** The RPC URL the provider talks to, for messages (an unreachable node names it). */
  readonly rpcUrl?: string | undefined;
  /** Fetch timeout and implementation for `attestedOracle.jwks` when it is a URL. */
  readonly jwksFetch?: { readonly timeoutMs?: number | undefined; readonly fetch?: typeof fetch | undefined } | undefined;
}

/** What happened (or would happen) to one contract. */
export interface DeployAction {
  /** Contract name. */
  readonly name: string;
  /** `deployed` now, `unchanged` (recorded deployment kept), or `would-deploy` (dry run). */
  readonly status: "deployed" | "unchanged" | "would-deploy";
  /** Its address (predicted from the deployer's nonce for `would-deploy`). */
  readonly address: Address;
  /** Constructor arguments, JSON-safe. */
  readonly constructorArgs: readonly JsonValue[];
  /** Creation transaction (the recorded one for `unchanged`; none for `would-deploy`). */
  readonly transactionHash: Hash | undefined;
  /**
   * The address of the recorded deployment this one replaces (`deployed`, `would-deploy`), which the deployments
   * file then keeps under `history`; undefined when there was none.
   */
  readonly replaces: Address | undefined;
  /** Gas used (`deployed`) or estimated (`would-deploy`); undefined when unknown or `unchanged`. */
  readonly gas: bigint | undefined;
  /**
   * How a `would-deploy`'s gas was estimated: `eth_estimateGas`, or `eth_call` (the creation measured inside a call,
   * on a node that refuses a state override in `eth_estimateGas`); undefined otherwise.
   */
  readonly gasMethod: CreationGasMethod | undefined;
  /** Why the gas of a `would-deploy` could not be estimated, if it could not. */
  readonly gasNote: string | undefined;
}

/** Result of `deploy`. */
export interface DeployResult {
  /** The chain. */
  readonly chainId: number;
  /** The account that deploys (or would). */
  readonly deployer: Address;
  /** One action per contract, in deployment order. */
  readonly actions: readonly DeployAction[];
  /** Transactions sent, creations and signing keys (0 for a dry run or when nothing changed). */
  readonly transactionsSent: number;
  /** The deployments file (written unless a dry run). */
  readonly deploymentsFile: string;
  /**
   * The signing keys installed on the `AttestedTrustOracle` (or that a dry run would install), when
   * `attestedOracle.jwks` is configured.
   */
  readonly signingKeys: SigningKeysResult | undefined;
}
