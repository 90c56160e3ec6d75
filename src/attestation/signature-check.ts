/**
 * The signature part of attestation verification, shared by every kind of attestation: shape, issuer,
 * algorithm, key id, key lookup, the `jws` and the `sig` (raw or compact), and that all cover the same bytes
 * as `attestation.signed`. What the signed block means (kind, fields, times) is checked by the callers.
 *
 * @packageDocumentation
 */

import type { ProtectedHeaderParameters } from "jose";
import type { JwksKeyLookup } from "./jwks.js";
import { ATTESTATION_ALG, isPlainHeader, type JwsCheck, readJwsHeader, verifyCompactJws, verifyPlainCompactJws } from "./jws.js";
import { decodeLegacySignature, verifyLegacySignature } from "./legacy-signature.js";
import type { ResolvedVerifyOptions } from "./options.js";
import { belongsToIssuer, sameIssuer } from "./options.js";
import type { VerificationKey } from "./public-key.js";
import type {
  AttestationFailureReason,
  AttestationInvalid,
  FieldMismatch,
  SignaturesChecked,
  SignatureStatus,
  SignaturesVerified,
} from "./result.js";

/** What is known about an attestation while it is being verified; the common part of every verdict. */
export interface VerificationContext {
  kid: string | undefined;
  issuer: string | undefined;
  verified: SignaturesVerified;
  checked: SignaturesChecked;
  signed: Record<string, unknown> | undefined;
  issuedAt: Date | undefined;
  verifiedAt: Date | undefined;
  expiresAt: Date | undefined;
  warnings: string[];
}

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
    checked: "none",
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
 * `signed` block of `null` is read as absent: the payload then comes from a verified JWS. All must cover the
 * same bytes; with `verify: "both"` every signature present must verify, with `verify: "one"` (the default)
 * one must, and the other must carry the same signed bytes (`SignaturePolicy` in `options.ts`).
 *
 * @param attestation - The `attestation` object of a response (untrusted, any shape).
 * @param options - Resolved options.
 * @returns The verified payload and context, or a refusal.
 */
export function checkAttestationSignatures(attestation: unknown, options: ResolvedVerifyOptions): SignatureCheck | Promise<SignatureCheck> {
  const context = newContext();

  if (!isRecord(attestation)) return refused(context, "malformed", "the response carries no attestation object", "attestation");
  const { jws, sig } = attestation;
  const signed = attestation.signed === null ? undefined : attestation.signed;
  if (jws !== undefined && jws !== null && typeof jws !== "string")
    return refused(context, "malformed", "attestation.jws is not a string", "jws");
  if (sig !== undefined && sig !== null && typeof sig !== "string")
    return refused(context, "malformed", "attestation.sig is not a string", "sig");
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

  if (context.issuer === undefined) return refused(context, "issuer-mismatch", "the attestation names no issuer", "issuer");
  if (!sameIssuer(context.issuer, options.issuer)) {
    return refused(
      context,
      "issuer-mismatch",
      `the attestation is issued by "${context.issuer}", not by the configured issuer "${options.issuer}"`,
      "issuer",
    );
  }
  if (attestation.alg !== undefined && attestation.alg !== ATTESTATION_ALG) {
    return refused(context, "unsupported-alg", `attestation.alg is ${JSON.stringify(attestation.alg)}; only ES256 is accepted`, "alg");
  }
  if (!hasJws && !hasSig) return refused(context, "missing-signature", "the attestation carries neither a jws nor a sig");
  if (options.requireJws && !hasJws && !sigIsJws)
    return refused(context, "missing-jws", "the attestation carries no jws, and a jws is required", "jws");
  if (options.requireLegacySig && !(hasSig && !sigIsJws)) {
    return refused(context, "missing-legacy-signature", "the attestation carries no legacy sig, and one is required", "sig");
  }

  const compactForms: CompactForm[] = [];
  if (hasJws) compactForms.push({ field: "jws", value: jws, header: undefined! });
  if (sigIsJws) compactForms.push({ field: "sig", value: sig, header: undefined! });
  let headerKid: string | undefined;
  for (const form of compactForms) {
    const header = readJwsHeader(form.value);
    if (!header.ok) return refused(context, header.reason, `${form.field}: ${header.problem}`, form.field);
    form.header = header.header;
    const named = header.header.kid || undefined;
    if (named !== undefined && headerKid !== undefined && named !== headerKid) {
      return refused(context, "kid-mismatch", `the jws headers name two key ids ("${headerKid}" and "${named}")`, "kid");
    }
    headerKid ??= named;
  }
  if (attestation.kid !== undefined && attestation.kid !== null && typeof attestation.kid !== "string") {
    return refused(context, "malformed", "attestation.kid is not a string", "kid");
  }
  if (headerKid !== undefined && context.kid !== undefined && headerKid !== context.kid) {
    return refused(context, "kid-mismatch", `the jws header names kid "${headerKid}" but the attestation names "${context.kid}"`, "kid");
  }
  const kid = headerKid ?? context.kid;
  if (kid === undefined) return refused(context, "missing-kid", "neither the attestation nor the jws header names a key id (kid)", "kid");
  context.kid = kid;
  if (!options.acceptedKids.has(kid)) {
    return refused(
      context,
      "kid-not-accepted",
      `kid "${kid}" is not accepted here (accepted: ${[...options.acceptedKids].join(", ")})`,
      "kid",
    );
  }

  if (signed !== undefined && !isRecord(signed)) return refused(context, "malformed", "attestation.signed is not an object", "signed");
  if (signed === undefined && compactForms.length === 0) {
    return refused(context, "malformed", "the attestation has no signed block to check its sig against", "signed");
  }
  const signedBytes = signed === undefined ? undefined : Buffer.from(JSON.stringify(signed), "utf8");

  const pending: PendingCheck = {
    attestation,
    options,
    context,
    signed,
    forms: { compact: compactForms, rawSig: hasSig && !sigIsJws ? sig : undefined, signedBytes },
  };
  // Synchronous as long as nothing needs to wait (a key to fetch, a JWS for jose to judge): a verification of
  // many attestations then pays no promise per step.
  const known = options.resolver.peekKey?.(kid);
  return known !== undefined
    ? withKey(pending, known)
    : Promise.resolve(options.resolver.getKey(kid)).then((found) => withKey(pending, found));
}

