/**
 * Stage 1, enumerate: which agents the scan covers. The only stage in which the two scopes differ: an
 * explicit list ({@link enumerateList}) or every agent the service lists, plus, when asked, every record the
 * oracle's events announce ({@link enumerateListing}). Agents the oracle cannot hold a record for (not on an
 * EVM chain) are set aside with the reason their row will give.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { type AgentRef, agentKey, type EvmAgentRef, isEvmAgent } from "../../agent/agent-ref.js";
import type { TrustApiClient } from "../../api/client.js";
import type { AgentListItem } from "../../published/index.js";
import { parseServiceTime } from "../../attestation/time.js";
import { chainSlugOf, resolveChain } from "../../config/chains.js";
import { DEFAULT_REGISTRY } from "../../config/service.js";
import { messageOf } from "../../errors.js";
import { inspectRegistry } from "../../inputs/registry.js";
import { listOracleKeys } from "../../oracle/events.js";
import type { AnyClient } from "../../oracle/client.js";
import type { TrustRecordKey } from "../../oracle/record-key.js";
import type { ScanProgress } from "../progress.js";
import type { ServiceData } from "../service-data.js";
import { ENUMERATION_SOURCE_NAMES } from "../onchain-enumeration.js";
import type { OnchainEnumerationSource, TriageSummary } from "../types.js";

/** An agent the scan reads and compares. */
export interface Candidate {
  readonly agent: EvmAgentRef;
  /**
   * What the service's listing says about it: absent when the scope has no listing (an explicit list),
   * `null` when the listing lacks the agent (found through the oracle's events).
   */
  readonly listed?: Partial<ServiceData> | null;
}

/** An agent the oracle cannot hold a record for, and the reason its row gives. */
export interface Unscannable {
  readonly agent: AgentRef;
  readonly reason: string;
}

/** The agents of a scan. */
export interface Enumeration {
  readonly candidates: readonly Candidate[];
  readonly unscannable: readonly Unscannable[];
  /** What the listing gave (absent for an explicit list). */
  readonly listing?: {
    /** Entries the listing returned. */
    readonly listed: number;
    /** Records found by replaying the oracle's events, when asked. */
    readonly onchainEnumeration?: TriageSummary["onchainEnumeration"];
  };
}

/**
 * Enumerates an explicit list: agents on EVM chains are candidates, in order; the others are set aside.
 *
 * @param agents - The agents.
 * @returns The enumeration.
 */
export function enumerateList(agents: readonly AgentRef[]): Enumeration {
  return {
    candidates: agents.filter(isEvmAgent).map((agent) => ({ agent })),
    unscannable: agents
      .filter((agent) => !isEvmAgent(agent))
      .map((agent) => ({ agent, reason: `chain "${agent.chain}" is not an EVM chain: the oracle holds no records for it` })),
  };
}

/** An oracle whose `RecordAdded`/`RecordRemoved` events an `--all` scan replays to find records the listing lacks. */
export interface OnchainEventSource {
  readonly oracle: Address;
  /** Its part in the run: the oracle read, the attested oracle read, or that attested oracle's upstream. */
  readonly role: OnchainEnumerationSource["role"];
  /** Replay from this block (up to the pinned block); absent when skipped. */
  readonly fromBlock?: bigint;
  /** Why it is not replayed, when `fromBlock` is absent. */
  readonly skipped?: string;
}

/** What {@link enumerateListing} needs. */
export interface EnumerateListingOptions {
  readonly api: TrustApiClient;
  /** Restrict the listing (and the event replay) to one chain (slug). */
  readonly chainFilter?: string;
  /**
   * The oracles whose events announce the records read, each replayed from its own block or skipped with a reason
   * (an attested oracle's own records, and its upstream's); absent: records the listing lacks are not looked for.
   */
  readonly eventSources?: readonly OnchainEventSource[];
  /** The scan's pinned block: the replay stops there. */
  readonly blockNumber?: bigint;
  /** Client of the chain that hosts the oracle (for the event replay). */
  readonly chain: AnyClient;
  readonly oracle: Address;
  readonly onProgress?: (progress: ScanProgress) => void;
}

/**
 * Enumerates every agent the service lists (once each, first listing wins), and, when asked, the oracle's
 * records that the listing lacks.
 *
 * @param options - API, chain filter, event replay and progress.
 * @returns The enumeration; a failed event replay is recorded in it, not thrown.
 */
export async function enumerateListing(options: EnumerateListingOptions): Promise<Enumeration> {
  const candidates: Candidate[] = [];
  const unscannable: Unscannable[] = [];
  const seen = new Set<string>();
  let listed = 0;
  for await (const item of options.api.iterateAgents({ chain: options.chainFilter || undefined, limit: 1000 })) {
    listed++;
    if (listed % 1000 === 0) options.onProgress?.({ stage: "listing", done: listed, total: listed });
    const agent = listedAgent(item);
    if (!isEvmAgent(agent)) {
      unscannable.push({ agent, reason: `chain "${agent.chain}" is not an EVM chain the oracle can hold records for` });
      continue;
    }
    const registry = registryProblem(agent);
    if (registry) {
      unscannable.push({ agent, reason: registry });
      continue;
    }
    const key = agentKey(agent);
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push({ agent, listed: listedData(item) });
  }
  const sources = options.eventSources ?? [];
  let onchainEnumeration: TriageSummary["onchainEnumeration"];
  if (sources.length > 0) {
    const replayed = await Promise.all(sources.map((source) => replaySource(source, options)));
    const onlyChain = options.chainFilter ? resolveChain(options.chainFilter).slug : undefined;
    let notListed = 0;
    for (const key of replayed.flatMap((r) => r.keys)) {
      let chain: string;
      try {
        chain = chainSlugOf(key.chainId);
      } catch {
        continue; // a chain the service does not cover
      }
      if (onlyChain !== undefined && onlyChain !== chain) continue;
      const agent: EvmAgentRef = { chain, chainId: key.chainId, agentId: key.agentId, registry: key.registry };
      if (seen.has(agentKey(agent))) continue;
      seen.add(agentKey(agent));
      const registry = registryProblem(agent);
      if (registry) {
        unscannable.push({ agent, reason: registry });
        continue;
      }
      candidates.push({ agent, listed: null });
      notListed++;
    }
    onchainEnumeration = summarizeSources(replayed, notListed);
  }
  options.onProgress?.({ stage: "listing", done: listed, total: listed });
  return { candidates, unscannable, listing: { listed, ...(onchainEnumeration ? { onchainEnumeration } : {}) } };
}

