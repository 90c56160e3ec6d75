/**
 * Shapes of the service's signed attestations, as the service publishes them (docs/service-api.md names the
 * source of each). Every published variant is typed; a real response may carry more fields, which the kit
 * keeps. Nothing here is trusted: verification decides what a signature covers.
 *
 * @packageDocumentation
 */

/** A time as the service writes it: an ISO-8601 string, or Unix seconds. */
export type ServiceTime = string | number;

/**
 * A sybil severity as the service writes it: `null` when there is no sybil signal, else a name (`low`,
 * `moderate`, `elevated`, `heavy`); older material also writes `none` for "no signal".
 */
export type SignedSybilSeverity = string | null;

/** The v1 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v1`), in signing order. */
export interface TrustAttestationSignedV1 {
  agentId: number | string;
  chain: string;
  registry: string;
  score: number;
  tier: string;
  /** Flat array of badge ids (some early blocks carried `{earned, warnings}`; both are read). */
  badges: unknown;
  sybilSeverity: SignedSybilSeverity;
  sybilSignals: unknown;
  /** When the attestation was made (v1 has one time). */
  attestedAt: ServiceTime;
  [field: string]: unknown;
}

/**
 * The v2 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v2`), in signing order. `issuedAt`
 * is when the score was computed, `verifiedAt` when the attestation was signed, `expiry` = `verifiedAt` + 24 h.
 */
export interface TrustAttestationSignedV2 {
  /** The agent id: a string in the service's v2 blocks (numbers are read too). */
  agentId: number | string;
  chain: string;
  registry: string;
  /** The owner wallet (`0x…`, or Base58 for Solana agents). */
  owner: string | null;
  score: number;
  tier: string;
  /** Flat array of badge ids: earned and warning badges merged. */
  badges: unknown;
  sybilSeverity: SignedSybilSeverity;
  sybilSignals: unknown;
  issuedAt: ServiceTime;
  verifiedAt: ServiceTime;
  expiry: ServiceTime;
  [field: string]: unknown;
}

/** The signed envelope returned for a wallet that owns no known agent (trust-check `?wallet=`, wallet-score). */
export interface WalletNotFoundSigned {
  found: false;
  wallet: string;
  issuedAt: ServiceTime;
  [field: string]: unknown;
}

/**
 * The `attestation` object of a signed response. `sig` is either base64 of the raw 64-byte `r‖s` ES256
 * signature over the UTF-8 bytes of `JSON.stringify(signed)`, or itself a compact JWS (it then has two dots,
 * and `signed` may be `null`); `jws` is an RFC 7515 compact JWS. Either, or both, may be present.
 */
export interface SignedAttestation<Signed = Record<string, unknown> | null> {
  issuer: string;
  /** `behavioral_trust`, `wallet_intelligence`, … */
  type?: string;
  kid: string;
  alg: string;
  /** JWKS URL claimed by the response. Never fetched: keys come from the configured issuer. */
  jwks?: string;
  /** The signed block; `null` (or absent) when the payload travels only inside a compact JWS. */
  signed: Signed;
  sig?: string;
  jws?: string;
  /** Unsigned copy of the expiry; it can shorten the signed window, never extend it. */
  expiry?: ServiceTime;
  [field: string]: unknown;
}

/** Badges of a trust-check response body. */
export interface TrustBadges {
  earned: string[];
  warnings: string[];
  [field: string]: unknown;
}

/** A `/api/trust-check` response body (published fields; others are kept). */
export interface TrustCheckResponse {
  agentId: number | string;
  chain: string;
  registry?: string;
  name?: string | null;
  score: number;
  threshold?: number | null;
  pass?: boolean | null;
  tier: string;
  /** `{earned, warnings}` in the body (a flat array in the signed block). */
  badges?: TrustBadges | string[];
  reason?: string | null;
  owner?: string | null;
  isOriginalOwner?: boolean | null;
  feedbackCount?: number | null;
  ageDays?: number | null;
  checkedAt?: ServiceTime;
  sybilSeverity?: SignedSybilSeverity;
  sybilSignals?: unknown[];
  attestation: SignedAttestation<TrustAttestationSignedV1 | TrustAttestationSignedV2>;
  /** The same agent signed under the legacy kid, during a kid migration window (`?wallet=` lookups). */
  attestationV1?: SignedAttestation<TrustAttestationSignedV1>;
  [field: string]: unknown;
}

/** A `/api/trust-check?wallet=` response for a wallet that owns no known agent. */
export interface WalletNotFoundResponse {
  found: false;
  wallet: string;
  attestation: SignedAttestation<WalletNotFoundSigned>;
  [field: string]: unknown;
}
