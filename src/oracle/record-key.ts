/**
 * The key of one oracle record — `(agentId, chainId, registry)`, as `getScore` takes it — and its input
 * form. This is not an agent reference (no slug; any numeric chain id): an EVM `AgentRef` becomes a
 * record key here, in {@link recordKeyOf}, and nowhere else. Values are checked by the kit's one input
 * dialect (`src/inputs/`).
 *
 * @packageDocumentation
 */
import { encodePacked, type Hex, keccak256 } from "viem";
import { type EvmAgentRef, formatAgentRef } from "../agent/agent-ref.js";
import { chainSlugOf } from "../config/chains.js";
import { InvalidArgumentError } from "../errors.js";
import { parseAgentId } from "../inputs/agent-id.js";
import { parseChainId, parseEvmChain } from "../inputs/chain.js";
import { describeInput } from "../inputs/describe.js";
import { parseRegistry } from "../inputs/registry.js";

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
  /** The agent's id: a non-negative integer as a bigint, a safe-integer number, or a decimal string. */
  readonly agentId: bigint | number | string;
  /** The numeric id of the chain the agent is registered on (any positive safe integer). */
  readonly chainId?: number | bigint | undefined;
  /** The chain as the service names it (`"base"`, `"bsc"`…) or a chain id the kit knows (`8453`). */
  readonly chain?: string | number | undefined;
  /** The registry name (one of the service's, any case); default `erc8004`. */
  readonly registry?: string | undefined;
}

/**
 * Parses and normalizes a record key.
 *
 * @param input - The key as given.
 * @param label - The argument's name, for error messages (for example `keys[3]`).
 * @returns The normalized key.
 * @throws {@link InvalidArgumentError} for a bad agent id, chain id or registry, a missing chain, a non-EVM
 *   chain, or `chain` and `chainId` that disagree; `UnknownChainError` for an unknown chain slug.
 */
export function parseTrustRecordKey(input: TrustRecordKeyInput, label = "key"): TrustRecordKey {
  if (typeof input !== "object" || input === null) {
    throw new InvalidArgumentError(`Invalid ${label}: expected { agentId, chainId | chain, registry? }`);
  }
  const agentId = parseAgentId(input.agentId, `${label}.agentId`);
  const registry = parseRegistry(input.registry, `${label}.registry`);
  const fromId = input.chainId === undefined ? undefined : parseChainId(input.chainId, `${label}.chainId`);
  const fromSlug = input.chain === undefined ? undefined : parseEvmChain(input.chain, `${label}.chain`).chainId;
  if (fromId === undefined && fromSlug === undefined) {
    throw new InvalidArgumentError(`Invalid ${label}: give the agent's chain as chainId or chain`);
  }
  if (fromId !== undefined && fromSlug !== undefined && fromId !== fromSlug) {
    throw new InvalidArgumentError(
      `Invalid ${label}: chain ${describeInput(input.chain)} is chain id ${fromSlug}, but chainId is ${fromId}`,
    );
  }
  return { agentId, chainId: (fromId ?? fromSlug)!, registry };
}

/**
 * The oracle record key of an agent on an EVM chain — the one conversion from an agent reference.
 *
 * @param agent - The agent.
 * @returns Its record key.
 */
export function recordKeyOf(agent: EvmAgentRef): TrustRecordKey {
  return { agentId: agent.agentId, chainId: agent.chainId, registry: agent.registry };
}

/**
 * Names the agent of a record key as reports name agents, with {@link formatAgentRef}: `chain:id:registry` by the
 * service's chain slug (`base:1234:erc8004`); a chain the service does not cover keeps its numeric id
 * (`31337:1234:erc8004`).
 *
 * @param key - The record key.
 * @returns The text.
 */
export function formatRecordKey(key: Pick<TrustRecordKey, "agentId" | "chainId" | "registry">): string {
  let chain: string;
  try {
    chain = chainSlugOf(key.chainId);
  } catch {
    chain = String(key.chainId);
  }
  return formatAgentRef({ chain, agentId: key.agentId, registry: key.registry });
}

/**
 * The oracle's own key of a record, as its events carry it (`RecordAdded`, `RecordUpdated`, `RecordSignedBy`):
 * `keccak256(abi.encodePacked(agentId, chainId, registry))`.
 *
 * @param key - The record key (an EVM agent reference converts with {@link recordKeyOf}).
 * @returns The 32-byte key.
 */
export function recordKeyHash(key: { readonly agentId: bigint; readonly chainId: number | bigint; readonly registry: string }): Hex {
  return keccak256(encodePacked(["uint256", "uint256", "string"], [key.agentId, BigInt(key.chainId), key.registry]));
}
