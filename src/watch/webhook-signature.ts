/**
 * The signature of a webhook body: how the watch signs each POST, and how a receiver checks it.
 *
 * The header {@link WEBHOOK_SIGNATURE_HEADER} (`X-Trustgate-Signature`) carries `t=<unix seconds>,v1=<hex>`, where
 * `<hex>` is the lower-case hexadecimal HMAC-SHA256, keyed with the UTF-8 bytes of the shared secret, of the bytes
 * `<t>.<raw body>`: the decimal timestamp, a full stop, then the body exactly as it arrived (never a re-serialised
 * copy of the parsed JSON). Signing the timestamp with the body lets a receiver refuse a captured request replayed
 * later ({@link verifyWebhookSignature} refuses a timestamp more than 300 s from its clock, either way). Each delivery
 * attempt is signed afresh, so a retry after a long backoff carries a current timestamp.
 *
 * A receiver that checks by hand: split the header on `,`, each part on its first `=`; take the one `t` and every
 * `v1` (more than one may come while a secret is rotated; any may match); refuse a stale `t`; compute the HMAC and
 * compare it with each `v1` in constant time (`crypto.timingSafeEqual`), never with `===`.
 *
 * @packageDocumentation
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { InvalidArgumentError } from "../errors.js";

/** The request header that carries the signature (HTTP header names are case-insensitive). */
export const WEBHOOK_SIGNATURE_HEADER = "x-trustgate-signature";

/** How far, in seconds, {@link verifyWebhookSignature} accepts a signed timestamp from its clock by default. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** Longest header {@link verifyWebhookSignature} reads; a longer one is refused unread. */
const MAX_HEADER_LENGTH = 4096;

/** The largest timestamp accepted (year 5138): a signature's `t` is at most 11 decimal digits. */
const TIMESTAMP = /^\d{1,11}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function hmac(rawBody: string | Uint8Array, secret: string, timestamp: number): Buffer {
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${timestamp}.`, "utf8")
    .update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody)
    .digest();
}

/**
 * Signs a webhook body: the value of the {@link WEBHOOK_SIGNATURE_HEADER} header (see the module notes).
 *
 * @param rawBody - The body exactly as it is sent (its UTF-8 bytes are signed).
 * @param secret - The shared secret (the HMAC key, as UTF-8).
 * @param timestamp - The time of signing, in whole seconds since the epoch.
 * @returns `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<rawBody>">`.
 * @throws {@link InvalidArgumentError} for an empty secret or a timestamp that is not a whole number of seconds ≥ 0.
 */
export function signWebhookBody(rawBody: string, secret: string, timestamp: number): string {
  if (typeof secret !== "string" || secret === "") throw new InvalidArgumentError("Invalid webhook secret: it is empty");
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || !TIMESTAMP.test(String(timestamp))) {
    throw new InvalidArgumentError(`Invalid signature timestamp ${String(timestamp)}: expected whole seconds since the epoch`);
  }
  return `t=${timestamp},v1=${hmac(rawBody, secret, timestamp).toString("hex")}`;
}

/** What {@link verifyWebhookSignature} checks. */
export interface VerifyWebhookSignatureInput {
  /** The request body exactly as received: the bytes, or their UTF-8 text. */
  readonly rawBody: string | Uint8Array;
  /** The {@link WEBHOOK_SIGNATURE_HEADER} header's value as received (`null`/`undefined` when absent). */
  readonly header: string | null | undefined;
  /** The shared secret. */
  readonly secret: string;
  /** How far the signed timestamp may be from `now`, in seconds, either way (default 300). */
  readonly toleranceSeconds?: number;
  /** The receiver's clock (default the current time). */
  readonly now?: Date;
}

/**
 * Checks a webhook's signature, for receivers: the header parses, its timestamp is within the tolerance of `now`, and
 * one of its `v1` values is the HMAC of `<t>.<raw body>` under the secret, compared in constant time.
 *
 * Never throws: anything it cannot read (no header, a malformed one, an empty secret, a tolerance that is not a
 * number) is refused.
 *
 * @param input - The raw body, the header, the secret, and optionally the tolerance and the clock.
 * @returns `true` only when the signature holds and is fresh.
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): boolean {
  try {
    const { rawBody, header, secret } = input;
    if (typeof header !== "string" || header.length > MAX_HEADER_LENGTH) return false;
    if (typeof secret !== "string" || secret === "") return false;
    if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) return false;
    let timestamp: number | undefined;
    const candidates: Buffer[] = [];
    for (const part of header.split(",")) {
      const equals = part.indexOf("=");
      if (equals < 0) continue;
      const key = part.slice(0, equals).trim();
      const value = part.slice(equals + 1).trim();
      if (key === "t") {
        if (timestamp !== undefined || !TIMESTAMP.test(value)) return false;
        timestamp = Number(value);
      } else if (key === "v1" && HEX_SHA256.test(value)) {
        candidates.push(Buffer.from(value, "hex"));
      }
    }
    if (timestamp === undefined || candidates.length === 0) return false;
    const tolerance = input.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
    const nowSeconds = (input.now ?? new Date()).getTime() / 1000;
    if (!(Math.abs(nowSeconds - timestamp) <= tolerance)) return false;
    const expected = hmac(rawBody, secret, timestamp);
    let matched = false;
    // Every candidate is compared, so the time taken does not say which one matched.
    for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
    return matched;
  } catch {
    return false;
  }
}
