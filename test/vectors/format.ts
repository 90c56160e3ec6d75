/**
 * The file format of the trust-check vector set (one JSON file per vector under `trust-check/`), the coverage
 * tags the set must carry, and the reading of the set from disk. Shared by the generator and the runner.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SigBytes } from "../../src/attestation/result";

/** Directory of the vector files. */
export const VECTOR_DIR = path.join(__dirname, "trust-check");
/** The manifest of the set (ids, files, categories, coverage tags). */
export const INDEX_FILE = path.join(VECTOR_DIR, "index.json");
/** Directory of the test keys. */
export const KEY_DIR = path.join(__dirname, "keys");
/** The public key set every vector is verified against. */
export const JWKS_FILE = path.join(KEY_DIR, "jwks.json");
/** The private test keys the generator signs with (published on purpose; test-only). */
export const PRIVATE_KEYS_FILE = path.join(KEY_DIR, "test-only-private-keys.json");

/** The three groups of the set. */
export const VECTOR_CATEGORIES = ["valid-form", "refusal", "parser-differential"] as const;
/** A group of the set. */
export type VectorCategory = (typeof VECTOR_CATEGORIES)[number];

export type { SigBytes } from "../../src/attestation/result";

/** The off-chain verdict a correct verifier gives the whole response (body included). */
export type OffchainExpectation =
  { valid: true; version?: "v1" | "v2" | "wallet-not-found" } | { valid: false; reason: string; field?: string };

/** The record the oracle stores and returns for an accepted submission (codes as stored on-chain). */
export interface OnchainRecord {
  score: number;
  /** Tier code: 0 flagged, 1 limited, 2 developing, 3 established. */
  tier: number;
  /** Sybil severity code: 0 none (or `null`), 1 low, 2 moderate, 3 elevated, 4 heavy. */
  sybilSeverity: number;
  /** The signed `issuedAt`, in Unix seconds (milliseconds dropped). */
  updatedAt: number;
}

/**
 * The on-chain verdict: the record stored, or the custom error the submission reverts with. `args` holds some
 * of the error's named arguments (an `AttestationField` argument by the signed block's field name, e.g.
 * `score`); arguments left out (byte offsets, for instance) are not compared.
 */
export type OnchainExpectation = { accepted: OnchainRecord } | { error: string; args?: Record<string, string | number> };

/** The submission a correct `toAttestationCall` builds from the response (and the runner sends). */
export type VectorCall =
  | {
      /** `AttestedTrustOracle.submitJwsAttestation(kid, jws)`: the compact JWS as issued (its ASCII bytes). */
      function: "submitJwsAttestation";
      kid: string;
      jws: string;
    }
  | {
      /** `AttestedTrustOracle.submitAttestation(kid, signedJson, signature)`: the bytes the raw `sig` covers. */
      function: "submitAttestation";
      kid: string;
      signedJson: string;
      signature: string;
    };

/** One vector: a `/api/trust-check` response, the time it is verified at, and the verdicts it must get. */
export interface TrustCheckVector {
  /** Unique id; the file is `<id>.json`. */
  id: string;
  category: VectorCategory;
  /** Coverage tags ({@link REQUIRED_COVERAGE}) this vector exercises. */
  covers: string[];
  /** What the vector is and why it gets its verdicts. */
  description: string;
  /** The verification time (ISO-8601): the verifier's clock, and the block timestamp of the submission. */
  now: string;
  /** Verifier options beyond the JWKS and the clock, when the vector needs any. */
  options?: { acceptedKids?: string[] };
  /** The response body as the verifier receives it. */
  response: Record<string, unknown>;
  /** Set when a signature was deliberately made invalid after signing: what was altered. */
  forged?: string;
  /** Set when the off-chain and on-chain verdicts legitimately differ: why. */
  divergence?: string;
  /** The submission (`null` when the response has nothing to submit). */
  call: VectorCall | null;
  expected: {
    offchain: OffchainExpectation;
    /** Which bytes the raw `sig` verifies over, when the response has one that verifies. */
    sigBytes?: SigBytes;
    /** The on-chain verdict, or `null` when there is nothing to submit ({@link TrustCheckVector.call} is `null`). */
    onchain: OnchainExpectation | null;
    /** Why there is nothing to submit, when `onchain` is `null`. */
    onchainReason?: string;
  };
}

