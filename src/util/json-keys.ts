/**
 * Prototype keys in parsed JSON. `JSON.parse` keeps a `"__proto__"` key as an own property, but zod (and any code that
 * copies keys with assignment) drops it without a word or, worse, turns it into the copy's prototype: a section of a
 * file so named would be silently ignored. Readers of the kit's files refuse it instead, naming where it is.
 *
 * @packageDocumentation
 */

/** Nesting deeper than this is not searched (a file that deep is refused for its shape anyway). */
const MAX_DEPTH = 64;

/**
 * The paths (`networks.__proto__`) of the `__proto__` keys of a parsed JSON value, at most `limit` of them.
 *
 * @param value - A value from `JSON.parse`.
 * @param limit - Most paths returned.
 * @returns The paths, dot-joined; empty when there is none.
 */
export function prototypeKeyPaths(value: unknown, limit = 5): string[] {
  const found: string[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (node === null || typeof node !== "object" || path.length > MAX_DEPTH || found.length >= limit) return;
    for (const key of Object.keys(node)) {
      if (found.length >= limit) return;
      if (key === "__proto__") found.push([...path, key].join("."));
      walk(Object.getOwnPropertyDescriptor(node, key)?.value, [...path, key]);
    }
  };
  walk(value, []);
  return found;
}
