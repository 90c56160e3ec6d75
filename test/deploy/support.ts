/** Shared helpers of the deployment tests. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Abi, type Address, createPublicClient, createWalletClient, custom, getAddress, type Hex } from "viem";
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

/**
 * Deploys an `AttestedTrustOracle` from an unlocked account of the node, outside the deployment code (so that the
 * signing-keys tests do not depend on it).
 *
 * @param provider - The chain.
 * @param from - Unlocked sender.
 * @param admin - The oracle's admin.
 * @param upstream - Its upstream oracle (zero for none).
 * @returns Its address.
 */
export async function deployAttestedOracle(
  provider: { request(args: { method: string; params?: unknown }): Promise<unknown> },
  from: Address,
  admin: Address,
  upstream: Address = "0x0000000000000000000000000000000000000000",
): Promise<Address> {
  const { abi, bytecode } = JSON.parse(
    readFileSync(join(process.cwd(), "artifacts", "contracts", "oracle", "AttestedTrustOracle.sol", "AttestedTrustOracle.json"), "utf8"),
  ) as { abi: Abi; bytecode: Hex };
  const transport = custom(provider as { request(args: unknown): Promise<unknown> });
  const hash = await createWalletClient({ account: from, transport }).deployContract({
    abi,
    bytecode,
    args: [admin, upstream],
    chain: null,
  });
  const receipt = await createPublicClient({ transport }).waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress!);
}

/**
 * The 32-byte hex of a base64url JWK coordinate (`x` or `y`), converted independently of the code under test.
 *
 * @param coordinate - The JWK's `x` or `y`.
 * @returns `0x` + 64 hex digits.
 */
export function coordinateHex(coordinate: string | undefined): Hex {
  return `0x${Buffer.from(coordinate!, "base64url").toString("hex")}`;
}
