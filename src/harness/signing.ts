/**
 * Signing of attestations exactly as the service signs them: ES256, a legacy `sig` (base64 of the raw
 * 64-byte `r‖s` over the UTF-8 bytes of the signed block) and an RFC 7515 compact `jws` over the signed block.
 * By default both cover `JSON.stringify(signed)` (insertion order) under the header `{"alg":"ES256","kid":…}`;
 * {@link SigningParameters} write the other forms a signer may produce (RFC 8785 sorted keys, another header, a
 * payload given byte for byte), so that tests and vectors cover what the verifiers must accept or refuse.
 * Used by the kit's local signing service and by tests; verification lives in `src/attestation/`.
 *
 * @packageDocumentation
 */
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { canonicalJson } from "../attestation/canonical-json.js";
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

/** How a signed block is serialised to the bytes a signature covers. */
export type SignedSerialization = "insertion" | "sorted";

/**
 * How {@link signPayload} and {@link createAttestation} write their signatures. The defaults are what the
 * service is known to write; every other setting is a form a standard signer may produce, or a hostile one.
 */
export interface SigningParameters {
  /**
   * Bytes the raw `sig` covers: `"insertion"` (default) `JSON.stringify(signed)`, `"sorted"` the RFC 8785
   * canonical form (`canonicalJson`).
   */
  sigSerialization?: SignedSerialization;
  /** Bytes the JWS payload carries, as for {@link SigningParameters.sigSerialization} (default `"insertion"`). */
  jwsSerialization?: SignedSerialization;
  /**
   * The JWS protected header, written with `JSON.stringify` (members in this object's order, nothing checked:
   * `alg: "none"`, `crit`, a foreign `kid` are written as given). Default `{alg: "ES256", kid: key.kid}`.
   */
  jwsHeader?: Record<string, unknown>;
  /**
   * The exact JWS payload bytes, instead of a serialisation of `signed` (for hostile vectors: escaped or
   * duplicated member names, invalid UTF-8, whitespace). `jwsSerialization` is then ignored.
   */
  jwsPayload?: Uint8Array;
}

/** Signatures of one signed block, as {@link signPayload} returns them. */
export interface PayloadSignatures {
  /** Base64 of the raw 64-byte `r‖s` over the bytes {@link SigningParameters.sigSerialization} names. */
  sig: string;
  /** The compact JWS `header.payload.signature`. */
  jws: string;
}

/**
 * The bytes a signature over `signed` covers, in the given serialisation.
 *
 * @param signed - The signed block.
 * @param serialization - `"insertion"` (`JSON.stringify`) or `"sorted"` (RFC 8785).
 * @returns The UTF-8 bytes.
 * @throws {@link InvalidArgumentError} for an unknown serialisation, or a block without a canonical form.
 */
export function serializeSigned(signed: unknown, serialization: SignedSerialization = "insertion"): Uint8Array {
  if (serialization === "insertion") return new TextEncoder().encode(JSON.stringify(signed));
  if (serialization === "sorted") return new TextEncoder().encode(canonicalJson(signed));
  throw new InvalidArgumentError(`A serialisation must be "insertion" or "sorted", got ${JSON.stringify(serialization)}`);
}

/**
 * Signs bytes with ES256: ECDSA P-256 over SHA-256, the signature as the raw 64 bytes `r‖s`.
 *
 * @param data - The bytes to sign.
 * @param key - The signing key.
 * @returns The 64-byte signature (its `s` as WebCrypto draws it, high or low).
 */
export async function signBytes(data: Uint8Array, key: AttestationSigningKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.privateKey, data));
}

/**
 * Signs a payload as a compact JWS (RFC 7515): the signature covers the ASCII `header.payload`, where both
 * parts are the base64url (no padding) of the header's `JSON.stringify` and of the payload bytes.
 *
 * @param header - The protected header, written as given.
 * @param payload - The exact payload bytes.
 * @param key - The signing key.
 * @returns The compact serialization.
 */
