/**
 * Attestations of the trust service: their verification. (Their shapes are the service's response shapes,
 * `Attestation`, `TrustSignedV2`, … in `src/api/schemas.ts`; signing, for the local service and tests, is
 * part of the harness: `src/harness/signing.ts`.)
 *
 * @packageDocumentation
 */

export { canonicalJson } from "./canonical-json.js";
export { type AttestationCall, type AttestationCallVerdict, toAttestationCall } from "./onchain-call.js";
export { type SigningKeyArgs, signingKeyArgsOf, signingKeyArgsOfJwks } from "./onchain-keys.js";
export * from "./verify.js";
