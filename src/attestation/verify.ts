/**
 * Verification of the service's signed `/api/trust-check` responses.
 *
 * {@link verifyTrustAttestation} checks, in order: the attestation's type (never another kind's); the issuer
 * (the configured one; `did:web:<host>` names the same issuer as `https://<host>`); the JWKS URL it names (at the
 * issuer's origin, else refused: keys come from the configured JWKS only, never from that URL); the algorithm
 * (ES256 only — `none`, HS256 and all others are refused before any key is used); the JWS header (any member
 * order, `typ` JWT or JOSE, `crit`, `jku`, `x5u`, `jwk`, `x5c`, `b64` refused); the key id (required, the same in
 * the JWS header and the attestation, and one of the trust-check kids); the key; the `jws` first, over its own
 * bytes, with `signed` equal to its payload by value, then the raw `sig` over the insertion-order or the sorted-key
 * serialisation of the block (by default a `sig` beside a verified JWS is left unchecked — see
 * `SignaturePolicy`); the kind of signed block (v2, v1, or a wallet's signed `found: false`) and, for v2, its exact
 * signed bytes read as the on-chain oracle reads them (`trust-signed-block.ts`); that every field present both in
 * the body and in the signed block agrees (`owner`, `score`, `tier`, `badges` as a set against earned ∪ warnings,
 * `sybilSeverity`, `sybilSignals`, the ids); optionally, that it is about the subject asked for; and the time
 * window (expired, issued in the future).
 *
 * The verdict hands back the signed block (`signed`) apart from the body fields the signature does not cover
 * (`unsigned`, named in `unsignedFields`: `pass`, `threshold`, `isOriginalOwner`, …). It never throws for a
 * bad response: it returns a verdict with a stable `reason`. It throws {@link InvalidArgumentError} only for
 * bad options.
 *
 * This module also re-exports the rest of the verification API, so that callers import from one place.
 *
 * @packageDocumentation
 */

import type { TrustCheck, WalletNotFound } from "../generated/published-types.js";
import { ATTESTATION_LIFETIME_SECONDS, TRUST_ATTESTATION_KIDS } from "../config/service.js";
import type { InvalidArgumentError } from "../errors.js";
import type { ExpectedSubject } from "./expected-subject.js";
import { TRUST_CHECK_KIND } from "./kinds/trust-check.js";
import { resolveVerifyOptions, type VerifyAttestationParameters } from "./options.js";
import { verifyAttestationOfKind } from "./pipeline.js";
import type { TrustAttestationVerification } from "./result.js";
import { isRecord } from "../util/is-record.js";
import { newContext, refuse } from "./verdict.js";
import { trustRecordStorability } from "./storability.js";

export { badgeIds, normalizeSybilSeverity } from "./body-fields.js";
export type { ExpectedSubject } from "./expected-subject.js";
export {
  createJwksResolver,
  isJwksResolver,
  type JwksKeyLookup,
  type JwksResolver,
  type JwksResolverParameters,
  type JwksResolverStats,
  type JwksSource,
  resolveJwksSource,
} from "./jwks.js";
export { AGENT_FIELDS, REQUIRED_TRUST_FIELDS } from "./kinds/trust-check.js";
export { DEFAULT_CLOCK_SKEW_SECONDS, type SignaturePolicy, type VerifyAttestationParameters } from "./options.js";
export {
  ATTESTATION_FAILURE_REASONS,
  type AttestationFailureReason,
  type AttestationInvalid,
  type AttestationValid,
  type AttestationVerificationBase,
  assertAttestationValid,
  type FieldMismatch,
  type McpAttestationVerification,
  type McpAttestationVersion,
  type SignaturesChecked,
  type SigBytes,
  type SignatureStatus,
  type SignaturesVerified,
  type SignedAttestationVerification,
  type TrustAttestationVerification,
  type TrustAttestationVersion,
  type WalletScoreVerification,
  type WalletScoreVersion,
} from "./result.js";
export { chainStorability, type OnchainStorability, type UnstorableReason } from "./storability.js";
export { verifyMcpAttestation } from "./verify-mcp.js";
export { verifySignedAttestation } from "./verify-signed.js";
export { verifyWalletScoreAttestation } from "./verify-wallet-score.js";

