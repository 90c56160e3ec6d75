/**
 * Defaults of the trust-intelligence service: where it is, who signs, and how fast it may be called.
 *
 * @packageDocumentation
 */

/** Base URL of the service's HTTP API. */
export const DEFAULT_API_URL = "https://rnwy.com";

/** Issuer of the service's attestations (the API's origin). */
export const DEFAULT_ISSUER = "https://rnwy.com";

/** Path of the JWKS relative to the issuer. */
export const JWKS_PATH = "/.well-known/jwks.json";

/** Key ids of `/api/trust-check` attestations (current first: v2 since the 2026-04-10 rotation, then legacy v1). */
export const TRUST_ATTESTATION_KIDS: readonly string[] = ["rnwy-trust-v2", "rnwy-trust-v1"];

/** Key id of `/api/wallet-score` attestations. */
export const WALLET_ATTESTATION_KID = "rnwy-wallet-v1";

/** Key id of `/api/mcp-attestation` attestations. */
export const MCP_ATTESTATION_KID = "rnwy-mcp-v1";

/** `attestation.type` of trust-check attestations. */
export const TRUST_ATTESTATION_TYPE = "behavioral_trust";

/** `attestation.type` of wallet-score attestations. */
export const WALLET_ATTESTATION_TYPE = "wallet_intelligence";

/**
 * Lifetime of an attestation, in seconds (24 h): the service's `expiry` is `verifiedAt` + 24 h, and an
 * attestation that carries no expiry (v1, MCP) is given this lifetime from its issue time.
 */
export const ATTESTATION_LIFETIME_SECONDS = 24 * 3600;

/** Registry names of the service; `erc8004` is the default, `sati` lives on Solana. */
export const REGISTRIES = ["erc8004", "olas", "virtuals", "sati"] as const;

/** A registry name. */
export type RegistryName = (typeof REGISTRIES)[number];

/** The default registry. */
export const DEFAULT_REGISTRY: RegistryName = "erc8004";

/** Requests per minute the service allows. */
export const RATE_LIMITS = { anonymous: 30, withApiKey: 300 } as const;

/**
 * The JWKS URL of an issuer.
 *
 * @param issuer - Issuer origin, for example `https://rnwy.com`.
 * @returns `<issuer>/.well-known/jwks.json`.
 */
export function jwksUrlOf(issuer: string): string {
  return new URL(JWKS_PATH, issuer).toString();
}
