/**
 * Client-side checks of the API client's arguments, so that a bad agent id, chain slug, address or limit
 * fails at once with a clear {@link InvalidArgumentError} (or {@link UnknownChainError} with a suggestion)
 * instead of costing a request and coming back as a 400.
 *
 * @packageDocumentation
 */
import { resolveChain } from "../config/chains.js";
import { REGISTRIES, type RegistryName } from "../config/service.js";
import { InvalidArgumentError } from "../errors.js";

/** An agent id as callers give it: a non-negative integer as a number, bigint or decimal string. */
export type AgentIdInput = number | bigint | string;

/** A chain as callers give it: slug, alias (`bsc`) or EVM chain id. */
export type ChainInput = string | number;

/** An agent reference for `compare`: `{ id, chain }` or the service's `"<chain>:<id>"` form. */
export type AgentRefInput = { id: AgentIdInput; chain: ChainInput } | string;

/**
 * Checks an agent id.
 *
 * @param id - The id.
 * @param name - Argument name for the message.
 * @returns The id as a decimal string without leading zeros.
 * @throws {@link InvalidArgumentError} unless it is a non-negative integer.
 */
export function checkAgentId(id: AgentIdInput, name = "id"): string {
  if (typeof id === "number") {
    if (Number.isSafeInteger(id) && id >= 0) return String(id);
  } else if (typeof id === "bigint") {
    if (id >= 0n) return id.toString();
  } else if (typeof id === "string" && /^\d+$/.test(id.trim())) {
    return BigInt(id.trim()).toString();
  }
  throw new InvalidArgumentError(`${name} must be a non-negative integer agent id, got ${describe(id)}`);
}

/**
 * Checks a chain and returns the service's slug for it.
 *
 * @param chain - Slug, alias or EVM chain id.
 * @param name - Argument name for the message.
 * @returns The slug (`base`, `ethereum`, …).
 * @throws {@link UnknownChainError} (with the closest slug as a suggestion) for an unknown chain,
 *   {@link InvalidArgumentError} for a value that is not a string or number.
 */
export function checkChain(chain: ChainInput, name = "chain"): string {
  if ((typeof chain !== "string" || chain.trim() === "") && typeof chain !== "number") {
    throw new InvalidArgumentError(`${name} must be a chain slug or id, got ${describe(chain)}`);
  }
  return resolveChain(chain).slug;
}

/**
 * Checks a registry name.
 *
 * @param registry - Registry name (case-insensitive).
 * @returns The lower-case name.
 * @throws {@link InvalidArgumentError} for a registry the kit does not know.
 */
export function checkRegistry(registry: string): RegistryName {
  const key = typeof registry === "string" ? registry.trim().toLowerCase() : "";
  if ((REGISTRIES as readonly string[]).includes(key)) return key as RegistryName;
  throw new InvalidArgumentError(`Unknown registry ${describe(registry)}`, { details: `Known: ${REGISTRIES.join(", ")}` });
}

/**
 * Checks an EVM address (`0x` and 40 hex digits; checksum case is not enforced).
 *
 * @param address - The address.
 * @param name - Argument name for the message.
 * @returns The address, trimmed.
 * @throws {@link InvalidArgumentError} when it is not `0x` + 40 hex digits.
 */
export function checkAddress(address: string, name = "address"): `0x${string}` {
  const value = typeof address === "string" ? address.trim() : "";
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return value as `0x${string}`;
  throw new InvalidArgumentError(`${name} must be an address (0x followed by 40 hex digits), got ${describe(address)}`);
}

/**
 * Checks a wallet: an EVM address or a Solana address (base58, 32–44 characters).
 *
 * @param wallet - The wallet.
 * @param name - Argument name for the message.
 * @returns The wallet, trimmed.
 * @throws {@link InvalidArgumentError} when it is neither.
 */
export function checkWallet(wallet: string, name = "wallet"): string {
  const value = typeof wallet === "string" ? wallet.trim() : "";
  if (/^0x[0-9a-fA-F]{40}$/.test(value) || /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return value;
  throw new InvalidArgumentError(`${name} must be an EVM address (0x + 40 hex digits) or a base58 Solana address, got ${describe(wallet)}`);
}

/**
 * Checks a score threshold (0–100).
 *
 * @param threshold - The threshold.
 * @returns The threshold.
 * @throws {@link InvalidArgumentError} outside 0–100 or not a finite number.
 */
export function checkThreshold(threshold: number): number {
  if (typeof threshold === "number" && Number.isFinite(threshold) && threshold >= 0 && threshold <= 100) return threshold;
  throw new InvalidArgumentError(`threshold must be a number from 0 to 100, got ${describe(threshold)}`);
}

/**
 * Checks an integer in a range (page sizes, minimum scores).
 *
 * @param value - The value.
 * @param name - Argument name for the message.
 * @param min - Smallest allowed value.
 * @param max - Largest allowed value.
 * @returns The value.
 * @throws {@link InvalidArgumentError} when it is not an integer in `[min, max]`.
 */
export function checkIntegerInRange(value: number, name: string, min: number, max: number): number {
  if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
  throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got ${describe(value)}`);
}

/**
 * Checks an MCP server's canonical id (`<owner>/<name>`).
 *
 * @param canonicalId - The id.
 * @returns The id, trimmed.
 * @throws {@link InvalidArgumentError} when it is not of the form `<owner>/<name>`.
 */
export function checkCanonicalId(canonicalId: string): string {
  const value = typeof canonicalId === "string" ? canonicalId.trim() : "";
  if (/^[^/\s]+\/[^/\s]+$/.test(value)) return value;
  throw new InvalidArgumentError(`canonicalId must be of the form <owner>/<name>, got ${describe(canonicalId)}`);
}

/**
 * Checks one agent reference of a comparison.
 *
 * @param ref - `{ id, chain }` or `"<chain>:<id>"`.
 * @param index - Position in the list, for the message.
 * @returns The service's `"<chain>:<id>"` form, with the chain as a slug.
 * @throws {@link InvalidArgumentError} or {@link UnknownChainError}.
 */
export function checkAgentRef(ref: AgentRefInput, index: number): string {
  if (typeof ref === "string") {
    const match = /^([^:]+):(.+)$/.exec(ref.trim());
    if (!match) throw new InvalidArgumentError(`agents[${index}] must be "<chain>:<id>", got ${describe(ref)}`);
    return `${checkChain(match[1]!, `agents[${index}].chain`)}:${checkAgentId(match[2]!, `agents[${index}].id`)}`;
  }
  if (typeof ref !== "object" || ref === null) {
    throw new InvalidArgumentError(`agents[${index}] must be { id, chain } or "<chain>:<id>", got ${describe(ref)}`);
  }
  return `${checkChain(ref.chain, `agents[${index}].chain`)}:${checkAgentId(ref.id, `agents[${index}].id`)}`;
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === "bigint") return `${value}n`;
  return String(value);
}

/**
 * An agent id (as returned by {@link checkAgentId}) for a JSON body: a number when it is a safe integer
 * (every id the service issues), else the decimal string.
 *
 * @param id - Decimal agent id.
 * @returns The JSON value.
 */
export function agentIdToJson(id: string): number | string {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}
