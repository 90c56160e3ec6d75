/**
 * An independent check that the signatures of a vector are real (`node:crypto` against the key set, nothing of
 * the kit's verifier), so that a refusal in the set never rests on a signature that was garbage to begin with.
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import { canonicalJson } from "../../src/attestation/canonical-json";
import type { SigBytes, TrustCheckVector } from "./format";

/** What each signature of a vector verifies as, under some key of the key set. */
export interface SignatureReality {
  /** The JWS: its 64-byte signature (leniently decoded) over `header.payload` as written; `absent` when none. */
  readonly jws: boolean | "absent";
  /** The raw `sig`: which serialisation of `signed` it verifies over, `false` when none, `absent` when none. */
  readonly sig: SigBytes | false | "absent";
}

/**
 * Checks every signature of a vector against every key of a key set.
 *
 * @param vector - The vector.
 * @param jwks - The key set.
 * @returns What each signature verifies as.
 */
export function signatureReality(vector: TrustCheckVector, jwks: JSONWebKeySet): SignatureReality {
  const keys = jwks.keys.map((jwk) => createPublicKey({ key: jwk as never, format: "jwk" }));
  const attestation = vector.response.attestation as Record<string, unknown>;
  const jws = typeof attestation.jws === "string" ? jwsIsReal(attestation.jws, keys) : "absent";
  let sig: SignatureReality["sig"] = "absent";
  if (typeof attestation.sig === "string") {
    const raw = Buffer.from(attestation.sig, "base64");
    const signed = attestation.signed;
    const over = (text: string) => keys.some((key) => verifyRaw(Buffer.from(text, "utf8"), raw, key));
    sig =
      signed === null || signed === undefined
        ? false
        : over(JSON.stringify(signed))
          ? "insertion-order"
          : over(canonicalJson(signed))
            ? "sorted-keys"
            : false;
  }
  return { jws, sig };
}

function jwsIsReal(jws: string, keys: readonly KeyObject[]): boolean {
  const second = jws.lastIndexOf(".");
  if (second < 0) return false;
  const signature = Buffer.from(jws.slice(second + 1), "base64url");
  const input = Buffer.from(jws.slice(0, second), "latin1");
  return keys.some((key) => verifyRaw(input, signature, key));
}

function verifyRaw(data: Buffer, signature: Buffer, key: KeyObject): boolean {
  return signature.length === 64 && verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, signature);
}
