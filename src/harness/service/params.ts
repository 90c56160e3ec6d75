/**
 * The local service's reading of request parameters (query strings, JSON bodies and MCP tool arguments
 * alike): each `read…Param` takes the raw value and either returns the typed value or throws a 400
 * {@link ServiceHttpError} naming the parameter. They answer as a server does; the kit's own input dialect
 * (`src/inputs/`, `parse…`, throwing `InvalidArgumentError`) is a different thing with different names.
 *
 * @packageDocumentation
 */
import { resolveChain } from "../../config/chains.js";
import { DEFAULT_TRUST_ENCODING, type TierName } from "../../config/encodings.js";
import { DEFAULT_REGISTRY, REGISTRIES } from "../../config/service.js";
import { UnknownChainError } from "../../errors.js";
import { hasAddressShape, hasSolanaAddressShape } from "../../inputs/address.js";
import { badRequest } from "./http-error.js";

/** A raw parameter: a query-string value (`null` when absent) or a JSON value. */
export type RawParam = unknown;

/**
 * Whether a raw parameter is absent (`null`, `undefined` or an empty string).
 *
 * @param value - Raw value.
 * @returns `true` when absent.
 */
export function isAbsent(value: RawParam): value is null | undefined | "" {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/**
 * A required string parameter.
 *
 * @param value - Raw value.
 * @param name - Parameter name, for the message.
 * @returns The trimmed string.
 */
export function requireString(value: RawParam, name: string): string {
  if (isAbsent(value)) throw badRequest(`Missing required parameter "${name}"`);
  if (typeof value !== "string" && typeof value !== "number") throw badRequest(`Parameter "${name}" must be a string`);
  return String(value).trim();
}

/**
 * An agent id: a non-negative integer below 2^53, given as a JSON number or a decimal string.
 *
 * @param value - Raw value.
 * @param name - Parameter name (`id`, `agent_id`, …).
 * @returns The id.
 */
export function readAgentIdParam(value: RawParam, name = "id"): number {
  if (isAbsent(value)) throw badRequest(`Missing required parameter "${name}"`);
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw badRequest(`Invalid ${name} "${String(value)}": expected a non-negative integer below 2^53`);
  }
  return Number(text);
}

/**
 * A chain: slug, alias or numeric chain id; answers 400 for an unknown chain, naming the closest slug.
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @returns The service's slug.
 */
export function readChainParam(value: RawParam, name = "chain"): string {
  const text = requireString(value, name);
  try {
    return resolveChain(text).slug;
  } catch (error) {
    if (error instanceof UnknownChainError) {
      throw badRequest(`Unknown ${name} "${text}".${error.suggestion ? ` Did you mean "${error.suggestion}"?` : ""}`);
    }
    throw error;
  }
}

/**
 * An optional chain.
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @returns The slug, or `undefined` when absent.
 */
export function readOptionalChainParam(value: RawParam, name = "chain"): string | undefined {
  return isAbsent(value) ? undefined : readChainParam(value, name);
}

/**
 * A registry (case-insensitive); `erc8004` when absent.
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @returns The registry name.
 */
export function readRegistryParam(value: RawParam, name = "registry"): string {
  if (isAbsent(value)) return DEFAULT_REGISTRY;
  const text = requireString(value, name).toLowerCase();
  if (!(REGISTRIES as readonly string[]).includes(text)) {
    throw badRequest(`Unknown ${name} "${String(value)}"; expected one of ${REGISTRIES.join(", ")}`);
  }
  return text;
}

/**
 * An optional registry filter.
 *
 * @param value - Raw value.
 * @returns The registry, or `undefined` when absent.
 */
export function readOptionalRegistryParam(value: RawParam): string | undefined {
  return isAbsent(value) ? undefined : readRegistryParam(value);
}

/**
 * An optional integer in a range.
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @param min - Smallest accepted value.
 * @param max - Largest accepted value.
 * @returns The integer, or `undefined` when absent.
 */
export function readOptionalIntegerParam(value: RawParam, name: string, min: number, max: number): number | undefined {
  if (isAbsent(value)) return undefined;
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const number = Number(text);
  if (!/^-?\d+$/.test(text) || number < min || number > max) {
    throw badRequest(`Invalid ${name} "${String(value)}": expected an integer from ${min} to ${max}`);
  }
  return number;
}

/**
 * A threshold: an integer 0–100, or `null` when absent.
 *
 * @param value - Raw value.
 * @returns The threshold or `null`.
 */
export function readThresholdParam(value: RawParam): number | null {
  return readOptionalIntegerParam(value, "threshold", 0, 100) ?? null;
}

