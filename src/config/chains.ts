/**
 * Chains the trust service covers: slug ↔ numeric chain id, with the aliases people type.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError, UnknownChainError } from "../errors.js";
import { closestName } from "../util/suggest.js";

/** One chain covered by the service. */
export interface TrustChain {
  /** The service's slug for the chain (the `chain` parameter of its API). */
  readonly slug: string;
  /** EVM chain id; `undefined` for a chain that is not an EVM chain (Solana). */
  readonly chainId: number | undefined;
  /** Other names accepted for the chain. */
  readonly aliases: readonly string[];
}

/**
 * The chains of the service. Monad (143) and MegaETH (4326) ids come from the service's public material
 * and are not yet confirmed against live data.
 *
 * @example
 * ```ts
 * import { TRUST_CHAINS } from "trustgate";
 *
 * for (const chain of TRUST_CHAINS) console.log(chain.slug, chain.chainId ?? "not an EVM chain", chain.aliases.join(", "));
 * ```
 */
export const TRUST_CHAINS: readonly TrustChain[] = [
  { slug: "ethereum", chainId: 1, aliases: ["eth", "mainnet", "ethereum-mainnet"] },
  { slug: "base", chainId: 8453, aliases: ["base-mainnet"] },
  { slug: "bnb", chainId: 56, aliases: ["bsc", "binance", "bnb-chain", "bnbchain"] },
  { slug: "gnosis", chainId: 100, aliases: ["xdai"] },
  { slug: "avalanche", chainId: 43114, aliases: ["avax", "avalanche-c"] },
  { slug: "celo", chainId: 42220, aliases: [] },
  { slug: "arbitrum", chainId: 42161, aliases: ["arb", "arbitrum-one"] },
  { slug: "polygon", chainId: 137, aliases: ["matic", "pol"] },
  { slug: "optimism", chainId: 10, aliases: ["op", "op-mainnet"] },
  { slug: "monad", chainId: 143, aliases: [] },
  { slug: "megaeth", chainId: 4326, aliases: ["mega-eth"] },
  { slug: "solana", chainId: undefined, aliases: ["sol"] },
];

/**
 * The chain slugs an `AttestedTrustOracle` is deployed with (its constructor seeds them; its admin may add or remove
 * slugs with `setChainSlug`), with the chain id each maps to: every EVM chain of {@link TRUST_CHAINS}, by its slug
 * exactly as the service writes it in a signed block's `chain` (no alias, no other case or spelling). A signed block
 * naming any other chain (`solana`, `Base`, `bäse`) is refused on-chain with `UnknownChainSlug`.
 *
 * @example
 * ```ts
 * import { ORACLE_CHAIN_SLUGS } from "trustgate";
 *
 * console.log(ORACLE_CHAIN_SLUGS.get("base")); // 8453: the slug an attested oracle stores a record under
 * console.log([...ORACLE_CHAIN_SLUGS.keys()].join(", "));
 * ```
 */
export const ORACLE_CHAIN_SLUGS: ReadonlyMap<string, number> = new Map(
  TRUST_CHAINS.flatMap((chain) => (chain.chainId === undefined ? [] : [[chain.slug, chain.chainId] as const])),
);

const bySlug = new Map(TRUST_CHAINS.map((c) => [c.slug, c]));
const byAlias = new Map(TRUST_CHAINS.flatMap((c) => c.aliases.map((a) => [a, c] as const)));
const byId = new Map(TRUST_CHAINS.filter((c) => c.chainId !== undefined).map((c) => [c.chainId!, c]));

/**
 * Finds a chain by slug, alias or numeric id (given as a number or a decimal string).
 *
 * @param chain - For example `"base"`, `"bsc"`, `8453` or `"8453"`.
 * @returns The chain.
 * @throws {@link UnknownChainError} with the closest known slug as a suggestion.
 */
export function resolveChain(chain: string | number): TrustChain {
  if (typeof chain === "number" || /^\d+$/.test(chain.trim())) {
    const found = byId.get(Number(chain));
    if (found) return found;
    throw new UnknownChainError(String(chain), undefined, [...bySlug.keys()]);
  }
  const key = chain.trim().toLowerCase();
  const found = bySlug.get(key) ?? byAlias.get(key);
  if (found) return found;
  throw new UnknownChainError(chain, suggestChain(key), [...bySlug.keys()]);
}

/**
 * The EVM chain id of a chain.
 *
 * @param chain - Slug, alias or id.
 * @returns The chain id.
 * @throws {@link UnknownChainError} for an unknown chain, {@link InvalidArgumentError} for a non-EVM chain.
 */
export function chainIdOf(chain: string | number): number {
  const found = resolveChain(chain);
  if (found.chainId === undefined) {
    throw new InvalidArgumentError(`Chain "${found.slug}" is not an EVM chain and has no chain id`);
  }
  return found.chainId;
}

/**
 * The service's slug of an EVM chain id.
 *
 * @param chainId - EVM chain id.
 * @returns The slug.
 * @throws {@link UnknownChainError} when the service does not cover the chain.
 */
export function chainSlugOf(chainId: number | bigint): string {
  return resolveChain(Number(chainId)).slug;
}

/** The known slug closest to `input` (a name it starts with, a name starting with it, or ≤ 2 edits away). */
function suggestChain(input: string): string | undefined {
  const slugByName = new Map(TRUST_CHAINS.flatMap((c) => [c.slug, ...c.aliases].map((name) => [name, c.slug] as const)));
  const containing = [...slugByName.keys()].find((name) => input.startsWith(name));
  const match = containing ?? closestName(input, slugByName.keys(), { minPrefix: 1 });
  return match === undefined ? undefined : slugByName.get(match);
}
