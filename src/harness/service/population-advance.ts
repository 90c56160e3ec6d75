/**
 * Moving a population on since a snapshot: some scores change (a chosen share of them across tier or
 * threshold boundaries), some sybil severities move one step, new agents are registered. Deterministic for
 * a seed, and every change is reported.
 *
 * @packageDocumentation
 */
import { DEFAULT_TRUST_ENCODING, type SybilSeverityName, type TierName, tierForScore } from "../../config/encodings.js";
import { InvalidArgumentError } from "../../errors.js";
import { TIER_MIN_SCORE } from "../../policy.js";
import { createRng, hashSeed, type Rng } from "../prng.js";
import { agentKey, deriveBadges, type PopulationAgent } from "./agent.js";
import { adjustSybilSignals, clampScore, MAX_SERVICE_SCORE } from "./agent-generator.js";

const DAY_MS = 86_400_000;
const SEVERITIES = DEFAULT_TRUST_ENCODING.sybilSeverities;

/** The tier boundaries (lowest score of each tier above `flagged`): 30, 51, 75. */
export const TIER_BOUNDARIES: readonly number[] = [TIER_MIN_SCORE.limited, TIER_MIN_SCORE.developing, TIER_MIN_SCORE.established];

/** How to move a population on (see `Population.advance`). */
export interface AdvanceParameters {
  /** Seed of the changes (independent of the population's seed). */
  readonly seed: number;
  /** Share of the existing agents whose score changes, in `[0, 1]`. */
  readonly changedFraction: number;
  /** Number of agents registered (and scored) since the snapshot. Default 0. */
  readonly newAgents?: number;
  /** Time of the new scoring run; strictly later than the population's `at`. */
  readonly at: Date;
  /**
   * Share of the score changes that cross a boundary (a tier boundary or one of `thresholds`), in `[0, 1]`;
   * the rest move by 1–4 points without crossing any. Default 0.3.
   */
  readonly crossingFraction?: number;
  /** Extra score boundaries (for example gates' `minScore`), integers in `[1, 95]`. Default none. */
  readonly thresholds?: readonly number[];
  /** Share of the existing agents whose sybil severity moves one step, in `[0, 1]`. Default `changedFraction / 3`. */
  readonly sybilChangedFraction?: number;
}

/** The part of an agent that an oracle record and a trust-check attestation carry. */
export interface AgentRecordState {
  /** Score. */
  readonly score: number;
  /** Tier name. */
  readonly tier: TierName;
  /** Sybil severity name. */
  readonly sybilSeverity: SybilSeverityName;
  /** Sybil signals. */
  readonly sybilSignals: readonly string[];
  /** Time of the scoring. */
  readonly updatedAt: Date;
}

/** One existing agent changed by an advance. */
export interface AgentChange {
  /** `<chain>:<registry>:<agentId>`. */
  readonly key: string;
  /** Token id. */
  readonly agentId: number;
  /** Chain slug. */
  readonly chain: string;
  /** Registry. */
  readonly registry: string;
  /** The record before. */
  readonly before: AgentRecordState;
  /** The record after. */
  readonly after: AgentRecordState;
  /** Whether the score changed. */
  readonly scoreChanged: boolean;
  /** Whether the tier changed. */
  readonly tierChanged: boolean;
  /** Whether the sybil severity changed. */
  readonly sybilChanged: boolean;
  /** Boundaries (tier boundaries and thresholds) between the old and the new score, ascending. */
  readonly crossed: readonly number[];
}

/** Everything an advance did. */
export interface PopulationChanges {
  /** The `at` of the population that was advanced (the snapshot). */
  readonly since: Date;
  /** The `at` of the advanced population. */
  readonly at: Date;
  /** Existing agents whose record changed, in population order. */
  readonly changed: readonly AgentChange[];
  /** Keys of `changed`, in the same order. */
  readonly changedKeys: readonly string[];
  /** Agents registered since the snapshot, in population order (appended after the existing ones). */
  readonly added: readonly PopulationAgent[];
  /** Keys of `added`, in the same order. */
  readonly addedKeys: readonly string[];
}

