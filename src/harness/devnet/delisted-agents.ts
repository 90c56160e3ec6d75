/**
 * Delisted agents: agents the oracle still holds records of but the service no longer knows. Their ids are
 * taken from the gaps in a population's id sequences (ids below the highest id of their chain and registry that
 * no agent has), so that agents registered later, which always get higher ids, never collide with them.
 *
 * @packageDocumentation
 */
import { DEFAULT_TRUST_ENCODING, type SybilSeverityName, tierForScore } from "../../config/encodings.js";
import { InvalidArgumentError } from "../../errors.js";
import { createRng, hashSeed } from "../prng.js";
import { compareListingOrder } from "../service/agent.js";
import type { SnapshotAgent } from "./nightly-snapshot.js";

/** The part of a population {@link pickDelistedAgents} reads. */
export interface DelistingSource {
  /** Chain slugs. */
  readonly chains: readonly string[];
  /** Registries. */
  readonly registries: readonly string[];
  /** The agents. */
  readonly agents: readonly { readonly agentId: number; readonly chain: string; readonly registry: string }[];
}

/** Options of {@link pickDelistedAgents}. */
export interface PickDelistedOptions {
  /** How many. */
  readonly count: number;
  /** Seed of the choice and of the records' values. */
  readonly seed: number;
  /** Scoring time the records carry. */
  readonly at: Date;
  /** Chains to leave out (for example a stale chain, to keep the two cases apart). Default none. */
  readonly excludeChains?: readonly string[] | undefined;
}

/** Highest id offset used when the gaps run out: ids this far above a sequence's highest id. */
const FALLBACK_ID_OFFSET = 1_000_000;

/**
 * Picks `count` agents that are not in the population, with plausible records (score 0–95, the tier of the
 * score, a sybil severity), deterministically for the seed. Ids come from the gaps of the population's id
 * sequences; when there are too few gaps, from ids {@link FALLBACK_ID_OFFSET} above a sequence's highest id.
 *
 * @param source - The population.
 * @param options - Count, seed, scoring time, chains to leave out.
 * @returns The agents, sorted by chain, registry and id.
 * @throws {@link InvalidArgumentError} for a bad count, or when every chain is excluded.
 */
export function pickDelistedAgents(source: DelistingSource, options: PickDelistedOptions): SnapshotAgent[] {
  const { count } = options;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new InvalidArgumentError(`delisted count must be a non-negative integer, got ${count}`);
  }
  if (count === 0) return [];
  const excluded = new Set(options.excludeChains ?? []);
  const chains = source.chains.filter((c) => !excluded.has(c));
  if (chains.length === 0) throw new InvalidArgumentError("No chain left to take delisted agents from");

  const ids = new Map<string, Set<number>>();
  for (const agent of source.agents) {
    const slot = `${agent.chain}:${agent.registry}`;
    const set = ids.get(slot) ?? new Set<number>();
    ids.set(slot, set);
    set.add(agent.agentId);
  }
  const gaps: { chain: string; registry: string; agentId: number }[] = [];
  for (const chain of chains) {
    for (const registry of source.registries) {
      const taken = ids.get(`${chain}:${registry}`);
      if (!taken) continue;
      const highest = highestOf(taken);
      for (let id = 1; id < highest; id++) if (!taken.has(id)) gaps.push({ chain, registry, agentId: id });
    }
  }
  const rng = createRng(hashSeed("delisted", options.seed));
  const chosen: { chain: string; registry: string; agentId: number }[] = [];
  for (let i = 0; i < Math.min(count, gaps.length); i++) {
    const j = i + Math.floor(rng.next() * (gaps.length - i)); // partial Fisher–Yates
    [gaps[i], gaps[j]] = [gaps[j]!, gaps[i]!];
    chosen.push(gaps[i]!);
  }
  for (let k = 0; chosen.length < count; k++) {
    const chain = chains[k % chains.length]!;
    const registry = source.registries[Math.floor(k / chains.length) % source.registries.length]!;
    const taken = ids.get(`${chain}:${registry}`);
    const highest = taken ? highestOf(taken) : 0;
    chosen.push({ chain, registry, agentId: highest + FALLBACK_ID_OFFSET + k });
  }
  const severities = DEFAULT_TRUST_ENCODING.sybilSeverities;
  return chosen
    .map(({ chain, registry, agentId }) => {
      const values = createRng(hashSeed("delisted-agent", options.seed, chain, registry, agentId));
      const score = values.int(0, 95);
      const sybilSeverity: SybilSeverityName = severities[values.weighted([0, 1, 2, 3, 4], [60, 15, 12, 8, 5])]!;
      const updatedAt = new Date(options.at.getTime());
      return { agentId, chain, registry, score, tier: tierForScore(score), sybilSeverity, updatedAt };
    })
    .sort(compareListingOrder);
}

function highestOf(ids: ReadonlySet<number>): number {
  let highest = 0;
  for (const id of ids) if (id > highest) highest = id;
  return highest;
}