/** A signature check waiting for its key. */
interface PendingCheck {
  readonly attestation: Record<string, unknown>;
  readonly options: ResolvedVerifyOptions;
  readonly context: VerificationContext;
  readonly signed: Record<string, unknown> | undefined;
  readonly forms: SignatureForms;
}

function withKey(pending: PendingCheck, found: JwksKeyLookup): SignatureCheck | Promise<SignatureCheck> {
  const { options, forms } = pending;
  if (!found.ok) return refused(pending.context, found.reason, found.message, "kid");
  const one =
    options.verify === "one" && !(options.requireJws && options.requireLegacySig)
      ? checkOne(forms, found.key, options.requireJws)
      : undefined;
  const outcome = one ?? checkAll(forms, found.key);
  return outcome instanceof Promise ? outcome.then((settled) => withOutcome(pending, settled)) : withOutcome(pending, outcome);
}

function withOutcome(pending: PendingCheck, outcome: SignatureOutcome): SignatureCheck {
  const { context } = pending;
  context.verified = outcome.verified;
  context.checked = outcome.checked;
  if (!outcome.ok) return refused(context, outcome.reason, outcome.message, outcome.field);
  return decodePayload(pending.attestation, context, pending.signed, outcome.jwsPayload, pending.forms.compact[0]?.field ?? "jws");
}

/** A refusal of the signature check. */
function refused(context: VerificationContext, reason: AttestationFailureReason, message: string, field?: string): SignatureCheck {
  return { ok: false, result: refuse(reason, message, context, { field }) };
}

/** The last step: the verified payload (the signed block, or the JWS payload when there is none). */
function decodePayload(
  attestation: Record<string, unknown>,
  context: VerificationContext,
  signed: Record<string, unknown> | undefined,
  jwsPayload: Uint8Array | undefined,
  jwsField: "jws" | "sig",
): SignatureCheck {
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
    if (!isRecord(decoded))
      return { ok: false, result: refuse("malformed", "the jws payload is not a JSON object", context, { field: jwsField }) };
    payload = decoded;
  }
  context.signed = payload;
  return { ok: true, context: context as VerificationContext & { kid: string; signed: Record<string, unknown> }, attestation };
}

/** A compact JWS of the attestation (in `jws`, or a `sig` that is itself one), with its checked header. */
interface CompactForm {
  readonly field: "jws" | "sig";
  readonly value: string;
  header: ProtectedHeaderParameters;
}

