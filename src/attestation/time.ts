/**
 * Times in attestations, read two ways:
 *
 * - **signed times** ({@link readSignedTime}, {@link signedTimeSeconds}): the `issuedAt`, `verifiedAt` and `expiry` a
 *   signature covers, read strictly, by the one grammar the on-chain reader (`TrustAttestationLib.sol`) applies, and
 *   always to a whole Unix second, so that both verifiers hold the same instant and compare it the same way;
 * - **service times** ({@link parseServiceTime}): what an unsigned API field holds, read generously (any ISO-8601
 *   date or date-time, Unix seconds or milliseconds), to milliseconds.
 *
 * Both read RFC 3339 date-times with the same scanner and the same calendar arithmetic; the signed reader adds its
 * limits (a year from 1970, an instant after the epoch) and drops the fraction.
 *
 * The grammar of a signed time (RFC 3339 §5.6 `date-time`; `T` and `Z` in either case, as RFC 3339 allows):
 *
 * ```text
 * date-time   = full-date ("T" / "t") full-time
 * full-date   = 4DIGIT "-" 2DIGIT "-" 2DIGIT       ; year 1970-9999, month 01-12, day 01 to the month's last (Gregorian)
 * full-time   = 2DIGIT ":" 2DIGIT ":" 2DIGIT ["." 1*9DIGIT] time-offset   ; hour 00-23, minute 00-59, second 00-59
 * time-offset = "Z" / "z" / ("+" / "-") 2DIGIT ":" 2DIGIT                 ; hours 00-23, minutes 00-59
 * ```
 *
 * Its value is the Unix second: the date and time, less the offset, the fraction dropped (floor); it must be after
 * the epoch (1970-01-01T00:00:00Z is the chain's "no time"). Refused: a second 60 (a leap second: Unix time has none,
 * and the chain refuses it too), `24:00`, a space for `T`, a `.` without digits, more than 9 fraction digits, an offset
 * without its colon (`+0000`) or out of range (`+24:00`), a date that does not exist.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";

/**
 * Numbers at or above this are taken as milliseconds rather than seconds (1e11 s is the year 5138, 1e11 ms
 * is March 1973), so a service that writes `Date.now()` is still read correctly.
 */
export const MILLISECONDS_THRESHOLD = 1e11;

/** The largest distance from the epoch a `Date` can hold, in ms (ECMAScript: 100,000,000 days). */
export const MAX_DATE_MS = 8.64e15;

/** The form of a signed time, as refusals name it. */
export const SIGNED_TIME_FORM = "an RFC 3339 date-time YYYY-MM-DDTHH:MM:SS[.1-9 digits](Z|+hh:mm|-hh:mm)";

/** Result of {@link parseServiceTime}: the instant in ms since the epoch, or why it could not be read. */
export type ParsedTime = { ok: true; ms: number } | { ok: false; problem: string };

/** Result of {@link readSignedTime}: the instant in whole Unix seconds, or why it is refused. */
export type SignedTime = { ok: true; seconds: number } | { ok: false; problem: string };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** An RFC 3339 date-time, field by field, every field in range (what {@link scanDateTime} reads). */
interface DateTimeFields {
  /** Seconds since the epoch of the date and time as written, before the offset and without the fraction. */
  readonly localSeconds: number;
  /** The year as written. */
  readonly year: number;
  /** The first three fraction digits as milliseconds (further digits truncated, as `Date.parse` does). */
  readonly fractionMs: number;
  /** The offset east of UTC, in seconds. */
  readonly offsetSeconds: number;
}

/** The most fraction digits a signed time may carry (nanoseconds). */
const MAX_FRACTION_DIGITS = 9;
/** The longest date-time of the grammar: 19 + `.` and 9 digits + `+hh:mm`. */
export const MAX_DATE_TIME_LENGTH = 19 + 1 + MAX_FRACTION_DIGITS + 6;

const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;

/** The code of the character (or byte) at `i`; `NaN` past the end. */
function codeAt(source: string | Uint8Array, i: number): number {
  return typeof source === "string" ? source.charCodeAt(i) : (source[i] ?? Number.NaN);
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** The value of the `count` decimal digits of `source` from `from`, or -1 when one is not a digit. */
function digitsAt(source: string | Uint8Array, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const code = codeAt(source, i);
    if (!isDigitCode(code)) return -1;
    value = value * 10 + code - 0x30;
  }
  return value;
}