/**
 * An EVM address (`0x` and 40 hex digits, any case).
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @returns The address in lowercase.
 */
export function readAddressParam(value: RawParam, name = "address"): `0x${string}` {
  const text = requireString(value, name);
  if (!hasAddressShape(text)) {
    throw badRequest(`Invalid ${name} "${text}": expected 0x followed by 40 hexadecimal digits`);
  }
  return text.toLowerCase() as `0x${string}`;
}

/**
 * A wallet: an EVM address (returned in lowercase) or a Solana address (base58, 32–44 characters, kept as is).
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @returns The wallet.
 */
export function readWalletParam(value: RawParam, name = "wallet"): string {
  const text = requireString(value, name);
  if (hasAddressShape(text)) return text.toLowerCase();
  if (hasSolanaAddressShape(text)) return text;
  throw badRequest(`Invalid ${name} "${text}": expected 0x followed by 40 hexadecimal digits, or a base58 Solana address`);
}

/**
 * A boolean flag (`true`/`false`/`1`/`0`/`yes`/`no`); `false` when absent.
 *
 * @param value - Raw value.
 * @param name - Parameter name.
 * @returns The flag.
 */
export function readFlagParam(value: RawParam, name: string): boolean {
  if (isAbsent(value)) return false;
  if (typeof value === "boolean") return value;
  const text = String(value).trim().toLowerCase();
  if (["true", "1", "yes"].includes(text)) return true;
  if (["false", "0", "no"].includes(text)) return false;
  throw badRequest(`Invalid ${name} "${String(value)}": expected true or false`);
}

/**
 * An optional tier name.
 *
 * @param value - Raw value.
 * @returns The tier, or `undefined` when absent.
 */
export function readOptionalTierParam(value: RawParam): TierName | undefined {
  if (isAbsent(value)) return undefined;
  const text = requireString(value, "tier").toLowerCase();
  const tier = DEFAULT_TRUST_ENCODING.tiers.find((t) => t === text);
  if (!tier) throw badRequest(`Invalid tier "${text}"; expected one of ${DEFAULT_TRUST_ENCODING.tiers.join(", ")}`);
  return tier;
}

/**
 * An MCP server's canonical id, `<owner>/<name>`.
 *
 * @param value - Raw value.
 * @returns The id.
 */
export function readCanonicalIdParam(value: RawParam): string {
  const text = requireString(value, "canonical_id");
  if (!/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/.test(text)) {
    throw badRequest(`Invalid canonical_id "${text}": expected <owner>/<name>`);
  }
  return text;
}

/**
 * An MCP server for `/api/mcp-attestation?server=`: `<owner>/<name>` or an http(s) URL.
 *
 * @param value - Raw value.
 * @returns The server, as given (trimmed).
 */
export function readMcpServerParam(value: RawParam): string {
  const text = requireString(value, "server");
  if (/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/.test(text)) return text;
  if (URL.canParse(text) && /^https?:$/.test(new URL(text).protocol)) return text;
  throw badRequest(`Invalid server "${text}": expected <owner>/<name> or an http(s) URL`);
}

/** One `<chain>:<id>` (or `<chain>:<id>:<registry>`) entry of a comparison list. */
export interface AgentSpec {
  /** Chain slug. */
  readonly chain: string;
  /** Agent id. */
  readonly agentId: number;
  /** Registry. */
  readonly registry: string;
}

/**
 * A comparison list: 2–10 comma-separated `<chain>:<id>` entries (an optional third part names the registry).
 *
 * @param value - Raw value.
 * @returns The entries, in the order given.
 */
export function readAgentListParam(value: RawParam): AgentSpec[] {
  const text = requireString(value, "agents");
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length < 2 || parts.length > 10) {
    throw badRequest(`Parameter "agents" must list 2 to 10 agents as <chain>:<id>, got ${parts.length}`);
  }
  return parts.map((part) => {
    const fields = part.split(":");
    if (fields.length < 2 || fields.length > 3) {
      throw badRequest(`Invalid agent "${part}" in "agents": expected <chain>:<id>`);
    }
    return {
      chain: readChainParam(fields[0], "chain"),
      agentId: readAgentIdParam(fields[1], "id"),
      registry: readRegistryParam(fields[2]),
    };
  });
}

/**
 * A JSON object request body. A `Content-Type` other than JSON, malformed JSON or a non-object answers 400.
 *
 * @param text - The body.
 * @param contentType - The `Content-Type` header, if any.
 * @returns The object.
 */
export function readJsonObjectBodyParam(text: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType !== undefined && !/\bjson\b/i.test(contentType)) {
    throw badRequest(`Content-Type must be application/json, got "${contentType}"`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest("Request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("Request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
