/**
 * Verdicts of attestation verification: the stable reason codes and the result objects.
 *
 * Verification never throws for a bad attestation: it returns a result whose `valid` is `false` and whose
 * `reason` is one of {@link ATTESTATION_FAILURE_REASONS}. Programs branch on `reason`; people read `message`.
 *
 * @packageDocumentation
 */
import { AttestationVerificationError } from "../errors.js";
import type { OnchainStorability } from "./storability.js";

/**
 * Every reason an attestation can be refused, in the order verification checks them:
 *
 * | reason | meaning |
 * |---|---|
 * | `malformed` | the response, attestation, signed block, `jws` or `sig` is not of the expected shape; for a trust-check v2 block, its signed bytes break a rule the on-chain reader enforces (`field` and `offset` say where) |
 * | `issuer-mismatch` | `attestation.issuer` is absent or is not the configured issuer |
 * | `jwks-mismatch` | `attestation.jwks` names a JWKS at another origin than the configured issuer's |
 * | `unsupported-alg` | `attestation.alg` or the JWS header `alg` is not ES256 (`none`, HS256, …) |
 * | `unsupported-header` | the JWS header carries `crit`, `jku`, `x5u`, `jwk`, `x5c` or `b64`, or a `typ` other than `JWT` or `JOSE` |
 * | `missing-kid` | neither the attestation nor the JWS header names a key id, or a JWS header names none |
 * | `kid-mismatch` | `attestation.kid` and the JWS header `kid` differ |
 * | `kid-not-accepted` | the key id is not in the accepted set (each kind of attestation has its own kids) |
 * | `type-mismatch` | the attestation is of another kind: its `type`, or its signed block, is not of the kind being verified |
 * | `missing-signature` | the attestation carries neither `jws` nor `sig` |
 * | `missing-jws` | `requireJws` is set and there is no `jws` |
 * | `missing-legacy-signature` | `requireLegacySig` is set and there is no `sig` |
 * | `key-not-found` | the JWKS has no usable ES256 key with that kid |
 * | `jwks-unavailable` | the JWKS could not be fetched (network, timeout, status, not a JWKS) |
 * | `bad-jws-signature` | the `jws` does not verify |
 * | `bad-legacy-signature` | the `sig` verifies over neither serialisation of the signed block (insertion order, sorted keys) |
 * | `payload-mismatch` | the `jws` payload differs by value from `attestation.signed` (or from another JWS of the same attestation); `field` names the first difference |
 * | `field-mismatch` | a field in both the signed block and the response body differs (`field` names it), or a signed `found: false` comes with agent fields |
 * | `subject-mismatch` | the attestation is about another agent or wallet than the one expected |
 * | `invalid-time` | a time field is neither ISO-8601 nor Unix seconds |
 * | `missing-time` | the signed block carries no issue or expiry time, so its freshness cannot be judged |
 * | `expired` | the attestation expired (beyond the clock skew) |
 * | `issued-in-future` | the attestation was issued (or verified) after now plus the clock skew |
 *
 * @example
 * ```ts
 * import { ATTESTATION_FAILURE_REASONS, createTrustApiClient, verifyTrustAttestation } from "trustgate";
 *
 * const counts = Object.fromEntries(ATTESTATION_FAILURE_REASONS.map((reason) => [reason, 0]));
 * const verdict = await verifyTrustAttestation(await createTrustApiClient().trustCheck({ id: 16907, chain: "base" }));
 * if (!verdict.valid) counts[verdict.reason] = (counts[verdict.reason] ?? 0) + 1;
 * ```
 */
export const ATTESTATION_FAILURE_REASONS = [
  "malformed",
  "issuer-mismatch",
  "jwks-mismatch",
  "unsupported-alg",
  "unsupported-header",
  "missing-kid",
  "kid-mismatch",
  "kid-not-accepted",
  "type-mismatch",
  "missing-signature",
  "missing-jws",
  "missing-legacy-signature",
  "key-not-found",
  "jwks-unavailable",
  "bad-jws-signature",
  "bad-legacy-signature",
  "payload-mismatch",
  "field-mismatch",
  "subject-mismatch",
  "invalid-time",
  "missing-time",
  "expired",
  "issued-in-future",
] as const;

/** A stable reason code of a refused attestation. */
export type AttestationFailureReason = (typeof ATTESTATION_FAILURE_REASONS)[number];

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
