/**
 * The signature part of attestation verification, shared by every kind of attestation: envelope, issuer, the
 * JWKS URL the attestation names, algorithm, key id, key lookup, then the signatures — the JWS first, over its
 * own bytes. What the signed block means (kind, fields, times) is checked by the callers (`pipeline.ts`).
 *
 * The rules, in order:
 * - the envelope is read by `envelope.ts` (one reader for the verifier and the on-chain call builder): a `sig`
 *   that is a compact JWS beside a non-null `signed` is malformed there (spec v1.2 §1);
 * - a `jwks` URL of another origin than the configured issuer's is refused (`jwks-mismatch`): keys come from
 *   the configured issuer only, and an attestation pointing elsewhere is not the issuer's as it claims;
 * - every compact JWS (`jws`, or a `sig` that is one) is read and its header checked (`jws.ts`) before any key
 *   is used; its `kid` must be the attestation's;
 * - the key of the kid comes from the configured JWKS only: an unknown kid is refused, never tried with
 *   another key;
 * - the JWS is verified over its `header.payload` as issued; its payload, decoded as UTF-8 (fatally) and
 *   parsed as one JSON object, is the signed data. When the attestation also carries a non-null `signed`, the two must be
 *   equal by parsed value — the same member names, deeply equal values, in any order and any spelling of the
 *   same values — else `payload-mismatch` names the first field that differs;
 * - a raw `sig` (base64 `r‖s`) covers the signed block serialised as `JSON.stringify` writes it (insertion
 *   order: of `signed`, or of the JWS payload, which may list the same members in another order) or, failing
 *   that, in the RFC 8785 canonical form (sorted keys); the verdict's `sigBytes` says which verified. The
 *   verdict's `signed` is the signed data: the JWS payload when there is a JWS, else `signed`.
 *
 * How many signatures are checked ({@link SignaturePolicy}): with `verify: "one"` (the default), the JWS when
 * there is one — a raw `sig` beside it is then reported `"not-checked"`, as it covers a block equal to the
 * verified payload by value (it must be 64 bytes of base64, or the attestation is malformed) — and the raw
 * `sig` otherwise; with `verify: "both"`, every signature present. Two different compact JWSs (in `jws` and
 * `sig`) are always both verified, and their payloads must be equal by value.
 *
 * The bytes of record — the verified JWS payload, or the bytes a raw `sig` verified over when there is no
 * JWS — are what `toAttestationCall` submits on-chain; they are handed to the kind (`signedBytes`), which may
 * read them as the chain will (a trust-check v2 block: `trust-signed-block.ts`).
 *
 * @packageDocumentation
 */
import { messageOf } from "../errors.js";
import { isRecord } from "../util/is-record.js";
import { firstJsonDifference } from "../util/json-difference.js";
import { type AttestationEnvelope, type EnvelopeJws, readAttestationEnvelope } from "./envelope.js";
import type { JwksKeyLookup } from "./jwks.js";
import { ATTESTATION_ALG, type CompactJws, readCompactJws, verifyCompactJws } from "./jws.js";
import { decodeLegacySignature, findRawSigBytes } from "./legacy-signature.js";
import type { ResolvedVerifyOptions, SignaturePolicy } from "./options.js";
import { belongsToIssuer, sameIssuer } from "./options.js";
import type { AttestationFailureReason, AttestationInvalid, FieldMismatch } from "./result.js";
import { readStrictObject } from "./strict-json.js";
import { newContext, refuse, signatureSummary, type VerificationContext } from "./verdict.js";

/** Outcome of {@link checkAttestationSignatures}: the verified payload, or a verdict of refusal. */
export type SignatureCheck =
  | {
      ok: true;
      context: VerificationContext & { kid: string; signed: Record<string, unknown> };
      attestation: Record<string, unknown>;
      /** The bytes of record: the verified JWS payload, else the bytes the raw `sig` verified over. */
      signedBytes: Uint8Array;
    }
  | { ok: false; result: AttestationInvalid };

/**
 * Verifies the signatures of an attestation object (see the module notes for the rules).
 *
 * @param attestation - The `attestation` object of a response (untrusted, any shape).
 * @param options - Resolved options.
 * @returns The verified payload and context, or a refusal — synchronously when the key is at hand, else a
 *   promise of it. Never throws.
 */
