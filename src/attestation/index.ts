/**
 * Attestations of the trust service: their shapes and their verification. (Signing, for the local service and
 * tests, is part of the harness: `src/harness/signing.ts`.)
 *
 * @packageDocumentation
 */

export { type AttestationCall, toAttestationCall } from "./onchain-call.js";
export { type SigningKeyArgs, signingKeyArgsOf, signingKeyArgsOfJwks } from "./onchain-keys.js";
export * from "./types.js";
export * from "./verify.js";
