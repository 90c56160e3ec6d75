/**
 * The legacy `sig` of an attestation: base64 of the raw 64-byte ES256 signature `r‖s` (IEEE P1363) over a
 * serialisation of the signed block — `JSON.stringify(signed)` as the service documents it, or its RFC 8785
 * sorted-key form ({@link findRawSigBytes} tries both).
 *
 * @packageDocumentation
 */
import { canonicalJson } from "./canonical-json.js";
import { verifyEs256 } from "./es256.js";
import type { VerificationKey } from "./public-key.js";
import type { SigBytes } from "./result.js";

/** Outcome of {@link verifyLegacySignature}. */
export type LegacySignatureCheck = { ok: true } | { ok: false; malformed: boolean; problem: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Length of padded base64 of 64 bytes. */
const PADDED_SIGNATURE_LENGTH = 88;

/**
 * Decodes a legacy `sig` to its 64 raw bytes.
 *
 * @param sig - Standard base64 (padding optional); base64url is accepted too.
 * @returns The bytes, or why the value is not a raw P-256 signature.
 */
export function decodeLegacySignature(sig: string): { ok: true; bytes: Buffer } | { ok: false; problem: string } {
  // The service's form, padded standard base64 of 64 bytes, is recognised by encoding the bytes back.
  if (sig.length === PADDED_SIGNATURE_LENGTH) {
    const bytes = Buffer.from(sig, "base64");
    if (bytes.length === 64 && bytes.toString("base64") === sig) return { ok: true, bytes };
  }
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

/** Outcome of {@link findRawSigBytes}: the serialisation the `sig` verified over and its bytes, or why none. */
export type RawSigBytesCheck = { ok: true; sigBytes: SigBytes; bytes: Uint8Array } | { ok: false; malformed: boolean; problem: string };

/**
 * Finds which serialisation of a signed block a raw `sig` covers: insertion order — as `signed` lists its members,
 * or as the JWS payload does (the two are equal by value, but a signer may have written one order for both
 * signatures and the response another) — and, failing that, the RFC 8785 canonical form. The one place the kit
 * answers that question (the verifier, the doctor's `sig-bytes` and `onchain-submit` checks).
 *
 * @param sig - The `sig` field.
 * @param signed - `attestation.signed`, if any.
 * @param payload - The verified JWS payload, if any (one of the two must be given).
 * @param key - The ES256 public key of the attestation's `kid`.
 * @returns The serialisation and its bytes, or the problem (`malformed` when the `sig` is not a signature).
 */
export function findRawSigBytes(
  sig: string,
  signed: Record<string, unknown> | undefined,
  payload: Record<string, unknown> | undefined,
  key: VerificationKey,
): RawSigBytesCheck {
  const block = (signed ?? payload)!;
  const insertion = Buffer.from(JSON.stringify(block), "utf8");
  const first = verifyLegacySignature(sig, insertion, key);
  if (first.ok) return { ok: true, sigBytes: "insertion-order", bytes: insertion };
  if (first.malformed) return first;
  if (signed !== undefined && payload !== undefined) {
    const payloadOrder = Buffer.from(JSON.stringify(payload), "utf8");
    if (!payloadOrder.equals(insertion) && verifyLegacySignature(sig, payloadOrder, key).ok) {
      return { ok: true, sigBytes: "insertion-order", bytes: payloadOrder };
    }
  }
  const sorted = sortedKeyBytes(block);
  if (sorted !== undefined && !sorted.equals(insertion) && verifyLegacySignature(sig, sorted, key).ok) {
    return { ok: true, sigBytes: "sorted-keys", bytes: sorted };
  }
  return {
    ok: false,
    malformed: false,
    problem: "it verifies over neither the insertion-order nor the sorted-key (RFC 8785) serialisation of the signed block",
  };
}

/** The RFC 8785 bytes of a parsed block, or `undefined` when it has no canonical form (a lone surrogate). */
function sortedKeyBytes(block: Record<string, unknown>): Buffer | undefined {
  try {
    return Buffer.from(canonicalJson(block), "utf8");
  } catch {
    return undefined;
  }
}
