/**
 * The one ES256 check every signature of an attestation goes through: ECDSA P-256 with SHA-256, the signature
 * as the raw 64 bytes `r‖s` (IEEE P1363, the form of both the legacy `sig` and a JWS signature), through
 * `node:crypto` with a `KeyObject` imported once per JWKS entry (`public-key.ts`).
 *
 * Why `node:crypto` and not jose's `compactVerify`: jose 6 verifies through WebCrypto (`crypto.subtle`), whose
 * every call is a promise settled from libuv's thread pool, and its verification wraps that with its own
 * parsing. Measured on the 2-core development machine (Node 20.20, one thread, 256 distinct signatures
 * cycled; figures per CPU-second of the process, as the machine is shared): `crypto.verify` with a cached
 * `KeyObject` 13,500–16,600/s; `crypto.subtle.verify` with a `CryptoKey` 8,000–10,100/s; jose `compactVerify`
 * 6,100–9,500/s (with a `CryptoKey` or a `KeyObject`); `crypto.verify` over a JWS's signing input (including
 * the base64url decoding of its signature) 12,700–16,800/s — about 1.7 times jose's rate. OpenSSL's own
 * `openssl speed ecdsap256` verifies 16,400/s on the same core.
 *
 * The JWS itself is read by the kit (`jws.ts`): its header with the strict JSON reader, its `alg` checked before
 * any key is touched; `crit` and `b64`, which would change what the signature means, are refused, so every JWS
 * the kit accepts is verified here over its ASCII `header.payload`. jose's types still describe the JWKS.
 *
 * High-S signatures: OpenSSL's ECDSA verification accepts both `s` and `n − s` (it does not enforce low-S), as
 * WebCrypto in Node does (the same OpenSSL); the service does not normalise S, and the attestation tests
 * carry high-S twins of every form. `r` or `s` equal to 0 or not below the group order are refused.
 *
 * @packageDocumentation
 */
import { verify } from "node:crypto";
import type { VerificationKey } from "./public-key.js";

/** Length of a raw ES256 signature `r‖s`, in bytes. */
export const ES256_SIGNATURE_BYTES = 64;

/**
 * Verifies a raw ES256 signature.
 *
 * @param data - The signed bytes (for a JWS, the ASCII of `header.payload`).
 * @param signature - The 64 bytes `r‖s`.
 * @param key - The public key.
 * @returns Whether the signature verifies. Never throws for a wrong signature.
 */
export function verifyEs256(data: Uint8Array, signature: Uint8Array, key: VerificationKey): boolean {
  if (signature.length !== ES256_SIGNATURE_BYTES) return false;
  return verify("sha256", data, { key: key.keyObject, dsaEncoding: "ieee-p1363" }, signature);
}