export function checkAttestationSignatures(attestation: unknown, options: ResolvedVerifyOptions): SignatureCheck | Promise<SignatureCheck> {
  const context = newContext();
  const read = readAttestationEnvelope(attestation);
  if (!read.ok) return refused(context, "malformed", read.problem, read.field);
  const { envelope } = read;
  context.verified = { jws: envelope.hasJwsField ? false : "absent", sig: envelope.hasSigField ? false : "absent" };
  context.issuer = envelope.issuer;
  context.kid = envelope.kid;

  if (context.issuer === undefined) return refused(context, "issuer-mismatch", "the attestation names no issuer", "issuer");
  if (!sameIssuer(context.issuer, options.issuer)) {
    return refused(
      context,
      "issuer-mismatch",
      `the attestation is issued by "${context.issuer}", not by the configured issuer "${options.issuer}"`,
      "issuer",
    );
  }
  if (envelope.jwksUrl !== undefined && !belongsToIssuer(envelope.jwksUrl, options.issuer)) {
    return refused(
      context,
      "jwks-mismatch",
      `the attestation names the JWKS ${envelope.jwksUrl}, which is not at the configured issuer's origin (${options.issuer}); keys come from ${options.resolver.source} only`,
      "jwks",
    );
  }
  if (envelope.alg !== undefined && envelope.alg !== ATTESTATION_ALG) {
    return refused(context, "unsupported-alg", `attestation.alg is ${JSON.stringify(envelope.alg)}; only ES256 is accepted`, "alg");
  }
  if (!envelope.hasJwsField && !envelope.hasSigField)
    return refused(context, "missing-signature", "the attestation carries neither a jws nor a sig");
  if (options.requireJws && envelope.jwss.length === 0) {
    return refused(context, "missing-jws", "the attestation carries no jws, and a jws is required", "jws");
  }
  if (options.requireLegacySig && envelope.rawSig === undefined) {
    return refused(context, "missing-legacy-signature", "the attestation carries no legacy sig, and one is required", "sig");
  }

  const jwss: ReadJws[] = [];
  for (const form of envelope.jwss) {
    const jws = readCompactJws(form.value);
    if (!jws.ok) return refused(context, jws.reason, `${form.field}: ${jws.problem}`, form.field);
    const other = jwss[0];
    if (other !== undefined && other.jws.header.kid !== jws.jws.header.kid) {
      return refused(
        context,
        "kid-mismatch",
        `the jws headers name two key ids ("${other.jws.header.kid}" and "${jws.jws.header.kid}")`,
        "kid",
      );
    }
    jwss.push({ field: form.field, jws: jws.jws });
  }
  const headerKid = jwss[0]?.jws.header.kid;
  if (headerKid !== undefined && context.kid !== undefined && headerKid !== context.kid) {
    return refused(context, "kid-mismatch", `the jws header names kid "${headerKid}" but the attestation names "${context.kid}"`, "kid");
  }
  const kid = headerKid ?? context.kid;
  if (kid === undefined) return refused(context, "missing-kid", "the attestation names no key id (kid)", "kid");
  context.kid = kid;
  if (!options.acceptedKids.has(kid)) {
    return refused(
      context,
      "kid-not-accepted",
      `kid "${kid}" is not accepted here (accepted: ${[...options.acceptedKids].join(", ")})`,
      "kid",
    );
  }
  if (envelope.signed === undefined && jwss.length === 0) {
    return refused(context, "malformed", "the attestation has no signed block to check its sig against", "signed");
  }

  const pending: PendingCheck = { envelope, policy: options.verify, context, jwss };
  // Synchronous as long as no key has to be fetched: a verification of many attestations then pays no promise.
  const known = options.resolver.peekKey?.(kid);
  if (known !== undefined) return withKey(pending, known);
  // A resolver that throws rather than answering (a caller's own) leaves the key unknown: the JWKS is unavailable.
  return Promise.resolve()
    .then(() => options.resolver.getKey(kid))
    .then(
      (found) => withKey(pending, found),
      (error: unknown) =>
        refused(context, "jwks-unavailable", `the key of kid "${kid}" could not be looked up (${messageOf(error)})`, "kid"),
    );
}

/** A compact JWS of the attestation, read and its header checked. */
interface ReadJws {
  readonly field: EnvelopeJws["field"];
  readonly jws: CompactJws;
}

/** A signature check waiting for its key. */
interface PendingCheck {
  readonly envelope: AttestationEnvelope;
  readonly policy: SignaturePolicy;
  readonly context: VerificationContext;
  readonly jwss: readonly ReadJws[];
}

/**
 * The refusal of a JWS payload that is not one JSON object. The strict reader names where the text stops being JSON
 * (field `json` and the byte offset, as the on-chain reader's `AttestationJsonMalformed` does); a payload it can walk
 * (valid JSON, but not an object the verifier reads) is refused on the JWS field.
 */
function notJson(context: VerificationContext, field: "jws" | "sig", payload: Uint8Array, problem: string): SignatureCheck {
  const read = readStrictObject(payload);
  if (read.ok || read.field !== "json")
    return refused(context, "malformed", `${field}: the payload is not a JSON object (${problem})`, field);
  const message = `${field}: the payload is not JSON: ${read.problem} at byte ${read.offset}`;
  return { ok: false, result: refuse("malformed", message, context, { field: "json", offset: read.offset }) };
}

