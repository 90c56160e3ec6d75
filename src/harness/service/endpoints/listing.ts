/**
 * The population-wide endpoints: `GET /api/agents` (keyset-paginated listing; its page shape is the kit's
 * own, the service does not publish one), `GET /api/explorer` (one agent's profile with `id`, else search and
 * filter, `sort=recent` accepted) and `GET /api/stats` (network statistics).
 *
 * @packageDocumentation
 */
import { hasAddressShape } from "../../../inputs/address.js";
import type { AgentListItem, AgentsPage, ExplorerResult, NetworkStats } from "../../../published/index.js";
import { apiSybilSeverity, compareListingOrder, type PopulationAgent } from "../agent.js";
import { ok, type ServiceHandler } from "../context.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { badRequest } from "../http-error.js";
import {
  isAbsent,
  readAgentIdParam,
  readChainParam,
  readOptionalChainParam,
  readOptionalIntegerParam,
  readOptionalRegistryParam,
  readOptionalTierParam,
  readRegistryParam,
  requireString,
} from "../params.js";
import type { Population } from "../population.js";
import { explorerProfileBody } from "./explorer-profile.js";
import { requireAgent } from "./trust-check.js";

/** Default and largest page size of `/api/agents`. */
export const AGENTS_PAGE = { default: 100, max: 1000 } as const;

/** Default and largest result size of `/api/explorer`. */
export const EXPLORER_PAGE = { default: 50, max: 1000 } as const;

const filtered = new WeakMap<Population, Map<string, readonly PopulationAgent[]>>();
const statsCache = new WeakMap<Population, NetworkStats>();

/**
 * A listing item.
 *
 * @param agent - The agent.
 * @returns Its listing fields.
 */
