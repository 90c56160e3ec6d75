/**
 * Signing of the local service's attestations with its published keys, through `../signing.ts`,
 * and the signing faults (`unknown-kid`, `tampered-signature`).
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import type { Attestation, JsonObject } from "../../published/index.js";
import {
  type AttestationSignatureForm,
  type AttestationSigningKey,
  createAttestation,
  type SigningParameters,
  createJwtAttestation,
  generateSigningKey,
  signJwt,
} from "../signing.js";
import type { FaultInjector } from "./faults.js";
import { type ServiceKeys, UNPUBLISHED_KIDS } from "./keys.js";

/**
 * Which signer an attestation uses: the trust-check signer (`rnwy-trust-v2`), the legacy one
 * (`rnwy-trust-v1`), the wallet-score signer (`rnwy-wallet-v1`) or the MCP signer (`rnwy-mcp-v1`).
 */
export type SignerPurpose = "trust" | "trustV1" | "wallet" | "mcp";

/** Options of {@link ServiceSigner.attest}. */
export interface AttestOptions {
  /** The signer to use. */
  readonly purpose: SignerPurpose;
  /** `attestation.type`. */
  readonly type: string;
  /** Path of the request (faults match on it). */
  readonly path: string;
  /** `attestation.expiry`, when the attestation announces one. */
  readonly expiry?: string;
  /** Which signatures to write (default both `sig` and `jws`). Ignored by {@link ServiceSigner.attestJwt}. */
  readonly form?: AttestationSignatureForm;
  /**
   * Lead with a compact JWS in JWT form (header `{alg, kid, typ: "JWT"}`) in `jws`, the raw `sig` beside it for
   * backward compatibility, both over `JSON.stringify(signed)`: how insumer spec v1.2 §3.12 describes the MCP
   * `?server=` form. Ignored by {@link ServiceSigner.attestJwt}; `form` and `signing` are then ignored too.
   */
  readonly jwsFirst?: boolean;
  /** Which bytes the signatures cover and the JWS header (default as the service signs). Ignored by {@link ServiceSigner.attestJwt}. */
  readonly signing?: SigningParameters;
}

/** The JWKS document. */
export interface JwksDocument {
  /** Public keys. */
  readonly keys: readonly JWK[];
}

/** Signs attestations as the service does, honouring the injected signing faults. */
export class ServiceSigner {
  readonly #keys: ServiceKeys;
  readonly #faults: FaultInjector;
  readonly #issuer: string;
  readonly #unpublished = new Map<SignerPurpose, Promise<AttestationSigningKey>>();

  /**
   * @param keys - The service's keys.
   * @param faults - The service's faults.
   * @param issuer - `attestation.issuer`.
   * @param jwksUrl - `attestation.jwks`.
   */
  constructor(keys: ServiceKeys, faults: FaultInjector, issuer: string, jwksUrl: string) {
    this.#keys = keys;
    this.#faults = faults;
    this.#issuer = issuer;
    this.#jwksUrl = jwksUrl;
  }

  readonly #jwksUrl: string;

  /** The issuer written into attestations. */
  get issuer(): string {
    return this.#issuer;
  }

  /** The JWKS URL written into attestations. */
  get jwksUrl(): string {
    return this.#jwksUrl;
  }

