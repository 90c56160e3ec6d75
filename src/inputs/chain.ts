/**
 * Chains, as every entry point accepts them: the service's slug, an alias people type (`bsc`, `op`), or an
 * EVM chain id the kit knows — and, where only a number is needed (the oracle's record keys), any positive
 * chain id. An unknown name is an {@link UnknownChainError} that suggests the closest slug.
 *
 * @packageDocumentation
 */
import { resolveChain, type TrustChain } from "../config/chains.js";
import { InvalidArgumentError } from "../errors.js";
import { describeInput } from "./describe.js";

/** A chain as callers give it: slug, alias or EVM chain id. */
export type ChainInput = string | number;

/**
 * Parses a chain.
 *
 * @param value - Slug, alias (case-insensitive) or EVM chain id (a number or a decimal string).
 * @param label - The argument's name, for the error message.
 * @returns The chain (its `slug` is what the service's API takes).
 * @throws {@link UnknownChainError} (with the closest slug as a suggestion) for a chain the kit does not
 *   know; {@link InvalidArgumentError} for a value that is not a non-empty string or a number.
 */
export function parseChain(value: unknown, label = "chain"): TrustChain {
  if ((typeof value !== "string" || value.trim() === "") && typeof value !== "number") {
    throw new InvalidArgumentError(`Invalid ${label} ${describeInput(value)}: expected a chain slug or id`);
  }
  return resolveChain(value);
}

/**
 * Parses a chain that must be an EVM chain (one the oracle can hold records for).
 *
 * @param value - Slug, alias or chain id.
 * @param label - The argument's name, for the error message.
 * @returns The chain, with its `chainId`.
 * @throws As {@link parseChain}; {@link InvalidArgumentError} for a chain that is not an EVM chain (Solana).
 */
export function parseEvmChain(value: unknown, label = "chain"): TrustChain & { readonly chainId: number } {
  const chain = parseChain(value, label);
  if (chain.chainId === undefined) {
    throw new InvalidArgumentError(`Invalid ${label} "${chain.slug}": not an EVM chain, so it has no oracle records`);
  }
  return chain as TrustChain & { readonly chainId: number };
}

/**
 * Parses a numeric chain id (any EVM chain, known to the kit or not).
 *
 * @param value - A positive safe integer, as a number or a bigint.
 * @param label - The argument's name, for the error message.
 * @returns The chain id.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseChainId(value: unknown, label = "chainId"): number {
  const n = typeof value === "bigint" && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`Invalid ${label} ${describeInput(value)}: expected a positive integer chain id`);
  }
  return n;
}
