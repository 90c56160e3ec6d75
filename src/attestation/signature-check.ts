/**
 * The signature part of attestation verification, shared by every kind of attestation: shape, issuer,
 * algorithm, key id, key lookup, the `jws` and the `sig` (raw or compact), and that all cover the same bytes
 * as `attestation.signed`. What the signed block means (kind, fields, times) is checked by the callers.
 *
 * @packageDocumentation
 */

import { ATTESTATION_ALG, readJwsHeader, verifyCompactJws } from "./jws.js";
import { verifyLegacySignature } from "./legacy-signature.js";
import type { ResolvedVerifyOptions } from "./options.js";
import { belongsToIssuer, sameIssuer } from "./options.js";
import type {
  AttestationFailureReason,
  AttestationInvalid,
  AttestationVerificationBase,
  FieldMismatch,
  SignaturesVerified,
} from "./result.js";

/** What is known about an attestation while it is being verified: the common part of every verdict, but its message. */
export type VerificationContext = Omit<AttestationVerificationBase, "message">;

/** Outcome of {@link checkAttestationSignatures}: the verified payload, or a verdict of refusal. */
export type SignatureCheck =
  | { ok: true; context: VerificationContext & { kid: string; signed: Record<string, unknown> }; attestation: Record<string, unknown> }
  | { ok: false; result: AttestationInvalid };

/**
 * Builds a refusal verdict.
 *
 * @param reason - Stable reason code.
 * @param message - Human explanation.
 * @param context - What is known so far.
 * @param extra - Field concerned and differing values.
 * @returns The verdict.
 */
export function refuse(
  reason: AttestationFailureReason,
  message: string,
  context: VerificationContext,
  extra: { field?: string | undefined; mismatch?: FieldMismatch } = {},
): AttestationInvalid {
  const result: AttestationInvalid = { valid: false, reason, message, ...context };
  if (extra.field !== undefined) result.field = extra.field;
  if (extra.mismatch !== undefined) result.mismatch = extra.mismatch;
  return result;
}

/**
 * A context where nothing is known yet (no signature checked).
 *
 * @returns A fresh context.
 */
export function newContext(): VerificationContext {
  return {
    kid: undefined,
    issuer: undefined,
    verified: { jws: false, sig: false },
    signed: undefined,
    issuedAt: undefined,
    verifiedAt: undefined,
    expiresAt: undefined,
    warnings: [],
  };
}

/**
 * Whether a value is a plain JSON object (not an array, not null).
 *
 * @param value - Any value.
 * @returns `true` for a non-null, non-array object.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Verifies the signatures of an attestation object.
 *
 * The attestation may carry a compact `jws`, a `sig`, or both. A `sig` with two dots is itself a compact JWS
 * (the wallet-score form); any other `sig` is base64 of the raw `r‖s` over `JSON.stringify(signed)`. A
 * `signed` block of `null` is read as absent: the payload then comes from a verified JWS. Every signature
 * present must verify, and all must cover the same bytes.
 *
 * @param attestation - The `attestation` object of a response (untrusted, any shape).
 * @param options - Resolved options.
 * @returns The verified payload and context, or a refusal.
 */
