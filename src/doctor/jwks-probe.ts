/**
 * The key set the doctor verifies against: fetched once from the JWKS URL (the issuer's, or `--jwks`) through the
 * kit's JWKS resolver (bounded body, no redirects, URL named redacted), or given from a file.
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import { createJwksResolver } from "../attestation/jwks.js";
import { importVerificationKey, type VerificationKey } from "../attestation/public-key.js";
import { messageOf } from "../errors.js";
import { redactUrl } from "../security/redact-url.js";

/** The key set, or why there is none. */
export type JwksObservation =
  | {
      readonly ok: true;
      /** The JWKS URL, redacted, or `file`. */
      readonly source: string;
      /** Its entries, as published. */
      readonly keys: readonly JWK[];
    }
  | { readonly ok: false; readonly source: string; readonly reason: string };

/** Options of {@link loadJwks}. */
export interface LoadJwksParameters {
  /** `fetch` (default the global one); the doctor counts its requests through it. */
  readonly fetch?: typeof globalThis.fetch;
  /** Time limit of the fetch, in milliseconds. */
  readonly timeoutMs?: number;
}

/**
 * Fetches (or takes) the key set. Never throws.
 *
 * @param source - The JWKS URL, or a key set read from a file.
 * @param options - `fetch` and time limit.
 * @returns The key set, or the reason it could not be had.
 */
export async function loadJwks(
  source: string | { readonly keys: readonly JWK[] },
  options: LoadJwksParameters = {},
): Promise<JwksObservation> {
  if (typeof source !== "string") return { ok: true, source: "file", keys: source.keys };
  const shown = redactUrl(source);
  try {
    const resolver = createJwksResolver({
      url: source,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    await resolver.reload();
    return { ok: true, source: shown, keys: resolver.jwks()?.keys ?? [] };
  } catch (error) {
    return { ok: false, source: shown, reason: messageOf(error) };
  }
}

/**
 * The ES256 key a kid names in a key set: its first usable entry.
 *
 * @param jwks - The key set.
 * @param kid - The key id.
 * @returns The key, or why there is none (no entry, or an entry that is not an ES256 P-256 key).
 */
export function keyOfKid(jwks: JwksObservation, kid: string): { ok: true; key: VerificationKey } | { ok: false; reason: string } {
  if (!jwks.ok) return { ok: false, reason: `no key set (${jwks.reason})` };
  const entries = jwks.keys.filter((k) => k.kid === kid);
  if (entries.length === 0) return { ok: false, reason: `the JWKS has no key "${kid}"` };
  let problem = "";
  for (const entry of entries) {
    const imported = importVerificationKey(entry);
    if (imported.ok) return imported;
    problem = imported.problem;
  }
  return { ok: false, reason: `the JWKS key "${kid}" ${problem}` };
}
