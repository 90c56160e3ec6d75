/**
 * The compact `jws` of an attestation (RFC 7515). Only ES256 is accepted: the header is read with jose and its
 * `alg` checked before any key is looked up, so `alg: none`, HS256 (including HS256 "signed" with the public
 * key as the secret) and every other algorithm are refused without being tried. The signature of a plain
 * ES256 header is then checked with `node:crypto` (`es256.ts` says why, with the figures); a header with
 * `crit` or `b64` (RFC 7797), which the service never sends, is left to jose's `compactVerify` whole, so
 * that those extensions keep jose's meaning.
 *
 * @packageDocumentation
 */
import { compactVerify, decodeProtectedHeader, type ProtectedHeaderParameters } from "jose";
import { verifyEs256 } from "./es256.js";
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
  // Every attestation under one key carries the same header text: its reading by jose is kept.
  const part = jws.slice(0, jws.indexOf("."));
  const known = headerReads.get(part);
  if (known !== undefined) return known;
  const read = readHeaderPart(jws);
  if (headerReads.size >= HEADER_CACHE_SIZE) headerReads.clear();
  headerReads.set(part, read);
  return read;
}

/** Header readings kept, by header text (the service has four keys; a few more headers are harmless). */
const HEADER_CACHE_SIZE = 64;
const headerReads = new Map<string, JwsHeaderRead>();

function readHeaderPart(jws: string): JwsHeaderRead {
  let header: ProtectedHeaderParameters;
  try {
    header = Object.freeze(decodeProtectedHeader(jws));
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

/** Length of the base64url (unpadded) of a 64-byte ES256 signature. */
const SIGNATURE_PART_LENGTH = 86;

/** The three parts of a compact JWS (its form already checked by {@link readJwsHeader}). */
export interface CompactParts {
  /** The base64url protected header. */
  readonly header: string;
  /** The base64url payload. */
  readonly payload: string;
  /** The base64url signature. */
  readonly signature: string;
  /** `header.payload`: the signing input, as text. */
  readonly signingInput: string;
}

/**
 * Splits a compact JWS into its parts.
 *
 * @param jws - A compact JWS (three parts).
 * @returns The parts.
 */
export function compactParts(jws: string): CompactParts {
  const first = jws.indexOf(".");
  const second = jws.indexOf(".", first + 1);
  return {
    header: jws.slice(0, first),
    payload: jws.slice(first + 1, second),
    signature: jws.slice(second + 1),
    signingInput: jws.slice(0, second),
  };
}

/**
 * Whether a checked ES256 header is plain: no `crit` and no `b64`, so that the payload part is base64url of
 * the payload and no extension changes what the signature means. Only a plain header is verified with
 * `node:crypto`, or accepted as the unchecked copy of a signature that verified.
 *
 * @param header - A header read by {@link readJwsHeader}.
 * @returns `true` for a plain header.
 */
export function isPlainHeader(header: ProtectedHeaderParameters): boolean {
  return header.crit === undefined && header.b64 === undefined;
}

/**
 * Verifies a compact JWS whose header is plain, with `node:crypto`, synchronously; `undefined` when jose must
 * decide (a header that is not plain, or parts whose decoding jose might refuse: a signature part that is not
 * the 86 characters of 64 bytes, a payload part of impossible length).
 *
 * @param jws - The JWS (its header already checked with {@link readJwsHeader}).
 * @param header - That header.
 * @param key - The public key of its `kid`.
 * @returns The payload bytes or the problem, or `undefined`.
 */
export function verifyPlainCompactJws(jws: string, header: ProtectedHeaderParameters, key: VerificationKey): JwsCheck | undefined {
  if (!isPlainHeader(header)) return undefined;
  const parts = compactParts(jws);
  if (parts.signature.length !== SIGNATURE_PART_LENGTH || parts.payload.length % 4 === 1) return undefined;
  if (!verifyEs256(Buffer.from(parts.signingInput, "latin1"), Buffer.from(parts.signature, "base64url"), key)) {
    return { ok: false, problem: "jws signature does not verify" };
  }
  return { ok: true, payload: Buffer.from(parts.payload, "base64url") };
}

/**
 * Verifies a compact JWS with an ES256 key: with `node:crypto` when its header is plain
 * ({@link verifyPlainCompactJws}), else with jose's `compactVerify`.
 *
 * @param jws - The `jws` field (its header already checked with {@link readJwsHeader}).
 * @param header - That header.
 * @param key - The public key of its `kid`.
 * @returns The payload bytes, or the problem.
 */
export async function verifyCompactJws(jws: string, header: ProtectedHeaderParameters, key: VerificationKey): Promise<JwsCheck> {
  const plain = verifyPlainCompactJws(jws, header, key);
  if (plain !== undefined) return plain;
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
