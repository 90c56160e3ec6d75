/**
 * The one reader of an attestation object's envelope (the insumer multi-attestation spec §1 entry, as the
 * service fills it): which signatures it carries and in which form, its signed block, and the names it gives
 * itself. The verifiers (`signature-check.ts`, the response split of each `verify*Attestation`) and the on-chain call
 * builder (`onchain-call.ts`) read attestations through it, so that they agree on what a response carries. Nothing is verified here.
 *
 * The forms:
 * - `jws`: a compact JWS (the service's trust-check answers carry one beside a raw `sig` and `signed`);
 * - `sig`: either a compact JWS (exactly two dots; the spec's JWT form, with `signed: null`, as wallet-score
 *   answers), or base64 of a raw 64-byte `r‖s` over the serialisation of `signed`;
 * - `signed`: the signed block as an object, or `null` (absent is read as `null`) when the payload travels
 *   inside a JWS.
 *
 * Refused as `malformed`: an attestation that is not an object; a `jws`, `sig`, `kid` or `jwks` that is
 * present, not `null` and not a string (an `issuer` that is not a string is read as none, which the verifier
 * refuses as `issuer-mismatch`); a `signed` that is neither an object nor `null`; and, per spec
 * v1.2 §1 ("a JWS with a non-null `signed` is malformed"), a `sig` that is a compact JWS beside a non-null
 * `signed`: in that form the spec verifies the token alone, and an object beside it would be unsigned data
 * in a field a relying party reads as attested. The rule is the spec's for its `sig` field only: the
 * service's own `jws` field, which it sends beside a raw `sig` and `signed`, is compared with `signed` by
 * value instead (`signature-check.ts`).
 *
 * @packageDocumentation
 */
import { isRecord } from "../util/is-record.js";
import { isCompactJws } from "../published/attestation.js";

/** A compact JWS carried by an attestation, with the field that carries it. */
export interface EnvelopeJws {
  /** `jws`, or `sig` when the `sig` is itself a compact JWS. */
  readonly field: "jws" | "sig";
  /** The compact serialization, as given. */
  readonly value: string;
}

/** What an attestation object carries. */
export interface AttestationEnvelope {
  /** The attestation object itself. */
  readonly attestation: Record<string, unknown>;
  /** `attestation.issuer`, when a string. */
  readonly issuer: string | undefined;
  /** `attestation.kid`, when a non-empty string. */
  readonly kid: string | undefined;
  /** `attestation.alg`, as given (any value). */
  readonly alg: unknown;
  /** `attestation.jwks`, when a string. */
  readonly jwksUrl: string | undefined;
  /** The signed block, or `undefined` for `signed: null` (or absent). */
  readonly signed: Record<string, unknown> | undefined;
  /**
   * The compact JWSs, the `jws` first, then a `sig` that is one; a `sig` equal to the `jws`, character for
   * character, is listed once (under `jws`, with {@link AttestationEnvelope.sigIsJws} set).
   */
  readonly jwss: readonly EnvelopeJws[];
  /** Whether the `sig` is a compact JWS (listed in {@link AttestationEnvelope.jwss}, or equal to the `jws`). */
  readonly sigIsJws: boolean;
  /** A raw `sig` (base64 `r‖s`), when the `sig` is not a compact JWS. */
  readonly rawSig: string | undefined;
  /** Whether the `jws` field is present (a string). */
  readonly hasJwsField: boolean;
  /** Whether the `sig` field is present (a string). */
  readonly hasSigField: boolean;
}

/** Outcome of {@link readAttestationEnvelope}. */
export type EnvelopeRead =
  { readonly ok: true; readonly envelope: AttestationEnvelope } | { readonly ok: false; readonly field: string; readonly problem: string };

/** A response body, split into the attestation object it carries and the body around it. */
export interface AttestationResponse {
  /** `response.attestation`, or the value itself when it has no `attestation` member (an attestation given alone). */
  readonly attestation: unknown;
  /** The body around the attestation (whose fields must agree with the signed block), or `undefined` for an attestation given alone. */
  readonly body: Record<string, unknown> | undefined;
}

/**
 * Splits a response body into its attestation and the body around it: an object with an `attestation` member is a
 * response body (its attestation is that member, whatever it holds), anything else is the attestation itself.
 *
 * @param response - A response body, or an attestation object (untrusted, any shape).
 * @returns The attestation candidate (any shape) and the body, if any.
 */
export function splitAttestationResponse(response: unknown): AttestationResponse {
  return isRecord(response) && "attestation" in response
    ? { attestation: response.attestation, body: response }
    : { attestation: response, body: undefined };
}

/**
 * Reads an attestation object's envelope (see the module notes).
 *
 * @param value - The attestation object (untrusted, any shape).
 * @returns The envelope, or the field that makes it malformed and why.
 */
export function readAttestationEnvelope(value: unknown): EnvelopeRead {
  if (!isRecord(value)) return { ok: false, field: "attestation", problem: "the response carries no attestation object" };
  for (const field of ["jws", "sig", "kid", "jwks"] as const) {
    const member = value[field];
    if (member !== undefined && member !== null && typeof member !== "string") {
      return { ok: false, field, problem: `attestation.${field} is not a string` };
    }
  }
  const signed = value.signed ?? undefined;
  if (signed !== undefined && !isRecord(signed)) return { ok: false, field: "signed", problem: "attestation.signed is not an object" };
  const jws = typeof value.jws === "string" ? value.jws : undefined;
  const sig = typeof value.sig === "string" ? value.sig : undefined;
  const sigIsJws = sig !== undefined && isCompactJws(sig);
  if (sigIsJws && signed !== undefined) {
    return {
      ok: false,
      field: "signed",
      problem:
        "the sig is a compact JWS beside a non-null signed block, which the attestation spec (v1.2 §1) refuses: the block beside a JWS is unsigned",
    };
  }
  const jwss: EnvelopeJws[] = [];
  if (jws !== undefined) jwss.push({ field: "jws", value: jws });
  if (sigIsJws && sig !== jws) jwss.push({ field: "sig", value: sig });
  return {
    ok: true,
    envelope: {
      attestation: value,
      issuer: typeof value.issuer === "string" ? value.issuer : undefined,
      kid: typeof value.kid === "string" && value.kid !== "" ? value.kid : undefined,
      alg: value.alg,
      jwksUrl: typeof value.jwks === "string" ? value.jwks : undefined,
      signed,
      jwss,
      sigIsJws,
      rawSig: sigIsJws ? undefined : sig,
      hasJwsField: jws !== undefined,
      hasSigField: sig !== undefined,
    },
  };
}
