/**
 * The validity window of an attestation: when it was issued and when it expires, from its signed times.
 *
 * Rules:
 * - issue time: the first of `issuedAt`, `attestedAt`, `iat` in the signed block (for the service's v2 blocks,
 *   when the score was computed; `verifiedAt` is when it was signed);
 * - expiry: the signed `expiry` (or `expiresAt`, `exp`); without one, issue time + the implied lifetime
 *   (24 h for trust-check attestations); the unsigned `attestation.expiry`, when present, can only make the
 *   window shorter, never longer — it is not covered by the signature;
 * - signed times are read by the signed-time reader (`time.ts`, `readSignedTime`: an RFC 3339 date-time, or Unix
 *   seconds), the unsigned expiry generously (`parseServiceTime`);
 * - every comparison is in whole Unix seconds, on both sides, as the on-chain oracle compares: each time, the
 *   verifier's `now` included, is floored to its second (so `…:46.554Z` is not after `…:46.105Z`, and a `verifiedAt`
 *   60.5 s ahead is within 60 s of skew), and the window reported is in whole seconds too;
 * - refused: `invalid-time` when a signed time is not one, or when the issue time is after the signed `verifiedAt`
 *   (the score is computed before it is signed; `AttestedTrustOracle` refuses it as `AttestationDatesOutOfOrder`);
 *   expired when now > expiry + skew; issued in the future when issue time (or v2 `verifiedAt`) > now + skew. The
 *   skew is one constant on both sides: `DEFAULT_CLOCK_SKEW_SECONDS` here, `MAX_CLOCK_SKEW` on-chain.
 *
 * @packageDocumentation
 */
import { MAX_DATE_MS, parseServiceTime, readSignedTime } from "./time.js";

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
  const { payload } = input;
  // Every comparison is in whole seconds, on both sides, as the on-chain oracle compares them.
  const now = Math.floor(input.nowMs / 1000);
  const skew = input.skewMs / 1000;
  const window: Window = { issuedAt: undefined, verifiedAt: undefined, expiresAt: undefined };

  const issued = readFirst(payload, ISSUE_TIME_FIELDS);
  if (issued && "problem" in issued) return failed(window, "invalid-time", issued.field, `signed ${issued.field}: ${issued.problem}`);
  if (issued) window.issuedAt = dateOf(issued.seconds);

  const signedExpiry = readFirst(payload, EXPIRY_FIELDS);
  if (signedExpiry && "problem" in signedExpiry) {
    return failed(window, "invalid-time", signedExpiry.field, `signed ${signedExpiry.field}: ${signedExpiry.problem}`);
  }
  let expiry = signedExpiry?.seconds;
  let expiryField = signedExpiry?.field;
  if (expiry === undefined && issued && input.lifetimeMs !== undefined) {
    // Never past the last date a Date holds: an issue time near it still has an expiry that can be written.
    expiry = Math.min(issued.seconds + Math.floor(input.lifetimeMs / 1000), MAX_DATE_MS / 1000);
    expiryField = `${issued.field} + ${input.lifetimeMs / 1000} s`;
  }
  if (input.unsignedExpiry !== undefined && input.unsignedExpiry !== null) {
    const unsigned = parseServiceTime(input.unsignedExpiry);
    if (!unsigned.ok) return failed(window, "invalid-time", "attestation.expiry", `attestation.expiry: ${unsigned.problem}`);
    const unsignedSeconds = Math.floor(unsigned.ms / 1000);
    if (expiry === undefined || unsignedSeconds < expiry) {
      expiry = unsignedSeconds;
      expiryField = "attestation.expiry";
    }
  }
  if (expiry !== undefined) window.expiresAt = dateOf(expiry);

  if (input.requireTime && !issued && expiry === undefined) {
    return failed(window, "missing-time", undefined, "the signed block carries no issue or expiry time, so its freshness cannot be judged");
  }
  if (issued && issued.seconds > now + skew) {
    return failed(
      window,
      "issued-in-future",
      issued.field,
      `issued at ${iso(issued.seconds)}, after now (${iso(now)}) plus ${skew} s of skew`,
    );
  }
  for (const field of NOT_FUTURE_FIELDS) {
    if (payload[field] === undefined || payload[field] === null) continue;
    const parsed = readSignedTime(payload[field]);
    if (!parsed.ok) return failed(window, "invalid-time", field, `signed ${field}: ${parsed.problem}`);
    if (field === "verifiedAt") window.verifiedAt = dateOf(parsed.seconds);
    if (field === "verifiedAt" && issued && issued.seconds > parsed.seconds) {
      return failed(
        window,
        "invalid-time",
        issued.field,
        `signed ${issued.field} (${iso(issued.seconds)}) is after verifiedAt (${iso(parsed.seconds)}): a score is computed before it is signed`,
      );
    }
    if (parsed.seconds > now + skew) {
      return failed(
        window,
        "issued-in-future",
        field,
        `${field} is ${iso(parsed.seconds)}, after now (${iso(now)}) plus ${skew} s of skew`,
      );
    }
  }
  if (expiry !== undefined && now > expiry + skew) {
    return failed(window, "expired", expiryField, `expired at ${iso(expiry)} (${expiryField}); now is ${iso(now)}`);
  }
  return { ok: true, ...window };
}

/** The validity window, as it is known so far. */
interface Window {
  issuedAt: Date | undefined;
  verifiedAt: Date | undefined;
  expiresAt: Date | undefined;
}

type FailReason = "invalid-time" | "missing-time" | "expired" | "issued-in-future";

function failed(window: Window, reason: FailReason, field: string | undefined, message: string): ValidityCheck {
  return { ok: false, reason, field, message, ...window };
}

/** The first of `fields` present in the signed block, read as a signed time (or why it cannot be). */
function readFirst(
  payload: Record<string, unknown>,
  fields: readonly string[],
): { field: string; seconds: number } | { field: string; problem: string } | undefined {
  for (const field of fields) {
    if (payload[field] === undefined || payload[field] === null) continue;
    const parsed = readSignedTime(payload[field]);
    return parsed.ok ? { field, seconds: parsed.seconds } : { field, problem: parsed.problem };
  }
  return undefined;
}

function dateOf(seconds: number): Date {
  return new Date(seconds * 1000);
}

function iso(seconds: number): string {
  return dateOf(seconds).toISOString();
}