/**
 * Reads `source[from, to)` as an RFC 3339 date-time (the grammar of the module notes, without its limits on the year
 * and the epoch).
 *
 * @returns The fields, or the problem.
 */
function scanDateTime(source: string | Uint8Array, from: number, to: number): DateTimeFields | string {
  const year = digitsAt(source, from, 4);
  const month = digitsAt(source, from + 5, 2);
  const day = digitsAt(source, from + 8, 2);
  const hour = digitsAt(source, from + 11, 2);
  const minute = digitsAt(source, from + 14, 2);
  const second = digitsAt(source, from + 17, 2);
  const t = codeAt(source, from + 10);
  const shaped =
    year >= 0 &&
    month >= 0 &&
    day >= 0 &&
    hour >= 0 &&
    minute >= 0 &&
    second >= 0 &&
    codeAt(source, from + 4) === DASH &&
    codeAt(source, from + 7) === DASH &&
    (t === 0x54 || t === 0x74) /* T t */ &&
    codeAt(source, from + 13) === COLON &&
    codeAt(source, from + 16) === COLON;
  if (!shaped) return `expected ${SIGNED_TIME_FORM}`;

  let at = from + 19;
  let fractionMs = 0;
  if (codeAt(source, at) === DOT) {
    const first = ++at;
    // The text ends with its offset, so the digits stop before `to`.
    while (isDigitCode(codeAt(source, at))) {
      if (at - first < 3) fractionMs += (codeAt(source, at) - 0x30) * 10 ** (2 - (at - first));
      at++;
    }
    if (at === first) return "a '.' without fraction digits";
    if (at - first > MAX_FRACTION_DIGITS) return `more than ${MAX_FRACTION_DIGITS} fraction digits`;
  }

  let offsetSeconds = 0;
  const sign = codeAt(source, at);
  if (sign === 0x5a || sign === 0x7a /* Z z */) {
    if (at + 1 !== to) return `expected ${SIGNED_TIME_FORM}`;
  } else if (sign === PLUS || sign === DASH) {
    const offsetHours = digitsAt(source, at + 1, 2);
    const offsetMinutes = digitsAt(source, at + 4, 2);
    if (offsetHours < 0 || offsetMinutes < 0 || codeAt(source, at + 3) !== COLON || at + 6 !== to) {
      return `expected an offset Z or ±hh:mm (${SIGNED_TIME_FORM})`;
    }
    if (offsetHours > 23 || offsetMinutes > 59) return "an offset beyond ±23:59";
    offsetSeconds = (sign === PLUS ? 1 : -1) * (offsetHours * 3_600 + offsetMinutes * 60);
  } else {
    return `expected ${SIGNED_TIME_FORM}`;
  }

  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59) return "not a real date and time";
  if (second === 60) return "second 60: a leap second, which Unix time (and so the on-chain reader) does not have";
  if (second > 59) return "not a real date and time";
  return { localSeconds: daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second, year, fractionMs, offsetSeconds };
}

/**
 * Reads a signed time from its text: the grammar of the module notes, to the Unix second (offset applied, fraction
 * dropped). The text is given as a string, or as bytes (a signed block's, between the quotes of its string).
 *
 * @param source - The text, or bytes holding it.
 * @param from - Its first character (default 0).
 * @param to - One past its last (default the end).
 * @returns The Unix second, or the problem.
 */
export function signedTimeSeconds(source: string | Uint8Array, from = 0, to = source.length): number | string {
  const fields = scanDateTime(source, from, to);
  if (typeof fields === "string") return fields;
  if (fields.year < 1970) return `the year ${fields.year} is before 1970`;
  const seconds = fields.localSeconds - fields.offsetSeconds;
  if (seconds <= 0) return "not after the epoch (1970-01-01T00:00:00Z)";
  return seconds;
}

