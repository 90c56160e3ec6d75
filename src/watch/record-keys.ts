/**
 * The watch's map of record keys to agents. `RecordUpdated` and `RecordSignedBy` carry only the record key
 * (`keccak256(abi.encodePacked(agentId, chainId, registry))`); the agent is named by the key's `RecordAdded` (or
 * `RecordRemoved`), by the listing or by the audit. A key names one agent for good (it is a hash of the agent), so an
 * entry is never wrong, whatever chain it was learned on.
 *
 * Memory: one entry per record key (bounded by the population, not by time), keyed by the key as a number (compact,
 * not the 66-character text); the chain and registry names are shared between entries. Measured: about 175 bytes a key
 * (150,000 keys: about 26 MB).
 *
 * @packageDocumentation
 */
import type { Hex } from "viem";
import type { AgentRef } from "../agent/agent-ref.js";
import { chainSlugOf } from "../config/chains.js";
import { InvalidArgumentError } from "../errors.js";

/** Distinct chain and registry names shared between agents (the oracle names a handful; more are kept as they come). */
const SHARED_NAMES = 256;

const RECORD_KEY = /^0x[0-9a-fA-F]{64}$/;

/** Record keys and their agents. */
export interface RecordKeyMap {
  /**
   * The agent of a record key.
   *
   * @param key - The record key (any case).
   * @returns The agent, or `null` when none was learned (or `key` is not 32 bytes of hex).
   */
  agentOf(key: Hex): AgentRef | null;
  /**
   * Learns a record key's agent.
   *
   * @param key - The record key.
   * @param agent - Its agent.
   * @returns The agent as kept (its names shared).
   * @throws {@link InvalidArgumentError} when `key` is not 32 bytes of hex.
   */
  learn(key: Hex, agent: AgentRef): AgentRef;
  /** How many keys are known. */
  readonly size: number;
}

/**
 * Whether a value is a record key: 32 bytes of hex, `0x`-prefixed.
 *
 * @param value - Anything.
 * @returns True for a record key.
 */
export function isRecordKey(value: unknown): value is Hex {
  return typeof value === "string" && RECORD_KEY.test(value);
}

/**
 * Creates an empty map.
 *
 * @returns The map.
 */
export function createRecordKeyMap(): RecordKeyMap {
  const agents = new Map<bigint, AgentRef>();
  const names = new Map<string, string>();
  /** One copy of each chain and registry name (a decoded event brings a fresh string each time). */
  const shared = (name: string): string => {
    const known = names.get(name);
    if (known !== undefined) return known;
    if (names.size < SHARED_NAMES) names.set(name, name);
    return name;
  };
  return {
    agentOf(key) {
      return isRecordKey(key) ? (agents.get(BigInt(key)) ?? null) : null;
    },
    learn(key, agent) {
      if (!isRecordKey(key)) throw new InvalidArgumentError(`a record key is 32 bytes of hex, got ${String(key)}`);
      const kept: AgentRef = {
        chain: shared(agent.chain),
        chainId: agent.chainId,
        agentId: agent.agentId,
        registry: shared(agent.registry),
      };
      agents.set(BigInt(key), kept);
      return kept;
    },
    get size() {
      return agents.size;
    },
  };
}

/**
 * The agent an oracle event names (`RecordAdded`, `RecordRemoved`): its chain by the service's slug when the kit knows
 * the chain id, else by the id itself (`chainId` then `null` when the id is beyond a safe integer).
 *
 * @param agentId - The event's agent id.
 * @param chainId - The event's chain id.
 * @param registry - The event's registry name.
 * @returns The agent.
 */
export function agentOfRecordEvent(agentId: bigint, chainId: bigint, registry: string): AgentRef {
  const id = Number(chainId);
  if (!Number.isSafeInteger(id)) return { chain: chainId.toString(), chainId: null, agentId, registry };
  let chain: string;
  try {
    chain = chainSlugOf(id);
  } catch {
    chain = String(id);
  }
  return { chain, chainId: id, agentId, registry };
}