/** A refusal of the signature check. */
function refused(context: VerificationContext, reason: AttestationFailureReason, message: string, field?: string): SignatureCheck {
  return { ok: false, result: refuse(reason, message, context, { field }) };
}

function withKey(pending: PendingCheck, found: JwksKeyLookup): SignatureCheck {
  const { context, envelope, jwss } = pending;
  if (!found.ok) return refused(context, found.reason, found.message, "kid");
  const key = found.key;

  // The JWS first, over its own bytes.
  let payload: { value: Record<string, unknown>; bytes: Uint8Array } | undefined;
  for (const { field, jws } of jwss) {
    const ok = verifyCompactJws(jws, key);
    setVerified(context, field, ok);
    if (!ok)
      return refused(
        context,
        "bad-jws-signature",
        `${field}: the signature does not verify (${signatureSummary(context.verified)})`,
        field,
      );
    const decoded = parsePayload(jws.payload, envelope.signed);
    if (!decoded.ok) return notJson(context, field, jws.payload, decoded.problem);
    if (payload !== undefined) {
      const differs = firstJsonDifference(payload.value, decoded.value);
      if (differs !== undefined) {
        return refused(
          context,
          "payload-mismatch",
          `the jws and the sig are both valid JWSs, but their payloads differ at ${differs.path}`,
          "sig",
        );
      }
    } else {
      payload = { value: decoded.value, bytes: jws.payload };
    }
  }
  // A sig identical to the jws is the same signature over the same input: verified with it.
  if (envelope.sigIsJws && jwss.every((read) => read.field !== "sig")) setVerified(context, "sig", true);

  const signed = envelope.signed;
  if (signed !== undefined && payload !== undefined) {
    const differs = firstJsonDifference(payload.value, signed);
    if (differs !== undefined) {
      const mismatch: FieldMismatch = { field: differs.path, signed: differs.left, response: differs.right };
      const said = differs.right === undefined ? "attestation.signed lacks it" : `attestation.signed says ${JSON.stringify(differs.right)}`;
      const signedSays = differs.left === undefined ? "the JWS payload lacks it" : `the JWS payload says ${JSON.stringify(differs.left)}`;
      return {
        ok: false,
        result: refuse(
          "payload-mismatch",
          `the jws verifies, but attestation.signed is not its payload: at ${differs.path}, ${signedSays} and ${said}`,
          context,
          { field: differs.path, mismatch },
        ),
      };
    }
  }

  // The signed data: the JWS payload when there is one (equal by value to `signed`), else the signed block.
  const block = payload?.value ?? signed!;
  let sigOver: Uint8Array | undefined;
  if (envelope.rawSig !== undefined) {
    if (payload !== undefined && pending.policy === "one") {
      const decoded = decodeLegacySignature(envelope.rawSig);
      if (!decoded.ok) return refused(context, "malformed", `sig: ${decoded.problem} (${signatureSummary(context.verified)})`, "sig");
      context.verified.sig = "not-checked";
    } else {
      const checked = findRawSigBytes(envelope.rawSig, signed, payload?.value, key);
      if (checked.ok || !checked.malformed) setVerified(context, "sig", checked.ok);
      if (!checked.ok) {
        return refused(
          context,
          checked.malformed ? "malformed" : "bad-legacy-signature",
          `sig: ${checked.problem} (${signatureSummary(context.verified)})`,
          "sig",
        );
      }
      context.sigBytes = checked.sigBytes;
      sigOver = checked.bytes;
    }
  }
  context.signed = block;
  return {
    ok: true,
    context: context as VerificationContext & { kid: string; signed: Record<string, unknown> },
    attestation: envelope.attestation,
    signedBytes: payload?.bytes ?? sigOver!,
  };
}

/** Records that a signature was checked with the key, and its outcome. */
function setVerified(context: VerificationContext, field: "jws" | "sig", ok: boolean): void {
  context.verified[field] = ok;
  const other = field === "jws" ? "sig" : "jws";
  context.checked = context.checked === other || context.checked === "both" ? "both" : field;
}

/**
 * A JWS payload decoded as UTF-8 (fatally: bytes that are not UTF-8 are refused, never replaced) and parsed: it
 * must be one JSON object. (A kind whose bytes an on-chain reader reads checks them further: `checkSignedBytes`.)
 * When the payload is, byte for byte, `JSON.stringify` of the signed block beside it (what the service writes),
 * its value is that block: parsing it again could only give an equal value.
 */
function parsePayload(
  bytes: Uint8Array,
  signed: Record<string, unknown> | undefined,
): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, problem: "its bytes are not UTF-8" };
  }
  if (signed !== undefined && JSON.stringify(signed) === text) return { ok: true, value: signed };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: "it is not JSON" };
  }
  return isRecord(value) ? { ok: true, value } : { ok: false, problem: "not an object" };
}

/** Fatal, and keeping a leading U+FEFF as a character, so that a payload that starts with one is not JSON. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
