/**
 * Verification of signed attestations whose signed block the kit does not interpret: `/api/mcp-attestation`
 * (kid `rnwy-mcp-v1`) and `/api/wallet-score` (undocumented payload). Checks the signature(s), kid, alg,
 * issuer, and the time window when the signed block carries a time; returns the decoded payload without
 * inventing field checks.
 *
 * @packageDocumentation
 */
import { ATTESTATION_LIFETIME_SECONDS, MCP_ATTESTATION_KID, TRUST_ATTESTATION_KIDS } from "../config/service.js";
import { resolveVerifyOptions, type ResolvedVerifyOptions, type VerifyAttestationOptions } from "./options.js";
import type { SignedAttestationVerification } from "./result.js";
import { checkAttestationSignatures, isRecord, refuse, signatureSummary } from "./signature-check.js";
import { checkValidity } from "./validity.js";

/**
 * Verifies a signed attestation object on its own.
 *
 * Default accepted kid: `rnwy-mcp-v1` (`MCP_ATTESTATION_KID`); default implied lifetime: none (only times
 * the attestation carries are checked). Never throws for a bad attestation.
 *
 * @param attestation - The `attestation` object of a response (any shape).
 * @param options - Keys, issuer, accepted kids, clock.
 * @returns The verdict, with the decoded payload when the signature(s) verified.
 * @throws {@link InvalidArgumentError} for bad options only.
 */
export async function verifySignedAttestation(
  attestation: unknown,
  options?: VerifyAttestationOptions,
): Promise<SignedAttestationVerification> {
  const resolved = resolveVerifyOptions(options, { acceptedKids: [MCP_ATTESTATION_KID], lifetimeSeconds: undefined });
  return verifyResolved(attestation, resolved);
}

/**
 * Verifies the attestation of a `/api/mcp-attestation` response (default kid `rnwy-mcp-v1`).
 *
 * @param response - The parsed response body (its `attestation` is verified), or the attestation itself.
 * @param options - As for {@link verifySignedAttestation}.
 * @returns The verdict.
 * @throws {@link InvalidArgumentError} for bad options only.
 */
export async function verifyMcpAttestation(
  response: unknown,
  options?: VerifyAttestationOptions,
): Promise<SignedAttestationVerification> {
  const resolved = resolveVerifyOptions(options, { acceptedKids: [MCP_ATTESTATION_KID], lifetimeSeconds: undefined });
  return verifyResolved(attestationOf(response), resolved);
}

/**
 * Verifies the attestation of a `/api/wallet-score` response. Its key id is not documented: the trust-check
 * kids (`rnwy-trust-v2`, `rnwy-trust-v1`) are accepted by default, with the 24 h trust-check lifetime when
 * the signed block has an issue time but no expiry.
 *
 * @param response - The parsed response body (its `attestation` is verified), or the attestation itself.
 * @param options - As for {@link verifySignedAttestation}.
 * @returns The verdict.
 * @throws {@link InvalidArgumentError} for bad options only.
 */
export async function verifyWalletScoreAttestation(
  response: unknown,
  options?: VerifyAttestationOptions,
): Promise<SignedAttestationVerification> {
  const resolved = resolveVerifyOptions(options, {
    acceptedKids: TRUST_ATTESTATION_KIDS,
    lifetimeSeconds: ATTESTATION_LIFETIME_SECONDS,
  });
  return verifyResolved(attestationOf(response), resolved);
}

async function verifyResolved(attestation: unknown, options: ResolvedVerifyOptions): Promise<SignedAttestationVerification> {
  const checked = await checkAttestationSignatures(attestation, options);
  if (!checked.ok) return checked.result;
  const { context } = checked;
  const window = checkValidity({
    payload: context.payload,
    unsignedExpiry: checked.attestation.expiry,
    lifetimeMs: options.lifetimeMs,
    requireTime: false,
    nowMs: options.nowMs,
    skewMs: options.skewMs,
  });
  context.issuedAt = window.issuedAt;
  context.expiresAt = window.expiresAt;
  if (!window.ok) return refuse(window.reason, window.message, context, { field: window.field });
  return {
    valid: true,
    reason: undefined,
    message: `valid attestation (kid ${context.kid}; ${signatureSummary(context.verified)})`,
    ...context,
  };
}

/** The attestation of a response body, or the body itself when it already is an attestation. */
function attestationOf(response: unknown): unknown {
  if (isRecord(response) && "attestation" in response) return response.attestation;
  return response;
}
