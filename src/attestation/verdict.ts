/**
 * The verdicts' common part, built as verification goes: the context (what is known so far about the attestation
 * being verified: the fields every verdict carries but its message), a refusal made from it, and the description of
 * which signatures verified. Every step of verification (`signature-check.ts`, `pipeline.ts`, each
 * `verify*Attestation`) builds its verdicts here, so that a refusal carries what was known when it was made.
 *
 * @packageDocumentation
 */
import type {
  AttestationFailureReason,
  AttestationInvalid,
  AttestationVerificationBase,
  FieldMismatch,
  SignatureStatus,
  SignaturesVerified,
} from "./result.js";

/**
 * What is known about an attestation while it is being verified: every field of a verdict's common part
 * ({@link AttestationVerificationBase}) but the message, filled in as the checks go.
 */
export type VerificationContext = Omit<AttestationVerificationBase, "message">;

/** Where a refusal points: the field, the differing values, the byte offset in the signed bytes. */
export interface RefusalDetail {
  /** The field concerned (see {@link AttestationInvalid.field}). */
  field?: string | undefined;
  /** The differing values, for `field-mismatch` and `subject-mismatch`. */
  mismatch?: FieldMismatch;
  /** Byte offset in the signed bytes, for a block refused as the on-chain reader refuses it. */
  offset?: number | undefined;
}

/** Why a check refuses an attestation: the reason, the message, and where it points. */
export interface Refusal extends RefusalDetail {
  /** Stable reason code. */
  readonly reason: AttestationFailureReason;
  /** Human explanation. */
  readonly message: string;
}

/**
 * Builds a refusal verdict.
 *
 * @param reason - Stable reason code.
 * @param message - Human explanation.
 * @param context - What is known so far.
 * @param extra - Field concerned, differing values, byte offset.
 * @returns The verdict.
 */
export function refuse(
  reason: AttestationFailureReason,
  message: string,
  context: VerificationContext,
  extra: RefusalDetail = {},
): AttestationInvalid {
  const result: AttestationInvalid = { valid: false, reason, message, ...context };
  if (extra.field !== undefined) result.field = extra.field;
  if (extra.mismatch !== undefined) result.mismatch = extra.mismatch;
  if (extra.offset !== undefined) result.offset = extra.offset;
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
    sigBytes: undefined,
    signed: undefined,
    issuedAt: undefined,
    verifiedAt: undefined,
    expiresAt: undefined,
    warnings: [],
  };
}

/**
 * Describes which signatures verified, e.g. `jws verified, sig absent`.
 *
 * @param verified - Signature statuses.
 * @returns The description.
 */
export function signatureSummary(verified: SignaturesVerified): string {
  const label = (status: SignatureStatus) =>
    status === "absent" ? "absent" : status === "not-checked" ? "not checked (same signed block)" : status ? "verified" : "NOT verified";
  return `jws ${label(verified.jws)}, sig ${label(verified.sig)}`;
}
