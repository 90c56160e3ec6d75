/**
 * Defaults of the trust-intelligence service: where it is, who signs, and how fast it may be called.
 *
 * @packageDocumentation
 */

/**
 * Base URL of the service's HTTP API.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, DEFAULT_API_URL } from "trustgate";
 *
 * const api = createTrustApiClient({ baseUrl: process.env.TRUSTGATE_API_URL ?? DEFAULT_API_URL }); // https://rnwy.com
 * ```
 */
export const DEFAULT_API_URL = "https://rnwy.com";

/** Issuer of the service's attestations (the API's origin). */
export const DEFAULT_ISSUER = "https://rnwy.com";

/** Path of the JWKS relative to the issuer. */
export const JWKS_PATH = "/.well-known/jwks.json";

/** Key ids of `/api/trust-check` attestations (current first: v2 since the 2026-04-10 rotation, then legacy v1). */
export const TRUST_ATTESTATION_KIDS: readonly string[] = ["rnwy-trust-v2", "rnwy-trust-v1"];

/** Key id of the legacy v1 trust-check attestations (signed block with `attestedAt`, no `owner`). */
export const LEGACY_TRUST_ATTESTATION_KID = "rnwy-trust-v1";

/**
 * Key ids an on-chain `AttestedTrustOracle` holds by default: the trust-check kids whose signed block the on-chain
 * reader reads (v2; a v1 block has no `owner` and no `verifiedAt`, so it can never be read on-chain). The oracle
 * accepts a trust record signed under any kid it holds, so the kit's key tooling installs only these unless an
 * operator forces another by name (the service's next trust kid, before the kit knows it).
 */
export const ONCHAIN_TRUST_ATTESTATION_KIDS: readonly string[] = TRUST_ATTESTATION_KIDS.filter(
  (kid) => kid !== LEGACY_TRUST_ATTESTATION_KID,
);

/** Key id of `/api/wallet-score` attestations (`wallet_intelligence`, a compact JWS/JWT). */
export const WALLET_ATTESTATION_KID = "rnwy-wallet-v1";

/** Key id of `/api/mcp-attestation` attestations. */
export const MCP_ATTESTATION_KID = "rnwy-mcp-v1";

/** `attestation.type` of each signed endpoint (insumer multi-attestation spec v1.2 §2, a2a crosswalk). */
export const ATTESTATION_TYPES = {
  /** `/api/trust-check`. */
  trust: "behavioral_trust",
  /** `/api/wallet-score`. */
  wallet: "wallet_intelligence",
  /**
   * `/api/mcp-attestation` (insumer spec v1.2 §2 and §3.12, "RNWY MCP Trust"). The kit's first version wrote
   * `mcp_server_risk`, a name of its own that no source publishes and the service never wrote: it is not read as
   * an alias. (A type is only ever a reason to refuse: the verifier refuses an attestation whose type names
   * another kind, and judges every other one on its kid and signed block.)
   */
  mcp: "mcp_trust",
} as const;

/**
 * Lifetime of an attestation, in seconds (24 h): the service's signed `expiry` is `verifiedAt` + 24 h (trust-check
 * v2, wallet-score, MCP `?server=`), and an attestation that signs no expiry (trust-check v1, MCP `?canonical_id=`)
 * is given this lifetime from its issue time.
 */
export const ATTESTATION_LIFETIME_SECONDS = 24 * 3600;

/** Registry names of the service; `erc8004` is the default, `sati` lives on Solana. */
export const REGISTRIES = ["erc8004", "olas", "virtuals", "sati"] as const;

/** A registry name. */
export type RegistryName = (typeof REGISTRIES)[number];

/** The default registry. */
export const DEFAULT_REGISTRY: RegistryName = "erc8004";

/**
 * Requests per minute the kit assumes the service allows on every endpoint except `POST /api/risk-terms`: 30
 * anonymous, 300 with an API key. **Assumed**: no source publishes these two numbers (SKILL.md publishes only
 * risk-terms' limits, {@link RISK_TERMS_RATE_LIMITS}, and its registration limits). They are only where the client's
 * limiter starts: the limit the service announces in its response headers is the authority, and the limiter follows
 * it from the first response on, lower or higher (`trustgate doctor`'s `rate-limit-headers` check shows whether the
 * live service announces one).
 */
export const RATE_LIMITS = { anonymous: 30, withApiKey: 300 } as const;

/** Requests per minute `POST /api/risk-terms` allows, counted apart from {@link RATE_LIMITS} (SKILL.md, rnwy-sdk). */
export const RISK_TERMS_RATE_LIMITS = { anonymous: 5, withApiKey: 60 } as const;

/** Pass/fail threshold `/api/trust-check` and `/api/compare` use when none is given (SKILL.md). */
export const DEFAULT_THRESHOLD = 50;

/**
 * The JWKS URL of an issuer.
 *
 * @param issuer - Issuer origin, for example `https://rnwy.com`, or a `did:web:<host>` identifier (a2a crosswalk).
 * @returns `<issuer>/.well-known/jwks.json` (`https://<host>/.well-known/jwks.json` for `did:web:<host>`).
 */
export function jwksUrlOf(issuer: string): string {
  const didWeb = /^did:web:([^:]+)$/.exec(issuer.trim());
  if (didWeb) return `https://${decodeURIComponent(didWeb[1]!)}${JWKS_PATH}`;
  return new URL(JWKS_PATH, issuer).toString();
}