export async function signCompactJws(header: Record<string, unknown>, payload: Uint8Array, key: AttestationSigningKey): Promise<string> {
  const signingInput = `${Buffer.from(JSON.stringify(header), "utf8").toString("base64url")}.${Buffer.from(payload).toString("base64url")}`;
  const signature = await signBytes(Buffer.from(signingInput, "ascii"), key);
  return `${signingInput}.${Buffer.from(signature).toString("base64url")}`;
}

/**
 * Signs a payload both ways the service does.
 *
 * @param signed - The object to sign.
 * @param key - The signing key.
 * @param options - Which bytes each signature covers and the JWS header (default: both over
 *   `JSON.stringify(signed)`, header `{alg, kid}`).
 * @returns `sig` (base64 of raw `r‖s`) and `jws` (compact serialization).
 * @throws {@link InvalidArgumentError} for an unknown serialisation, or a block without a canonical form.
 */
export async function signPayload(
  signed: unknown,
  key: AttestationSigningKey,
  options: SigningParameters = {},
): Promise<PayloadSignatures> {
  const sigBytes = serializeSigned(signed, options.sigSerialization);
  const jwsPayload = options.jwsPayload ?? serializeSigned(signed, options.jwsSerialization);
  const header = options.jwsHeader ?? { alg: "ES256", kid: key.kid };
  const [raw, jws] = await Promise.all([signBytes(sigBytes, key), signCompactJws(header, jwsPayload, key)]);
  return { sig: Buffer.from(raw).toString("base64"), jws };
}

/** Which signatures {@link createAttestation} writes: both (the service's default), only `sig`, or only `jws`. */
export type AttestationSignatureForm = "both" | "sig" | "jws";

/** Options of {@link createAttestation}. */
export interface CreateAttestationParameters {
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
  /** Which bytes each signature covers and the JWS header (see {@link SigningParameters}). */
  signing?: SigningParameters;
}

/**
 * Builds a complete `attestation` object for a signed block.
 *
 * @param signed - The signed block.
 * @param key - The signing key.
 * @param options - Issuer (its JWKS URL is derived unless `jwks` is given), attestation type, expiry to
 *   announce, which signatures to write (`sig` and `jws` by default; `sig` only as the insumer spec's
 *   raw form; `jws` only), and how they are signed (`signing`).
 * @returns The attestation, as the service embeds it in a response.
 * @throws {@link InvalidArgumentError} for an unknown `form` or serialisation.
 */
export async function createAttestation<Signed extends JsonObject>(
  signed: Signed,
  key: AttestationSigningKey,
  options: CreateAttestationParameters,
): Promise<Attestation<Signed>> {
  const form = options.form ?? "both";
  if (form !== "both" && form !== "sig" && form !== "jws") {
    throw new InvalidArgumentError(`form must be "both", "sig" or "jws", got ${JSON.stringify(form)}`);
  }
  const { sig, jws } = await signPayload(signed, key, options.signing);
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
  return signCompactJws({ alg: "ES256", kid: key.kid, typ: "JWT" }, serializeSigned(claims), key);
}

/**
 * Builds an `attestation` object whose `sig` is a compact JWS (JWT) carrying the claims and whose `signed` is
 * `null`, as the insumer multi-attestation spec §1 allows and as `/api/wallet-score` (kid `rnwy-wallet-v1`)
 * answers.
 *
 * @param claims - The claim set (the JWT payload).
 * @param key - The signing key.
 * @param options - Issuer, type, expiry and JWKS URL as for {@link createAttestation}.
 * @returns The attestation with `signed: null` and the JWT in `sig`.
 */
export async function createJwtAttestation(
  claims: Record<string, unknown>,
  key: AttestationSigningKey,
  options: Omit<CreateAttestationParameters, "form" | "signing">,
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
