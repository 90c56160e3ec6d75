/**
 * The compact `jws` of an attestation (RFC 7515), verified with jose. Only ES256 is accepted: the header is
 * read and its `alg` checked before any key is looked up, so `alg: none`, HS256 (including HS256 "signed"
 * with the public key as the secret) and every other algorithm are refused without being tried.
 *
 * @packageDocumentation
 */
import { compactVerify, decodeProtectedHeader, type ProtectedHeaderParameters } from "jose";
import type { VerificationKey } from "./public-key.js";

/** The only algorithm of the service's attestations. */
export const ATTESTATION_ALG = "ES256";

/** Outcome of {@link readJwsHeader}. */
export type JwsHeaderRead =
  { ok: true; header: ProtectedHeaderParameters } | { ok: false; reason: "malformed" | "unsupported-alg"; problem: string };

/** Outcome of {@link verifyCompactJws}. */
export type JwsCheck = { ok: true; payload: Uint8Array } | { ok: false; problem: string };

const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/**
 * Reads and checks the protected header of a compact JWS, without verifying anything.
 *
 * @param jws - The `jws` field.
 * @returns The header, or `malformed` / `unsupported-alg` with the problem.
 */
export function readJwsHeader(jws: string): JwsHeaderRead {
  if (!COMPACT.test(jws)) return { ok: false, reason: "malformed", problem: "jws is not a compact serialization (three base64url parts)" };
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(jws);
  } catch (error) {
    return { ok: false, reason: "malformed", problem: `jws header cannot be read (${(error as Error).message})` };
  }
  if (header.alg !== ATTESTATION_ALG) {
    return { ok: false, reason: "unsupported-alg", problem: `jws alg is ${JSON.stringify(header.alg ?? null)}; only ES256 is accepted` };
  }
  if (header.kid !== undefined && typeof header.kid !== "string") {
    return { ok: false, reason: "malformed", problem: "jws header kid is not a string" };
  }
  return { ok: true, header };
}

/**
 * Verifies a compact JWS with an ES256 key.
 *
 * @param jws - The `jws` field (its header already checked with {@link readJwsHeader}).
 * @param key - The public key of its `kid`.
 * @returns The payload bytes, or the problem.
 */
export async function verifyCompactJws(jws: string, key: VerificationKey): Promise<JwsCheck> {
  try {
    const { payload } = await compactVerify(jws, key.keyObject, { algorithms: [ATTESTATION_ALG] });
    return { ok: true, payload };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      ok: false,
      problem:
        code === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
          ? "jws signature does not verify"
          : `jws does not verify (${(error as Error).message})`,
    };
  }
}
