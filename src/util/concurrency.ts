/**
 * Bounded concurrency for async work.
 *
 * @packageDocumentation
 */

/**
 * Applies `fn` to every item with at most `limit` calls in flight; results keep the items' order.
 * `fn` should not throw (turn failures into values): a throw rejects the whole map.
 *
 * @param items - The inputs.
 * @param limit - Calls in flight at most (at least 1).
 * @param fn - The work, given the item and its index.
 * @returns The results, in input order.
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
