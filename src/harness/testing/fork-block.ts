/**
 * The Base block that forked test runs pin by default. Kept in a module without imports so that
 * `hardhat.config.ts` can read it too.
 *
 * @packageDocumentation
 */

/**
 * Default block at which Base is forked (about late March 2026). Pinned on purpose: Hardhat caches what a
 * fork reads from the RPC node per block (`cache/hardhat-network-fork`), so reruns at the same block are
 * deterministic and need no network for state already read. Override with `BASE_FORK_BLOCK`.
 */
export const DEFAULT_BASE_FORK_BLOCK = 44_000_000;

/**
 * The fork block selected by the environment: `BASE_FORK_BLOCK` when set, else {@link DEFAULT_BASE_FORK_BLOCK}.
 *
 * @param env - The environment; default `process.env`.
 * @returns The block number.
 * @throws Error when `BASE_FORK_BLOCK` is not a positive whole number.
 */
export function baseForkBlockFromEnv(env: Record<string, string | undefined> = process.env): number {
  const text = env.BASE_FORK_BLOCK?.trim();
  if (text === undefined || text === "") return DEFAULT_BASE_FORK_BLOCK;
  const block = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(block) || block <= 0) {
    throw new Error(`BASE_FORK_BLOCK must be a positive whole block number, got "${text}"`);
  }
  return block;
}
