/**
 * The secret scrubber: replaces every occurrence of a known secret (the API key) in text, or in every string of a
 * parsed JSON value, by {@link REDACTED}. It is applied to a response body as soon as it is read, before anything
 * is parsed, truncated or stored in an error, so that no part of a secret that a service echoes leaves the process.
 *
 * @packageDocumentation
 */

/** What a secret is replaced with. */
export const REDACTED = "***";

/**
 * Replaces every occurrence of each secret in a text by {@link REDACTED}. Scrub before truncating: a secret cut in
 * two is no longer found.
 *
 * @param text - Any text.
 * @param secrets - The secrets to remove; empty strings and `undefined` are ignored.
 * @returns The text without any of the secrets.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let scrubbed = text;
  // Longest first, so that a secret containing another is replaced whole.
  for (const secret of usable(secrets)) scrubbed = scrubbed.split(secret).join(REDACTED);
  return scrubbed;
}

/**
 * {@link scrubSecrets} over every string of a JSON-like value (object keys included), returning a copy; a value
 * without strings is returned as is.
 *
 * @param value - A parsed JSON value (or anything made of objects, arrays and primitives).
 * @param secrets - The secrets to remove.
 * @returns The value with every string scrubbed.
 */
export function scrubSecretsDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const list = usable(secrets);
  if (list.length === 0) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return scrubSecrets(node, list);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, entry]) => [scrubSecrets(key, list), walk(entry)]));
    }
    return node;
  };
  return walk(value) as T;
}

/**
 * A scrubber bound to a set of secrets: `(text) => text` without them.
 *
 * @param secrets - The secrets to remove.
 * @returns The scrubbing function.
 */
export function createSecretScrubber(secrets: readonly (string | undefined)[]): (text: string) => string {
  const list = usable(secrets);
  return (text) => (list.length === 0 ? text : scrubSecrets(text, list));
}

function usable(secrets: readonly (string | undefined)[]): string[] {
  return [...new Set(secrets.filter((secret): secret is string => typeof secret === "string" && secret !== ""))].sort(
    (a, b) => b.length - a.length,
  );
}