/** The state of a population that an advance reads. */
export interface AdvanceSource {
  /** Agents, in population order. */
  readonly agents: readonly PopulationAgent[];
  /** The population's `at`. */
  readonly at: Date;
}

/** The part of the advance that only changes existing agents. */
export interface AdvanceResult {
  /** All agents: existing ones (changed ones replaced) followed by none; new agents are made by the caller. */
  readonly agents: readonly PopulationAgent[];
  /** Changed existing agents. */
  readonly changed: readonly AgentChange[];
}

/**
 * Checks advance options against the population being advanced.
 *
 * @param options - The options.
 * @param since - The population's `at`.
 * @throws {@link InvalidArgumentError} for a value out of range.
 */
export function checkAdvanceOptions(options: AdvanceParameters, since: Date): void {
  const fraction = (name: string, value: number | undefined): void => {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 1)) {
      throw new InvalidArgumentError(`advance: ${name} must be a number in [0, 1], got ${value}`);
    }
  };
  if (!Number.isSafeInteger(options.seed)) throw new InvalidArgumentError(`advance: seed must be an integer`);
  fraction("changedFraction", options.changedFraction);
  fraction("crossingFraction", options.crossingFraction);
  fraction("sybilChangedFraction", options.sybilChangedFraction);
  const newAgents = options.newAgents ?? 0;
  if (!Number.isSafeInteger(newAgents) || newAgents < 0) {
    throw new InvalidArgumentError(`advance: newAgents must be a non-negative integer, got ${newAgents}`);
  }
  if (!(options.at instanceof Date) || Number.isNaN(options.at.getTime()) || options.at <= since) {
    throw new InvalidArgumentError(`advance: at must be a valid Date later than ${since.toISOString()}`);
  }
  for (const t of options.thresholds ?? []) {
    if (!Number.isInteger(t) || t < 1 || t > MAX_SERVICE_SCORE) {
      throw new InvalidArgumentError(`advance: thresholds must be integers in [1, ${MAX_SERVICE_SCORE}], got ${t}`);
    }
  }
}

/**
 * Changes existing agents as `options` asks: exactly `round(changedFraction × n)` scores, of which exactly
 * `round(crossingFraction × that)` cross a boundary, and exactly `round(sybilChangedFraction × n)` severities
 * (the two sets may overlap). Changed agents get `updatedAt = at`, a recomputed `ageDays` and badges.
 *
 * @param source - The population being advanced (not modified).
 * @param options - Checked options.
 * @returns The new agents array and the changes.
 */
