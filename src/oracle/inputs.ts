/**
 * Validation of what callers give the oracle reader: agent ids, addresses and record keys. Every problem is
 * an {@link InvalidArgumentError} naming the argument (or an {@link UnknownChainError} for a chain slug the
 * kit does not know), thrown before anything is sent to the chain.
 *
 * @packageDocumentation
 */
import { getAddress, isAddress, type Address } from "viem";
import { resolveChain } from "../config/chains.js";
import { DEFAULT_REGISTRY } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";

/** Largest uint256: the oracle's agent ids and chain ids are uint256. */
const MAX_UINT256 = (1n << 256n) - 1n;

/** The key of one oracle record, normalized. */
export interface TrustRecordKey {
  /** The agent's id in its registry (uint256). */
  readonly agentId: bigint;
  /** The numeric id of the chain the agent is registered on. */
  readonly chainId: number;
  /** The registry name, for example `erc8004`. */
  readonly registry: string;
}

/** The key of one oracle record, as a caller may give it. Give `chainId` or `chain` (or both, agreeing). */
export interface TrustRecordKeyInput {
  /** The agent's id: a non-negative integer as a bigint, a safe integer number, or a decimal or `0x` hex string. */
  readonly agentId: bigint | number | string;
  /** The numeric id of the chain the agent is registered on (any positive safe integer). */
  readonly chainId?: number | bigint | undefined;
  /** The chain as the service names it (`"base"`, `"bsc"`…) or a chain id the kit knows (`8453`). */
  readonly chain?: string | number | undefined;
  /** The registry name; default `erc8004`. */
  readonly registry?: string | undefined;
}

/**
 * Parses an agent id.
 *
 * @param value - A non-negative integer: bigint, safe integer number, or decimal / `0x` hex string.
 * @param label - The argument's name, for the error message.
 * @returns The id as a bigint.
 * @throws {@link InvalidArgumentError} when the value is not a non-negative integer that fits uint256.
 */
export function parseAgentId(value: unknown, label = "agentId"): bigint {
  let id: bigint | undefined;
  if (typeof value === "bigint") id = value;
  else if (typeof value === "number") {
    if (Number.isSafeInteger(value)) id = BigInt(value);
    else if (Number.isInteger(value) && value > 0) {
      throw new InvalidArgumentError(`Invalid ${label} ${value}: larger than Number.MAX_SAFE_INTEGER`, {
        details: "Pass large agent ids as a bigint or a decimal string, so that no digit is lost.",
      });
    }
  } else if (typeof value === "string") {
    const text = value.trim();
    if (/^\d+$/.test(text) || /^0x[0-9a-fA-F]+$/.test(text)) id = BigInt(text);
  }
  if (id === undefined || id < 0n || id > MAX_UINT256) {
    throw new InvalidArgumentError(`Invalid ${label} ${describe(value)}: expected a non-negative integer (uint256)`);
  }
  return id;
}

/**
 * Parses a contract or account address.
 *
 * @param value - A `0x` address: 40 hex digits, all lower case, all upper case, or with a valid EIP-55 checksum.
 * @param label - The argument's name, for the error message.
 * @returns The checksummed address.
 * @throws {@link InvalidArgumentError} for anything else, including a mixed-case address with a wrong checksum.
 */
export function parseAddress(value: unknown, label = "address"): Address {
  if (typeof value === "string") {
    const text = value.trim();
    if (isAddress(text, { strict: true })) return getAddress(text);
    if (isAddress(text, { strict: false })) {
      throw new InvalidArgumentError(`Invalid ${label} "${value}": the EIP-55 checksum does not match`, {
        details: "A mixed-case address must carry a valid checksum; check for a typo, or give it in lower case.",
      });
    }
  }
  throw new InvalidArgumentError(`Invalid ${label} ${describe(value)}: expected 0x followed by 40 hex digits`);
}

/**
 * Parses a chain id given as a number.
 *
 * @param value - A positive safe integer (number or bigint).
 * @param label - The argument's name, for the error message.
 * @returns The chain id.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseChainId(value: unknown, label = "chainId"): number {
  const n = typeof value === "bigint" && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`Invalid ${label} ${describe(value)}: expected a positive integer chain id`);
  }
  return n;
}

/**
 * Parses a registry name.
 *
 * @param value - A non-empty string without surrounding white space; `undefined` gives `erc8004`.
 * @param label - The argument's name, for the error message.
 * @returns The registry name.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseRegistry(value: unknown, label = "registry"): string {
  if (value === undefined) return DEFAULT_REGISTRY;
  if (typeof value !== "string" || value.length === 0 || value.trim() !== value) {
    throw new InvalidArgumentError(`Invalid ${label} ${describe(value)}: expected a registry name such as "erc8004"`);
  }
  return value;
}

/**
 * Parses and normalizes a record key.
 *
 * @param input - The key as given.
 * @param label - The argument's name, for error messages (for example `keys[3]`).
 * @returns The normalized key.
 * @throws {@link InvalidArgumentError} for a bad agent id, chain id or registry, a missing chain, a non-EVM
 *   chain, or `chain` and `chainId` that disagree; {@link UnknownChainError} for an unknown chain slug.
 */
export function parseTrustRecordKey(input: TrustRecordKeyInput, label = "key"): TrustRecordKey {
  if (typeof input !== "object" || input === null) {
    throw new InvalidArgumentError(`Invalid ${label}: expected { agentId, chainId | chain, registry? }`);
  }
  const agentId = parseAgentId(input.agentId, `${label}.agentId`);
  const registry = parseRegistry(input.registry, `${label}.registry`);
  const fromId = input.chainId === undefined ? undefined : parseChainId(input.chainId, `${label}.chainId`);
  let fromSlug: number | undefined;
  if (input.chain !== undefined) {
    if (typeof input.chain !== "string" && typeof input.chain !== "number") {
      throw new InvalidArgumentError(`Invalid ${label}.chain ${describe(input.chain)}: expected a chain slug or id`);
    }
    const chain = resolveChain(input.chain);
    if (chain.chainId === undefined) {
      throw new InvalidArgumentError(`Invalid ${label}.chain "${chain.slug}": not an EVM chain, so it has no oracle records`);
    }
    fromSlug = chain.chainId;
  }
  if (fromId === undefined && fromSlug === undefined) {
    throw new InvalidArgumentError(`Invalid ${label}: give the agent's chain as chainId or chain`);
  }
  if (fromId !== undefined && fromSlug !== undefined && fromId !== fromSlug) {
    throw new InvalidArgumentError(
      `Invalid ${label}: chain ${JSON.stringify(input.chain)} is chain id ${fromSlug}, but chainId is ${fromId}`,
    );
  }
  return { agentId, chainId: (fromId ?? fromSlug)!, registry };
}

/** A short rendering of a bad value for an error message. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "(an array)" : "(an object)";
}