export async function checkAttestationSignatures(attestation: unknown, options: ResolvedVerifyOptions): Promise<SignatureCheck> {
  const context = newContext();
  const no = (reason: AttestationFailureReason, message: string, field?: string): SignatureCheck => ({
    ok: false,
    result: refuse(reason, message, context, { field }),
  });

  if (!isRecord(attestation)) return no("malformed", "the response carries no attestation object", "attestation");
  const { jws, sig } = attestation;
  const signed = attestation.signed === null ? undefined : attestation.signed;
  if (jws !== undefined && jws !== null && typeof jws !== "string") return no("malformed", "attestation.jws is not a string", "jws");
  if (sig !== undefined && sig !== null && typeof sig !== "string") return no("malformed", "attestation.sig is not a string", "sig");
  const hasJws = typeof jws === "string";
  const hasSig = typeof sig === "string";
  const sigIsJws = hasSig && isCompactForm(sig);
  context.verified = { jws: hasJws ? false : "absent", sig: hasSig ? false : "absent" };
  if (typeof attestation.issuer === "string") context.issuer = attestation.issuer;
  if (typeof attestation.kid === "string" && attestation.kid !== "") context.kid = attestation.kid;

  if (typeof attestation.jwks === "string" && !belongsToIssuer(attestation.jwks, options.issuer)) {
    context.warnings.push(
      `the attestation names JWKS ${attestation.jwks}, which is not the configured issuer's (${options.issuer}); ignored, keys come from ${options.resolver.source}`,
    );
  }

  if (context.issuer === undefined) return no("issuer-mismatch", "the attestation names no issuer", "issuer");
  if (!sameIssuer(context.issuer, options.issuer)) {
    return no(
      "issuer-mismatch",
      `the attestation is issued by "${context.issuer}", not by the configured issuer "${options.issuer}"`,
      "issuer",
    );
  }
  if (attestation.alg !== undefined && attestation.alg !== ATTESTATION_ALG) {
    return no("unsupported-alg", `attestation.alg is ${JSON.stringify(attestation.alg)}; only ES256 is accepted`, "alg");
  }
  if (!hasJws && !hasSig) return no("missing-signature", "the attestation carries neither a jws nor a sig");
  if (options.requireJws && !hasJws && !sigIsJws) return no("missing-jws", "the attestation carries no jws, and a jws is required", "jws");
  if (options.requireLegacySig && !(hasSig && !sigIsJws)) {
    return no("missing-legacy-signature", "the attestation carries no legacy sig, and one is required", "sig");
  }

  const compactForms: { field: "jws" | "sig"; value: string }[] = [];
  if (hasJws) compactForms.push({ field: "jws", value: jws });
  if (sigIsJws) compactForms.push({ field: "sig", value: sig });
  let headerKid: string | undefined;
  for (const form of compactForms) {
    const header = readJwsHeader(form.value);
    if (!header.ok) return no(header.reason, `${form.field}: ${header.problem}`, form.field);
    const named = header.header.kid || undefined;
    if (named !== undefined && headerKid !== undefined && named !== headerKid) {
      return no("kid-mismatch", `the jws headers name two key ids ("${headerKid}" and "${named}")`, "kid");
    }
    headerKid ??= named;
  }
  if (attestation.kid !== undefined && attestation.kid !== null && typeof attestation.kid !== "string") {
    return no("malformed", "attestation.kid is not a string", "kid");
  }
  if (headerKid !== undefined && context.kid !== undefined && headerKid !== context.kid) {
    return no("kid-mismatch", `the jws header names kid "${headerKid}" but the attestation names "${context.kid}"`, "kid");
  }
  const kid = headerKid ?? context.kid;
  if (kid === undefined) return no("missing-kid", "neither the attestation nor the jws header names a key id (kid)", "kid");
  context.kid = kid;
  if (!options.acceptedKids.has(kid)) {
    return no("kid-not-accepted", `kid "${kid}" is not accepted here (accepted: ${[...options.acceptedKids].join(", ")})`, "kid");
  }

  if (signed !== undefined && !isRecord(signed)) return no("malformed", "attestation.signed is not an object", "signed");
  if (signed === undefined && compactForms.length === 0) {
    return no("malformed", "the attestation has no signed block to check its sig against", "signed");
  }
  const signedBytes = signed === undefined ? undefined : Buffer.from(JSON.stringify(signed), "utf8");

  const found = await options.resolver.getKey(kid);
  if (!found.ok) return no(found.reason, found.message, "kid");

  // Start the JWS checks first: jose verifies through WebCrypto, which runs on libuv's thread pool, so the
  // raw sig (node:crypto, on this thread) is checked meanwhile instead of after.
  const jwsChecks = compactForms.map((form) => ({ field: form.field, check: verifyCompactJws(form.value, found.key) }));
  const rawSig = hasSig && !sigIsJws ? sig : undefined;
  let rawCheck = rawSig !== undefined && signedBytes !== undefined ? verifyLegacySignature(rawSig, signedBytes, found.key) : undefined;

  let jwsPayload: Uint8Array | undefined;
  const problems: Partial<Record<"jws" | "sig", string>> = {};
  let payloadsDiffer = false;
  for (const { field, check } of jwsChecks) {
    const checked = await check;
    context.verified[field] = checked.ok;
    if (!checked.ok) {
      problems[field] = checked.problem;
      continue;
    }
    if (jwsPayload !== undefined && !Buffer.from(jwsPayload).equals(Buffer.from(checked.payload))) payloadsDiffer = true;
    jwsPayload ??= checked.payload;
  }
  let sigMalformed = false;
  if (rawSig !== undefined) {
    if (rawCheck === undefined && jwsPayload !== undefined) rawCheck = verifyLegacySignature(rawSig, jwsPayload, found.key);
    if (rawCheck === undefined) {
      problems.sig = "sig cannot be checked: no signed block and no verified jws payload";
    } else {
      context.verified.sig = rawCheck.ok;
      if (!rawCheck.ok) {
        problems.sig = rawCheck.problem;
        sigMalformed = rawCheck.malformed;
      }
    }
  }
  const status = signatureSummary(context.verified);
  if (context.verified.jws === false) return no("bad-jws-signature", `${problems.jws ?? "jws not verified"} (${status})`, "jws");
  if (context.verified.sig === false) {
    const reason = sigIsJws ? "bad-jws-signature" : sigMalformed ? "malformed" : "bad-legacy-signature";
    return no(reason, `${problems.sig ?? "sig not verified"} (${status})`, "sig");
  }
  if (payloadsDiffer) return no("payload-mismatch", "the jws and the sig are both valid JWSs, but over different payloads", "sig");

  if (jwsPayload !== undefined && signedBytes !== undefined && !signedBytes.equals(jwsPayload)) {
    return no("payload-mismatch", "the jws verifies, but its payload is not the bytes of JSON.stringify(attestation.signed)", "signed");
  }
  let payload: Record<string, unknown>;
  if (signed !== undefined) {
    payload = signed;
  } else {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(jwsPayload!).toString("utf8"));
    } catch {
      decoded = undefined;
    }
    if (!isRecord(decoded)) return no("malformed", "the jws payload is not a JSON object", compactForms[0]!.field);
    payload = decoded;
  }
  context.signed = payload;
  return { ok: true, context: { ...context, kid, signed: payload }, attestation };
}

/**
 * Whether a string has the form of a compact JWS: three base64url parts separated by two dots.
 *
 * @param value - A `sig` or `jws` field.
 * @returns `true` for the compact form.
 */
export function isCompactForm(value: string): boolean {
  return value.split(".").length === 3;
}

/**
 * Describes which signatures verified, e.g. `jws verified, sig absent`.
 *
 * @param verified - Signature statuses.
 * @returns The description.
 */
export function signatureSummary(verified: SignaturesVerified): string {
  const label = (status: boolean | "absent") => (status === "absent" ? "absent" : status ? "verified" : "NOT verified");
  return `jws ${label(verified.jws)}, sig ${label(verified.sig)}`;
}
