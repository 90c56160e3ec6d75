/**
 * Verdicts of attestation verification: the stable reason codes and the result objects.
 *
 * Verification never throws for a bad attestation: it returns a result whose `valid` is `false` and whose
 * `reason` is one of {@link ATTESTATION_FAILURE_REASONS}. Programs branch on `reason`; people read `message`.
 *
 * @packageDocumentation
 */
import { type AttestationFailureReason, AttestationVerificationError } from "../errors.js";
import type { OnchainStorability } from "./storability.js";

export { ATTESTATION_FAILURE_REASONS, type AttestationFailureReason } from "../errors.js";

/**
 * Whether a signature verified: `true`, `false`, `"absent"` when the attestation does not carry it, or
 * `"not-checked"` when it is present but its signature was not verified, because the JWS was (the default
 * `verify: "one"`): it is a raw `sig` of the right form whose signed block equals the verified JWS payload by
 * value, so the signed block is vouched for, but this signature itself is not — never pass it on as verified
 * (use `verify: "both"` when you forward it).
 */
export type SignatureStatus = boolean | "absent" | "not-checked";

/**
 * Which signatures the verification checked with the key (whatever the outcome): `sig`, `jws`, `both`, or
 * `none` when it stopped before any signature check (a refused issuer, algorithm, key id, a missing key, …).
 */
export type SignaturesChecked = "sig" | "jws" | "both" | "none";

/**
 * Which of the two signatures verified. A signature not checked because verification stopped earlier is
 * `false`; one left unchecked because the other one verified is `"not-checked"` (see {@link SignatureStatus}).
 */
export interface SignaturesVerified {
  /** The compact `jws`. */
  jws: SignatureStatus;
  /** The legacy `sig` (raw `r‖s`). */
  sig: SignatureStatus;
}

/**
 * Which serialisation of the signed block a raw `sig` verified over: `insertion-order` (`JSON.stringify` of the
 * block, the service's documented form) or `sorted-keys` (its RFC 8785 canonical form, which the spec's
 * reference verifier also accepts).
 */
export type SigBytes = "insertion-order" | "sorted-keys";

/** A signed field that differs between the signed block and the response (or the expected subject). */
export interface FieldMismatch {
  /** Field name, e.g. `score`. */
  field: string;
  /** Value in the signed block. */
  signed: unknown;
  /** Value in the response (or the expected value, for `subject-mismatch`). */
  response: unknown;
}

/** What every verdict carries. */
export interface AttestationVerificationBase {
  /** Human explanation: why it is valid or invalid. */
  message: string;
  /** Key id used (from the JWS header or the attestation), when known. */
  kid: string | undefined;
  /** Issuer named by the attestation, when any. */
  issuer: string | undefined;
  /** Which signatures verified. */
  verified: SignaturesVerified;
  /** Which signatures were checked with the key: `sig`, `jws`, `both` or `none` (see `verify` in the options). */
  checked: SignaturesChecked;
  /**
   * Which bytes the raw `sig` verified over (see {@link SigBytes}); `undefined` when no raw `sig` verified (it
   * is absent, was left `"not-checked"`, or failed). `toAttestationCall` takes it to submit those bytes.
   */
  sigBytes: SigBytes | undefined;
  /** The signed block, decoded — present only when the signature(s) verified. Only these values are signed. */
  signed: Record<string, unknown> | undefined;
  /**
   * Issue time of the signed block, when known: for trust-check v2 and wallet-score attestations, when the
   * score was computed (`issuedAt`); for v1, `attestedAt`.
   */
  issuedAt: Date | undefined;
  /** When the attestation was signed (`verifiedAt`), when the signed block says so. */
  verifiedAt: Date | undefined;
  /** Time after which the attestation is expired (before clock skew), when known. */
  expiresAt: Date | undefined;
  /** Things worth knowing that did not make the attestation invalid (e.g. an ignored foreign JWKS URL). */
  warnings: string[];
}

/** A verdict of an attestation that verified. */
export interface AttestationValid extends AttestationVerificationBase {
  valid: true;
  reason: undefined;
  /** The signed block: the only values the signature vouches for. */
  signed: Record<string, unknown>;
  /**
   * The response body's fields that the signature does not cover (for a trust-check: `pass`, `threshold`,
   * `isOriginalOwner`, `name`, `reason`, …), with their values as the body gave them. Never treat these as
   * verified. Empty when only an attestation object was verified.
   */
  unsigned: Record<string, unknown>;
  /** The names of {@link AttestationValid.unsigned}'s fields, in body order. */
  unsignedFields: readonly string[];
}

