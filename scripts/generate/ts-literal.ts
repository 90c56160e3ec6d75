/**
 * Prints JSON-like data (an ABI) as a TypeScript literal in the repository's style: identifier keys unquoted,
 * double-quoted strings, two-space indentation, trailing commas, and an object or array on one line whenever it
 * fits. The output depends only on the value, so regenerating from the same artifacts gives the same text.
 */

/** A JSON value. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Longest line the printer puts an object or array on before breaking it over several lines. */
export const MAX_LINE = 120;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The TypeScript source of `value`.
 *
 * @param value - The value to print.
 * @param indent - Indentation of the line the value starts on, in spaces.
 * @param prefixLength - Characters already on that line before the value (indentation included).
 * @returns The literal; lines after the first are indented to match.
 */
export function toTsLiteral(value: JsonValue, indent = 0, prefixLength = indent): string {
  const flat = oneLine(value);
  // One line when it fits, with room for the comma or bracket that may follow it.
  if (value === null || typeof value !== "object" || prefixLength + flat.length + 1 <= MAX_LINE) return flat;
  const inner = " ".repeat(indent + 2);
  const lines = entriesOf(value).map(([key, item]) => `${inner}${key}${toTsLiteral(item, indent + 2, inner.length + key.length)},`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${lines.join("\n")}\n${" ".repeat(indent)}${close}`;
}

/** `value` printed on one line. */
function oneLine(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const items = entriesOf(value).map(([key, item]) => `${key}${oneLine(item)}`);
  if (Array.isArray(value)) return `[${items.join(", ")}]`;
  return items.length === 0 ? "{}" : `{ ${items.join(", ")} }`;
}

/** The entries of an array (with empty keys) or of an object (with their printed `key: ` prefixes). */
function entriesOf(value: readonly JsonValue[] | { readonly [key: string]: JsonValue }): Array<[string, JsonValue]> {
  if (Array.isArray(value)) return (value as readonly JsonValue[]).map((item) => ["", item]);
  return Object.entries(value).map(([key, item]) => [`${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: `, item]);
}
