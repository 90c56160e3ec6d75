/**
 * The local service's data: a deterministic, seeded synthetic population of agents across chains and
 * registries, with look-ups by agent and owner, the listing order, and {@link Population.advance} to move
 * it on since a snapshot.
 *
 * @packageDocumentation
 */
import { resolveChain } from "../../config/chains.js";
import { DEFAULT_REGISTRY, REGISTRIES } from "../../config/service.js";
import { InvalidArgumentError } from "../../errors.js";
import { createRng, hashSeed, type Rng } from "../prng.js";
import { agentKey, compareListingOrder, type PopulationAgent } from "./agent.js";
import { generateAgent, ownerAddress } from "./agent-generator.js";
import { syntheticSolanaAddress } from "./base58.js";
import { documentedPopulationAgents } from "./documented-agents.js";
import { type AdvanceParameters, changeExistingAgents, checkAdvanceOptions, type PopulationChanges } from "./population-advance.js";

export type { AgentBadges, PopulationAgent, PopulationKey } from "./agent.js";
export { agentKey } from "./agent.js";
export type { AdvanceParameters, AgentChange, AgentRecordState, PopulationChanges } from "./population-advance.js";
export { TIER_BOUNDARIES } from "./population-advance.js";

/** Default scoring time of a new population: a nightly run (03:00 UTC). Pass `at` to choose another. */
export const DEFAULT_POPULATION_AT = new Date("2026-11-22T03:00:00.000Z");

/** Chains of a population when none are given. */
export const DEFAULT_POPULATION_CHAINS: readonly string[] = [
  "base",
  "ethereum",
  "bnb",
  "arbitrum",
  "optimism",
  "polygon",
  "gnosis",
  "avalanche",
  "celo",
];

/** Registries of a population when none are given. */
export const DEFAULT_POPULATION_REGISTRIES: readonly string[] = ["erc8004", "olas"];

/** Largest population {@link createPopulation} makes. */
export const MAX_POPULATION_SIZE = 2_000_000;

const CHAIN_WEIGHTS: Readonly<Record<string, number>> = {
  base: 34,
  ethereum: 18,
  bnb: 14,
  arbitrum: 8,
  polygon: 7,
  optimism: 6,
  gnosis: 5,
  avalanche: 4,
  celo: 4,
};
const REGISTRY_WEIGHTS: Readonly<Record<string, number>> = { erc8004: 85, olas: 15, virtuals: 8, sati: 5 };

/** Options of {@link createPopulation}. */
export interface PopulationParameters {
  /** Seed: the same seed and options always give the same agents. */
  readonly seed: number;
  /** Number of agents. */
  readonly size: number;
  /** Chain slugs (aliases and numeric ids accepted). Default {@link DEFAULT_POPULATION_CHAINS}. */
  readonly chains?: readonly (string | number)[];
  /** Registries. Default {@link DEFAULT_POPULATION_REGISTRIES}. */
  readonly registries?: readonly string[];
  /** Time of the scoring run that produced the population. Default {@link DEFAULT_POPULATION_AT}. */
  readonly at?: Date;
  /**
   * Number of Solana agents (registry `sati`, chain `solana`, base58 owners) added after the `size` EVM
   * agents, with their own generator so that the EVM agents stay the same. Default 0.
   */
  readonly solanaAgents?: number;
  /**
   * Also hold the agents the real service's documents use as examples (base 16907 "Wolfpack Intelligence",
   * base 1380; see `documented-agents.ts`), after the generated ones, unless the generated ones already hold
   * those ids. Default false, so that seeded populations stay as they were.
   */
  readonly documentedAgents?: boolean;
}

/** Largest number of Solana agents {@link createPopulation} makes. */
export const MAX_SOLANA_AGENTS = 100_000;

