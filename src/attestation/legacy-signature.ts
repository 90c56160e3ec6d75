/**
 * The legacy `sig` of an attestation: base64 of the raw 64-byte ES256 signature `r‖s` (IEEE P1363) over a
 * serialisation of the signed block — `JSON.stringify(signed)` as the service documents it, or its RFC 8785
 * sorted-key form (`signature-check.ts` tries both).
 *
 * @packageDocumentation
 */
import { verifyEs256 } from "./es256.js";
import type { VerificationKey } from "./public-key.js";

/** Outcome of {@link verifyLegacySignature}. */
export type LegacySignatureCheck = { ok: true } | { ok: false; malformed: boolean; problem: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Decodes a legacy `sig` to its 64 raw bytes.
 *
 * @param sig - Standard base64 (padding optional); base64url is accepted too.
 * @returns The bytes, or why the value is not a raw P-256 signature.
 */
export function decodeLegacySignature(sig: string): { ok: true; bytes: Buffer } | { ok: false; problem: string } {
  const standard = BASE64.test(sig);
  if (!standard && !BASE64URL.test(sig)) return { ok: false, problem: "sig is not base64" };
  const bytes = Buffer.from(sig, standard ? "base64" : "base64url");
  if (bytes.length !== 64) {
    return { ok: false, problem: `sig decodes to ${bytes.length} bytes; a raw ES256 signature (r‖s) has 64` };
  }
  return { ok: true, bytes };
}

/**
 * Verifies a legacy `sig` over the given bytes.
 *
 * @param sig - The `sig` field.
 * @param data - The signed bytes (a serialisation of the signed block).
 * @param key - The ES256 public key of the attestation's `kid`.
 * @returns `ok`, or the problem; `malformed` tells a value that is not a signature from a wrong signature.
 */
export function verifyLegacySignature(sig: string, data: Uint8Array, key: VerificationKey): LegacySignatureCheck {
  const decoded = decodeLegacySignature(sig);
  if (!decoded.ok) return { ok: false, malformed: true, problem: decoded.problem };
  return verifyEs256(data, decoded.bytes, key)
    ? { ok: true }
    : { ok: false, malformed: false, problem: "sig does not match the signed block" };
}
