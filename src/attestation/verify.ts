/**
 * Verification of the service's signed `/api/trust-check` responses.
 *
 * {@link verifyTrustAttestation} checks, in order: the shape; the issuer (must be the configured one); the
 * algorithm (ES256 only — `none`, HS256 and all others are refused before any key is used); the key id
 * (required, the same in the JWS header and the attestation, and accepted); the key (from the configured
 * JWKS — never from the URL the response carries); the `jws` and the legacy `sig` (each one present must
 * verify, at least one must be present); that the `jws` payload is exactly `JSON.stringify(signed)`; that
 * the signed fields equal the response's own (`agentId`, `chain`, `registry`, `score`, `tier`,
 * `sybilSeverity`, or `found`/`wallet` for an unknown wallet); optionally, that it is about the subject
 * asked for; and the time window (expired, issued in the future, within the clock skew).
 *
 * It never throws for a bad response: it returns a verdict with a stable `reason`. It throws
 * {@link InvalidArgumentError} only for bad options.
 *
 * This module also re-exports the rest of the verification API, so that callers import from one place.
 *
 * @packageDocumentation
 */
import { ATTESTATION_LIFETIME_SECONDS, TRUST_ATTESTATION_KIDS } from "../config/service.js";
import { resolveVerifyOptions, type VerifyAttestationOptions } from "./options.js";
import type { TrustAttestationVerification, TrustAttestationVersion } from "./result.js";
import { checkAttestationSignatures, isRecord, newContext, refuse, signatureSummary } from "./signature-check.js";
import {
  compareExpectedSubject,
  compareTrustFields,
  compareWalletNotFound,
  trustAttestationVersion,
  type ExpectedSubject,
} from "./trust-fields.js";
import type { TrustCheckResponse, WalletNotFoundResponse } from "./types.js";
import { checkValidity } from "./validity.js";

export {
  ATTESTATION_FAILURE_REASONS,
  assertAttestationValid,
  type AttestationFailureReason,
  type AttestationInvalid,
  type AttestationValid,
  type AttestationVerificationBase,
  type FieldMismatch,
  type SignatureStatus,
  type SignaturesVerified,
  type SignedAttestationVerification,
  type TrustAttestationVerification,
  type TrustAttestationVersion,
} from "./result.js";
export {
  createJwksResolver,
  isJwksResolver,
  resolveJwksSource,
  type JwksKeyLookup,
  type JwksResolver,
  type JwksResolverOptions,
  type JwksResolverStats,
  type JwksSource,
} from "./jwks.js";
export { DEFAULT_CLOCK_SKEW_SECONDS, type VerifyAttestationOptions } from "./options.js";
export { COMPARED_TRUST_FIELDS, type ExpectedSubject } from "./trust-fields.js";
export { verifyMcpAttestation, verifySignedAttestation, verifyWalletScoreAttestation } from "./verify-signed.js";

/** Options of {@link verifyTrustAttestation}. */
export interface VerifyTrustAttestationOptions extends VerifyAttestationOptions {
  /**
   * The agent (or wallet) the caller asked the service about. When given, an attestation about anything else
   * is refused with `subject-mismatch`, so that a valid attestation of another agent cannot be replayed.
   */
  expected?: ExpectedSubject;
}

/**
 * Verifies a `/api/trust-check` response: its attestation's signatures against the configured JWKS, and that
 * the signed block says what the response says, and is current.
 *
 * Defaults: issuer `https://rnwy.com`, JWKS `<issuer>/.well-known/jwks.json`, kids `rnwy-trust-v2` and
 * `rnwy-trust-v1`, 60 s clock skew, 24 h lifetime for a block without an expiry. Accepts v1 and v2 signed
 * blocks and the unknown-wallet envelope `{found: false, wallet, issuedAt}`.
 *
 * @param response - The parsed response body (untrusted, any shape).
 * @param options - Keys, issuer, accepted kids, clock, expected subject.
 * @returns The verdict: `valid`, a stable `reason` when invalid, `kid`, `version`, which signatures verified,
 * the decoded `payload` (when the signatures verified), `issuedAt`/`expiresAt` and a `message`.
 * @throws {@link InvalidArgumentError} for bad options only.
 */
export async function verifyTrustAttestation(
  response: TrustCheckResponse | WalletNotFoundResponse | unknown,
  options?: VerifyTrustAttestationOptions,
): Promise<TrustAttestationVerification> {
  const resolved = resolveVerifyOptions(options, {
    acceptedKids: TRUST_ATTESTATION_KIDS,
    lifetimeSeconds: ATTESTATION_LIFETIME_SECONDS,
  });
  const expected = options?.expected;

  if (!isRecord(response)) {
    return { ...refuse("malformed", "the response is not a JSON object", newContext(), { field: "response" }), version: undefined };
  }
  const claimed = isRecord(response.attestation) && isRecord(response.attestation.signed) ? response.attestation.signed : undefined;
  const checked = await checkAttestationSignatures(response.attestation, resolved);
  if (!checked.ok) {
    const kid = checked.result.kid;
    return { ...checked.result, version: claimed ? trustAttestationVersion(claimed, kid) : undefined };
  }

  const { context } = checked;
  const version: TrustAttestationVersion = trustAttestationVersion(context.payload, context.kid);
  const comparison =
    version === "wallet-not-found" ? compareWalletNotFound(context.payload, response) : compareTrustFields(context.payload, response);
  if (!comparison.ok) {
    if (comparison.kind === "missing") {
      return {
        ...refuse("malformed", `the signed block has no ${comparison.field}`, context, { field: comparison.field }),
        version,
      };
    }
    const { mismatch } = comparison;
    return {
      ...refuse(
        "field-mismatch",
        `signed ${mismatch.field} is ${JSON.stringify(mismatch.signed)} but the response says ${JSON.stringify(mismatch.response)}`,
        context,
        { field: mismatch.field, mismatch },
      ),
      version,
    };
  }
  if (expected !== undefined) {
    const mismatch = compareExpectedSubject(context.payload, expected);
    if (mismatch) {
      return {
        ...refuse(
          "subject-mismatch",
          `the attestation's ${mismatch.field} is ${JSON.stringify(mismatch.signed)}, not the expected ${JSON.stringify(String(mismatch.response))}`,
          context,
          { field: mismatch.field, mismatch },
        ),
        version,
      };
    }
  }

  const window = checkValidity({
    payload: context.payload,
    unsignedExpiry: checked.attestation.expiry,
    lifetimeMs: resolved.lifetimeMs,
    requireTime: true,
    nowMs: resolved.nowMs,
    skewMs: resolved.skewMs,
  });
  context.issuedAt = window.issuedAt;
  context.expiresAt = window.expiresAt;
  if (!window.ok) return { ...refuse(window.reason, window.message, context, { field: window.field }), version };

  const subject =
    version === "wallet-not-found"
      ? `wallet ${String(context.payload.wallet)} not found`
      : `agent ${String(context.payload.agentId)} on ${String(context.payload.chain)}, score ${String(context.payload.score)}`;
  return {
    valid: true,
    reason: undefined,
    message: `valid ${version} trust attestation: ${subject} (kid ${context.kid}; ${signatureSummary(context.verified)}${
      context.expiresAt ? `; expires ${context.expiresAt.toISOString()}` : ""
    })`,
    ...context,
    version,
  };
}