/** Options of {@link verifyTrustAttestation}. */
export interface VerifyTrustAttestationParameters extends VerifyAttestationParameters {
  /**
   * The agent (or wallet) the caller asked the service about. When given, an attestation about anything else
   * is refused with `subject-mismatch`, so that a valid attestation of another agent cannot be replayed.
   */
  expected?: ExpectedSubject;
}

/** What {@link verifyTrustAttestation} throws: only for bad options (a refused attestation is a verdict, not a throw). */
export type VerifyTrustAttestationErrorType = InvalidArgumentError;

/**
 * Verifies a `/api/trust-check` response: its attestation's signatures against the configured JWKS, that the
 * body says what the signed block says, and that it is current.
 *
 * Defaults: issuer `https://rnwy.com`, JWKS `<issuer>/.well-known/jwks.json`, kids `rnwy-trust-v2` and
 * `rnwy-trust-v1`, 60 s clock skew, 24 h lifetime for a block without an expiry, the `jws` checked and a raw `sig`
 * beside it left unchecked (`verify: "one"`). Accepts v1 and v2 signed
 * blocks (`agentId` a string or a number; `sybilSeverity` null, a name, or the legacy `none`; flat badges),
 * the signed `{found: false, wallet, issuedAt}` of a wallet that owns no agent, a `sig`, a `jws` or both,
 * either over insertion-order or sorted-key bytes, and high-S signatures. A response that carries only `attestationV1` (a kid migration window) is verified
 * on that one; otherwise `attestation` is.
 *
 * @param response - The parsed response body (untrusted, any shape).
 * @param options - Keys, issuer, accepted kids, clock, expected subject.
 * @returns The verdict: `valid`, a stable `reason` when invalid, `kid`, `version`, which signatures were checked
 *   (`checked`) and which verified (`verified`; the one left unchecked is `"not-checked"`), which bytes the raw
 *   `sig` verified over (`sigBytes`),
 *   the `signed` block and the `unsigned` body fields (when valid), `issuedAt` (when the score was computed),
 *   `verifiedAt` (when it was signed), `expiresAt`, whether an attested oracle can store the record (`onchain`) and
 *   a `message`.
 * @throws {@link InvalidArgumentError} for bad options only.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, verifyTrustAttestation } from "trustgate";
 *
 * const check = await createTrustApiClient().trustCheck({ id: 16907, chain: "base" });
 * const verdict = await verifyTrustAttestation(check, {
 *   issuer: "https://rnwy.com", // the JWKS is the issuer's own; a jwks URL inside the response is never fetched
 *   expected: { agentId: 16907, chain: "base" },
 * });
 * if (!verdict.valid) console.log(verdict.reason, verdict.message); // a stable reason code, and why
 * else console.log(verdict.signed.score, verdict.unsignedFields); // what is signed, and what is not
 * ```
 */
export async function verifyTrustAttestation(
  response: TrustCheck | WalletNotFound | unknown,
  options?: VerifyTrustAttestationParameters,
): Promise<TrustAttestationVerification> {
  const resolved = resolveVerifyOptions(options, {
    acceptedKids: TRUST_ATTESTATION_KIDS,
    lifetimeSeconds: ATTESTATION_LIFETIME_SECONDS,
  });
  if (!isRecord(response)) {
    return {
      ...refuse("malformed", "the response is not a JSON object", newContext(), { field: "response" }),
      version: undefined,
      source: "attestation",
      onchain: undefined,
    };
  }
  const source: TrustAttestationVerification["source"] =
    response.attestation === undefined && response.attestationV1 !== undefined ? "attestationV1" : "attestation";
  const checked = await verifyAttestationOfKind(response[source], response, TRUST_CHECK_KIND, resolved, options?.expected);
  const onchain =
    checked.valid && checked.version !== undefined ? trustRecordStorability(checked.version, checked.signed.chain) : undefined;
  const verdict: TrustAttestationVerification = Object.assign(checked, { source, onchain });
  return verdict;
}
