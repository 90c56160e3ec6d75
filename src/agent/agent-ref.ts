/**
 * The one agent reference of the kit: which agent, on which chain, in which registry — parsed, formatted,
 * ordered and keyed here and nowhere else.
 *
 * Text forms:
 * - `chain:id[:registry]` (`base:1234`, `bsc:7:olas`) is what people type: {@link parseAgentRef} reads it,
 *   {@link formatAgentRef} writes it (with the registry, `base:1234:erc8004`, as reports show agents; without a
 *   default registry where room is short). Every agent shown or sent as text is written by it.
 * - `chain:registry:id` (`base:erc8004:1234`) is the map key: {@link agentKey}. It also seeds the `--all`
 *   audit sample, so it is pinned.
 *
 * The oracle's record key (`TrustRecordKey`: numeric chain id, no slug) is a different thing; an EVM agent
 * reference becomes one in one place, `recordKeyOf` in `src/oracle/record-key.ts`.
 *
 * @packageDocumentation
 */
import { DEFAULT_REGISTRY } from "../config/service.js";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { inspectAgentId } from "../inputs/agent-id.js";
import { parseChain } from "../inputs/chain.js";
import { inspectRegistry } from "../inputs/registry.js";

/** An agent, as the kit names it across chains and registries. */
export interface AgentRef {
  /**
   * The service's chain slug (aliases resolved). An agent the service lists on a chain the kit does not know
   * keeps the name the service gave (and `chainId` is `null`).
   */
  readonly chain: string;
  /** EVM chain id, or `null` for a chain that is not an EVM chain (Solana) or that the kit does not know. */
  readonly chainId: number | null;
  /** The agent's id in its registry (uint256; ids can exceed 2^53). */
  readonly agentId: bigint;
  /** Registry name, lower case (`erc8004`, `olas`, …). */
  readonly registry: string;
}

/** An agent on an EVM chain: one the oracle can hold a record for. */
export type EvmAgentRef = AgentRef & { readonly chainId: number };

/** What {@link agentKey} needs: the identifying triple of anything that names an agent (rows, listings, …). */
export interface AgentKeyParts {
  readonly chain: string;
  readonly registry: string;
  readonly agentId: bigint | number | string;
}

/**
 * Whether an agent is on an EVM chain (so the oracle can hold its record).
 *
 * @param agent - The agent.
 * @returns True when it has a chain id.
 *
 * @example
 * ```ts
 * import { isEvmAgent, parseAgentRefList } from "trustgate";
 *
 * const onchain = parseAgentRefList("base:16907, solana:42:sati").filter(isEvmAgent); // base:16907 only
 * for (const agent of onchain) console.log(agent.chainId.toFixed(0)); // a number: the oracle can hold its record
 * ```
 */
export function isEvmAgent(agent: AgentRef): agent is EvmAgentRef {
  return agent.chainId !== null;
}

/**
 * Parses one `chain:id[:registry]` reference.
 *
 * @param text - For example `base:1234`, `bsc:9:olas` or `op:5:virtuals` (white space around parts allowed).
 * @returns The agent, chain resolved to its slug, registry defaulted to `erc8004` and lower-cased.
 * @throws {@link InvalidArgumentError} `Invalid agent "<text>": …` for a malformed reference, an unknown
 *   chain (with the closest slug as a suggestion), an id that is not a non-negative integer, or an unknown
 *   registry.
 *
 * @example
 * ```ts
 * import { parseAgentRef } from "trustgate";
 *
 * const agent = parseAgentRef("base:16907"); // { chain: "base", chainId: 8453, agentId: 16907n, registry: "erc8004" }
 * const olas = parseAgentRef("ethereum:7:olas"); // registry given after the id
 * ```
 */
export function parseAgentRef(text: string): AgentRef {
  const parts = text.split(":");
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p.trim() === "")) {
    throw new InvalidArgumentError(`Invalid agent "${text}": expected chain:id[:registry]`);
  }
  const [chainText, idText, registryText] = parts.map((p) => p.trim()) as [string, string, string | undefined];
  let chain: ReturnType<typeof parseChain>;
  try {
    chain = parseChain(chainText);
  } catch (error) {
    throw new InvalidArgumentError(`Invalid agent "${text}": ${messageOf(error)}`, { cause: error });
  }
  const id = inspectAgentId(idText);
  if (!id.ok) throw new InvalidArgumentError(`Invalid agent "${text}": id "${idText}" ${id.problem}`);
  const registry = inspectRegistry(registryText ?? DEFAULT_REGISTRY);
  if (!registry.ok) throw new InvalidArgumentError(`Invalid agent "${text}": ${registry.problem}`, { details: registry.details });
  return { chain: chain.slug, chainId: chain.chainId ?? null, agentId: id.id, registry: registry.registry };
}

