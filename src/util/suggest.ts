/**
 * "Did you mean …?" suggestions for mistyped names (chain slugs, command-line flags).
 *
 * @packageDocumentation
 */

/**
 * Levenshtein distance between two strings.
 *
 * @param a - First string.
 * @param b - Second string.
 * @returns The number of single-character edits turning `a` into `b`.
 */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/**
 * The candidate closest to `input`: one `input` is a prefix of (when `input` has at least `minPrefix`
 * characters), else the nearest within `maxDistance` edits.
 *
 * @param input - What was typed.
 * @param candidates - Known names.
 * @param options - Largest edit distance (default 2) and shortest prefix accepted (default 3).
 * @returns The suggestion, if any.
 */
export function closestName(
  input: string,
  candidates: Iterable<string>,
  options: { readonly maxDistance?: number; readonly minPrefix?: number } = {},
): string | undefined {
  const maxDistance = options.maxDistance ?? 2;
  const minPrefix = options.minPrefix ?? 3;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = input.length >= minPrefix && candidate.startsWith(input) ? 0 : editDistance(input, candidate);
    if (distance <= maxDistance && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
