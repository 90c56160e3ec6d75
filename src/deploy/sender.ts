/**
 * What the deployment and the signing-keys command share about the node and the account that sends: the
 * provider type, the mainnet guard, the deployer's key, the error of a node that does not answer, and the viem
 * chain of a chain id.
 *
 * @packageDocumentation
 */
import { type Chain, defineChain, type Hex } from "viem";
import { DeploymentError, messageOf } from "../errors.js";
import { redactUrl, redactUrlsIn } from "../security/redact-url.js";
import type { NetworkDeployConfig } from "./config.js";

/** Anything that answers EIP-1193 JSON-RPC requests (a Hardhat provider, a viem transport's `request`). */
export interface DeployProvider {
  /** Sends one JSON-RPC request. */
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
}

/** Chains on which nothing is sent without `confirmMainnet`: Ethereum (1) and Base (8453). */
export const MAINNET_CHAIN_IDS: ReadonlySet<number> = new Set([1, 8453]);

/** Environment variable (or Hardhat configuration variable) holding the deployer's private key. */
export const DEPLOYER_KEY_VARIABLE = "DEPLOYER_PRIVATE_KEY";

/**
 * Finds the deployer's private key: `DEPLOYER_PRIVATE_KEY` from the environment, else from Hardhat's
 * configuration variables. The key never appears in an error message.
 *
 * @param network - Network name, for the message.
 * @param chainId - Chain id, for the message.
 * @param env - The environment.
 * @param readVar - Hardhat configuration variable lookup, if any.
 * @returns The key, `0x`-prefixed.
 * @throws {@link DeploymentError} `missing-key` when there is none, `bad-key` when it is not 32 hex bytes.
 */
export function resolveDeployerKey(
  network: string,
  chainId: number,
  env: Readonly<Record<string, string | undefined>>,
  readVar?: (name: string) => string | undefined,
): Hex {
  let key = env[DEPLOYER_KEY_VARIABLE]?.trim();
  if (!key && readVar) {
    try {
      key = readVar(DEPLOYER_KEY_VARIABLE)?.trim();
    } catch {
      key = undefined;
    }
  }
  if (!key) {
    throw new DeploymentError(
      "missing-key",
      `${DEPLOYER_KEY_VARIABLE} is not set: deploying to ${network} (chain ${chainId}) needs the deployer's private key`,
      {
        details: `Set it in the environment (export ${DEPLOYER_KEY_VARIABLE}=0x…) or with \`npx hardhat vars set ${DEPLOYER_KEY_VARIABLE}\`. Only the local networks use the node's unlocked accounts.`,
      },
    );
  }
  const hex = key.startsWith("0x") || key.startsWith("0X") ? key.slice(2) : key;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new DeploymentError("bad-key", `${DEPLOYER_KEY_VARIABLE} is not a private key (expected 32 bytes as 64 hex digits)`);
  }
  return `0x${hex}`;
}

/**
 * The one-line error for a node that does not answer: the network, the URL (redacted: a provider's key in its path is
 * never printed), the reason, and what to do (for a local network, how to start a node).
 *
 * @param network - Network name, or `undefined` for a node given only by its URL.
 * @param config - The network's `local` and `rpcUrlEnv`, if it has a configuration.
 * @param rpcUrl - The URL tried, if known.
 * @param error - What the request threw.
 * @returns A {@link DeploymentError} with reason `unreachable` (its cause is `error`).
 */
export function unreachableNodeError(
  network: string | undefined,
  config: Pick<NetworkDeployConfig, "local" | "rpcUrlEnv"> | undefined,
  rpcUrl: string | undefined,
  error: unknown,
): DeploymentError {
  const at = rpcUrl ? ` at ${redactUrl(rpcUrl)}` : "";
  const reason = redactUrlsIn(messageOf(error).split("\n")[0]!.replace(/\.$/, ""));
  const hint = config?.local
    ? "start one with `npx hardhat node` (or pass --rpc-url / set TRUSTGATE_RPC_URL to a running node)"
    : `check the RPC URL (--rpc-url, TRUSTGATE_RPC_URL${config?.rpcUrlEnv ? ` or ${config.rpcUrlEnv}` : ""})`;
  const node = network === undefined ? "node" : `${network} node`;
  return new DeploymentError("unreachable", `Cannot reach the ${node}${at} (${reason}): ${hint}`, { cause: error });
}

/**
 * A viem chain for a chain id, with no RPC URL of its own (clients are given a transport).
 *
 * @param chainId - The chain id.
 * @param name - A name for viem's messages.
 * @returns The chain.
 */
export function chainOf(chainId: number, name: string): Chain {
  return defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
}