/** A synthetic population of scored agents. Immutable: {@link Population.advance} returns a new one. */
export interface Population {
  /** Seed it was created from. */
  readonly seed: number;
  /** Time of its latest scoring run (every agent's `updatedAt` is at or before it). */
  readonly at: Date;
  /** Chain slugs it covers. */
  readonly chains: readonly string[];
  /** Registries it covers. */
  readonly registries: readonly string[];
  /** Agents, in creation order (agents added by an advance come last). */
  readonly agents: readonly PopulationAgent[];
  /** Number of agents. */
  readonly size: number;
  /**
   * Finds an agent.
   *
   * @param chain - Chain slug, alias or id.
   * @param agentId - Token id (number, bigint or decimal string).
   * @param registry - Registry; default `erc8004`.
   * @returns The agent, or `undefined`.
   */
  get(chain: string | number, agentId: number | bigint | string, registry?: string): PopulationAgent | undefined;
  /**
   * Agents owned by an address (case-insensitive for `0x` addresses, exact for base58), in population order.
   *
   * @param address - Owner address.
   */
  byOwner(address: string): readonly PopulationAgent[];
  /** Agents in listing order: chain slug, registry, agent id (see `/api/agents`). Cached. */
  sorted(): readonly PopulationAgent[];
  /**
   * A new population whose data has moved on since this one (this one is left untouched): see
   * {@link AdvanceParameters}. Deterministic for the same population and options.
   *
   * @param options - What changes.
   * @returns The new population, with `changes` listing what changed.
   * @throws {@link InvalidArgumentError} for options out of range.
   */
  advance(options: AdvanceParameters): AdvancedPopulation;
}

/** A population produced by {@link Population.advance}, with the changes since the one it came from. */
export interface AdvancedPopulation extends Population {
  /** What changed since the advanced population. */
  readonly changes: PopulationChanges;
}

/** Bookkeeping carried from one population to the next so that new agents get fresh ids and owners. */
interface PopulationState {
  readonly seed: number;
  readonly at: Date;
  readonly chains: readonly string[];
  readonly registries: readonly string[];
  readonly agents: readonly PopulationAgent[];
  /** Number of owners drawn at creation (existing owners are indices below it). */
  readonly ownerCount: number;
  /** Next fresh owner index. */
  readonly nextOwnerIndex: number;
  /** Next token id per `<chain>:<registry>`. */
  readonly nextIds: ReadonlyMap<string, number>;
}

/**
 * Creates a deterministic synthetic population: agents spread over the chains (Base heaviest) and
 * registries (mostly `erc8004`), sequential token ids per chain and registry with a few gaps, scores
 * 0–95 mostly near the base score of 50, sybil severity correlated with low scores, owners of which some
 * hold many agents. 150,000 agents take well under a second.
 *
 * @param options - Seed, size, chains, registries and scoring time.
 * @returns The population.
 * @throws {@link InvalidArgumentError} for a bad seed, size or registry; `UnknownChainError` for a bad chain.
 */
export function createPopulation(options: PopulationParameters): Population {
  const { seed, size } = options;
  if (!Number.isSafeInteger(seed)) throw new InvalidArgumentError(`Population seed must be an integer, got ${seed}`);
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_POPULATION_SIZE) {
    throw new InvalidArgumentError(`Population size must be an integer in [0, ${MAX_POPULATION_SIZE}], got ${size}`);
  }
  const at = options.at ?? DEFAULT_POPULATION_AT;
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new InvalidArgumentError("Population at must be a valid Date");
  const chains = [...new Set((options.chains ?? DEFAULT_POPULATION_CHAINS).map((c) => resolveChain(c).slug))];
  const registries = [...new Set(options.registries ?? DEFAULT_POPULATION_REGISTRIES)];
  if (chains.length === 0 || registries.length === 0) {
    throw new InvalidArgumentError("A population needs at least one chain and one registry");
  }
  for (const registry of registries) {
    if (!(REGISTRIES as readonly string[]).includes(registry)) {
      throw new InvalidArgumentError(`Unknown registry "${registry}"`, { details: `Known: ${REGISTRIES.join(", ")}` });
    }
  }
  const ownerCount = Math.max(1, Math.ceil(size * 0.55));
  const state: PopulationState = {
    seed,
    at: new Date(at.getTime()),
    chains: Object.freeze(chains),
    registries: Object.freeze(registries),
    agents: [],
    ownerCount,
    nextOwnerIndex: ownerCount,
    nextIds: new Map(),
  };
  const solanaAgents = options.solanaAgents ?? 0;
  if (!Number.isSafeInteger(solanaAgents) || solanaAgents < 0 || solanaAgents > MAX_SOLANA_AGENTS) {
    throw new InvalidArgumentError(`solanaAgents must be an integer in [0, ${MAX_SOLANA_AGENTS}], got ${solanaAgents}`);
  }
  const rng = createRng(hashSeed("population", seed));
  const built = appendAgents(state, rng, size, state.at, false);
  let agents = solanaAgents > 0 ? [...built.agents, ...solanaPopulation(seed, solanaAgents, state.at)] : built.agents;
  let nextIds = built.nextIds;
  if (options.documentedAgents) {
    const held = new Set(agents.map((a) => agentKey(a)));
    const documented = documentedPopulationAgents(state.at).filter(
      (a) => chains.includes(a.chain) && registries.includes(a.registry) && !held.has(agentKey(a)),
    );
    agents = [...agents, ...documented];
    // Agents added later (advance) get ids above the documented ones, never the same.
    const bumped = new Map(nextIds);
    for (const a of documented) {
      const slot = `${a.chain}:${a.registry}`;
      bumped.set(slot, Math.max(bumped.get(slot) ?? 1, a.agentId + 1));
    }
    nextIds = bumped;
  }
  return new SyntheticPopulation({ ...state, ...built, nextIds, agents: Object.freeze(agents) });
}

