/**
 * Attestations of the trust service: their shapes, verification and (for local services and tests) signing.
 *
 * @packageDocumentation
 */
export * from "./verify.js";
export * from "./types.js";
export {
  createAttestation,
  exportSigningKey,
  generateSigningKey,
  importSigningKey,
  signPayload,
  type AttestationSigningKey,
} from "../harness/signing.js";
