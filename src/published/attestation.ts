/**
 * The `attestation` envelope every signed endpoint carries (insumer multi-attestation spec v1.2 §1, the
 * crosswalk's `response_envelope`).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { type JsonObject, jsonObjectSchema, serviceTimeSchema } from "./common.js";

/**
 * Whether a value has the form of a compact JWS: a string with exactly two dots (`header.payload.signature`), the
 * insumer spec §1's test, which tells a JWS from a base64 signature (base64 has no dots). The one test of the kit.
 *
 * @param value - A `sig` or `jws` field, any value.
 * @returns `true` for a string with two dots.
 */
export function isCompactJws(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const first = value.indexOf(".");
  if (first < 0) return false;
  const second = value.indexOf(".", first + 1);
  return second >= 0 && value.indexOf(".", second + 1) < 0;
}

/**
 * The `attestation` object of a signed response (insumer multi-attestation spec §1). `signed` is any JSON
 * object (its fields are checked by the verifier), or `null` when the payload travels inside a compact JWS
 * (`sig` with two dots, or `jws`); at least one of `sig` and `jws` must be present.
 */
export const attestationSchema = z
  .looseObject({
    issuer: z.string(),
    type: z.string().nullish(),
    kid: z.string(),
    alg: z.string(),
    jwks: z.string().nullish(),
    signed: jsonObjectSchema.nullable(),
    sig: z.string().optional(),
    jws: z.string().optional(),
    expiry: serviceTimeSchema.nullish(),
  })
  .refine((a) => a.sig !== undefined || a.jws !== undefined, {
    message: "attestation has neither sig nor jws",
  })
  .refine((a) => a.signed !== null || isCompactJws(a.sig) || isCompactJws(a.jws), {
    message: "attestation has signed: null but no compact JWS (sig or jws) carrying the payload",
    path: ["signed"],
  });

/**
 * The `attestation` object of a signed response. `sig` is either base64 of the raw 64-byte `r‖s` ES256
 * signature over the UTF-8 bytes of the signed block (insertion-order `JSON.stringify(signed)`, or its sorted-key
 * form: the spec's reference verifier accepts both), or itself a compact JWS (it then has two dots, and `signed`
 * may be `null`); `jws` is an RFC 7515 compact JWS. `jwks` is the JWKS URL the response claims (never fetched:
 * keys come from the configured issuer); `expiry`, an unsigned copy, can shorten the signed window, never
 * extend it.
 *
 * @typeParam Signed - The signed block, where it is known (the service's own signer, a test fixture): e.g.
 *   `Attestation<TrustSignedV2>`, or `Attestation<null>` for a payload that travels only inside a JWS.
 */
export type Attestation<Signed extends JsonObject | null = JsonObject | null> = z.infer<typeof attestationSchema> & { signed: Signed };
