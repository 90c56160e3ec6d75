/**
 * Ways the local service can be made to differ from what the kit assumes of the real one, so that a test can show
 * each of `trustgate doctor`'s checks noticing its own difference: how trust-checks are signed (bytes the `sig`
 * covers, the JWS header and payload), the signed block itself, the keys the JWKS publishes, and the fields of any
 * answer. (Rate limits differ through the service's `rateLimit` option.) Absent, the service behaves as documented.
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import type { JsonObject, TrustSignedV2 } from "../../published/index.js";
import type { SigningParameters } from "../signing.js";
import type { JwksDocument } from "./signer.js";

/** The deviations of a local service (see the module notes); every member is optional. */
export interface ServiceDeviations {
  /**
   * How `/api/trust-check` attestations are signed (`SigningParameters` of `src/harness/signing.ts`: the bytes the raw
   * `sig` covers, the JWS header, the JWS payload's serialisation or exact bytes), or a function of the signed
   * block giving them (for payload bytes made from the block).
   */
  readonly trustSigning?: SigningParameters | ((signed: JsonObject) => SigningParameters);
  /** Rewrites the v2 signed block of a trust-check before it is signed (a value form the kit does not expect). */
  readonly trustSigned?: (signed: TrustSignedV2) => JsonObject;
  /** Key ids left out of the JWKS (their attestations are still signed). */
  readonly jwksOmitKids?: readonly string[];
  /** Further entries published in the JWKS (an unexpected kid, a key of another kind). */
  readonly jwksExtraKeys?: readonly JWK[];
  /** Rewrites the JSON body of a 2xx answer, by request path (`/api/trust-check`): a renamed or retyped field. */
  readonly bodies?: Readonly<Record<string, (body: Record<string, unknown>) => unknown>>;
}

/**
 * The signing options of one trust-check block.
 *
 * @param deviations - The service's deviations.
 * @param signed - The block about to be signed.
 * @returns The options, or `undefined` for the documented signing.
 */
export function trustSigningOf(deviations: ServiceDeviations, signed: JsonObject): SigningParameters | undefined {
  const option = deviations.trustSigning;
  return typeof option === "function" ? option(signed) : option;
}

/**
 * The JWKS as published: without the omitted kids, with the extra entries.
 *
 * @param jwks - The service's own key set.
 * @param deviations - The service's deviations.
 * @returns The key set to serve.
 */
export function publishedJwks(jwks: JwksDocument, deviations: ServiceDeviations): JwksDocument {
  const omitted = new Set(deviations.jwksOmitKids ?? []);
  return { keys: [...jwks.keys.filter((key) => !omitted.has(key.kid ?? "")), ...(deviations.jwksExtraKeys ?? [])] };
}

/**
 * A 2xx body as served: rewritten when a deviation names its path.
 *
 * @param deviations - The service's deviations.
 * @param path - The request path.
 * @param body - The body the handler built.
 * @returns The body to serve.
 */
export function servedBody(deviations: ServiceDeviations, path: string, body: unknown): unknown {
  const rewrite = deviations.bodies?.[path];
  if (rewrite === undefined || typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return rewrite(body as Record<string, unknown>);
}
