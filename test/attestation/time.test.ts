import { describe, expect, it } from "vitest";
import { parseServiceTime, resolveNow } from "../../src/attestation/time.js";
import { InvalidArgumentError } from "../../src/errors.js";

const T = Date.UTC(2025, 0, 2, 3, 4, 5);

describe("parseServiceTime", () => {
  it.each([
    ["ISO with Z", "2025-01-02T03:04:05Z", T],
    ["ISO with fraction", "2025-01-02T03:04:05.250Z", T + 250],
    ["ISO with offset", "2025-01-02T05:04:05+02:00", T],
    ["ISO without offset (read as UTC)", "2025-01-02T03:04:05", T],
    ["Unix seconds", T / 1000, T],
    ["Unix seconds as a string", String(T / 1000), T],
    ["milliseconds (≥ 1e11)", T, T],
  ])("reads %s", (_name, input, expected) => {
    expect(parseServiceTime(input)).toEqual({ ok: true, ms: expected });
  });

  it.each([
    ["words", "yesterday"],
    ["an impossible date", "2025-13-45T00:00:00Z"],
    ["a negative number", -5],
    ["null", null],
    ["NaN", Number.NaN],
    ["an object", {}],
  ])("refuses %s", (_name, input) => {
    const parsed = parseServiceTime(input);
    expect(parsed.ok).toBe(false);
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

describe("resolveNow", () => {
  it("accepts a Date or milliseconds, and rejects an invalid Date", () => {
    expect(resolveNow(new Date(T))).toBe(T);
    expect(resolveNow(T)).toBe(T);
    expect(() => resolveNow(new Date("nope"))).toThrow(InvalidArgumentError);
    expect(Math.abs(resolveNow(undefined) - Date.now())).toBeLessThan(1000);
  });
});
