/**
 * Addresses of the contracts the kit reads.
 *
 * @packageDocumentation
 */

/**
 * The trust-score oracle on Base mainnet (chain 8453).
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { BASE_TRUST_ORACLE_ADDRESS, readTrustRecord } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const result = await readTrustRecord(client, { oracle: BASE_TRUST_ORACLE_ADDRESS, agentId: 16907n, chain: "base" });
 * ```
 */
export const BASE_TRUST_ORACLE_ADDRESS = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4" as const;

/** The ERC-8004 identity registry; the same address on Base, Ethereum and other chains. */
export const ERC8004_IDENTITY_REGISTRY_ADDRESS = "0x8004A169FB4a3325136EB29fA0ceB6D2e539a432" as const;

/** Multicall3, at the same address on Base, Ethereum and most EVM chains (and on the kit's local network). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;

/**
 * The trust oracle by chain id, where the service publishes one.
 *
 * @example
 * ```ts
 * import { TRUST_ORACLE_ADDRESSES } from "trustgate";
 *
 * const oracle = TRUST_ORACLE_ADDRESSES[8453]; // the Base oracle; undefined on a chain with none
 * if (oracle === undefined) throw new Error("no trust oracle on this chain: deploy the reference oracle");
 * ```
 */
export const TRUST_ORACLE_ADDRESSES: Readonly<Record<number, `0x${string}`>> = {
  8453: BASE_TRUST_ORACLE_ADDRESS,
};
