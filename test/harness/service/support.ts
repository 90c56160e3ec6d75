// Helpers shared by the local service's tests: JSON requests and independent verification of attestations
// (WebCrypto for `sig`, jose for `jws`), written without the kit's own verifier.
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";

/** A response with its parsed JSON body. */
export interface JsonResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** GETs (or sends `init`) and parses the JSON body (`undefined` for an empty one). */
export async function getJson<T = any>(url: string, init?: RequestInit): Promise<JsonResult<T>> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? (undefined as T) : (JSON.parse(text) as T) };
}

/** POSTs a JSON body. */
export function postJson<T = any>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonResult<T>> {
  return getJson<T>(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** An attestation as served. */
export interface ServedAttestation {
  issuer: string;
  type: string;
  kid: string;
  alg: string;
  jwks: string;
  signed: Record<string, unknown>;
  sig: string;
  jws: string;
  expiry?: string;
}

/** Verifies `sig` (raw r‖s, base64) over JSON.stringify(signed) with WebCrypto and the JWKS key of `kid`. */
export async function verifySig(attestation: ServedAttestation, jwks: JSONWebKeySet): Promise<boolean> {
  const jwk = jwks.keys.find((k) => k.kid === attestation.kid);
  if (!jwk) return false;
  const key = await crypto.subtle.importKey(
    "jwk",
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const signature = Buffer.from(attestation.sig, "base64");
  if (signature.length !== 64) return false;
  return crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    signature,
    new TextEncoder().encode(JSON.stringify(attestation.signed)),
  );
}

/** Verifies `jws` with jose against the JWKS; returns the payload text and the protected header. */
export async function verifyJws(
  attestation: ServedAttestation,
  jwks: JSONWebKeySet,
): Promise<{ payload: string; kid: string | undefined; alg: string | undefined }> {
  const { payload, protectedHeader } = await compactVerify(attestation.jws, createLocalJWKSet(jwks), { algorithms: ["ES256"] });
  return { payload: new TextDecoder().decode(payload), kid: protectedHeader.kid, alg: protectedHeader.alg };
}

/** The JWKS of a service. */
export async function fetchJwks(url: string): Promise<JSONWebKeySet> {
  return (await getJson<JSONWebKeySet>(`${url}/.well-known/jwks.json`)).body;
}
