/**
 * The one test of "a plain JSON object" the kit uses on untrusted parsed JSON.
 *
 * @packageDocumentation
 */

/**
 * Whether a value is a JSON object: not `null`, not an array.
 *
 * @param value - Any value.
 * @returns `true` for a non-null, non-array object.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