/** An entry of the manifest `trust-check/index.json`. */
export interface VectorIndexEntry {
  id: string;
  file: string;
  category: VectorCategory;
  covers: string[];
}

/**
 * Every case the set must cover, by tag, with what it means. A vector names the tags it exercises in `covers`;
 * the runner fails when a tag is carried by no vector (a vector was deleted) or a vector carries an unknown one.
 */
export const REQUIRED_COVERAGE: Readonly<Record<string, string>> = {
  "form:sig-only": "a raw sig and no jws",
  "form:jws-only": "a jws and signed: null",
  "form:both": "a raw sig, a jws and a signed block",
  "sig:insertion-order": "the raw sig covers JSON.stringify(signed)",
  "sig:sorted-keys": "the raw sig covers the RFC 8785 sorted-key form of signed",
  "jws-payload:insertion-order": "the JWS payload is JSON.stringify(signed)",
  "jws-payload:sorted-keys": "the JWS payload is the RFC 8785 sorted-key form",
  "jws-payload:whitespace": "the JWS payload has whitespace between tokens",
  "header:no-typ": "the JWS header is {alg, kid}",
  "header:typ": "the JWS header carries typ",
  "header:member-order": "the JWS header members in another order",
  "header:whitespace": "the JWS header has whitespace between tokens",
  "header:unknown-member": "the JWS header carries a member that is skipped (cty, x5t)",
  "high-s:sig": "the raw sig has s > n/2",
  "high-s:jws": "the JWS signature has s > n/2",
  "refuse:tampered-payload": "a signed byte changed after signing",
  "refuse:sig-jws-disagree": "the sig and the jws sign different values",
  "refuse:wrong-kid-for-type": "a kid of another kind of attestation (rnwy-wallet-v1)",
  "refuse:unknown-kid": "a kid with no key: never another key instead",
  "refuse:header-kid": "the JWS header kid is absent or differs from the attestation's",
  "refuse:alg-none": "alg none",
  "refuse:hs256": "an HMAC algorithm keyed with the public key",
  "refuse:crit": "a crit header",
  "refuse:jku": "a jku header",
  "refuse:x5u": "an x5u header",
  "refuse:jwk": "a jwk header",
  "refuse:header-other": "another refused header member or value (x5c, b64, typ, duplicate, escaped name)",
  "refuse:expired": "the signed expiry passed",
  "refuse:future-dated": "issued after the verification time",
  "refuse:dates-out-of-order": "issuedAt (when the score was computed) after verifiedAt (when it was signed)",
  "refuse:found-false-agent-fields": "a signed found: false beside agent fields in the body",
  "refuse:body-contradicts": "the body says other than the signed block",
  "refuse:jwks-other-origin": "attestation.jwks on another origin than the issuer's",
  "refuse:issuer": "another issuer",
  "refuse:non-canonical-base64url": "a JWS part in non-canonical base64url",
  "refuse:no-signature": "neither sig nor jws",
  "accept:clock-skew": "a time past the expiry or ahead of now within the one clock skew both verifiers tolerate",
  "refuse:beyond-clock-skew": "a time ahead of now just beyond the clock skew both verifiers tolerate",
  "parser:escaped-duplicate-name": "a \\u-escaped member name that decodes to a known field",
  "parser:invalid-json-in-badges": "invalid JSON inside the skipped badges",
  "parser:invalid-json-in-unknown-member": "invalid JSON inside an unknown (skipped) member",
  "parser:owner-control-bytes": "control bytes (or an escape) where the owner's hex digits belong",
  "parser:utf8-overlong": "an overlong UTF-8 sequence",
  "parser:utf8-surrogate": "a UTF-16 surrogate encoded in UTF-8",
  "parser:utf8-truncated": "a truncated UTF-8 sequence",
  "parser:utf8-above-max": "a code point above U+10FFFF",
  "parser:agentid-above-2^53": "a numeric agentId that JSON.parse rounds",
  "parser:escaped-tier": "a tier name written with an escape",
  "parser:duplicate-known-field": "a known field twice",
  "parser:found-not-true": "an agent's block whose found is not true (false beside agent fields, a string, 0, null, twice, escaped)",
  "parser:score-exponent": "a score in exponent (or fraction) form",
  "parser:time-form":
    "a signed time that is not an RFC 3339 date-time of an instant after 1970 (impossible date, leap second, +24:00, a space for T, empty or 10-digit fraction, +0000, 1969, a number)",
  "time:utc-offset": "a signed time with the offset +00:00 instead of Z",
  "time:service-sample": "the service's sample: issuedAt with milliseconds and +00:00 beside verifiedAt and expiry in Z",
  "time:fraction-digits": "signed times with 0, 1, 6 or 9 fraction digits",
  "time:other-offset": "signed times at a non-zero offset, east and west of UTC",
  "time:lowercase": "signed times with a lowercase t and z",
  "parser:missing-field": "a read field absent",
  "parser:structure": "bytes around or before the object (BOM, a second value), or nesting too deep",
  "divergence:body": "refused for the body, which the chain never sees",
  "divergence:envelope": "refused for the envelope (issuer, jwks, the second signature), which the chain never sees",
  "divergence:found-false": "a wallet's signed found: false, valid off-chain, nothing for the chain to store",
  "divergence:v1": "a v1 block, valid off-chain, refused by the v2 reader on-chain",
};

