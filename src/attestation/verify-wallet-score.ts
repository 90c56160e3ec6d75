/**
 * Verification of `/api/wallet-score` responses: an operator wallet's signal depth and risk intensity, signed
 * as a compact JWS (JWT-style claims) under kid `rnwy-wallet-v1`.
 *
 * @packageDocumentation
 */
import { ATTESTATION_LIFETIME_SECONDS, WALLET_ATTESTATION_KID } from "../config/service.js";
import { splitAttestationResponse } from "./envelope.js";
import type { ExpectedSubject } from "./expected-subject.js";
import { WALLET_SCORE_KIND } from "./kinds/wallet-score.js";
import { resolveVerifyOptions, type VerifyAttestationParameters } from "./options.js";
import { verifyAttestationOfKind } from "./pipeline.js";
import type { WalletScoreVerification } from "./result.js";

/** Options of {@link verifyWalletScoreAttestation}. */
export interface VerifyWalletScoreParameters extends VerifyAttestationParameters {
  /** The wallet asked about (`expected.wallet`); an attestation of another wallet is `subject-mismatch`. */
  expected?: Pick<ExpectedSubject, "wallet">;
}

/**
 * Verifies the attestation of a `/api/wallet-score` response.
 *
 * Defaults: kid `rnwy-wallet-v1` only (a trust-check or MCP attestation is never accepted here: its kid is
 * refused, and so is a signed block of another kind), 24 h lifetime when the claims carry an issue time but
 * no expiry. The claims come from the JWS (in `sig` or `jws`; `signed` may be `null`); a signed `iss` must
 * be the configured issuer; a body field that is also a claim must agree with it.
 *
 * @param response - The parsed response body (its `attestation` is verified), or the attestation itself.
 * @param options - Keys, issuer, accepted kids, clock, expected wallet.
 * @returns The verdict, with `version` `scored` or `wallet-not-found`.
 * @throws {@link InvalidArgumentError} for bad options only.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, verifyWalletScoreAttestation } from "trustgate";
 *
 * const body = await createTrustApiClient().walletScore("0x6887dce558f76f36c281200fbc8e5d3da1241aea");
 * const verdict = await verifyWalletScoreAttestation(body); // the JWT signed under rnwy-wallet-v1
 * if (verdict.valid) console.log(verdict.version, verdict.signed.quadrant);
 * ```
 */
export async function verifyWalletScoreAttestation(
  response: unknown,
  options?: VerifyWalletScoreParameters,
): Promise<WalletScoreVerification> {
  const resolved = resolveVerifyOptions(options, { acceptedKids: [WALLET_ATTESTATION_KID], lifetimeSeconds: ATTESTATION_LIFETIME_SECONDS });
  const { attestation, body } = splitAttestationResponse(response);
  return verifyAttestationOfKind(attestation, body, WALLET_SCORE_KIND, resolved, options?.expected);
}