/** The signatures of an attestation, once their headers and key id are checked. */
interface SignatureForms {
  /** The compact JWSs: the `jws` first, then a `sig` that is one. */
  readonly compact: readonly CompactForm[];
  /** A raw `sig` (base64 `r‖s`), if any. */
  readonly rawSig: string | undefined;
  /** UTF-8 of `JSON.stringify(attestation.signed)`, when there is a signed block. */
  readonly signedBytes: Buffer | undefined;
}

/** What the signature checks found: the statuses, and the verified JWS payload or why the forms are refused. */
type SignatureOutcome = { verified: SignaturesVerified; checked: SignaturesChecked } & (
  { ok: true; jwsPayload: Uint8Array | undefined } | { ok: false; reason: AttestationFailureReason; message: string; field: string }
);

/**
 * The `verify: "one"` check: one signature with the key, the others compared with it. Returns `undefined`
 * whenever that is not enough to decide — the checked signature fails, another form does not carry the same
 * content, or a form is one jose must judge — and {@link checkAll} then decides, so that every refusal is
 * the one `verify: "both"` gives.
 *
 * The checked one is the raw `sig` over the signed block when there are both (what an on-chain submission
 * carries), unless `preferJws`; otherwise the first compact JWS. Another compact JWS carries the same
 * content when its header is plain (its `alg` and `kid` are already checked) and its payload part is, as
 * text, the same base64url as the checked payload; a raw `sig` next to a checked JWS when it is 64 bytes of
 * base64. Those are reported `"not-checked"` — except a second compact JWS identical to the checked one,
 * which is the same signature over the same input, and so verified.
 *
 * @param forms - The signatures.
 * @param key - The key of their `kid`.
 * @param preferJws - Check a JWS rather than the raw `sig` (`requireJws`).
 * @returns A success, or `undefined` for {@link checkAll} to decide.
 */
function checkOne(forms: SignatureForms, key: VerificationKey, preferJws: boolean): SignatureOutcome | undefined {
  const { compact, rawSig, signedBytes } = forms;

  if (rawSig !== undefined && signedBytes !== undefined && !(preferJws && compact.length > 0)) {
    if (!verifyLegacySignature(rawSig, signedBytes, key).ok) return undefined;
    // With a raw sig, the only compact form is the jws.
    let jws: SignatureStatus = "absent";
    if (compact.length > 0) {
      const expected = signedBytes.toString("base64url");
      for (const form of compact) {
        if (!isPlainHeader(form.header) || payloadPartOf(form.value) !== expected) return undefined;
        jws = "not-checked";
      }
    }
    return { ok: true, verified: { jws, sig: true }, checked: "sig", jwsPayload: undefined };
  }

  const [first, second] = compact;
  if (first === undefined) return undefined;
  const checkedJws = verifyPlainCompactJws(first.value, first.header, key);
  if (!checkedJws?.ok) return undefined;
  if (signedBytes !== undefined && !signedBytes.equals(checkedJws.payload)) return undefined;
  const unchecked: SignatureStatus = "not-checked";
  const verified: SignaturesVerified = {
    jws: compact.some((form) => form.field === "jws") ? unchecked : "absent",
    sig: compact.some((form) => form.field === "sig") || rawSig !== undefined ? unchecked : "absent",
  };
  verified[first.field] = true;
  if (second !== undefined) {
    if (second.value === first.value) verified[second.field] = true;
    else if (!isPlainHeader(second.header) || payloadPartOf(second.value) !== payloadPartOf(first.value)) return undefined;
  }
  if (rawSig !== undefined && !decodeLegacySignature(rawSig).ok) return undefined;
  const checked: SignaturesChecked = verified.jws === true && verified.sig === true ? "both" : first.field;
  return { ok: true, verified, checked, jwsPayload: checkedJws.payload };
}

/** The payload part of a compact JWS (its form already checked). */
function payloadPartOf(jws: string): string {
  const first = jws.indexOf(".");
  return jws.slice(first + 1, jws.indexOf(".", first + 1));
}

/**
 * The `verify: "both"` check: every signature present with the key, all over the same bytes. Signature
 * failures are reported before payload mismatches, the `jws` before the `sig`.
 *
 * @param forms - The signatures.
 * @param key - The key of their `kid`.
 * @returns The outcome.
 */
