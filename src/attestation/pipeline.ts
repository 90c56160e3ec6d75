/**
 * The one verification pipeline every kind of attestation goes through: the attestation's announced type,
 * its signatures (`signature-check.ts`), the kind of its signed block, a signed issuer claim, the response
 * body against the signed block (`body-fields.ts`), the subject asked about, and the validity window
 * (`validity.ts`). A kind (trust-check, wallet-score, MCP, …) only says what its signed block looks like and
 * how it names its subject.
 *
 * @packageDocumentation
 */

import { messageOf } from "../errors.js";
import { isRecord } from "../util/is-record.js";
import { compareBodyWithSigned } from "./body-fields.js";
import type { ExpectedSubject } from "./expected-subject.js";
import { type ResolvedVerifyOptions, sameIssuer } from "./options.js";
import type { AttestationFailureReason, FieldMismatch, SignedAttestationVerification } from "./result.js";
import { checkAttestationSignatures, type SignatureCheck } from "./signature-check.js";
import { checkValidity } from "./validity.js";
import { newContext, type Refusal, refuse, signatureSummary } from "./verdict.js";

/** What a kind's classifier says of a verified signed block. */
export type Classification<Version extends string> =
  | { ok: true; version: Version }
  | { ok: false; reason: Extract<AttestationFailureReason, "type-mismatch" | "malformed">; field?: string; message: string };

/** A kind of attestation: what its signed block looks like and how it names its subject. */
export interface AttestationKind<Version extends string> {
  /** Name used in messages, e.g. `trust-check`. */
  readonly name: string;
  /** The `attestation.type` the service gives this kind, when published. */
  readonly type: string | undefined;
  /** Whether a signed block without any time is refused (`missing-time`). */
  readonly requireTime: boolean;
  /**
   * Tells the version of a verified signed block, or refuses it as another kind's (`type-mismatch`) or as
   * lacking a field (`malformed`).
   */
  classify(signed: Record<string, unknown>, kid: string): Classification<Version>;
  /**
   * Reads the exact signed bytes (the verified JWS payload, else the bytes the raw `sig` verified over) as an
   * on-chain reader of this kind would, and says where it would refuse them; `undefined` when it would not
   * (or when no on-chain reader reads this version).
   */
  checkSignedBytes?(bytes: Uint8Array, version: Version): SignedBytesRefusal | undefined;
  /** Checks beyond the common-field rule, e.g. a signed `found: false` that comes with agent fields. */
  checkBody?(signed: Record<string, unknown>, body: Record<string, unknown>, version: Version): FieldMismatch | undefined;
  /** Compares the signed subject with the one asked about; returns the first difference. */
  checkSubject?(signed: Record<string, unknown>, expected: ExpectedSubject, version: Version): FieldMismatch | undefined;
  /** Describes a valid signed block in a few words, e.g. `base:1487:erc8004, score 82`. */
  describe(signed: Record<string, unknown>, version: Version): string;
}

/** Where an on-chain reader would refuse a kind's signed bytes (see {@link AttestationKind.checkSignedBytes}). */
export interface SignedBytesRefusal {
  /** The field (`json` for the text itself). */
  readonly field: string;
  /** Byte offset in the signed bytes. */
  readonly offset: number;
  /** What is wrong. */
  readonly message: string;
}

/** Types of the service's attestations, with the kind each belongs to. */
export const KNOWN_ATTESTATION_TYPES: ReadonlyMap<string, string> = new Map([
  ["behavioral_trust", "trust-check"],
  ["wallet_intelligence", "wallet-score"],
]);

/** A verdict of the pipeline: the generic verdict plus the kind's version of the signed block. */
export type KindVerification<Version extends string> = SignedAttestationVerification & { version: Version | undefined };

/**
 * Verifies one attestation as an attestation of `kind`.
 *
 * @param attestation - The attestation object (untrusted, any shape).
 * @param body - The response body that carries it, to compare with the signed block; `undefined` when only
 *   the attestation was given.
 * @param kind - The kind expected.
 * @param options - Resolved options.
 * @param expected - The subject the caller asked about, if any.
 * @returns The verdict — synchronously when no key has to be fetched (and no JWS left to jose), else a
 *   promise of it. Never throws.
 */
export function verifyAttestationOfKind<Version extends string>(
  attestation: unknown,
  body: Record<string, unknown> | undefined,
  kind: AttestationKind<Version>,
  options: ResolvedVerifyOptions,
  expected: ExpectedSubject | undefined,
): KindVerification<Version> | Promise<KindVerification<Version>> {
  if (isRecord(attestation) && typeof attestation.type === "string") {
    const owner = KNOWN_ATTESTATION_TYPES.get(attestation.type);
    if (owner !== undefined && owner !== kind.name) {
      const context = newContext();
      if (typeof attestation.kid === "string") context.kid = attestation.kid;
      return {
        ...refuse(
          "type-mismatch",
          `the attestation is of type "${attestation.type}" (a ${owner} attestation), not a ${kind.name} one`,
          context,
          {
            field: "type",
          },
        ),
        version: undefined,
      };
    }
  }

  // Every bad input has its verdict on the way; what is left to throw is a value no reader can walk (a signed
  // block nested so deep that serialising it exhausts the stack): it is refused too, never thrown.
  try {
    const checked = checkAttestationSignatures(attestation, options);
    return checked instanceof Promise
      ? checked
          .then((result) => judgeSignedBlock(result, body, kind, options, expected))
          .catch((error: unknown) => unreadable<Version>(error))
      : judgeSignedBlock(checked, body, kind, options, expected);
  } catch (error) {
    return unreadable<Version>(error);
  }
}

