import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../../src/cli/duration";
import { InvalidArgumentError } from "../../src/errors";

describe("parseDuration", () => {
  it.each([
    ["36h", 129_600],
    ["90m", 5_400],
    ["2d", 172_800],
    ["1h30m", 5_400],
    ["1w", 604_800],
    ["600", 600],
    [" 45S ", 45],
  ])("%s → %i seconds", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(["", "0", "0h", "h", "36 h", "-1h", "1.5h", "36hours", "1y"])("refuses %j", (text) => {
    expect(() => parseDuration(text)).toThrow(InvalidArgumentError);
  });

  it("formats the two largest units", () => {
    expect(formatDuration(129_600)).toBe("1d 12h");
    expect(formatDuration(5_400)).toBe("1h 30m");
    expect(formatDuration(59)).toBe("59s");
    expect(formatDuration(0)).toBe("0s");
  });
});
