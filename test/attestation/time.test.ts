/**
 * The two time readers of `time.ts`: the signed-time reader (the RFC 3339 grammar both verifiers apply, to the Unix
 * second) and the generous reader of unsigned service times (to the millisecond), with the property that the
 * generous reader's fast path (the signed reader's scanner) agrees with its general path (`Date.parse`) and with an
 * independent computation, for random instants written in every form of the grammar.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MAX_DATE_TIME_LENGTH,
  parseGeneralTime,
  parseServiceTime,
  readSignedTime,
  resolveNow,
  signedTimeSeconds,
} from "../../src/attestation/time.js";
import { InvalidArgumentError } from "../../src/errors.js";

const T = Date.UTC(2025, 0, 2, 3, 4, 5);
const seconds = (iso: string) => Date.parse(iso) / 1000;

describe("parseServiceTime", () => {
  it.each([
    ["ISO with Z", "2025-01-02T03:04:05Z", T],
    ["ISO with fraction", "2025-01-02T03:04:05.250Z", T + 250],
    ["ISO with one fraction digit", "2025-01-02T03:04:05.2Z", T + 200],
    ["ISO with two fraction digits", "2025-01-02T03:04:05.25Z", T + 250],
    ["ISO with nine fraction digits (truncated to ms, as Date.parse does)", "2025-01-02T03:04:05.123987654Z", T + 123],
    ["ISO with offset", "2025-01-02T05:04:05+02:00", T],
    ["ISO with a negative offset", "2025-01-01T19:34:05-07:30", T],
    ["ISO with offset and fraction", "2025-01-02T03:04:05.243+00:00", T + 243],
    ["ISO in lower case", "2025-01-02t03:04:05z", T],
    ["ISO without offset (read as UTC)", "2025-01-02T03:04:05", T],
    ["ISO with a space for T", "2025-01-02 03:04:05Z", T],
    ["ISO with an offset without colon", "2025-01-02T05:04:05+0200", T],
    ["ISO with ten fraction digits", "2025-01-02T03:04:05.1239876543Z", T + 123],
    ["a date alone", "2025-01-02", Date.UTC(2025, 0, 2)],
    ["a year before 1970", "1969-07-20T20:17:40Z", Date.UTC(1969, 6, 20, 20, 17, 40)],
    ["hour 24 (Date.parse's end of day)", "2025-01-01T24:00:00Z", Date.UTC(2025, 0, 2)],
    ["Unix seconds", T / 1000, T],
    ["Unix seconds as a string", String(T / 1000), T],
    ["milliseconds (≥ 1e11)", T, T],
  ])("reads %s", (_name, input, expected) => {
    expect(parseServiceTime(input)).toEqual({ ok: true, ms: expected });
  });

  it.each([
    ["words", "yesterday"],
    ["a written-out date", "January 2, 2025"],
    ["slashes", "2025/01/02"],
    ["another separator for T", "2025-01-02X03:04:05Z"],
    ["an impossible date", "2025-13-45T00:00:00Z"],
    ["a negative number", -5],
    ["null", null],
    ["NaN", Number.NaN],
    ["an object", {}],
  ])("refuses %s", (_name, input) => {
    const parsed = parseServiceTime(input);
    expect(parsed.ok).toBe(false);
  });

  describe("a date-time without an offset", () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it("is read as UTC, never as local time: Date.parse is never handed a date-time without a zone", () => {
      // Whatever the machine's zone, a text Date.parse would read as local time must never reach it.
      const parse = vi.spyOn(Date, "parse");
      expect(parseServiceTime("2025-01-02T03:04:05")).toEqual({ ok: true, ms: T });
      expect(parseServiceTime("2025-01-02 03:04:05.250")).toEqual({ ok: true, ms: T + 250 });
      expect(parseServiceTime("2025-01-02T03:04")).toEqual({ ok: true, ms: T - 5_000 });
      expect(parseServiceTime("2025-01-02t03:04:05")).toEqual({ ok: true, ms: T });
      expect(parseServiceTime("2025-01-02")).toEqual({ ok: true, ms: Date.UTC(2025, 0, 2) });
      expect(parse).toHaveBeenCalled();
      for (const [text] of parse.mock.calls) expect(text, text).toMatch(/(?:Z|[+-]\d{2}:?\d{2})$|^\d{4}-\d{2}-\d{2}$/i);
    });
  });
});

describe("parseServiceTime's messages and edges", () => {
  it.each([
    ["a value of another type", {}, "expected an ISO-8601 string or Unix seconds, got object"],
    ["null", null, "expected an ISO-8601 string or Unix seconds, got null"],
    ["words", "yesterday", '"yesterday" is neither ISO-8601 nor Unix seconds'],
    ["text before an ISO date", "x2025-01-02T03:04:05Z", "is neither ISO-8601 nor Unix seconds"],
    ["text after an ISO date", "2025-01-02T03:04:05Zjunk", "is neither ISO-8601 nor Unix seconds"],
    ["a non-digit in the year", "2x25-01-02T03:04:05Z", "is neither ISO-8601 nor Unix seconds"],
    ["an impossible date", "2025-13-45T00:00:00Z", '"2025-13-45T00:00:00Z" is not a valid date'],
    ["a negative number", -1, "-1 is not a valid Unix time"],
    ["a number beyond the last date", 1e20, "100000000000000000000 is beyond the last date a time can hold (year 275760)"],
  ])("refuses %s, saying why", (_name, value, problem) => {
    expect(parseServiceTime(value)).toEqual({ ok: false, problem: expect.stringContaining(problem) as string });
  });

  it("reads 0 (the epoch), 1e11 as milliseconds, a fraction of Unix seconds, and text with whitespace around it", () => {
    expect(parseServiceTime(0)).toEqual({ ok: true, ms: 0 });
    expect(parseServiceTime(1e11)).toEqual({ ok: true, ms: 1e11 });
    expect(parseServiceTime(1e11 - 1)).toEqual({ ok: true, ms: (1e11 - 1) * 1000 });
    expect(parseServiceTime("1735787045.25")).toEqual({ ok: true, ms: 1_735_787_045_250 });
    expect(parseServiceTime(" 2025-01-02T03:04:05Z ")).toEqual({ ok: true, ms: T });
    expect(parseServiceTime(" 1735787045 ")).toEqual({ ok: true, ms: T });
  });

  it("reads every RFC 3339 date-time on its fast path, without Date.parse", () => {
    const parse = vi.spyOn(Date, "parse");
    try {
      for (const text of ["2025-01-02T03:04:05Z", "2025-01-02T08:34:05.123456789+05:30", "2025-01-02t03:04:05z", "0050-01-01T00:00:00Z"]) {
        expect(parseServiceTime(text).ok, text).toBe(true);
      }
      expect(parse).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("cuts a long text at 40 characters in a message, and keeps one of 40", () => {
    const forty = "y".repeat(40);
    expect(parseServiceTime(forty)).toEqual({ ok: false, problem: `"${forty}" is neither ISO-8601 nor Unix seconds` });
    expect(parseServiceTime(`${forty}y`)).toEqual({ ok: false, problem: `"${forty}…" is neither ISO-8601 nor Unix seconds` });
  });
});

describe("parseServiceTime of the service's own form (toISOString)", () => {
  it("reads it exactly as Date.parse does, rolled-over days, hour 24, short years and long fractions included", () => {
    const pad = (n: number, width: number) => String(n).padStart(width, "0");
    let checked = 0;
    for (const year of [1, 99, 100, 1970, 2024, 2025, 9999]) {
      for (let i = 0; i < 400; i++) {
        const [month, day, hour, minute, second] = [i % 14, (i * 7) % 33, (i * 5) % 26, (i * 11) % 61, (i * 13) % 61];
        for (const fraction of ["", `.${pad((i * 37) % 1000, 3)}`, `.${pad(i % 100, 2)}`, ".12345"]) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}Z`;
          const parsed = parseServiceTime(text);
          const expected = Date.parse(text);
          expect(parsed.ok ? parsed.ms : Number.NaN, text).toBe(expected);
          checked++;
        }
      }
    }
    expect(checked).toBe(7 * 400 * 4);
  });
});

describe("signedTimeSeconds: the RFC 3339 date-time of a signed time, to the Unix second", () => {
  it.each([
    ["Z, no fraction", "2026-04-14T10:38:38Z", seconds("2026-04-14T10:38:38Z")],
    ["the service's sample (milliseconds, +00:00)", "2026-04-14T10:38:38.243+00:00", seconds("2026-04-14T10:38:38Z")],
    ["toISOString's form", "2026-04-14T10:38:38.999Z", seconds("2026-04-14T10:38:38Z")],
    ["one fraction digit", "2026-04-14T10:38:38.9Z", seconds("2026-04-14T10:38:38Z")],
    ["microseconds with +00:00", "2026-04-14T10:38:38.243512+00:00", seconds("2026-04-14T10:38:38Z")],
    ["nine fraction digits", "2026-04-14T10:38:38.999999999Z", seconds("2026-04-14T10:38:38Z")],
    ["nine fraction digits and an offset (the longest form)", "2026-04-14T16:08:38.999999999+05:30", seconds("2026-04-14T10:38:38Z")],
    ["+05:30", "2026-04-14T16:08:38+05:30", seconds("2026-04-14T10:38:38Z")],
    ["-08:00", "2026-04-14T02:38:38-08:00", seconds("2026-04-14T10:38:38Z")],
    ["-00:00", "2026-04-14T10:38:38-00:00", seconds("2026-04-14T10:38:38Z")],
    ["+23:59", "2026-04-15T10:37:38+23:59", seconds("2026-04-14T10:38:38Z")],
    ["-23:59", "2026-04-13T10:39:38-23:59", seconds("2026-04-14T10:38:38Z")],
    ["an offset across a year", "2025-12-31T23:30:00-01:00", seconds("2026-01-01T00:30:00Z")],
    ["lowercase t and z", "2026-04-14t10:38:38z", seconds("2026-04-14T10:38:38Z")],
    ["a leap day", "2024-02-29T23:59:59Z", seconds("2024-02-29T23:59:59Z")],
    ["a leap day of a 400th year", "2000-02-29T00:00:00Z", seconds("2000-02-29T00:00:00Z")],
    ["the last day of each 31-day month", "2026-12-31T00:00:00Z", seconds("2026-12-31T00:00:00Z")],
    ["the last day of a 30-day month", "2026-11-30T00:00:00Z", seconds("2026-11-30T00:00:00Z")],
    ["one second after the epoch", "1970-01-01T00:00:01.999Z", 1],
    ["the first second of 1970 east of UTC, still after the epoch", "1970-01-01T01:00:01+01:00", 1],
    ["the last second of 9999", "9999-12-31T23:59:59Z", seconds("9999-12-31T23:59:59Z")],
    ["23:59:59", "2026-04-14T23:59:59Z", seconds("2026-04-14T23:59:59Z")],
  ])("reads %s", (_name, text, expected) => {
    expect(signedTimeSeconds(text)).toBe(expected);
    expect(readSignedTime(text)).toEqual({ ok: true, seconds: expected });
    // The same text as bytes, inside other bytes: what the v2 block reader hands over.
    const bytes = Buffer.from(`"${text}"`, "ascii");
    expect(signedTimeSeconds(bytes, 1, bytes.length - 1)).toBe(expected);
  });

  it("reads each month to its last day, and refuses the day after", () => {
    const last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    for (const [year, february] of [
      [2026, 28],
      [2024, 29],
      [2100, 28],
      [2000, 29],
    ] as const) {
      for (let month = 1; month <= 12; month++) {
        const days = month === 2 ? february : last[month - 1]!;
        const mm = String(month).padStart(2, "0");
        expect(signedTimeSeconds(`${year}-${mm}-${days}T12:00:00Z`), `${year}-${mm}-${days}`).toBe(
          Date.UTC(year, month - 1, days, 12) / 1000,
        );
        expect(signedTimeSeconds(`${year}-${mm}-${days + 1}T12:00:00Z`), `${year}-${mm}-${days + 1}`).toBe("not a real date and time");
      }
    }
  });

  it.each([
    ["February 30", "2025-02-30T10:00:00Z", "not a real date"],
    ["February 29 of a common year", "2025-02-29T10:00:00Z", "not a real date"],
    ["February 29 of a century not a 400th", "2100-02-29T10:00:00Z", "not a real date"],
    ["April 31", "2025-04-31T10:00:00Z", "not a real date"],
    ["month 13", "2025-13-01T10:00:00Z", "not a real date"],
    ["month 00", "2025-00-01T10:00:00Z", "not a real date"],
    ["day 00", "2025-01-00T10:00:00Z", "not a real date"],
    ["day 32", "2025-01-32T10:00:00Z", "not a real date"],
    ["hour 24", "2025-06-01T24:00:00Z", "not a real date"],
    ["minute 60", "2025-06-01T10:60:00Z", "not a real date"],
    ["second 60 (a leap second)", "2016-12-31T23:59:60Z", "leap second"],
    ["second 61", "2025-06-01T10:00:61Z", "not a real date"],
    ["+24:00", "2025-06-01T10:00:00+24:00", "beyond ±23:59"],
    ["-24:00", "2025-06-01T10:00:00-24:00", "beyond ±23:59"],
    ["offset minutes 60", "2025-06-01T10:00:00+05:60", "beyond ±23:59"],
    ["a space for T", "2025-06-01 10:00:00Z", "expected an RFC 3339"],
    ["another letter for T", "2025-01-02X03:04:05Z", "expected an RFC 3339"],
    ["an empty fraction", "2025-06-01T10:00:00.Z", "without fraction digits"],
    ["an empty fraction before an offset", "2025-06-01T10:00:00.+00:00", "without fraction digits"],
    ["ten fraction digits", "2025-06-01T10:00:00.1234567890Z", "more than 9"],
    ["a comma for the fraction", "2025-06-01T10:00:00,123Z", "expected an RFC 3339"],
    ["+0000 without its colon", "2025-06-01T10:00:00+0000", "expected an offset"],
    ["+00 without minutes", "2025-06-01T10:00:00+00", "expected an offset"],
    ["an offset with a letter", "2025-06-01T10:00:00+0a:00", "expected an offset"],
    ["an offset with another separator", "2025-06-01T10:00:00+00.00", "expected an offset"],
    ["an offset followed by more", "2025-06-01T10:00:00+00:00Z", "expected an offset"],
    ["no offset", "2025-06-01T10:00:00", "expected an RFC 3339"],
    ["no offset after a fraction", "2025-06-01T10:00:00.123", "expected an RFC 3339"],
    ["Z followed by more", "2025-06-01T10:00:00Zx", "expected an RFC 3339"],
    ["a lowercase other letter for Z", "2025-06-01T10:00:00y", "expected an RFC 3339"],
    ["a year before 1970", "1969-12-31T23:59:59Z", "before 1970"],
    ["the year 0000", "0000-01-01T00:00:00Z", "before 1970"],
    ["the epoch itself (the chain's no time)", "1970-01-01T00:00:00Z", "not after the epoch"],
    ["an offset that puts 1970 before the epoch", "1970-01-01T00:30:00+01:00", "not after the epoch"],
    ["a date alone", "2025-06-01", "expected an RFC 3339"],
    ["no seconds", "2025-06-01T10:00Z", "expected an RFC 3339"],
    ["a one-digit month", "2025-6-01T10:00:00Z", "expected an RFC 3339"],
    ["slashes", "2025/06/01T10:00:00Z", "expected an RFC 3339"],
    ["dots for colons", "2025-06-01T10.00.00Z", "expected an RFC 3339"],
    ["a sign on the year", "+2025-06-01T10:00:00Z", "expected an RFC 3339"],
    ["leading whitespace", " 2025-06-01T10:00:00Z", "expected an RFC 3339"],
    ["trailing whitespace", "2025-06-01T10:00:00Z ", "expected an RFC 3339"],
    ["a written-out date", "January 2, 2025 10:00:00", "expected an RFC 3339"],
    ["empty", "", "expected an RFC 3339"],
    ["too long", `2025-06-01T10:00:00.${"1".repeat(9)}+00:00x`, "expected an offset"],
    ["a letter in the year", "2x25-06-01T10:00:00Z", "expected an RFC 3339"],
    ["a letter in the month", "2025-0x-01T10:00:00Z", "expected an RFC 3339"],
    ["a letter in the day", "2025-06-x1T10:00:00Z", "expected an RFC 3339"],
    ["a letter in the hour", "2025-06-01T1x:00:00Z", "expected an RFC 3339"],
    ["a letter in the minute", "2025-06-01T10:x0:00Z", "expected an RFC 3339"],
    ["a letter in the second", "2025-06-01T10:00:0xZ", "expected an RFC 3339"],
    ["cut short", "2025-06-01T10:00:0", "expected an RFC 3339"],
  ])("refuses %s", (_name, text, problem) => {
    const read = signedTimeSeconds(text);
    expect(typeof read === "string" && read).toContain(problem);
    expect(readSignedTime(text)).toMatchObject({ ok: false });
  });

  it("refuses every other byte in place of each separator and digit", () => {
    const text = "2025-06-01T10:00:00.123+05:30";
    const accepted: Record<number, string> = {
      10: "Tt",
      19: ".",
      23: "+-",
    };
    for (let at = 0; at < text.length; at++) {
      for (let code = 0x20; code < 0x7f; code++) {
        const c = String.fromCharCode(code);
        if (c === text[at]) continue;
        const changed = text.slice(0, at) + c + text.slice(at + 1);
        const digitPlace = /\d/.test(text[at]!);
        const expected = digitPlace ? /\d/.test(c) : (accepted[at] ?? "").includes(c);
        if (expected) continue; // another digit (judged by its range) or an equivalent separator
        expect(typeof signedTimeSeconds(changed), changed).toBe("string");
      }
    }
  });

  it("bounds its text: the longest form is the grammar's longest", () => {
    expect(MAX_DATE_TIME_LENGTH).toBe("2026-04-14T16:08:38.999999999+05:30".length);
  });
});

describe("readSignedTime", () => {
  it("reads a JSON number as Unix seconds (a JWT NumericDate), or milliseconds from 1e11, to the whole second", () => {
    expect(readSignedTime(1_748_772_000)).toEqual({ ok: true, seconds: 1_748_772_000 });
    expect(readSignedTime(1_748_772_000.9)).toEqual({ ok: true, seconds: 1_748_772_000 });
    expect(readSignedTime(1_748_772_000_999)).toEqual({ ok: true, seconds: 1_748_772_000 });
  });

  it.each([
    ["a negative number", -1],
    ["NaN", Number.NaN],
    ["beyond the last date", 1e20],
    ["null", null],
    ["a boolean", true],
    ["an object", {}],
    ["a decimal string (signed times are date-times)", "1748772000"],
  ])("refuses %s", (_name, value) => {
    expect(readSignedTime(value)).toMatchObject({ ok: false });
  });

  it("names the text it refuses, cut at 40 characters", () => {
    expect(readSignedTime("2025-06-01T10:00:00+0000")).toEqual({
      ok: false,
      problem: expect.stringContaining('"2025-06-01T10:00:00+0000": expected an offset') as string,
    });
    const long = `2025-06-01T10:00:00.${"1".repeat(60)}Z`;
    expect(readSignedTime(long)).toEqual({ ok: false, problem: expect.stringContaining(`"${long.slice(0, 40)}…"`) as string });
    expect(readSignedTime(null)).toEqual({ ok: false, problem: expect.stringContaining("got null") as string });
    expect(readSignedTime(true)).toEqual({ ok: false, problem: expect.stringContaining("got boolean") as string });
  });
});

describe("the fast path and the general path agree, with an independent computation", () => {
  /** The earliest and latest instants written (1971 to 9998, so that any offset keeps the date within 1970–9999). */
  const FROM = Date.UTC(1971, 0, 1);
  const TO = Date.UTC(9998, 11, 31);

  /** An instant written in one form of the grammar: its offset, its fraction digits, the case of T and Z. */
  const written = fc.record({
    ms: fc.integer({ min: FROM, max: TO }),
    offsetMinutes: fc.oneof(fc.constant(0), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
    zulu: fc.boolean(),
    digits: fc.integer({ min: 0, max: 9 }),
    extra: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 6 }),
    lowerT: fc.boolean(),
    lowerZ: fc.boolean(),
  });

  it("reads every form to the instant it writes: the second by the signed reader, the ms by both paths of the generous one", () => {
    fc.assert(
      fc.property(written, ({ ms, offsetMinutes, zulu, digits, extra, lowerT, lowerZ }) => {
        const offset = zulu ? 0 : offsetMinutes;
        // The wall time at the offset, written by toISOString (an independent formatter).
        const wall = new Date(ms + offset * 60_000).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
        const allDigits = wall.slice(20, 23) + extra.join("");
        const fraction = digits === 0 ? "" : `.${allDigits.slice(0, digits)}`;
        const sign = offset < 0 ? "-" : "+";
        const abs = Math.abs(offset);
        const zone = zulu
          ? lowerZ
            ? "z"
            : "Z"
          : `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
        const text = `${wall.slice(0, 10)}${lowerT ? "t" : "T"}${wall.slice(11, 19)}${fraction}${zone}`;

        const second = Math.floor(ms / 1000);
        const msWritten = second * 1000 + (digits === 0 ? 0 : Number(allDigits.slice(0, Math.min(digits, 3)).padEnd(3, "0")));
        expect(signedTimeSeconds(text), text).toBe(second);
        expect(readSignedTime(text), text).toEqual({ ok: true, seconds: second });
        expect(parseServiceTime(text), text).toEqual({ ok: true, ms: msWritten });
        expect(parseGeneralTime(text), text).toEqual({ ok: true, ms: msWritten });
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("resolveNow", () => {
  it("accepts a Date or milliseconds, and rejects an invalid Date", () => {
    expect(resolveNow(new Date(T))).toBe(T);
    expect(resolveNow(T)).toBe(T);
    expect(() => resolveNow(new Date("nope"))).toThrow(InvalidArgumentError);
    expect(() => resolveNow(Number.POSITIVE_INFINITY)).toThrow(InvalidArgumentError);
    expect(() => resolveNow(Number.NaN)).toThrow(
      /Option `now` must be a valid Date or a number of milliseconds since the epoch[\s\S]*Got: NaN/,
    );
    expect(Math.abs(resolveNow(undefined) - Date.now())).toBeLessThan(1000);
  });
});