/** The verdict of an attestation whose reading threw. */
function unreadable<Version extends string>(error: unknown): KindVerification<Version> {
  return {
    ...refuse("malformed", `the attestation could not be read (${messageOf(error)})`, newContext(), { field: "attestation" }),
    version: undefined,
  };
}

/** Everything after the signatures: kind, then the checks of {@link judgeClassifiedBlock}; the one verdict. */
function judgeSignedBlock<Version extends string>(
  checked: SignatureCheck,
  body: Record<string, unknown> | undefined,
  kind: AttestationKind<Version>,
  options: ResolvedVerifyOptions,
  expected: ExpectedSubject | undefined,
): KindVerification<Version> {
  if (!checked.ok) return { ...checked.result, version: undefined };
  const { context } = checked;
  const signed = context.signed;

  const classified = kind.classify(signed, context.kid);
  if (!classified.ok) return { ...refuse(classified.reason, classified.message, context, { field: classified.field }), version: undefined };
  const { version } = classified;
  const judged = judgeClassifiedBlock(checked, body, kind, version, options, expected);
  if (!judged.ok) return { ...refuse(judged.refusal.reason, judged.refusal.message, context, judged.refusal), version };

  const expiry = context.expiresAt ? `; expires ${context.expiresAt.toISOString()}` : "";
  const notCovered = judged.unsignedFields.length > 0 ? `; not signed: ${judged.unsignedFields.join(", ")}` : "";
  return {
    valid: true,
    reason: undefined,
    message: `valid ${kind.name} attestation (${version}): ${kind.describe(signed, version)} (kid ${context.kid}; ${signatureSummary(
      context.verified,
    )}${expiry}${notCovered})`,
    ...context,
    signed,
    unsigned: judged.unsigned,
    unsignedFields: judged.unsignedFields,
    version,
  };
}

/** What the checks of a classified signed block conclude: its response's unsigned fields, or the first refusal. */
type BlockJudgement =
  | { readonly ok: true; readonly unsigned: Record<string, unknown>; readonly unsignedFields: readonly string[] }
  | { readonly ok: false; readonly refusal: Refusal };

/**
 * The checks of a signed block whose version is known, in order: its bytes as an on-chain reader reads them, a
 * signed issuer claim, the response body against the signed block, the subject asked about, and the validity
 * window (whose times it records in the context).
 */
function judgeClassifiedBlock<Version extends string>(
  checked: Extract<SignatureCheck, { ok: true }>,
  body: Record<string, unknown> | undefined,
  kind: AttestationKind<Version>,
  version: Version,
  options: ResolvedVerifyOptions,
  expected: ExpectedSubject | undefined,
): BlockJudgement {
  const { context } = checked;
  const signed = context.signed;
  const onChain = kind.checkSignedBytes?.(checked.signedBytes, version);
  if (onChain !== undefined) {
    return { ok: false, refusal: { reason: "malformed", message: onChain.message, field: onChain.field, offset: onChain.offset } };
  }

  if (typeof signed.iss === "string" && !sameIssuer(signed.iss, options.issuer)) {
    const message = `the signed iss is "${signed.iss}", not the configured issuer "${options.issuer}"`;
    return { ok: false, refusal: { reason: "issuer-mismatch", message, field: "iss" } };
  }

  const compared = compareBodyWithSigned(signed, body);
  const mismatch = compared.ok ? (body ? kind.checkBody?.(signed, body, version) : undefined) : compared.mismatch;
  if (mismatch) {
    const said =
      mismatch.signed === undefined
        ? "the signed block does not carry it"
        : `signed ${mismatch.field} is ${JSON.stringify(mismatch.signed)}`;
    const message = `${said}, but the response says ${mismatch.field} is ${JSON.stringify(mismatch.response)}`;
    return { ok: false, refusal: { reason: "field-mismatch", message, field: mismatch.field, mismatch } };
  }
  const other = expected !== undefined ? kind.checkSubject?.(signed, expected, version) : undefined;
  if (other) {
    const message = `the attestation's ${other.field} is ${JSON.stringify(other.signed)}, not the expected ${JSON.stringify(String(other.response))}`;
    return { ok: false, refusal: { reason: "subject-mismatch", message, field: other.field, mismatch: other } };
  }

  const window = checkValidity({
    payload: signed,
    unsignedExpiry: checked.attestation.expiry,
    lifetimeMs: options.lifetimeMs,
    requireTime: kind.requireTime,
    nowMs: options.nowMs,
    skewMs: options.skewMs,
  });
  context.issuedAt = window.issuedAt;
  context.verifiedAt = window.verifiedAt;
  context.expiresAt = window.expiresAt;
  if (!window.ok) return { ok: false, refusal: { reason: window.reason, message: window.message, field: window.field } };

  return compared.ok
    ? { ok: true, unsigned: compared.unsigned, unsignedFields: compared.unsignedFields }
    : { ok: true, unsigned: {}, unsignedFields: [] };
}