/** The Solana agents of a population: SATI member numbers from 1, base58 owners (some owning several). */
function solanaPopulation(seed: number, count: number, at: Date): PopulationAgent[] {
  const rng = createRng(hashSeed("population-sati", seed));
  const traits = createRng(0);
  const ownerCount = Math.max(1, Math.ceil(count * 0.6));
  const agents: PopulationAgent[] = [];
  for (let agentId = 1; agentId <= count; agentId++) {
    const owner = syntheticSolanaAddress("owner", seed, Math.floor(ownerCount * rng.next() ** 1.4));
    traits.reseed(hashSeed("agent", seed, "solana", "sati", agentId));
    agents.push(generateAgent(traits, { chain: "solana", registry: "sati", agentId, owner, at }));
  }
  return agents;
}

/** Draws `count` new agents after `state.agents`, returning the extended array and bookkeeping. */
function appendAgents(
  state: PopulationState,
  rng: Rng,
  count: number,
  at: Date,
  registeredSinceSnapshot: boolean,
): Pick<PopulationState, "agents" | "nextOwnerIndex" | "nextIds"> & { added: PopulationAgent[] } {
  const chainWeights = state.chains.map((c) => CHAIN_WEIGHTS[c] ?? 3);
  const registryWeights = state.registries.map((r) => REGISTRY_WEIGHTS[r] ?? 5);
  const registryCount = state.registries.length;
  const chainIndices = state.chains.map((_, i) => i);
  const registryIndices = state.registries.map((_, i) => i);
  const nextIdTable = state.chains.flatMap((chain) => state.registries.map((registry) => state.nextIds.get(`${chain}:${registry}`) ?? 1));
  let nextOwnerIndex = state.nextOwnerIndex;
  const agents = state.agents.slice();
  const added: PopulationAgent[] = [];
  const owners = new Map<number, string>();
  const traits = createRng(0);
  const fresh = registeredSinceSnapshot ? { ageDays: 0, registeredAfter: state.at } : {};
  for (let i = 0; i < count; i++) {
    const chainIndex = rng.weighted(chainIndices, chainWeights);
    const registryIndex = rng.weighted(registryIndices, registryWeights);
    const slot = chainIndex * registryCount + registryIndex;
    const agentId = nextIdTable[slot]! + (rng.chance(0.04) ? rng.int(1, 5) : 0);
    nextIdTable[slot] = agentId + 1;
    const ownerIndex = registeredSinceSnapshot && rng.chance(0.3) ? nextOwnerIndex++ : Math.floor(state.ownerCount * rng.next() ** 1.4);
    let owner = owners.get(ownerIndex);
    if (owner === undefined) {
      owner = ownerAddress(state.seed, ownerIndex);
      owners.set(ownerIndex, owner);
    }
    const chain = state.chains[chainIndex]!;
    const registry = state.registries[registryIndex]!;
    traits.reseed(hashSeed("agent", state.seed, chain, registry, agentId));
    const agent = generateAgent(traits, { chain, registry, agentId, owner, at, ...fresh });
    agents.push(agent);
    added.push(agent);
  }
  const nextIds = new Map<string, number>();
  for (const [c, chain] of state.chains.entries()) {
    for (const [r, registry] of state.registries.entries()) nextIds.set(`${chain}:${registry}`, nextIdTable[c * registryCount + r]!);
  }
  return { agents, nextOwnerIndex, nextIds, added };
}