export function changeExistingAgents(source: AdvanceSource, options: AdvanceParameters): AdvanceResult {
  const n = source.agents.length;
  const select = createRng(hashSeed("advance-select", options.seed));
  const scoreCount = Math.round(options.changedFraction * n);
  const crossingCount = Math.round((options.crossingFraction ?? 0.3) * scoreCount);
  const sybilCount = Math.round((options.sybilChangedFraction ?? options.changedFraction / 3) * n);
  const scoreOrder = chooseIndices(select, n, scoreCount);
  const sybilOrder = chooseIndices(select, n, sybilCount);
  const scoreMode = new Map<number, "cross" | "drift">();
  for (const [i, index] of scoreOrder.entries()) scoreMode.set(index, i < crossingCount ? "cross" : "drift");
  const sybilSet = new Set(sybilOrder);
  const boundaries = [...new Set([...TIER_BOUNDARIES, ...(options.thresholds ?? [])])].sort((a, b) => a - b);

  const touched = [...new Set([...scoreOrder, ...sybilOrder])].sort((a, b) => a - b);
  const agents = source.agents.slice();
  const changed: AgentChange[] = [];
  for (const index of touched) {
    const before = source.agents[index]!;
    const key = agentKey(before);
    const rng = createRng(hashSeed("advance-agent", options.seed, key));
    const mode = scoreMode.get(index);
    const score = mode === undefined ? before.score : newScore(rng, before.score, mode, boundaries);
    let sybilSeverity = before.sybilSeverity;
    let sybilSignals = before.sybilSignals;
    if (sybilSet.has(index)) {
      const level = SEVERITIES.indexOf(before.sybilSeverity);
      const rise = level === 0 || (level < SEVERITIES.length - 1 && rng.chance(0.5));
      sybilSeverity = SEVERITIES[level + (rise ? 1 : -1)]!;
      sybilSignals = adjustSybilSignals(rng, before.sybilSignals, sybilSeverity, rise);
    }
    const ageDays = Math.floor((options.at.getTime() - before.registeredAt.getTime()) / DAY_MS);
    const feedbackCount = before.feedbackCount + (score !== before.score ? rng.int(0, 3) : 0);
    const traits = {
      score,
      sybilSeverity,
      feedbackCount,
      ageDays,
      isOriginalOwner: before.isOriginalOwner,
      ownerVerified: before.ownerVerified,
    };
    const after: PopulationAgent = Object.freeze({
      ...before,
      score,
      tier: tierForScore(score),
      sybilSeverity,
      sybilSignals,
      feedbackCount,
      ageDays,
      badges: deriveBadges(traits),
      updatedAt: new Date(options.at.getTime()),
    });
    agents[index] = after;
    const lo = Math.min(before.score, score);
    const hi = Math.max(before.score, score);
    changed.push(
      Object.freeze({
        key,
        agentId: before.agentId,
        chain: before.chain,
        registry: before.registry,
        before: recordState(before),
        after: recordState(after),
        scoreChanged: score !== before.score,
        tierChanged: after.tier !== before.tier,
        sybilChanged: sybilSeverity !== before.sybilSeverity,
        crossed: Object.freeze(boundaries.filter((b) => lo < b && b <= hi)),
      }),
    );
  }
  return { agents, changed };
}

/**
 * The record part of an agent.
 *
 * @param agent - The agent.
 * @returns Its score, tier, sybil severity and signals, and scoring time.
 */
export function recordState(agent: PopulationAgent): AgentRecordState {
  return Object.freeze({
    score: agent.score,
    tier: agent.tier,
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: agent.sybilSignals,
    updatedAt: agent.updatedAt,
  });
}

/** `count` distinct indices of `[0, n)`, in the order drawn (partial Fisher–Yates). */
function chooseIndices(rng: Rng, n: number, count: number): number[] {
  const pool = new Int32Array(n);
  for (let i = 0; i < n; i++) pool[i] = i;
  const chosen: number[] = [];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(rng.next() * (n - i));
    const tmp = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = tmp;
    chosen.push(pool[i]!);
  }
  return chosen;
}

/**
 * A new score: across the nearest boundary (`cross`), or by 1–4 points inside the same interval between
 * boundaries (`drift`; falls back to crossing when the interval holds a single score).
 */
function newScore(rng: Rng, score: number, mode: "cross" | "drift", boundaries: readonly number[]): number {
  const below = boundaries.filter((b) => b <= score).at(-1);
  const above = boundaries.find((b) => b > score);
  if (mode === "drift") {
    const lo = Math.max(below ?? 0, score - 4);
    const hi = Math.min(above === undefined ? MAX_SERVICE_SCORE : above - 1, score + 4);
    const candidates: number[] = [];
    for (let s = lo; s <= hi; s++) if (s !== score) candidates.push(s);
    if (candidates.length > 0) return rng.pick(candidates);
  }
  const downDistance = below === undefined ? Infinity : score - below + 1;
  const upDistance = above === undefined ? Infinity : above - score;
  const goDown = downDistance < upDistance || (downDistance === upDistance && rng.chance(0.5));
  return goDown ? clampScore(below! - 1 - rng.int(0, 3)) : clampScore(above! + rng.int(0, 3));
}
