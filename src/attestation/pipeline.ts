/**
 * The one verification pipeline every kind of attestation goes through: the attestation's announced type,
 * its signatures (`signature-check.ts`), the kind of its signed block, a signed issuer claim, the response
 * body against the signed block (`body-fields.ts`), the subject asked about, and the validity window
 * (`validity.ts`). A kind (trust-check, wallet-score, MCP, …) only says what its signed block looks like and
 * how it names its subject.
 *
 * @packageDocumentation
 */

import { isRecord } from "../util/is-record.js";
import { compareBodyWithSigned } from "./body-fields.js";
import type { ExpectedSubject } from "./expected-subject.js";
import { type ResolvedVerifyOptions, sameIssuer } from "./options.js";
import type { AttestationFailureReason, FieldMismatch, SignedAttestationVerification } from "./result.js";
import {
  checkAttestationSignatures,
  newContext,
  type RefusalDetail,
  refuse,
  type SignatureCheck,
  signatureSummary,
  type VerificationContext,
} from "./signature-check.js";
import { checkValidity } from "./validity.js";

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
  /** Describes a valid signed block in a few words, e.g. `agent 1487 on base, score 82`. */
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

  const checked = checkAttestationSignatures(attestation, options);
  return checked instanceof Promise
    ? checked.then((result) => judgeSignedBlock(result, body, kind, options, expected))
    : judgeSignedBlock(checked, body, kind, options, expected);
}

/** Everything after the signatures: kind, issuer claim, body, subject, validity window. */
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
  const onChain = kind.checkSignedBytes?.(checked.signedBytes, version);
  if (onChain !== undefined) {
    return failed(context, version, "malformed", onChain.message, { field: onChain.field, offset: onChain.offset });
  }

  if (typeof signed.iss === "string" && !sameIssuer(signed.iss, options.issuer)) {
    return failed(context, version, "issuer-mismatch", `the signed iss is "${signed.iss}", not the configured issuer "${options.issuer}"`, {
      field: "iss",
    });
  }

  const compared = compareBodyWithSigned(signed, body);
  const mismatch = compared.ok ? (body ? kind.checkBody?.(signed, body, version) : undefined) : compared.mismatch;
  if (mismatch) {
    const said =
      mismatch.signed === undefined
        ? "the signed block does not carry it"
        : `signed ${mismatch.field} is ${JSON.stringify(mismatch.signed)}`;
    return failed(
      context,
      version,
      "field-mismatch",
      `${said}, but the response says ${mismatch.field} is ${JSON.stringify(mismatch.response)}`,
      {
        field: mismatch.field,
        mismatch,
      },
    );
  }
  if (expected !== undefined && kind.checkSubject) {
    const other = kind.checkSubject(signed, expected, version);
    if (other) {
      return failed(
        context,
        version,
        "subject-mismatch",
        `the attestation's ${other.field} is ${JSON.stringify(other.signed)}, not the expected ${JSON.stringify(String(other.response))}`,
        { field: other.field, mismatch: other },
      );
    }
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
  if (!window.ok) return failed(context, version, window.reason, window.message, { field: window.field });

  const unsigned = compared.ok ? compared.unsigned : {};
  const unsignedFields = compared.ok ? compared.unsignedFields : [];
  const expiry = context.expiresAt ? `; expires ${context.expiresAt.toISOString()}` : "";
  const notCovered = unsignedFields.length > 0 ? `; not signed: ${unsignedFields.join(", ")}` : "";
  return {
    valid: true,
    reason: undefined,
    message: `valid ${kind.name} attestation (${version}): ${kind.describe(signed, version)} (kid ${context.kid}; ${signatureSummary(
      context.verified,
    )}${expiry}${notCovered})`,
    ...context,
    signed,
    unsigned,
    unsignedFields,
    version,
  };
}

/** A refusal of the signed block, with its version. */
function failed<Version extends string>(
  context: VerificationContext,
  version: Version,
  reason: AttestationFailureReason,
  message: string,
  extra: RefusalDetail = {},
): KindVerification<Version> {
  return { ...refuse(reason, message, context, extra), version };
}