/** The {@link Population} implementation. */
class SyntheticPopulation implements Population {
  readonly seed: number;
  readonly at: Date;
  readonly chains: readonly string[];
  readonly registries: readonly string[];
  readonly agents: readonly PopulationAgent[];
  readonly #state: PopulationState;
  #byKey: Map<string, PopulationAgent> | undefined;
  #byOwner: Map<string, PopulationAgent[]> | undefined;
  #sorted: readonly PopulationAgent[] | undefined;

  constructor(state: PopulationState) {
    this.#state = state;
    this.seed = state.seed;
    this.at = new Date(state.at.getTime());
    this.chains = state.chains;
    this.registries = state.registries;
    this.agents = state.agents;
  }

  get size(): number {
    return this.agents.length;
  }

  get(chain: string | number, agentId: number | bigint | string, registry: string = DEFAULT_REGISTRY): PopulationAgent | undefined {
    let slug: string;
    try {
      slug = resolveChain(chain).slug;
    } catch {
      return undefined;
    }
    const id = typeof agentId === "string" ? agentId.trim() : String(agentId);
    if (!/^\d+$/.test(id)) return undefined;
    this.#byKey ??= new Map(this.agents.map((a) => [agentKey(a), a]));
    return this.#byKey.get(`${slug}:${registry.toLowerCase()}:${BigInt(id)}`);
  }

  byOwner(address: string): readonly PopulationAgent[] {
    if (!this.#byOwner) {
      const map = new Map<string, PopulationAgent[]>();
      for (const agent of this.agents) {
        const list = map.get(agent.owner);
        if (list) list.push(agent);
        else map.set(agent.owner, [agent]);
      }
      this.#byOwner = map;
    }
    const key = address.trim();
    return this.#byOwner.get(/^0x/i.test(key) ? key.toLowerCase() : key) ?? [];
  }

  sorted(): readonly PopulationAgent[] {
    this.#sorted ??= Object.freeze(this.agents.slice().sort(compareListingOrder));
    return this.#sorted;
  }

  advance(options: AdvanceParameters): AdvancedPopulation {
    checkAdvanceOptions(options, this.at);
    const at = new Date(options.at.getTime());
    const { agents: changedAgents, changed } = changeExistingAgents(this.#state, options);
    const rng = createRng(hashSeed("advance-new", options.seed));
    const built = appendAgents({ ...this.#state, agents: changedAgents }, rng, options.newAgents ?? 0, at, true);
    const changes: PopulationChanges = Object.freeze({
      since: new Date(this.at.getTime()),
      at: new Date(at.getTime()),
      changed: Object.freeze(changed),
      changedKeys: Object.freeze(changed.map((c) => c.key)),
      added: Object.freeze(built.added),
      addedKeys: Object.freeze(built.added.map(agentKey)),
    });
    return new AdvancedSyntheticPopulation(
      {
        ...this.#state,
        at,
        agents: Object.freeze(built.agents),
        nextOwnerIndex: built.nextOwnerIndex,
        nextIds: built.nextIds,
      },
      changes,
    );
  }
}

/** The {@link AdvancedPopulation} implementation. */
class AdvancedSyntheticPopulation extends SyntheticPopulation implements AdvancedPopulation {
  readonly changes: PopulationChanges;

  constructor(state: PopulationState, changes: PopulationChanges) {
    super(state);
    this.changes = changes;
  }
}
