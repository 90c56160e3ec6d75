/**
 * The validity window of an attestation: when it was issued and when it expires, from its signed times.
 *
 * Rules:
 * - issue time: the first of `issuedAt`, `attestedAt`, `iat` in the signed block (for the service's v2 blocks,
 *   when the score was computed; `verifiedAt` is when it was signed);
 * - expiry: the signed `expiry` (or `expiresAt`, `exp`); without one, issue time + the implied lifetime
 *   (24 h for trust-check attestations); the unsigned `attestation.expiry`, when present, can only make the
 *   window shorter, never longer — it is not covered by the signature;
 * - refused: `invalid-time` when the issue time is after the signed `verifiedAt` (the score is computed before it
 *   is signed; `AttestedTrustOracle` refuses it as `AttestationDatesOutOfOrder`); expired when now > expiry + skew;
 *   issued in the future when issue time (or v2 `verifiedAt`) > now + skew. The skew is one constant on both sides:
 *   `DEFAULT_CLOCK_SKEW_SECONDS` here, `MAX_CLOCK_SKEW` on-chain.
 *
 * @packageDocumentation
 */
import { MAX_DATE_MS, parseServiceTime } from "./time.js";

/** Signed fields read as the issue time, first present wins. */
export const ISSUE_TIME_FIELDS = ["issuedAt", "attestedAt", "iat"] as const;
/** Signed fields read as the expiry, first present wins. */
export const EXPIRY_FIELDS = ["expiry", "expiresAt", "exp"] as const;
/** Signed fields that must not lie in the future, besides the issue time. */
export const NOT_FUTURE_FIELDS = ["verifiedAt"] as const;

/** Inputs of {@link checkValidity}. */
export interface ValidityInput {
  /** The verified signed block. */
  payload: Record<string, unknown>;
  /** `attestation.expiry` (unsigned), if any. */
  unsignedExpiry: unknown;
  /** Lifetime implied by an issue time without an expiry, in ms; `undefined` for none. */
  lifetimeMs: number | undefined;
  /** Whether an attestation without any time is refused (`missing-time`). */
  requireTime: boolean;
  nowMs: number;
  skewMs: number;
}

/** Outcome of {@link checkValidity}. */
export type ValidityCheck = { issuedAt: Date | undefined; verifiedAt: Date | undefined; expiresAt: Date | undefined } & (
  | { ok: true }
  | { ok: false; reason: "invalid-time" | "missing-time" | "expired" | "issued-in-future"; field: string | undefined; message: string }
);

/**
 * Works out the validity window of a verified signed block and checks `now` against it.
 *
 * @param input - Signed block, unsigned expiry, implied lifetime, clock.
 * @returns The window, and whether `now` lies in it.
 */
export function checkValidity(input: ValidityInput): ValidityCheck {
  const { payload, nowMs, skewMs } = input;
  let issuedAt: Date | undefined;
  let verifiedAt: Date | undefined;
  let expiresAt: Date | undefined;

  const issued = readFirst(payload, ISSUE_TIME_FIELDS);
  if (issued && "problem" in issued)
    return failed({ issuedAt, verifiedAt, expiresAt }, "invalid-time", issued.field, `signed ${issued.field}: ${issued.problem}`);
  if (issued) issuedAt = new Date(issued.ms);

  const signedExpiry = readFirst(payload, EXPIRY_FIELDS);
  if (signedExpiry && "problem" in signedExpiry) {
    return failed(
      { issuedAt, verifiedAt, expiresAt },
      "invalid-time",
      signedExpiry.field,
      `signed ${signedExpiry.field}: ${signedExpiry.problem}`,
    );
  }
  let expiryMs = signedExpiry?.ms;
  let expiryField = signedExpiry?.field;
  if (expiryMs === undefined && issued && input.lifetimeMs !== undefined) {
    // Never past the last date a Date holds: an issue time near it still has an expiry that can be written.
    expiryMs = Math.min(issued.ms + input.lifetimeMs, MAX_DATE_MS);
    expiryField = `${issued.field} + ${input.lifetimeMs / 1000} s`;
  }
  if (input.unsignedExpiry !== undefined && input.unsignedExpiry !== null) {
    const unsigned = parseServiceTime(input.unsignedExpiry);
    if (!unsigned.ok)
      return failed({ issuedAt, verifiedAt, expiresAt }, "invalid-time", "attestation.expiry", `attestation.expiry: ${unsigned.problem}`);
    if (expiryMs === undefined || unsigned.ms < expiryMs) {
      expiryMs = unsigned.ms;
      expiryField = "attestation.expiry";
    }
  }
  if (expiryMs !== undefined) expiresAt = new Date(expiryMs);

  if (input.requireTime && !issued && expiryMs === undefined) {
    return failed(
      { issuedAt, verifiedAt, expiresAt },
      "missing-time",
      undefined,
      "the signed block carries no issue or expiry time, so its freshness cannot be judged",
    );
  }
  if (issued && issued.ms > nowMs + skewMs) {
    return failed(
      { issuedAt, verifiedAt, expiresAt },
      "issued-in-future",
      issued.field,
      `issued at ${iso(issued.ms)}, after now (${iso(nowMs)}) plus ${skewMs / 1000} s of skew`,
    );
  }
  for (const field of NOT_FUTURE_FIELDS) {
    if (payload[field] === undefined || payload[field] === null) continue;
    const parsed = parseServiceTime(payload[field]);
    if (!parsed.ok) return failed({ issuedAt, verifiedAt, expiresAt }, "invalid-time", field, `signed ${field}: ${parsed.problem}`);
    if (field === "verifiedAt") verifiedAt = new Date(parsed.ms);
    if (field === "verifiedAt" && issued && issued.ms > parsed.ms) {
      return failed(
        { issuedAt, verifiedAt, expiresAt },
        "invalid-time",
        issued.field,
        `signed ${issued.field} (${iso(issued.ms)}) is after verifiedAt (${iso(parsed.ms)}): a score is computed before it is signed`,
      );
    }
    if (parsed.ms > nowMs + skewMs) {
      return failed(
        { issuedAt, verifiedAt, expiresAt },
        "issued-in-future",
        field,
        `${field} is ${iso(parsed.ms)}, after now (${iso(nowMs)}) plus ${skewMs / 1000} s of skew`,
      );
    }
  }
  if (expiryMs !== undefined && nowMs > expiryMs + skewMs) {
    return failed(
      { issuedAt, verifiedAt, expiresAt },
      "expired",
      expiryField,
      `expired at ${iso(expiryMs)} (${expiryField}); now is ${iso(nowMs)}`,
    );
  }
  return { ok: true, issuedAt, verifiedAt, expiresAt };
}

type FailReason = "invalid-time" | "missing-time" | "expired" | "issued-in-future";

function failed(
  window: { issuedAt: Date | undefined; verifiedAt: Date | undefined; expiresAt: Date | undefined },
  reason: FailReason,
  field: string | undefined,
  message: string,
): ValidityCheck {
  return { ok: false, reason, field, message, ...window };
}

/** The first of `fields` present in the signed block, read as a time (or why it cannot be). */
function readFirst(
  payload: Record<string, unknown>,
  fields: readonly string[],
): { field: string; ms: number } | { field: string; problem: string } | undefined {
  for (const field of fields) {
    if (payload[field] === undefined || payload[field] === null) continue;
    const parsed = parseServiceTime(payload[field]);
    return parsed.ok ? { field, ms: parsed.ms } : { field, problem: parsed.problem };
  }
  return undefined;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
