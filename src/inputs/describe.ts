/**
 * How a bad input value is shown in an error message: short, quoted when it is text, never the whole of a
 * long string or an object.
 *
 * @packageDocumentation
 */

/**
 * A short rendering of a value for an error message.
 *
 * @param value - Whatever the caller gave.
 * @returns A JSON-quoted string (cut at 80 characters), `12n` for a bigint, `(an object)`/`(an array)`, or
 *   `String(value)` for anything else.
 */
export function describeInput(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "(an array)" : "(an object)";
}
