import { InvalidArgumentError } from "../../src/errors.js";

/**
 * Reads an integer command-line flag.
 *
 * @param name - Flag name without dashes, for the message.
 * @param text - The value given, if any.
 * @param fallback - Value when the flag is absent.
 * @param min - Smallest accepted value.
 * @param max - Largest accepted value.
 * @returns The value.
 * @throws {@link InvalidArgumentError} for anything but an integer in range.
 */
export function integerFlag(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new InvalidArgumentError(`--${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