  /** The JWKS: the public part of every published key. */
  jwks(): JwksDocument {
    return { keys: this.#keys.published.map((k) => ({ ...k.publicJwk })) };
  }

  /**
   * Signs a block and builds the `attestation` object. An `unknown-kid` fault signs with a key outside the
   * JWKS; a `tampered-signature` fault changes a value of `signed` (and of the JWS payload) after signing.
   * Callers take the top-level values they repeat from the returned `signed`, so that they match it.
   *
   * @param signed - The block to sign; its JSON serialization, in insertion order, is what is signed.
   * @param options - Signer, type, request path and announced expiry.
   * @returns The attestation.
   */
  async attest<Signed extends JsonObject>(signed: Signed, options: AttestOptions): Promise<Attestation<Signed>> {
    const key = await this.#keyFor(options);
    const envelope = {
      issuer: this.#issuer,
      type: options.type,
      jwks: this.#jwksUrl,
      ...(options.expiry !== undefined ? { expiry: options.expiry } : {}),
    };
    const attestation = options.jwsFirst
      ? await jwsFirstAttestation(signed, key, envelope)
      : await createAttestation(signed, key, {
          ...envelope,
          ...(options.form !== undefined ? { form: options.form } : {}),
          ...(options.signing !== undefined ? { signing: options.signing } : {}),
        });
    if (this.#faults.take(["tampered-signature"], options.path) === undefined) return attestation;
    const tampered = tamperSigned(signed);
    const result = { ...attestation, signed: tampered };
    if (attestation.jws !== undefined) result.jws = replaceJwsPayload(attestation.jws, tampered);
    return result;
  }

  /**
   * Signs a claim set as a JWT and builds the `attestation` object with `signed: null` and the JWT in `sig`
   * (the wallet-score form). The same faults apply: `unknown-kid` signs with an unpublished key,
   * `tampered-signature` changes a claim of the JWT payload after signing. Callers read the claims they
   * repeat at the top level from the returned `claims`.
   *
   * @param claims - The JWT claims, in order.
   * @param options - Signer, type, request path and announced expiry.
   * @returns The attestation and the claims as they appear in the (possibly tampered) JWT.
   */
  async attestJwt<Claims extends JsonObject>(
    claims: Claims,
    options: AttestOptions,
  ): Promise<{ attestation: Attestation<null>; claims: Claims }> {
    const key = await this.#keyFor(options);
    const attestation = await createJwtAttestation(claims, key, {
      issuer: this.#issuer,
      type: options.type,
      jwks: this.#jwksUrl,
      ...(options.expiry !== undefined ? { expiry: options.expiry } : {}),
    });
    if (this.#faults.take(["tampered-signature"], options.path) === undefined) return { attestation, claims };
    const tampered = tamperSigned(claims);
    return { attestation: { ...attestation, sig: replaceJwsPayload(attestation.sig!, tampered) }, claims: tampered };
  }

  async #keyFor(options: AttestOptions): Promise<AttestationSigningKey> {
    const rogue = this.#faults.take(["unknown-kid"], options.path) !== undefined;
    return rogue ? this.#unpublishedKey(options.purpose) : this.#keys[options.purpose];
  }

  #unpublishedKey(purpose: SignerPurpose): Promise<AttestationSigningKey> {
    let key = this.#unpublished.get(purpose);
    if (!key) {
      key = generateSigningKey(UNPUBLISHED_KIDS[purpose]);
      this.#unpublished.set(purpose, key);
    }
    return key;
  }
}

/**
 * An attestation that leads with a JWT-form compact JWS in `jws`, the raw `sig` beside it, both over the UTF-8 of
 * `JSON.stringify(signed)`; members in the order `issuer, type, kid, alg, jwks, signed, jws, sig, expiry`.
 */
async function jwsFirstAttestation<Signed extends JsonObject>(
  signed: Signed,
  key: AttestationSigningKey,
  envelope: { issuer: string; type: string; jwks: string; expiry?: string },
): Promise<Attestation<Signed>> {
  const { sig, expiry, ...head } = await createAttestation(signed, key, { ...envelope, form: "sig" });
  return { ...head, jws: await signJwt(signed, key), sig, ...(expiry !== undefined ? { expiry } : {}) };
}

/**
 * A copy of a signed block with one value changed, as an attacker would: the score (by 10 points, within
 * 0–95), else the MCP risk score (`mcp_risk_score` or `riskScore`), else the wallet's `signalDepth`, else the
 * issue time (one hour later).
 *
 * @param signed - The signed block.
 * @returns The changed copy, fields in the same order.
 */
export function tamperSigned<Signed extends Record<string, unknown>>(signed: Signed): Signed {
  const copy: Record<string, unknown> = { ...signed };
  if (typeof copy.score === "number") {
    copy.score = copy.score >= 85 ? copy.score - 10 : copy.score + 10;
  } else if (typeof copy.mcp_risk_score === "number") {
    copy.mcp_risk_score = copy.mcp_risk_score >= 50 ? copy.mcp_risk_score - 30 : copy.mcp_risk_score + 30;
  } else if (typeof copy.riskScore === "number") {
    copy.riskScore = copy.riskScore >= 50 ? copy.riskScore - 30 : copy.riskScore + 30;
  } else if (typeof copy.signalDepth === "number") {
    copy.signalDepth = copy.signalDepth >= 50 ? copy.signalDepth - 20 : copy.signalDepth + 20;
  } else {
    const issuedAt = Date.parse(String(copy.issuedAt));
    copy.issuedAt = new Date((Number.isNaN(issuedAt) ? 0 : issuedAt) + 3_600_000).toISOString();
  }
  return copy as Signed;
}

/**
 * A compact JWS with its payload replaced and its header and signature kept (so it no longer verifies).
 *
 * @param jws - The compact JWS.
 * @param payload - The new payload, serialized as JSON.
 * @returns The changed compact JWS.
 */
export function replaceJwsPayload(jws: string, payload: unknown): string {
  const [header, , signature] = jws.split(".");
  return `${header}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${signature}`;
}
