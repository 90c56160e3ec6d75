/**
 * The compact JWS of an attestation (RFC 7515), read and verified by the rules the on-chain oracle applies to
 * the same bytes (`submitJwsAttestation`):
 *
 * - three parts of canonical base64url without padding: a part whose length is 1 mod 4, an `=`, a byte
 *   outside `A-Z a-z 0-9 - _`, or non-zero leftover bits in the last character are refused (so that one JWS
 *   has one reading); the signature part decodes to exactly 64 bytes `r‖s` (high-S accepted);
 * - the protected header is a JSON object read with the strict reader (`strict-json.ts`: UTF-8, whitespace
 *   allowed, members in any order, no escaped member name, no member twice): `alg` must be exactly
 *   `"ES256"` — checked first, so that `none`, HS256 (including HS256 "signed" with the public key as the
 *   secret) and every other algorithm are refused before any key is looked up; `kid` is required, a string
 *   without escapes; `typ`, when present, is `"JWT"` or `"JOSE"`; `crit`, `jku`, `x5u`, `jwk`, `x5c` and `b64`
 *   are refused (an extension the verifier would have to understand, or a key named by the token itself);
 *   any other member (`cty`, `x5t`, …) is skipped;
 * - the signature covers the ASCII bytes `header.payload` exactly as issued, never a re-serialisation; it is
 *   checked with `node:crypto` (`es256.ts`).
 *
 * With `crit` and `b64` refused, the payload part is always the base64url of the payload, so no JOSE library
 * is needed to give a JWS its meaning.
 *
 * @packageDocumentation
 */
import { isCompactJws } from "../published/attestation.js";
import { ES256_SIGNATURE_BYTES, verifyEs256 } from "./es256.js";
import type { VerificationKey } from "./public-key.js";
import { lexemeIs, memberNamed, plainStringOf, readStrictObject, type TopLevelMember } from "./strict-json.js";

/** The only algorithm of the service's attestations. */
export const ATTESTATION_ALG = "ES256";

/** Header members a JWS of an attestation must not carry. */
export const REFUSED_JWS_HEADER_MEMBERS: readonly string[] = ["crit", "jku", "x5u", "jwk", "x5c", "b64"];

/** The `typ` values a JWS of an attestation may carry. */
export const ACCEPTED_JWS_TYPES: readonly string[] = ["JWT", "JOSE"];

/** The protected header of a JWS that passed the rules. */
export interface JwsHeader {
  /** Always `ES256`. */
  readonly alg: typeof ATTESTATION_ALG;
  /** The key id. */
  readonly kid: string;
  /** `JWT`, `JOSE`, or `undefined` when absent. */
  readonly typ: string | undefined;
}

/** A compact JWS split into its parts, each decoded. */
export interface CompactJws {
  /** The JWS as given. */
  readonly text: string;
  /** `header.payload`: the signing input, as text (ASCII). */
  readonly signingInput: string;
  /** The decoded protected header bytes. */
  readonly headerBytes: Uint8Array;
  /** The decoded payload bytes: the signed data. */
  readonly payload: Uint8Array;
  /** The decoded signature, 64 bytes `r‖s`. */
  readonly signature: Uint8Array;
  /** The header, checked. */
  readonly header: JwsHeader;
}

/** Why a JWS is refused before any key is used. */
export interface JwsRefusal {
  readonly ok: false;
  /** `malformed` (not a canonical compact JWS, a header that is not JSON), `unsupported-alg`, `unsupported-header`, `missing-kid`. */
  readonly reason: "malformed" | "unsupported-alg" | "unsupported-header" | "missing-kid";
  /** What is wrong. */
  readonly problem: string;
}

/** Outcome of {@link readCompactJws}. */
export type JwsRead = { readonly ok: true; readonly jws: CompactJws } | JwsRefusal;

/**
 * Decodes canonical base64url without padding; `undefined` for anything else (see the module notes).
 *
 * @param part - A part of a compact JWS.
 * @returns The bytes, or `undefined`.
 */
export function decodeCanonicalBase64url(part: string): Uint8Array | undefined {
  // Node's decoder skips what is not base64url and ignores leftover bits; encoding its output again gives the
  // text back exactly when the text was canonical (no stray character, no padding, no set leftover bit, no
  // lone last character).
  const bytes = Buffer.from(part, "base64url");
  return bytes.toString("base64url") === part ? bytes : undefined;
}

/**
 * Reads a compact JWS and checks its form and header, without verifying anything.
 *
 * @param jws - The `jws` field (or a `sig` that is a compact JWS).
 * @returns The parts and header, or why the JWS is refused.
 */
