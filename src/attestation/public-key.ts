/**
 * ES256 verification keys: which JWKS entries may verify an attestation, and their one-time import.
 *
 * A key is imported once (as a Node `KeyObject`, which both jose and `node:crypto` accept) and reused for
 * every verification, so that a scan of thousands of attestations does not re-parse JWKs.
 *
 * @packageDocumentation
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import type { JWK } from "jose";

/** A public key ready to verify ES256 signatures. */
export interface VerificationKey {
  /** Key id, as in the JWKS. */
  readonly kid: string;
  /** The public JWK it was imported from (`kty`, `crv`, `x`, `y` and the JWKS entry's metadata). */
  readonly jwk: JWK;
  /** The imported key. */
  readonly keyObject: KeyObject;
}

/** Outcome of {@link importVerificationKey}. */
export type ImportedKey = { ok: true; key: VerificationKey } | { ok: false; problem: string };

/**
 * Why a JWKS entry cannot verify ES256 attestations, or `undefined` when it can: it must be an EC P-256 key
 * with `x` and `y`, and its `alg`, `use` and `key_ops`, when present, must allow ES256 verification.
 *
 * @param jwk - A JWKS entry.
 * @returns The problem, if any.
 */
export function es256KeyProblem(jwk: JWK): string | undefined {
  if (jwk.kty !== "EC" || jwk.crv !== "P-256") return `not an EC P-256 key (kty ${String(jwk.kty)}, crv ${String(jwk.crv)})`;
  if (typeof jwk.x !== "string" || typeof jwk.y !== "string") return "lacks the x and y coordinates";
  if (jwk.alg !== undefined && jwk.alg !== "ES256") return `is published for alg ${String(jwk.alg)}, not ES256`;
  if (jwk.use !== undefined && jwk.use !== "sig") return `is published for use "${String(jwk.use)}", not "sig"`;
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes("verify"))) {
    return "its key_ops do not include verify";
  }
  return undefined;
}

/**
 * Imports a JWKS entry as an ES256 verification key. Only the public coordinates are imported, even when
 * the entry (wrongly) carries a private part.
 *
 * @param jwk - A JWKS entry with a `kid`.
 * @returns The key, or why the entry is not usable.
 */
export function importVerificationKey(jwk: JWK): ImportedKey {
  const kid = jwk.kid;
  if (typeof kid !== "string" || kid === "") return { ok: false, problem: "has no kid" };
  const problem = es256KeyProblem(jwk);
  if (problem) return { ok: false, problem };
  try {
    const keyObject = createPublicKey({ key: { kty: "EC", crv: "P-256", x: jwk.x!, y: jwk.y! }, format: "jwk" });
    const { d: _private, ...publicJwk } = jwk;
    return { ok: true, key: { kid, jwk: publicJwk, keyObject } };
  } catch (error) {
    return { ok: false, problem: `is not a valid P-256 public key (${(error as Error).message})` };
  }
}
