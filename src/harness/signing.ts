/**
 * Signing of attestations exactly as the service signs them: ES256, a legacy `sig` (base64 of the raw
 * 64-byte `r‖s` over the UTF-8 bytes of `JSON.stringify(signed)`) and an RFC 7515 compact `jws` over the same
 * bytes. Used by the kit's local signing service and by tests; verification lives in `verify.ts`.
 *
 * @packageDocumentation
 */
import { CompactSign, type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { Attestation, JsonObject } from "../published/index.js";
import { jwksUrlOf } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";

/** An ES256 key pair with its key id. */
export interface AttestationSigningKey {
  /** Key id, as published in the JWKS and in `attestation.kid`. */
  readonly kid: string;
  /** The private key (WebCrypto). */
  readonly privateKey: CryptoKey;
  /** The public key as a JWK with `kid`, `alg: "ES256"` and `use: "sig"` (a JWKS entry). */
  readonly publicJwk: JWK;
}

/**
 * Generates a new ES256 signing key.
 *
 * @param kid - Key id.
 * @returns The key pair.
 */
export async function generateSigningKey(kid: string): Promise<AttestationSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
}

/**
 * Exports a signing key as a private JWK (to save it to a file and load it again with
 * {@link importSigningKey}).
 *
 * @param key - The key.
 * @returns The private JWK, with `kid`.
 */
export async function exportSigningKey(key: AttestationSigningKey): Promise<JWK> {
  return { ...(await exportJWK(key.privateKey)), kid: key.kid, alg: "ES256", use: "sig" };
}

/**
 * Imports a private ES256 JWK (with `kid`) as a signing key.
 *
 * @param jwk - Private JWK (`kty: "EC"`, `crv: "P-256"`, `d`, `x`, `y`, `kid`).
 * @returns The key pair.
 * @throws {@link InvalidArgumentError} when the JWK is not a private P-256 key with a `kid`.
 */
export async function importSigningKey(jwk: JWK): Promise<AttestationSigningKey> {
  if (jwk.kty !== "EC" || jwk.crv !== "P-256" || !jwk.d || !jwk.x || !jwk.y || !jwk.kid) {
    throw new InvalidArgumentError("A signing key must be a private P-256 JWK with a kid");
  }
  const privateKey = (await importJWK({ ...jwk, alg: "ES256" }, "ES256", { extractable: true })) as CryptoKey;
  const { d: _d, ...publicPart } = jwk;
  return { kid: jwk.kid, privateKey, publicJwk: { ...publicPart, alg: "ES256", use: "sig" } };
}

/**
 * Signs a payload both ways the service does.
 *
 * @param signed - The object to sign; its bytes are `JSON.stringify(signed)`, in insertion order.
 * @param key - The signing key.
 * @returns `sig` (base64 of raw `r‖s`) and `jws` (compact serialization, header `{alg, kid}`).
 */
export async function signPayload(signed: unknown, key: AttestationSigningKey): Promise<{ sig: string; jws: string }> {
  const bytes = new TextEncoder().encode(JSON.stringify(signed));
  const raw = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.privateKey, bytes);
  const jws = await new CompactSign(bytes).setProtectedHeader({ alg: "ES256", kid: key.kid }).sign(key.privateKey);
  return { sig: Buffer.from(raw).toString("base64"), jws };
}

/** Which signatures {@link createAttestation} writes: both (the service's default), only `sig`, or only `jws`. */
export type AttestationSignatureForm = "both" | "sig" | "jws";

/** Options of {@link createAttestation}. */
export interface CreateAttestationOptions {
  /** `attestation.issuer` (an origin, or `did:web:<host>`). */
  issuer: string;
  /** `attestation.type` (`behavioral_trust`, …). */
  type: string;
  /** `attestation.expiry` to announce, if any. */
  expiry?: string | number;
  /** `attestation.jwks`; default derived from the issuer (`jwksUrlOf`). */
  jwks?: string;
  /** Which signatures to write; default `both`. */
  form?: AttestationSignatureForm;
}

/**
 * Builds a complete `attestation` object for a signed block.
 *
 * @param signed - The signed block.
 * @param key - The signing key.
 * @param options - Issuer (its JWKS URL is derived unless `jwks` is given), attestation type, expiry to
 *   announce, and which signatures to write (`sig` and `jws` by default; `sig` only as the insumer spec's
 *   raw form; `jws` only).
 * @returns The attestation, as the service embeds it in a response.
 * @throws {@link InvalidArgumentError} for an unknown `form`.
 */
export async function createAttestation<Signed extends JsonObject>(
  signed: Signed,
  key: AttestationSigningKey,
  options: CreateAttestationOptions,
): Promise<Attestation<Signed>> {
  const form = options.form ?? "both";
  if (form !== "both" && form !== "sig" && form !== "jws") {
    throw new InvalidArgumentError(`form must be "both", "sig" or "jws", got ${JSON.stringify(form)}`);
  }
  const { sig, jws } = await signPayload(signed, key);
  const attestation: Attestation<Signed> = {
    issuer: options.issuer,
    type: options.type,
    kid: key.kid,
    alg: "ES256",
    jwks: options.jwks ?? jwksUrlOf(options.issuer),
    signed,
  };
  if (form !== "jws") attestation.sig = sig;
  if (form !== "sig") attestation.jws = jws;
  if (options.expiry !== undefined) attestation.expiry = options.expiry;
  return attestation;
}

/**
 * Signs a claim set as a compact JWS in JWT form: protected header `{alg: "ES256", kid, typ: "JWT"}`, payload
 * the UTF-8 of `JSON.stringify(claims)` (claim order kept).
 *
 * @param claims - The claims.
 * @param key - The signing key.
 * @returns The compact serialization `header.payload.signature`.
 */
export async function signJwt(claims: Record<string, unknown>, key: AttestationSigningKey): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(claims));
  return new CompactSign(bytes).setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" }).sign(key.privateKey);
}

/**
 * Builds an `attestation` object whose `sig` is a compact JWS (JWT) carrying the claims and whose `signed` is
 * `null`, as the insumer multi-attestation spec §1 allows and as `/api/wallet-score` (kid `rnwy-wallet-v1`)
 * answers.
 *
 * @param claims - The claim set (the JWT payload).
 * @param key - The signing key.
 * @param options - Issuer, type, expiry and JWKS URL as for {@link createAttestation} (`form` is ignored).
 * @returns The attestation with `signed: null` and the JWT in `sig`.
 */
export async function createJwtAttestation(
  claims: Record<string, unknown>,
  key: AttestationSigningKey,
  options: Omit<CreateAttestationOptions, "form">,
): Promise<Attestation<null>> {
  const attestation: Attestation<null> = {
    issuer: options.issuer,
    type: options.type,
    kid: key.kid,
    alg: "ES256",
    jwks: options.jwks ?? jwksUrlOf(options.issuer),
    signed: null,
    sig: await signJwt(claims, key),
  };
  if (options.expiry !== undefined) attestation.expiry = options.expiry;
  return attestation;
}
