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

/** Result of {@link parseServiceTime}: the instant in ms since the epoch, or why it could not be read. */
export type ParsedTime = { ok: true; ms: number } | { ok: false; problem: string };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * Reads a time written by the service.
 *
 * Accepted: an ISO-8601 date or date-time string (`2025-01-02T03:04:05Z`, with or without fraction and
 * offset; a date-time without offset is read as UTC), a finite non-negative number of Unix seconds, or the
 * same number written as a decimal string. Numbers ≥ {@link MILLISECONDS_THRESHOLD} are read as
 * milliseconds.
 *
 * @param value - The raw field value.
 * @returns The instant in ms since the epoch, or a description of the problem.
 */
export function parseServiceTime(value: unknown): ParsedTime {
  if (typeof value === "number") return fromNumber(value);
  if (typeof value === "string") {
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

function fromNumber(value: number): ParsedTime {
  if (!Number.isFinite(value) || value < 0) return { ok: false, problem: `${value} is not a valid Unix time` };
  return { ok: true, ms: value >= MILLISECONDS_THRESHOLD ? value : value * 1000 };
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