/**
 * Parses a comma-separated list of `chain:id[:registry]` references. Empty entries are skipped; duplicates
 * (the same agent written twice, with or without its default registry) are removed, order kept.
 *
 * @param text - For example `base:1234, bsc:7:olas`.
 * @param label - What to call the list in messages (default `--agents`).
 * @returns The agents.
 * @throws {@link InvalidArgumentError} for an empty list, or naming the first bad entry and why.
 *
 * @example
 * ```ts
 * import { parseAgentRefList } from "trustgate";
 *
 * // "AGENTS" names the list in an error message; an agent written twice is kept once
 * const agents = parseAgentRefList(process.env.AGENTS ?? "base:16907, base:1380", "AGENTS");
 * ```
 */
export function parseAgentRefList(text: string, label = "--agents"): AgentRef[] {
  const entries = text
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (entries.length === 0) throw new InvalidArgumentError(`${label} is empty`, { details: "Use chain:id[:registry],…" });
  const seen = new Set<string>();
  const agents: AgentRef[] = [];
  for (const entry of entries) {
    const agent = parseAgentRef(entry);
    const key = agentKey(agent);
    if (seen.has(key)) continue;
    seen.add(key);
    agents.push(agent);
  }
  return agents;
}

/** Options of {@link formatAgentRef}. */
export interface FormatAgentRefParameters {
  /** Leave out a registry that is the default one (`erc8004`): `base:1234` (default `false`). */
  readonly omitDefaultRegistry?: boolean;
}

/**
 * Writes an agent as `chain:id:registry` (what {@link parseAgentRef} reads back, and how reports show agents).
 *
 * @param agent - The agent.
 * @param options - Whether to leave out the default registry.
 * @returns For example `base:1234:erc8004` (or `base:1234` with `omitDefaultRegistry`).
 *
 * @example
 * ```ts
 * import { formatAgentRef, parseAgentRef } from "trustgate";
 *
 * const agent = parseAgentRef("base:16907");
 * console.log(formatAgentRef(agent)); // "base:16907:erc8004"
 * console.log(formatAgentRef(agent, { omitDefaultRegistry: true })); // "base:16907"
 * ```
 */
export function formatAgentRef(agent: AgentKeyParts, options: FormatAgentRefParameters = {}): string {
  const head = `${agent.chain}:${agent.agentId}`;
  return options.omitDefaultRegistry === true && agent.registry === DEFAULT_REGISTRY ? head : `${head}:${agent.registry}`;
}

/**
 * Orders agents as reports list them: by chain slug, then agent id (numerically), then registry.
 *
 * @param a - First agent.
 * @param b - Second agent.
 * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
 *
 * @example
 * ```ts
 * import { compareAgentRefs, parseAgentRefList } from "trustgate";
 *
 * const agents = parseAgentRefList("polygon:86, base:16907, base:1380").sort(compareAgentRefs);
 * // base:1380, base:16907, polygon:86: by chain, then id as a number, then registry
 * ```
 */
export function compareAgentRefs(a: AgentRef, b: AgentRef): number {
  return (
    a.chain.localeCompare(b.chain) || (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0) || a.registry.localeCompare(b.registry)
  );
}

/**
 * The map key of an agent: `<chain>:<registry>:<agentId>`, for example `base:erc8004:1234`.
 *
 * @param agent - The agent, or anything that carries its identifying triple (a report row, a listing entry).
 * @returns The key.
 *
 * @example
 * ```ts
 * import { agentKey, parseAgentRef } from "trustgate";
 *
 * const scores = new Map<string, number>();
 * scores.set(agentKey(parseAgentRef("base:16907")), 62); // key "base:erc8004:16907"
 * console.log(scores.get(agentKey({ chain: "base", registry: "erc8004", agentId: 16907n }))); // 62
 * ```
 */
export function agentKey(agent: AgentKeyParts): string {
  return `${agent.chain}:${agent.registry}:${agent.agentId}`;
}
