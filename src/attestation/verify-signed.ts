/**
 * Verification of a signed attestation whose signed block the kit does not interpret: signature(s), kid,
 * alg, issuer, and the time window when the signed block carries a time. For the service's own kinds use
 * `verifyTrustAttestation`, `verifyWalletScoreAttestation` or `verifyMcpAttestation`, which also bind the
 * signed block to its kind.
 *
 * @packageDocumentation
 */
import { MCP_ATTESTATION_KID } from "../config/service.js";
import { resolveVerifyOptions, type VerifyAttestationParameters } from "./options.js";
import { type AttestationKind, verifyAttestationOfKind } from "./pipeline.js";
import type { SignedAttestationVerification } from "./result.js";

const ANY_SIGNED_BLOCK: AttestationKind<"signed"> = {
  name: "signed",
  type: undefined,
  requireTime: false,
  classify: () => ({ ok: true, version: "signed" }),
  describe: () => "signed block",
};

/**
 * Verifies a signed attestation object on its own.
 *
 * Default accepted kid: `rnwy-mcp-v1` (`MCP_ATTESTATION_KID`); default implied lifetime: none (only times
 * the attestation carries are checked). An attestation whose `type` is one of the service's known kinds
 * (`behavioral_trust`, `wallet_intelligence`) is refused: verify it with its own function. Never throws for
 * a bad attestation.
 *
 * @param attestation - The `attestation` object of a response (any shape).
 * @param options - Keys, issuer, accepted kids, clock.
 * @returns The verdict, with the decoded `signed` block when the signature(s) verified.
 * @throws {@link InvalidArgumentError} for bad options only.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, verifySignedAttestation } from "trustgate";
 *
 * // an attestation of a kind the kit does not interpret: here an MCP server's, under rnwy-mcp-v1 (the default kid)
 * const body = await createTrustApiClient().mcpServerAttestation("acme/ledger-tools");
 * const verdict = await verifySignedAttestation(body.attestation, { issuer: "https://rnwy.com" });
 * console.log(verdict.valid ? verdict.signed : verdict.reason);
 * ```
 */
export async function verifySignedAttestation(
  attestation: unknown,
  options?: VerifyAttestationParameters,
): Promise<SignedAttestationVerification> {
  const resolved = resolveVerifyOptions(options, { acceptedKids: [MCP_ATTESTATION_KID], lifetimeSeconds: undefined });
  const { version: _version, ...verdict } = await verifyAttestationOfKind(attestation, undefined, ANY_SIGNED_BLOCK, resolved, undefined);
  return verdict;
}
