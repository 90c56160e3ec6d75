/**
 * Verification of `/api/mcp-attestation` responses: an MCP server's quality and risk, signed under kid
 * `rnwy-mcp-v1` (type `mcp_trust`), in the `server` form (insumer spec v1.2 §3.12) or the SDK's `canonical_id` form.
 *
 * @packageDocumentation
 */
import { ATTESTATION_LIFETIME_SECONDS, MCP_ATTESTATION_KID } from "../config/service.js";
import { splitAttestationResponse } from "./envelope.js";
import type { ExpectedSubject } from "./expected-subject.js";
import { MCP_KIND } from "./kinds/mcp.js";
import { resolveVerifyOptions, type VerifyAttestationParameters } from "./options.js";
import { verifyAttestationOfKind } from "./pipeline.js";
import type { McpAttestationVerification } from "./result.js";

/** Options of {@link verifyMcpAttestation}. */
export interface VerifyMcpAttestationParameters extends VerifyAttestationParameters {
  /** The server asked about (`canonicalId` or `server`); an attestation of another is `subject-mismatch`. */
  expected?: Pick<ExpectedSubject, "canonicalId" | "server">;
}

/**
 * Verifies the attestation of a `/api/mcp-attestation` response.
 *
 * Defaults: kid `rnwy-mcp-v1` only. The `server` form signs its `expiry` (`verifiedAt` + 24 h): that expiry is
 * the window, and a `server` block without it (or without another field the spec signs, or with a `qualityScore`
 * outside 0–100) is `malformed`. The `canonical_id` form signs no expiry, so one is implied 24 h after its signed
 * issue time (`lifetimeSeconds` overrides it; it never applies to a block that signs its expiry); such a block
 * with no time at all is accepted without a window. A body field that is also in the signed block must agree
 * with it.
 *
 * @param response - The parsed response body (its `attestation` is verified), or the attestation itself.
 * @param options - Keys, issuer, accepted kids, clock, lifetime, expected server.
 * @returns The verdict, with `version` `canonical-id` or `server`.
 * @throws {@link InvalidArgumentError} for bad options only.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, verifyMcpAttestation } from "trustgate";
 *
 * const body = await createTrustApiClient().mcpServerAttestation("acme/ledger-tools");
 * const verdict = await verifyMcpAttestation(body); // kid rnwy-mcp-v1, from the issuer's JWKS
 * if (verdict.valid) console.log(verdict.version, verdict.signed.qualityScore);
 * ```
 */
export async function verifyMcpAttestation(
  response: unknown,
  options?: VerifyMcpAttestationParameters,
): Promise<McpAttestationVerification> {
  const resolved = resolveVerifyOptions(options, { acceptedKids: [MCP_ATTESTATION_KID], lifetimeSeconds: ATTESTATION_LIFETIME_SECONDS });
  const { attestation, body } = splitAttestationResponse(response);
  return verifyAttestationOfKind(attestation, body, MCP_KIND, resolved, options?.expected);
}