/**
 * Reads the manifest and every vector file of the set.
 *
 * @returns The manifest entries and the vectors, in manifest order.
 */
export function readVectorSet(): { index: VectorIndexEntry[]; vectors: TrustCheckVector[]; files: string[] } {
  const index = JSON.parse(readFileSync(INDEX_FILE, "utf8")) as VectorIndexEntry[];
  const files = readdirSync(VECTOR_DIR)
    .filter((name) => name.endsWith(".json") && name !== path.basename(INDEX_FILE))
    .sort();
  const vectors = index.map((entry) => JSON.parse(readFileSync(path.join(VECTOR_DIR, entry.file), "utf8")) as TrustCheckVector);
  return { index, vectors, files };
}

/**
 * The manifest entry of a vector.
 *
 * @param vector - A vector.
 * @returns Its entry.
 */
export function indexEntryOf(vector: TrustCheckVector): VectorIndexEntry {
  return { id: vector.id, file: `${vector.id}.json`, category: vector.category, covers: vector.covers };
}

/**
 * A vector with every signature masked: what stays the same when the set is generated again (ECDSA draws a new
 * nonce at every signature).
 *
 * @param vector - A vector.
 * @returns A copy with `sig`, the JWS signature parts and the call's signature replaced by `<signature>`.
 */
export function withoutSignatures(vector: TrustCheckVector): TrustCheckVector {
  const mask = (jws: string) => `${jws.slice(0, jws.lastIndexOf("."))}.<signature>`;
  const copy = structuredClone(vector);
  const attestation = copy.response.attestation as Record<string, unknown>;
  if (typeof attestation.sig === "string") attestation.sig = "<signature>";
  if (typeof attestation.jws === "string") attestation.jws = mask(attestation.jws);
  if (copy.call?.function === "submitJwsAttestation") copy.call.jws = mask(copy.call.jws);
  if (copy.call?.function === "submitAttestation") copy.call.signature = "<signature>";
  return copy;
}