/** One source's replay: its keys, and its part of the summary. */
async function replaySource(
  source: OnchainEventSource,
  options: EnumerateListingOptions,
): Promise<{ readonly keys: TrustRecordKey[]; readonly summary: OnchainEnumerationSource }> {
  const part = { oracle: source.oracle, role: source.role };
  if (source.fromBlock === undefined) {
    return { keys: [], summary: { ...part, fromBlock: null, records: 0, skipped: source.skipped ?? "not asked" } };
  }
  try {
    const keys = await listOracleKeys(options.chain, source.oracle, {
      fromBlock: source.fromBlock,
      toBlock: options.blockNumber,
    });
    return { keys, summary: { ...part, fromBlock: source.fromBlock.toString(), records: keys.length } };
  } catch (error) {
    return { keys: [], summary: { ...part, fromBlock: source.fromBlock.toString(), records: 0, error: messageOf(error) } };
  }
}

/**
 * The summary of the search: with one source, that source's fields (as before there could be several); with
 * several, the earliest block replayed, the distinct keys found, errors and skip reasons prefixed with their oracle,
 * and each source in `sources`.
 */
function summarizeSources(
  replayed: readonly { readonly keys: readonly TrustRecordKey[]; readonly summary: OnchainEnumerationSource }[],
  notListed: number,
): NonNullable<TriageSummary["onchainEnumeration"]> {
  const parts = replayed.map((r) => r.summary);
  if (parts.length === 1) {
    const { oracle: _oracle, role: _role, ...only } = parts[0]!;
    return only.fromBlock === null || only.error !== undefined ? only : { ...only, notListed };
  }
  const blocks = parts.flatMap((p) => (p.fromBlock === null ? [] : [BigInt(p.fromBlock)]));
  const fromBlock = blocks.length === 0 ? null : blocks.reduce((a, b) => (b < a ? b : a)).toString();
  const records = new Set(replayed.flatMap((r) => r.keys.map((k) => `${k.chainId}:${k.registry}:${k.agentId}`))).size;
  const label = (p: OnchainEnumerationSource) => `${ENUMERATION_SOURCE_NAMES[p.role]} ${p.oracle}`;
  const errors = parts.filter((p) => p.error !== undefined).map((p) => `${label(p)}: ${p.error}`);
  const skipped = parts.filter((p) => p.skipped !== undefined).map((p) => `${label(p)}: ${p.skipped}`);
  return {
    fromBlock,
    records,
    ...(fromBlock !== null && errors.length === 0 ? { notListed } : {}),
    ...(errors.length > 0 ? { error: errors.join("; ") } : {}),
    ...(skipped.length > 0 ? { skipped: skipped.join("; ") } : {}),
    sources: parts,
  };
}

/**
 * Why the oracle cannot be asked about an agent's registry (one the kit does not know), if it cannot.
 *
 * @param agent - An agent of the listing.
 * @returns The reason its row gives, or `undefined` when its registry is one the oracle is read for.
 */
export function registryProblem(agent: AgentRef): string | undefined {
  const checked = inspectRegistry(agent.registry);
  return checked.ok ? undefined : `${checked.problem}: the oracle is read only for the service's registries`;
}

/**
 * The agent a listing entry names; a chain the kit does not know keeps the service's name, without chain id.
 *
 * @param item - One entry of `/api/agents`.
 * @returns The agent.
 */
export function listedAgent(item: AgentListItem): AgentRef {
  const registry = (item.registry ?? DEFAULT_REGISTRY).toLowerCase();
  const agentId = BigInt(item.agentId);
  try {
    const chain = resolveChain(item.chain);
    return { chain: chain.slug, chainId: chain.chainId ?? null, agentId, registry };
  } catch {
    return { chain: item.chain, chainId: null, agentId, registry };
  }
}

/** What a listing entry says; a `null` sybil severity is "no sybil signal" (`none`), an absent one is unstated. */
function listedData(item: AgentListItem): Partial<ServiceData> {
  const parsed = item.updatedAt === undefined || item.updatedAt === null ? undefined : parseServiceTime(item.updatedAt);
  const at = parsed?.ok ? new Date(parsed.ms) : undefined;
  return {
    score: item.score,
    ...(item.tier ? { tier: item.tier } : {}),
    ...(item.sybilSeverity === null ? { sybilSeverity: "none" } : item.sybilSeverity ? { sybilSeverity: item.sybilSeverity } : {}),
    ...(at ? { at } : {}),
  };
}