/**
 * Reads a signed time: a string by {@link signedTimeSeconds}'s grammar, or a number of Unix seconds (a JWT
 * NumericDate; at or above {@link MILLISECONDS_THRESHOLD}, milliseconds). Either way the whole second, floor.
 *
 * @param value - The signed field's value.
 * @returns The Unix second, or why it is refused.
 */
export function readSignedTime(value: unknown): SignedTime {
  if (typeof value === "string") {
    const seconds = signedTimeSeconds(value);
    return typeof seconds === "number" ? { ok: true, seconds } : { ok: false, problem: `"${truncate(value)}": ${seconds}` };
  }
  if (typeof value === "number") {
    const parsed = fromNumber(value);
    return parsed.ok ? { ok: true, seconds: Math.floor(parsed.ms / 1000) } : parsed;
  }
  return { ok: false, problem: `expected ${SIGNED_TIME_FORM} or Unix seconds, got ${value === null ? "null" : typeof value}` };
}

/**
 * Reads a time written by the service in a field no signature covers.
 *
 * Accepted: an ISO-8601 date or date-time string (`2025-01-02T03:04:05Z`, with or without fraction and
 * offset; a date-time without offset is read as UTC), a finite non-negative number of Unix seconds, or the
 * same number written as a decimal string. Numbers ≥ {@link MILLISECONDS_THRESHOLD} are read as
 * milliseconds. A time a `Date` cannot hold (beyond {@link MAX_DATE_MS}) is refused, never turned into an
 * invalid date. An RFC 3339 date-time is computed from its digits (the signed reader's scanner); any other
 * text goes to `Date.parse`.
 *
 * @param value - The raw field value.
 * @returns The instant in ms since the epoch, or a description of the problem.
 */
export function parseServiceTime(value: unknown): ParsedTime {
  if (typeof value === "number") return fromNumber(value);
  if (typeof value === "string") {
    const fields = scanDateTime(value, 0, value.length);
    if (typeof fields !== "string") return { ok: true, ms: (fields.localSeconds - fields.offsetSeconds) * 1000 + fields.fractionMs };
    return parseGeneralTime(value);
  }
  return { ok: false, problem: `expected an ISO-8601 string or Unix seconds, got ${value === null ? "null" : typeof value}` };
}

/**
 * The general rules of {@link parseServiceTime} for a string, without its RFC 3339 fast path: a decimal number, or an
 * ISO-8601 date or date-time read by `Date.parse` (a date-time without an offset as UTC). Exported so that a test can
 * hold the fast path to it.
 *
 * @param value - The text.
 * @returns The instant in ms since the epoch, or a description of the problem.
 */
export function parseGeneralTime(value: string): ParsedTime {
  const text = value.trim();
  if (DECIMAL.test(text)) return fromNumber(Number(text));
  if (!ISO_8601.test(text)) return { ok: false, problem: `"${truncate(text)}" is neither ISO-8601 nor Unix seconds` };
  // A date-time without an offset is UTC here, not local time as `Date.parse` would read it.
  const normalized = text.replace(" ", "T");
  const zoned = /t/i.test(normalized) && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(normalized) ? `${normalized}Z` : normalized;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? { ok: true, ms } : { ok: false, problem: `"${truncate(text)}" is not a valid date` };
}

/**
 * The instant a verification runs at.
 *
 * @param now - A `Date`, milliseconds since the epoch, or `undefined` for the current time.
 * @returns Milliseconds since the epoch.
 * @throws {@link InvalidArgumentError} when `now` is not a valid instant.
 */
export function resolveNow(now: Date | number | undefined): number {
  if (now === undefined) return Date.now();
  const ms = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(ms)) {
    throw new InvalidArgumentError("Option `now` must be a valid Date or a number of milliseconds since the epoch", {
      details: `Got: ${String(now)}`,
    });
  }
  return ms;
}

function fromNumber(value: number): ParsedTime {
  if (!Number.isFinite(value) || value < 0) return { ok: false, problem: `${value} is not a valid Unix time` };
  const ms = value >= MILLISECONDS_THRESHOLD ? value : value * 1000;
  if (ms > MAX_DATE_MS) return { ok: false, problem: `${value} is beyond the last date a time can hold (year 275760)` };
  return { ok: true, ms };
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Days in each month of a common year, January first. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** The number of days of a month (1-12) of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1]!;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