function checkAll(forms: SignatureForms, key: VerificationKey): SignatureOutcome | Promise<SignatureOutcome> {
  // A JWS whose header is not plain is judged by jose, asynchronously; every other check is synchronous.
  const plain = forms.compact.map((form) => verifyPlainCompactJws(form.value, form.header, key));
  if (plain.every((check) => check !== undefined)) return checkAllWith(forms, key, plain as JwsCheck[]);
  return Promise.all(forms.compact.map((form, i) => plain[i] ?? verifyCompactJws(form.value, form.header, key))).then((checks) =>
    checkAllWith(forms, key, checks),
  );
}

function checkAllWith(forms: SignatureForms, key: VerificationKey, jwsChecks: readonly JwsCheck[]): SignatureOutcome {
  const { compact, rawSig, signedBytes } = forms;
  const verified: SignaturesVerified = {
    jws: compact.some((form) => form.field === "jws") ? false : "absent",
    sig: compact.some((form) => form.field === "sig") || rawSig !== undefined ? false : "absent",
  };
  const checkedFields = new Set<"jws" | "sig">();
  const problems: Partial<Record<"jws" | "sig", string>> = {};
  let jwsPayload: Uint8Array | undefined;
  let payloadsDiffer = false;
  for (const [i, form] of compact.entries()) {
    const checked = jwsChecks[i]!;
    checkedFields.add(form.field);
    verified[form.field] = checked.ok;
    if (!checked.ok) {
      problems[form.field] = checked.problem;
      continue;
    }
    if (jwsPayload !== undefined && !Buffer.from(jwsPayload).equals(Buffer.from(checked.payload))) payloadsDiffer = true;
    jwsPayload ??= checked.payload;
  }
  let sigMalformed = false;
  if (rawSig !== undefined) {
    const over = signedBytes ?? jwsPayload;
    if (over === undefined) {
      problems.sig = "sig cannot be checked: no signed block and no verified jws payload";
    } else {
      const rawCheck = verifyLegacySignature(rawSig, over, key);
      checkedFields.add("sig");
      verified.sig = rawCheck.ok;
      if (!rawCheck.ok) {
        problems.sig = rawCheck.problem;
        sigMalformed = rawCheck.malformed;
      }
    }
  }
  const checked: SignaturesChecked = checkedFields.size === 2 ? "both" : checkedFields.size === 1 ? [...checkedFields][0]! : "none";
  const no = (reason: AttestationFailureReason, message: string, field: string): SignatureOutcome => ({
    ok: false,
    verified,
    checked,
    reason,
    message,
    field,
  });
  const status = signatureSummary(verified);
  if (verified.jws === false) return no("bad-jws-signature", `${problems.jws ?? "jws not verified"} (${status})`, "jws");
  if (verified.sig === false) {
    const sigIsJws = compact.some((form) => form.field === "sig");
    const reason = sigIsJws ? "bad-jws-signature" : sigMalformed ? "malformed" : "bad-legacy-signature";
    return no(reason, `${problems.sig ?? "sig not verified"} (${status})`, "sig");
  }
  if (payloadsDiffer) return no("payload-mismatch", "the jws and the sig are both valid JWSs, but over different payloads", "sig");
  if (jwsPayload !== undefined && signedBytes !== undefined && !signedBytes.equals(jwsPayload)) {
    return no("payload-mismatch", "the jws verifies, but its payload is not the bytes of JSON.stringify(attestation.signed)", "signed");
  }
  return { ok: true, verified, checked, jwsPayload };
}

/**
 * Whether a string has the form of a compact JWS: three base64url parts separated by two dots.
 *
 * @param value - A `sig` or `jws` field.
 * @returns `true` for the compact form.
 */
export function isCompactForm(value: string): boolean {
  const first = value.indexOf(".");
  if (first < 0) return false;
  const second = value.indexOf(".", first + 1);
  return second >= 0 && value.indexOf(".", second + 1) < 0;
}

/**
 * Describes which signatures verified, e.g. `jws verified, sig absent`.
 *
 * @param verified - Signature statuses.
 * @returns The description.
 */
export function signatureSummary(verified: SignaturesVerified): string {
  const label = (status: SignatureStatus) =>
    status === "absent" ? "absent" : status === "not-checked" ? "not checked (same signed bytes)" : status ? "verified" : "NOT verified";
  return `jws ${label(verified.jws)}, sig ${label(verified.sig)}`;
}