/** A verdict of an attestation that did not verify. */
export interface AttestationInvalid extends AttestationVerificationBase {
  valid: false;
  /** Stable reason code. */
  reason: AttestationFailureReason;
  /**
   * Field concerned, for `field-mismatch`, `subject-mismatch`, `payload-mismatch` (a path such as `badges[1]`),
   * time reasons and `malformed` cases (`json` when the signed bytes themselves are not what the chain reads).
   */
  field?: string;
  /** Byte offset in the signed bytes, for a trust-check v2 block refused as the on-chain reader refuses it. */
  offset?: number;
  /** The differing values, for `field-mismatch` and `subject-mismatch`. */
  mismatch?: FieldMismatch;
}

/** Verdict of {@link verifySignedAttestation}-style verification (generic signed attestations). */
export type SignedAttestationVerification = AttestationValid | AttestationInvalid;

/** Kind of a `/api/trust-check` signed block: v1 (`attestedAt`), v2 (`issuedAt`/`expiry`) or an unknown wallet. */
export type TrustAttestationVersion = "v1" | "v2" | "wallet-not-found";

/** Kind of a `/api/wallet-score` claim set: a scored wallet, or the signed `found: false` of an unknown one. */
export type WalletScoreVersion = "scored" | "wallet-not-found";

/** Kind of a `/api/mcp-attestation` signed block: the `canonical_id` form or the newer `server` form. */
export type McpAttestationVersion = "canonical-id" | "server";

/** Verdict of `verifyTrustAttestation`: the generic verdict plus the kind of signed block. */
export type TrustAttestationVerification = SignedAttestationVerification & {
  /** Kind of the signed block, when it could be told. */
  version: TrustAttestationVersion | undefined;
  /**
   * Which attestation of the response was verified: `attestation`, or `attestationV1` when a response of a
   * kid migration window carries only the legacy one.
   */
  source: "attestation" | "attestationV1";
  /**
   * Whether an `AttestedTrustOracle` can store the record, as far as the signed block decides (`storability.ts`):
   * `{storable: true, chainId}`, or `{storable: false, reason, message}` — `unknown-chain-slug` when the signed `chain`
   * is not a slug of the oracle's table (`solana`, `Base`: it would revert `UnknownChainSlug`), `not-v2-block` for a v1
   * block or a wallet's signed `found: false`. Present on a valid verdict only: a signed block the oracle cannot store
   * is still a valid attestation off-chain.
   */
  onchain: OnchainStorability | undefined;
};

/** Verdict of `verifyWalletScoreAttestation`. */
export type WalletScoreVerification = SignedAttestationVerification & {
  /** Kind of the claim set, when it could be told. */
  version: WalletScoreVersion | undefined;
};

/** Verdict of `verifyMcpAttestation`. */
export type McpAttestationVerification = SignedAttestationVerification & {
  /** Form of the signed block, when it could be told. */
  version: McpAttestationVersion | undefined;
};

/** What {@link assertAttestationValid} throws: the refused verdict, as an error. */
export type AssertAttestationValidErrorType = AttestationVerificationError;

/**
 * Throws unless a verdict is valid.
 *
 * @param result - A verdict.
 * @throws {@link AttestationVerificationError} carrying the verdict's `reason` and `message`.
 *
 * @example
 * ```ts
 * import { assertAttestationValid, createTrustApiClient, verifyTrustAttestation } from "trustgate";
 *
 * const verdict = await verifyTrustAttestation(await createTrustApiClient().trustCheck({ id: 16907, chain: "base" }));
 * assertAttestationValid(verdict); // throws AttestationVerificationError (its reason and message) unless valid
 * console.log(verdict.signed.score, verdict.expiresAt); // narrowed: the signed block is there
 * ```
 */
export function assertAttestationValid<R extends SignedAttestationVerification>(result: R): asserts result is R & AttestationValid {
  if (!result.valid) {
    throw new AttestationVerificationError(result.reason, result.message, {
      metaMessages: result.kid ? [`kid: ${result.kid}`] : [],
    });
  }
}
