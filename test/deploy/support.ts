/** Shared helpers of the deployment tests. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Abi, Address } from "viem";
import { loadDeployConfig, type NetworkDeployConfig, networkConfig } from "../../src/deploy/config.js";

/** Hardhat's first default account key (public knowledge; funded on every local Hardhat chain). */
export const HARDHAT_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;

/** The shipped configuration file. */
export const SHIPPED_CONFIG = join(process.cwd(), "deploy", "config.json");

/**
 * A network entry of the shipped configuration, with overrides.
 *
 * @param network - Network name in deploy/config.json.
 * @param overrides - Fields to replace.
 * @returns The entry.
 */
export function shippedNetwork(network: string, overrides: Partial<NetworkDeployConfig> = {}): NetworkDeployConfig {
  return { ...networkConfig(loadDeployConfig(SHIPPED_CONFIG), network), ...overrides };
}

/** A fresh temporary deployments directory. */
export function tempDeploymentsDir(): string {
  return mkdtempSync(join(tmpdir(), "trustgate-deployments-"));
}

/**
 * The ABI of a compiled contract.
 *
 * @param source - Path under contracts/.
 * @param name - Contract name.
 * @returns Its ABI.
 */
export function abiOf(source: string, name: string): Abi {
  return (JSON.parse(readFileSync(join(process.cwd(), "artifacts", "contracts", source, `${name}.json`), "utf8")) as { abi: Abi }).abi;
}

/** The node's nonce of an account. */
export async function nonceOf(
  provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> },
  account: Address,
): Promise<number> {
  return Number(await provider.request({ method: "eth_getTransactionCount", params: [account, "pending"] }));
}
