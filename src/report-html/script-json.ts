/**
 * JSON that can stand inside an HTML `<script type="application/json">` element: `<`, `>` and `&` are written as
 * `\u003c`, `\u003e`, `\u0026`, so that no `</script>` or `<!--` in a value can end the element or change how the
 * parser reads it, and U+2028/U+2029 as `\u2028`/`\u2029`. `JSON.parse` reads the same value back.
 *
 * @packageDocumentation
 */

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * A value as JSON safe to embed in a `<script type="application/json">` element (see the module notes).
 *
 * @param value - Any JSON value.
 * @returns Its JSON text, with no character that HTML could read as markup.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
