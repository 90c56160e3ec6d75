/**
 * Numeric inputs shared by the entry points: score thresholds and bounded integers (page sizes, minimum
 * scores, concurrency). A number or its decimal text is accepted; messages read `<name> must be …, got …`.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { describeInput } from "./describe.js";

/**
 * Parses an integer in a range.
 *
 * @param value - A safe integer, or its decimal text (white space around it allowed).
 * @param label - The argument's name, for the error message.
 * @param min - Smallest allowed value.
 * @param max - Largest allowed value (`Number.MAX_SAFE_INTEGER` reads as "no upper limit" in the message).
 * @param hint - Said after the range in the message (for example ` or "all"`).
 * @returns The value.
 * @throws {@link InvalidArgumentError} when it is not an integer in `[min, max]`.
 */
export function parseIntegerInRange(value: unknown, label: string, min: number, max: number, hint = ""): number {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= min && n <= max) return n;
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  throw new InvalidArgumentError(`${label} must be ${range}${hint}, got ${describeInput(value)}`);
}

/**
 * Parses a score threshold: an integer from 0 to 100 (`score >= threshold`; scores are integers, so a
 * fractional threshold is refused rather than silently rounded).
 *
 * @param value - The threshold, or its decimal text.
 * @param label - The argument's name, for the error message.
 * @returns The threshold.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseThreshold(value: unknown, label = "threshold"): number {
  return parseIntegerInRange(value, label, 0, 100);
}
