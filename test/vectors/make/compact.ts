/**
 * Compact JWSs with exact bytes, for the vectors `src/harness/signing.ts` cannot write: a header text with
 * whitespace or a duplicate member, parts in non-canonical base64url (signed as written, so that only the
 * base64url rule refuses them), HMAC tokens keyed with the public key, and the high-S twin of a signature.
 */
import { CompactSign, type CryptoKey, exportSPKI, importJWK } from "jose";
import { type AttestationSigningKey, signBytes } from "../../../src/harness/signing";
import { flipS, P256_ORDER } from "../../support/attestations";

/**
 * Base64url without padding.
 *
 * @param data - Text (its UTF-8) or bytes.
 * @returns The encoding.
 */
export function b64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString("base64url");
}

/**
 * Signs `headerPart.payloadPart` exactly as written (whatever its base64url), with ES256.
 *
 * @param headerPart - The header part, as it will appear.
 * @param payloadPart - The payload part, as it will appear.
 * @param key - Signing key.
 * @returns The compact JWS with a canonical base64url signature part.
 */
export async function signCompactParts(headerPart: string, payloadPart: string, key: AttestationSigningKey): Promise<string> {
  const signingInput = `${headerPart}.${payloadPart}`;
  const signature = await signBytes(Buffer.from(signingInput, "latin1"), key);
  return `${signingInput}.${b64url(signature)}`;
}

/**
 * Signs a payload under a header given as exact text (whitespace, member order and duplicates kept).
 *
 * @param headerText - The header JSON text.
 * @param payload - The payload bytes.
 * @param key - Signing key.
 * @returns The compact JWS.
 */
export function signWithHeaderText(headerText: string, payload: Uint8Array, key: AttestationSigningKey): Promise<string> {
  return signCompactParts(b64url(headerText), b64url(payload), key);
}

/**
 * The three parts of a compact JWS.
 *
 * @param jws - A compact JWS.
 * @returns Header, payload and signature parts.
 */
export function partsOf(jws: string): [string, string, string] {
  const parts = jws.split(".");
  if (parts.length !== 3) throw new Error(`not a compact JWS: ${jws.slice(0, 40)}…`);
  return parts as [string, string, string];
}

/**
 * A JWS with its signature made high-S (`s > n/2`), the same signature for ES256.
 *
 * @param jws - A compact JWS with a 64-byte signature.
 * @returns The JWS with the high-S twin (unchanged when already high).
 */
export function highSJws(jws: string): string {
  const [header, payload, signature] = partsOf(jws);
  return `${header}.${payload}.${b64url(highS(Buffer.from(signature, "base64url")))}`;
}

/**
 * The high-S form of a raw `r‖s` signature.
 *
 * @param raw - 64 bytes.
 * @returns `r‖s` with `s > n/2`.
 */
export function highS(raw: Uint8Array): Buffer {
  const s = BigInt(`0x${Buffer.from(raw.subarray(32)).toString("hex")}`);
  return s > P256_ORDER / 2n ? Buffer.from(raw) : flipS(raw);
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * A base64url part whose last character carries non-zero leftover bits: it decodes (leniently) to the same
 * bytes, and is not the canonical encoding of anything.
 *
 * @param part - A canonical part whose length is 2 or 3 mod 4.
 * @returns The altered part.
 */
export function withLeftoverBits(part: string): string {
  if (part.length % 4 === 0 || part.length % 4 === 1) throw new Error("a part of length 0 mod 4 has no leftover bits");
  const last = ALPHABET.indexOf(part.at(-1)!);
  return `${part.slice(0, -1)}${ALPHABET[last | 1]}`;
}

/**
 * HMAC-SHA tokens keyed with the PEM of an ES256 public key (the key-confusion attack): `HS256` gives a
 * 32-byte signature, `HS512` a 64-byte one, the length of an ES256 signature.
 *
 * @param alg - `HS256` or `HS512`.
 * @param headerKid - The kid the header names.
 * @param payload - The payload bytes.
 * @param key - The key whose public half is the secret.
 * @returns The compact JWS.
 */
export async function hmacWithPublicKey(
  alg: "HS256" | "HS512",
  headerKid: string,
  payload: Uint8Array,
  key: AttestationSigningKey,
): Promise<string> {
  const publicKey = (await importJWK({ ...key.publicJwk, alg: "ES256" }, "ES256", { extractable: true })) as CryptoKey;
  const secret = new TextEncoder().encode(await exportSPKI(publicKey));
  return new CompactSign(payload).setProtectedHeader({ alg, kid: headerKid }).sign(secret);
}
