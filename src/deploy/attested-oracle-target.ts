/**
 * The node and the `AttestedTrustOracle` the keys command talks to, as both of its modes (changing keys, listing a
 * key's records) reach them: the node's chain checked against the configured one, the oracle given or recorded by
 * the deployment for this very chain, and checked to be an `AttestedTrustOracle` before anything is sent.
 *
 * @packageDocumentation
 */
import { type Address, createPublicClient, custom, getAddress, type PublicClient } from "viem";
import { DeploymentError, InvalidArgumentError } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import { parseAddress } from "../inputs/address.js";
import { deploymentsFilePath, readDeploymentsFile } from "./deployments-file.js";
import { type DeployProvider, unreachableNodeError } from "./sender.js";

/** The attested oracle's contract name (as recorded in `deployments/<chainId>.json`). */
export const ATTESTED_ORACLE = "AttestedTrustOracle";

/** The node the keys command talks to, as both of its modes reach it. */
export interface NodeTarget {
  /** The chain. */
  readonly provider: DeployProvider;
  /** Network name of the configuration, for messages (none when the node is given only by URL). */
  readonly network?: string | undefined;
  /** The chain id the node must have (the network's configured one). */
  readonly expectedChainId?: number | undefined;
  /** The network is local (its node's unlocked accounts send). */
  readonly local?: boolean | undefined;
  /** The RPC URL the provider talks to, for messages. */
  readonly rpcUrl?: string | undefined;
  /** The network's variable for its RPC URL, for the hint of an unreachable node. */
  readonly rpcUrlEnv?: string | undefined;
}

/**
 * A client of the node and its chain id, checked against the configured one.
 *
 * @param options - The node.
 * @returns The client and the chain id the node answered.
 * @throws {@link DeploymentError} `unreachable` when the node does not answer, `chain-mismatch` when it is another
 *   chain than the configured one.
 */
export async function connectedNode(options: NodeTarget): Promise<{ publicClient: PublicClient; chainId: number }> {
  const publicClient = createPublicClient({
    transport: custom(options.provider as { request(args: unknown): Promise<unknown> }),
  }) as PublicClient;
  let chainId: number;
  try {
    chainId = await publicClient.getChainId();
  } catch (error) {
    throw unreachableNodeError(options.network, { local: options.local ?? false, rpcUrlEnv: options.rpcUrlEnv }, options.rpcUrl, error);
  }
  if (options.expectedChainId !== undefined && chainId !== options.expectedChainId) {
    throw new DeploymentError(
      "chain-mismatch",
      `The RPC endpoint is chain ${chainId}, but ${options.network === undefined ? "the network" : `network "${options.network}"`} is configured as chain ${options.expectedChainId}`,
    );
  }
  return { publicClient, chainId };
}

/**
 * The oracle given, else the one the deployment recorded for this chain.
 *
 * @param publicClient - A client of the node.
 * @param chainId - The node's chain id.
 * @param options - The oracle, or where the deployments files are.
 * @returns The oracle's address.
 * @throws {@link DeploymentError} as {@link attestedOracleTarget}.
 */
export async function attestedOracleAddress(publicClient: PublicClient, chainId: number, options: OracleTarget): Promise<Address> {
  return (await attestedOracleTarget(publicClient, chainId, options)).address;
}

/** Where the oracle is: given, or recorded by the deployment (with the block it was deployed in). */
export interface OracleTarget {
  /** The `AttestedTrustOracle`; default: the one recorded in `<deploymentsDir>/<chainId>.json`. */
  readonly oracle?: Address | undefined;
  /** Where the deployments files are, to find the oracle when `oracle` is not given. */
  readonly deploymentsDir?: string | undefined;
  /** Network name of the configuration, which the deployments file must name. */
  readonly network?: string | undefined;
}

/**
 * Where the oracle is: the address given (checked as every address a user gives), else the one the deployment
 * recorded for this chain, trusted only when the file was written for this very chain (its block 0).
 *
 * @param publicClient - A client of the node.
 * @param chainId - The node's chain id.
 * @param options - The oracle, or where the deployments files are.
 * @returns The address, and the block the oracle was deployed in when it was recorded.
 * @throws {@link DeploymentError} `bad-config` for an address that is not one (or whose checksum does not match) and
 *   when no oracle is given or recorded; `untrusted-record` when the deployments file was written for another chain
 *   with the same id.
 */
export async function attestedOracleTarget(
  publicClient: PublicClient,
  chainId: number,
  options: OracleTarget,
): Promise<{ address: Address; deployedAt: bigint | undefined }> {
  if (options.oracle !== undefined) {
    try {
      return { address: parseAddress(options.oracle, "oracle address"), deployedAt: undefined };
    } catch (cause) {
      if (!(cause instanceof InvalidArgumentError)) throw cause;
      throw new DeploymentError("bad-config", cause.shortMessage, { cause, ...(cause.details ? { details: cause.details } : {}) });
    }
  }
  if (options.deploymentsDir === undefined) throw new DeploymentError("bad-config", "No oracle: pass --oracle <address>");
  const file = readDeploymentsFile(options.deploymentsDir, chainId, options.network ?? "");
  const path = deploymentsFilePath(options.deploymentsDir, chainId);
  const recorded = file.contracts[ATTESTED_ORACLE];
  if (!recorded) {
    throw new DeploymentError("bad-config", `No --oracle given and ${path} records no ${ATTESTED_ORACLE}: pass --oracle <address>`);
  }
  const genesisHash = (await publicClient.getBlock({ blockNumber: 0n })).hash;
  if (file.genesisHash !== undefined && file.genesisHash !== genesisHash) {
    throw new DeploymentError(
      "untrusted-record",
      `${path} was written for another chain with id ${chainId} (block 0 ${file.genesisHash}; this chain's is ${genesisHash}): pass --oracle <address>`,
    );
  }
  return { address: getAddress(recorded.address), deployedAt: BigInt(recorded.blockNumber) };
}

/**
 * Checks that an address holds an `AttestedTrustOracle` (it answers `upstream()` and `signingKey(kid)`).
 *
 * @param publicClient - A client of the node.
 * @param oracle - The address.
 * @param chainId - The node's chain id, for messages.
 * @throws {@link DeploymentError} `no-code` when no contract is there, `not-attested-oracle` when it does not answer.
 */
export async function assertAttestedOracle(publicClient: PublicClient, oracle: Address, chainId: number): Promise<void> {
  const code = await publicClient.getCode({ address: oracle });
  if (!code || code === "0x") throw new DeploymentError("no-code", `There is no contract at ${oracle} on chain ${chainId}`);
  try {
    await publicClient.readContract({ address: oracle, abi: attestedTrustOracleAbi, functionName: "upstream" });
    await publicClient.readContract({ address: oracle, abi: attestedTrustOracleAbi, functionName: "signingKey", args: ["trustgate"] });
  } catch (cause) {
    throw new DeploymentError(
      "not-attested-oracle",
      `The contract at ${oracle} on chain ${chainId} is not an AttestedTrustOracle (it does not answer upstream() and signingKey(kid))`,
      { cause },
    );
  }
}