export function readCompactJws(jws: string): JwsRead {
  if (!isCompactJws(jws)) return malformed("it is not a compact serialization (three parts separated by dots)");
  const first = jws.indexOf(".");
  const second = jws.indexOf(".", first + 1);
  const headerPart = jws.slice(0, first);
  const header = readHeaderPart(headerPart);
  if (!header.ok) return header;
  const payload = decodeCanonicalBase64url(jws.slice(first + 1, second));
  if (payload === undefined) return malformed("its payload part is not canonical base64url");
  const signature = decodeCanonicalBase64url(jws.slice(second + 1));
  if (signature === undefined) return malformed("its signature part is not canonical base64url");
  if (signature.length !== ES256_SIGNATURE_BYTES) {
    return malformed(`its signature decodes to ${signature.length} bytes; an ES256 signature (r‖s) has ${ES256_SIGNATURE_BYTES}`);
  }
  return {
    ok: true,
    jws: { text: jws, signingInput: jws.slice(0, second), headerBytes: header.bytes, payload, signature, header: header.header },
  };
}

/**
 * Verifies the signature of a JWS read by {@link readCompactJws}, over its ASCII `header.payload`.
 *
 * @param jws - The JWS.
 * @param key - The public key of its `kid`.
 * @returns Whether the signature verifies. Never throws.
 */
export function verifyCompactJws(jws: CompactJws, key: VerificationKey): boolean {
  return verifyEs256(Buffer.from(jws.signingInput, "latin1"), jws.signature, key);
}

type HeaderRead = { ok: true; header: JwsHeader; bytes: Uint8Array } | JwsRefusal;

/** Header readings kept, by header part: every attestation under one key carries the same header text. */
const HEADER_CACHE_SIZE = 64;
const headerReads = new Map<string, HeaderRead>();

function readHeaderPart(part: string): HeaderRead {
  const known = headerReads.get(part);
  if (known !== undefined) return known;
  const read = checkHeader(part);
  if (headerReads.size >= HEADER_CACHE_SIZE) headerReads.clear();
  headerReads.set(part, read);
  return read;
}

function checkHeader(part: string): HeaderRead {
  const bytes = decodeCanonicalBase64url(part);
  if (bytes === undefined || bytes.length === 0) return malformed("its header part is not canonical base64url");
  const read = readStrictObject(bytes, { uniqueNames: "all", refuseEscapedNames: true });
  if (!read.ok) return malformed(`its protected header is refused at byte ${read.offset}: ${read.problem}`);
  const alg = memberNamed(read, "alg");
  if (alg === undefined) return { ok: false, reason: "unsupported-alg", problem: "its header names no alg; only ES256 is accepted" };
  if (!lexemeIs(bytes, alg, `"${ATTESTATION_ALG}"`)) {
    return { ok: false, reason: "unsupported-alg", problem: `its header alg is ${lexemeText(bytes, alg)}; only "ES256" is accepted` };
  }
  const refused = read.members.find((member) => REFUSED_JWS_HEADER_MEMBERS.includes(member.name));
  if (refused !== undefined) {
    return { ok: false, reason: "unsupported-header", problem: `its header carries "${refused.name}", which is refused` };
  }
  const typ = memberNamed(read, "typ");
  if (typ !== undefined && !ACCEPTED_JWS_TYPES.some((accepted) => lexemeIs(bytes, typ, `"${accepted}"`))) {
    return {
      ok: false,
      reason: "unsupported-header",
      problem: `its header typ is ${lexemeText(bytes, typ)}; only "JWT" or "JOSE" is accepted`,
    };
  }
  const kidMember = memberNamed(read, "kid");
  if (kidMember === undefined) return { ok: false, reason: "missing-kid", problem: "its header names no kid" };
  const kid = plainStringOf(bytes, kidMember);
  if (kid === undefined) return malformed(`its header kid ${lexemeText(bytes, kidMember)} is not a string without escapes`);
  if (kid === "") return { ok: false, reason: "missing-kid", problem: "its header kid is empty" };
  return {
    ok: true,
    bytes,
    header: Object.freeze({ alg: ATTESTATION_ALG, kid, typ: typ === undefined ? undefined : (plainStringOf(bytes, typ) as string) }),
  };
}

/** A member's raw lexeme, shortened for a message. */
function lexemeText(bytes: Uint8Array, member: TopLevelMember): string {
  const text = Buffer.from(bytes.subarray(member.valueStart, member.valueEnd)).toString("utf8");
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function malformed(problem: string): JwsRefusal {
  return { ok: false, reason: "malformed", problem };
}
