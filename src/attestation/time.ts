/**
 * Times in attestations. The service writes times either as ISO-8601 strings or as Unix seconds; this
 * module turns both into milliseconds since the epoch, and resolves the "now" a verification runs at.
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

/** Result of {@link parseServiceTime}: the instant in ms since the epoch, or why it could not be read. */
export type ParsedTime = { ok: true; ms: number } | { ok: false; problem: string };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * `Date.parse` of the form the service writes, `Date.prototype.toISOString`'s (`2025-01-02T03:04:05.678Z`, or
 * without the fraction), computed from its digits when every field is plainly in range (year ≥ 100, day ≤ 28,
 * hour ≤ 23: no case where `Date.parse` rolls over, and `Date.UTC` reads a year below 100 as 19xx); `undefined`
 * for any other text or value, which the general rules read. It is about ten times cheaper than the general
 * rules, and verification reads several times per attestation.
 */
function parseIsoString(text: string): number | undefined {
  const length = text.length;
  if ((length !== 20 && length !== 24) || text.charCodeAt(length - 1) !== 90 /* Z */) return undefined;
  for (let i = 0; i < length - 1; i++) {
    const code = text.charCodeAt(i);
    const expected = SEPARATORS[i];
    if (expected === undefined ? code < 48 || code > 57 : code !== expected) return undefined;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  const plain = year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour <= 23 && minute <= 59 && second <= 59;
  if (!plain) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, length === 24 ? digitsAt(text, 20, 3) : 0);
}

/** The separator expected at each position of `YYYY-MM-DDTHH:MM:SS.sss` (`undefined`: a digit). */
const SEPARATORS: readonly (number | undefined)[] = Object.assign(Array<number | undefined>(23).fill(undefined), {
  4: 45, // -
  7: 45, // -
  10: 84, // T
  13: 58, // :
  16: 58, // :
  19: 46, // .
});

/**
 * Reads a time written by the service.
 *
 * Accepted: an ISO-8601 date or date-time string (`2025-01-02T03:04:05Z`, with or without fraction and
 * offset; a date-time without offset is read as UTC), a finite non-negative number of Unix seconds, or the
 * same number written as a decimal string. Numbers ≥ {@link MILLISECONDS_THRESHOLD} are read as
 * milliseconds. A time a `Date` cannot hold (beyond {@link MAX_DATE_MS}) is refused, never turned into an
 * invalid date.
 *
 * @param value - The raw field value.
 * @returns The instant in ms since the epoch, or a description of the problem.
 */
export function parseServiceTime(value: unknown): ParsedTime {
  if (typeof value === "number") return fromNumber(value);
  if (typeof value === "string") {
    const iso = parseIsoString(value);
    if (iso !== undefined) return { ok: true, ms: iso };
    const text = value.trim();
    if (DECIMAL.test(text)) return fromNumber(Number(text));
    if (!ISO_8601.test(text)) return { ok: false, problem: `"${truncate(text)}" is neither ISO-8601 nor Unix seconds` };
    // A date-time without an offset is UTC here, not local time as `Date.parse` would read it.
    const normalized = text.replace(" ", "T");
    const zoned = normalized.includes("T") && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(normalized) ? `${normalized}Z` : normalized;
    const ms = Date.parse(zoned);
    return Number.isFinite(ms) ? { ok: true, ms } : { ok: false, problem: `"${truncate(text)}" is not a valid date` };
  }
  return { ok: false, problem: `expected an ISO-8601 string or Unix seconds, got ${value === null ? "null" : typeof value}` };
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
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new InvalidArgumentError("Option `now` must be a valid Date or a number of milliseconds since the epoch", {
      details: `Got: ${String(now)}`,
    });
  }
  return ms;
}

/** The number written by `count` decimal digits of `text` from `from`. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
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