export function listItem(agent: PopulationAgent): AgentListItem {
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    name: agent.name,
    score: agent.score,
    tier: agent.tier,
    sybilSeverity: apiSybilSeverity(agent.sybilSeverity),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

/**
 * The network statistics of a population (cached per population).
 *
 * @param population - The population.
 * @returns The stats body (with `originalOwnerPct`, the share of agents still held by the wallet that
 *   registered them, in percent).
 */
export function statsBody(population: Population): NetworkStats {
  let stats = statsCache.get(population);
  if (!stats) {
    const byChain: Record<string, number> = {};
    const byRegistry: Record<string, number> = {};
    const byTier: Record<string, number> = { flagged: 0, limited: 0, developing: 0, established: 0 };
    let original = 0;
    for (const agent of population.agents) {
      if (agent.isOriginalOwner) original++;
      byChain[agent.chain] = (byChain[agent.chain] ?? 0) + 1;
      byRegistry[agent.registry] = (byRegistry[agent.registry] ?? 0) + 1;
      byTier[agent.tier] = (byTier[agent.tier] ?? 0) + 1;
    }
    stats = {
      totalAgents: population.size,
      chains: Object.keys(byChain).length,
      registrations: population.size,
      byChain,
      byRegistry,
      byTier,
      originalOwnerPct: population.size === 0 ? 0 : Math.round((1000 * original) / population.size) / 10,
      updatedAt: population.at.toISOString(),
    };
    statsCache.set(population, stats);
  }
  return structuredClone(stats);
}

/** `GET /api/agents?chain=&registry=&limit=&cursor=`. */
export const handleAgents: ServiceHandler = async (request, context) => {
  const q = request.query;
  const chain = readOptionalChainParam(q.get("chain"));
  const registry = readOptionalRegistryParam(q.get("registry"));
  const limit = readOptionalIntegerParam(q.get("limit"), "limit", 1, AGENTS_PAGE.max) ?? AGENTS_PAGE.default;
  const after = isAbsent(q.get("cursor")) ? undefined : decodeCursor(requireString(q.get("cursor"), "cursor"));
  const list = listingOf(context.population, chain, registry);
  const start = after === undefined ? 0 : firstAfter(list, after);
  const page = list.slice(start, start + limit);
  const more = start + limit < list.length;
  return ok({
    agents: page.map(listItem),
    nextCursor: more && page.length > 0 ? encodeCursor(page[page.length - 1]!) : null,
    total: list.length,
  } satisfies AgentsPage);
};

/** Orders `/api/explorer` accepts: by score (default), or `recent` (latest registration first). */
export const EXPLORER_SORTS = ["score", "recent"] as const;

/**
 * `GET /api/explorer?id=&chain=&registry=`: one agent's profile (SDK `ExplorerResponse`); without `id`,
 * `?chain=&registry=&limit=&q=&minScore=&tier=&sort=`: matches ranked by score (highest first) or, with
 * `sort=recent`, by registration time (latest first).
 */
export const handleExplorer: ServiceHandler = async (request, context) => {
  const q = request.query;
  if (!isAbsent(q.get("id"))) {
    const agent = requireAgent(
      context.population,
      readChainParam(q.get("chain")),
      readAgentIdParam(q.get("id")),
      readRegistryParam(q.get("registry")),
    );
    return ok(explorerProfileBody(context, agent));
  }
  const sort = isAbsent(q.get("sort")) ? "score" : requireString(q.get("sort"), "sort").toLowerCase();
  if (!(EXPLORER_SORTS as readonly string[]).includes(sort)) {
    throw badRequest(`Invalid sort "${q.get("sort")}"; expected one of ${EXPLORER_SORTS.join(", ")}`);
  }
  const chain = readOptionalChainParam(q.get("chain"));
  const registry = readOptionalRegistryParam(q.get("registry"));
  const limit = readOptionalIntegerParam(q.get("limit"), "limit", 1, EXPLORER_PAGE.max) ?? EXPLORER_PAGE.default;
  const minScore = readOptionalIntegerParam(q.get("minScore"), "minScore", 0, 100);
  const tier = readOptionalTierParam(q.get("tier"));
  const search = isAbsent(q.get("q")) ? undefined : requireString(q.get("q"), "q").toLowerCase();
  const matches = listingOf(context.population, chain, registry).filter(
    (agent) =>
      (minScore === undefined || agent.score >= minScore) &&
      (tier === undefined || agent.tier === tier) &&
      (search === undefined || matchesSearch(agent, search)),
  );
  matches.sort(
    sort === "recent"
      ? (a, b) => b.registeredAt.getTime() - a.registeredAt.getTime() || compareListingOrder(a, b)
      : (a, b) => b.score - a.score || compareListingOrder(a, b),
  );
  return ok({ agents: matches.slice(0, limit).map(listItem), total: matches.length } satisfies ExplorerResult);
};

/** `GET /api/stats`. */
export const handleStats: ServiceHandler = async (_request, context) => ok(statsBody(context.population));

/** Agents of a population in listing order, filtered by chain and registry (cached per population). */
function listingOf(population: Population, chain: string | undefined, registry: string | undefined): readonly PopulationAgent[] {
  let cache = filtered.get(population);
  if (!cache) {
    cache = new Map();
    filtered.set(population, cache);
  }
  const key = `${chain ?? "*"}|${registry ?? "*"}`;
  let list = cache.get(key);
  if (!list) {
    const all = population.sorted();
    list =
      chain === undefined && registry === undefined
        ? all
        : all.filter((a) => (chain === undefined || a.chain === chain) && (registry === undefined || a.registry === registry));
    cache.set(key, list);
  }
  return list;
}

/** Index of the first agent of a sorted list that comes after `ref` (binary search). */
function firstAfter(list: readonly PopulationAgent[], ref: { chain: string; registry: string; agentId: number }): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareListingOrder(list[mid]!, ref) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Search: an agent id, an owner address, or a case-insensitive part of the name. */
function matchesSearch(agent: PopulationAgent, search: string): boolean {
  if (/^\d+$/.test(search)) return agent.agentId === Number(search);
  if (hasAddressShape(search)) return agent.owner === search;
  if (agent.chain === "solana" && agent.owner.toLowerCase() === search) return true;
  return agent.name.toLowerCase().includes(search);
}
