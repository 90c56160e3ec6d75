/**
 * Signing of the local service's attestations with its published keys, through `attestation/sign.ts`,
 * and the signing faults (`unknown-kid`, `tampered-signature`).
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import { createAttestation, generateSigningKey, type AttestationSigningKey } from "../attestation/sign.js";
import type { SignedAttestation } from "../attestation/types.js";
import type { FaultInjector } from "./faults.js";
import { UNPUBLISHED_KIDS, type ServiceKeys } from "./keys.js";

/** Which signer an attestation uses: the trust signer (trust-check, wallet-score) or the MCP signer. */
export type SignerPurpose = "trust" | "mcp";

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
   * @param issuer - `attestation.issuer` (the JWKS URL is derived from it).
   */
  constructor(keys: ServiceKeys, faults: FaultInjector, issuer: string) {
    this.#keys = keys;
    this.#faults = faults;
    this.#issuer = issuer;
  }

  /** The issuer written into attestations. */
  get issuer(): string {
    return this.#issuer;
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
  async attest<Signed extends Record<string, unknown>>(
    signed: Signed,
    options: AttestOptions,
  ): Promise<SignedAttestation<Signed>> {
    const rogue = this.#faults.take(["unknown-kid"], options.path) !== undefined;
    const key = rogue ? await this.#unpublishedKey(options.purpose) : this.#keys[options.purpose];
    const attestation = await createAttestation(signed, key, {
      issuer: this.#issuer,
      type: options.type,
      ...(options.expiry !== undefined ? { expiry: options.expiry } : {}),
    });
    if (this.#faults.take(["tampered-signature"], options.path) === undefined) return attestation;
    const tampered = tamperSigned(signed);
    const [header, , signature] = (attestation.jws ?? "..").split(".");
    const payload = Buffer.from(JSON.stringify(tampered)).toString("base64url");
    return { ...attestation, signed: tampered, jws: `${header}.${payload}.${signature}` };
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
 * A copy of a signed block with one value changed, as an attacker would: the score (by 10 points, within
 * 0–95), else the MCP risk score, else the issue time (one hour later).
 *
 * @param signed - The signed block.
 * @returns The changed copy, fields in the same order.
 */
export function tamperSigned<Signed extends Record<string, unknown>>(signed: Signed): Signed {
  const copy: Record<string, unknown> = { ...signed };
  if (typeof copy.score === "number") {
    copy.score = copy.score >= 85 ? copy.score - 10 : copy.score + 10;
  } else if (typeof copy.riskScore === "number") {
    copy.riskScore = copy.riskScore >= 50 ? copy.riskScore - 30 : copy.riskScore + 30;
  } else {
    const issuedAt = Date.parse(String(copy.issuedAt));
    copy.issuedAt = new Date((Number.isNaN(issuedAt) ? 0 : issuedAt) + 3_600_000).toISOString();
  }
  return copy as Signed;
}
