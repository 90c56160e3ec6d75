/**
 * Attestations of the trust service: their shapes and their verification. (Signing, for the local service and
 * tests, is part of the harness: `src/harness/signing.ts`.)
 *
 * @packageDocumentation
 */
export * from "./verify.js";
export * from "./types.js";
export { signingKeyArgsOf, signingKeyArgsOfJwks, type SigningKeyArgs } from "./onchain-keys.js";
export { toAttestationCall, type AttestationCall } from "./onchain-call.js";
