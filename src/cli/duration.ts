/**
 * Durations as people type them on a command line: `36h`, `90m`, `2d`, `1h30m`, `45s`, or plain seconds.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * Parses a duration into whole seconds.
 *
 * @param text - For example `36h`, `1h30m`, `2d`, `600` (seconds).
 * @returns Seconds, greater than 0.
 * @throws {@link InvalidArgumentError} for anything else, including zero.
 */
export function parseDuration(text: string): number {
  const input = text.trim().toLowerCase();
  let seconds: number;
  if (/^\d+$/.test(input)) {
    seconds = Number(input);
  } else if (/^(\d+[smhdw])+$/.test(input)) {
    seconds = 0;
    for (const [, amount, unit] of input.matchAll(/(\d+)([smhdw])/g)) seconds += Number(amount) * UNIT_SECONDS[unit!]!;
  } else {
    throw new InvalidArgumentError(`Invalid duration "${text}"`, { details: "Use forms like 36h, 90m, 2d, 1h30m or plain seconds" });
  }
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new InvalidArgumentError(`Invalid duration "${text}": must be greater than zero`);
  }
  return seconds;
}

/**
 * Formats seconds compactly (`1d 12h`, `36h`… as the largest two units).
 *
 * @param seconds - A non-negative number of seconds.
 * @returns A short human form.
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const parts: string[] = [];
  let rest = s;
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    if (rest >= size || (unit === "s" && parts.length === 0)) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}
