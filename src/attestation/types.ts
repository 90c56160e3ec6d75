/**
 * Shapes of the service's signed attestations (DESIGN §2). Only what the service documents is typed; a
 * real response may carry more fields, which the kit keeps.
 *
 * @packageDocumentation
 */

/** A time as the service writes it: an ISO-8601 string, or Unix seconds. */
export type ServiceTime = string | number;

/** The v1 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v1`), in signing order. */
export interface TrustAttestationSignedV1 {
  agentId: number | string;
  chain: string;
  registry: string;
  score: number;
  tier: string;
  badges: unknown;
  sybilSeverity: string;
  sybilSignals: unknown;
  attestedAt: ServiceTime;
  [field: string]: unknown;
}

/** The v2 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v2`), in signing order. */
export interface TrustAttestationSignedV2 {
  agentId: number | string;
  chain: string;
  registry: string;
  owner: string | null;
  score: number;
  tier: string;
  badges: unknown;
  sybilSeverity: string;
  sybilSignals: unknown;
  issuedAt: ServiceTime;
  verifiedAt: ServiceTime;
  expiry: ServiceTime;
  [field: string]: unknown;
}

/** The signed envelope returned for a wallet that owns no known agent (`/api/trust-check?wallet=`). */
export interface WalletNotFoundSigned {
  found: false;
  wallet: string;
  issuedAt: ServiceTime;
  [field: string]: unknown;
}

/**
 * The `attestation` object of a signed response. `sig` is base64 of the raw 64-byte `r‖s` ES256 signature
 * over the UTF-8 bytes of `JSON.stringify(signed)`; `jws` is an RFC 7515 compact JWS over the same bytes.
 */
export interface SignedAttestation<Signed = Record<string, unknown>> {
  issuer: string;
  type?: string;
  kid: string;
  alg: string;
  /** JWKS URL claimed by the response. Never trusted unless it belongs to the configured issuer. */
  jwks?: string;
  signed: Signed;
  sig?: string;
  jws?: string;
  expiry?: ServiceTime;
  [field: string]: unknown;
}

/** Badges of a trust-check response. */
export interface TrustBadges {
  earned: string[];
  warnings: string[];
  [field: string]: unknown;
}

/** A `/api/trust-check` response body (fields the documents name; others are kept). */
export interface TrustCheckResponse {
  agentId: number | string;
  chain: string;
  registry?: string;
  name?: string | null;
  score: number;
  threshold?: number | null;
  pass?: boolean | null;
  tier: string;
  badges?: TrustBadges;
  reason?: string | null;
  owner?: string | null;
  isOriginalOwner?: boolean | null;
  feedbackCount?: number | null;
  ageDays?: number | null;
  checkedAt?: ServiceTime;
  sybilSeverity: string;
  sybilSignals?: unknown[];
  attestation: SignedAttestation<TrustAttestationSignedV1 | TrustAttestationSignedV2>;
  [field: string]: unknown;
}

/** A `/api/trust-check?wallet=` response for a wallet that owns no known agent. */
export interface WalletNotFoundResponse {
  found: false;
  wallet: string;
  attestation: SignedAttestation<WalletNotFoundSigned>;
  [field: string]: unknown;
}
