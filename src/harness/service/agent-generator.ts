/**
 * Generation of one synthetic agent: a realistic score distribution around the service's base score of 50,
 * sybil severity correlated with low scores, names, owners, history and feedback.
 *
 * @packageDocumentation
 */
import { DEFAULT_TRUST_ENCODING, type SybilSeverityName, tierForScore } from "../../config/encodings.js";
import { SYBIL_SIGNALS } from "../../published/sybil-signals.js";
import { type Rng, syntheticAddress } from "../prng.js";
import { deriveBadges, type PopulationAgent } from "./agent.js";

/** Highest score the service gives (base 50, capped at 95). */
export const MAX_SERVICE_SCORE = 95;

const DAY_MS = 86_400_000;
const NO_SIGNALS: readonly string[] = Object.freeze([]);
const SEVERITIES = DEFAULT_TRUST_ENCODING.sybilSeverities;

const ADJECTIVES = [
  "Nova",
  "Quantum",
  "Silent",
  "Swift",
  "Atlas",
  "Lumen",
  "Vector",
  "Cobalt",
  "Echo",
  "Orbit",
  "Prime",
  "Delta",
  "Aether",
  "Crimson",
  "Onyx",
  "Zephyr",
  "Helix",
  "Nimbus",
  "Vertex",
  "Solar",
  "Iron",
  "Velvet",
  "Polar",
  "Rapid",
] as const;
const NOUNS = [
  "Scout",
  "Oracle",
  "Sentinel",
  "Trader",
  "Analyst",
  "Relay",
  "Broker",
  "Curator",
  "Navigator",
  "Auditor",
  "Keeper",
  "Agent",
  "Pilot",
  "Courier",
  "Ranger",
  "Clerk",
  "Weaver",
  "Warden",
  "Seeker",
  "Advisor",
] as const;

/** What {@link generateAgent} needs besides the generator. */
export interface AgentSeedContext {
  /** Chain slug. */
  readonly chain: string;
  /** Registry. */
  readonly registry: string;
  /** Token id. */
  readonly agentId: number;
  /** Owner address (see {@link ownerAddress}; base58 for Solana). */
  readonly owner: string;
  /** Time of the scoring that produced this record. */
  readonly at: Date;
  /** Age of the agent in days at `at`; drawn when absent. */
  readonly ageDays?: number;
  /** For an agent registered since a snapshot: the snapshot time; its registration falls after it. */
  readonly registeredAfter?: Date;
}

/**
 * The owner address of an owner index in a population.
 *
 * @param seed - Population seed.
 * @param ownerIndex - Owner index.
 * @returns Lowercase hex address.
 */
export function ownerAddress(seed: number, ownerIndex: number): `0x${string}` {
  return syntheticAddress("owner", seed, ownerIndex);
}

/**
 * Draws a score from the service's realistic mixture: spam and sybil farms low, most agents near the base
 * score of 50, a developing middle and a small established group.
 *
 * @param rng - Generator.
 * @returns An integer in `[0, 95]`.
 */
export function drawScore(rng: Rng): number {
  const r = rng.next();
  const raw = r < 0.16 ? rng.normal(18, 8) : r < 0.58 ? rng.normal(50, 5) : r < 0.86 ? rng.normal(63, 7) : rng.normal(82, 6);
  return clampScore(Math.round(raw));
}

/**
 * Clamps a score into the service's range.
 *
 * @param score - Any number.
 * @returns An integer in `[0, 95]`.
 */
export function clampScore(score: number): number {
  return Math.min(MAX_SERVICE_SCORE, Math.max(0, Math.round(score)));
}

/**
 * Draws a sybil severity, more severe for lower scores.
 *
 * @param rng - Generator.
 * @param score - The agent's score.
 * @returns The severity name.
 */
export function drawSybilSeverity(rng: Rng, score: number): SybilSeverityName {
  const weights =
    score < 30
      ? [0.15, 0.15, 0.2, 0.25, 0.25]
      : score <= 50
        ? [0.55, 0.2, 0.13, 0.08, 0.04]
        : score < 75
          ? [0.7, 0.18, 0.08, 0.03, 0.01]
          : [0.85, 0.12, 0.03, 0, 0];
  return rng.weighted(SEVERITIES, weights);
}

/**
 * Draws sybil signals that fit a severity: none for `none`, more for heavier severities.
 *
 * @param rng - Generator.
 * @param severity - The severity.
 * @returns Distinct signals, in {@link SYBIL_SIGNALS} order.
 */
export function drawSybilSignals(rng: Rng, severity: SybilSeverityName): readonly string[] {
  const level = SEVERITIES.indexOf(severity);
  if (level <= 0) return NO_SIGNALS;
  const count = Math.min(SYBIL_SIGNALS.length, level + (level >= 2 ? rng.int(0, 1) : 0) + (level === 4 ? 1 : 0));
  const chosen = new Set<string>();
  while (chosen.size < count) chosen.add(rng.pick(SYBIL_SIGNALS));
  return Object.freeze(SYBIL_SIGNALS.filter((s) => chosen.has(s)));
}

/**
 * Adjusts signals after a severity change of one step: one more signal when the severity rises, one fewer
 * when it falls, none at `none`.
 *
 * @param rng - Generator.
 * @param signals - Current signals.
 * @param severity - The new severity.
 * @param rose - Whether the severity rose.
 * @returns The new signals, in {@link SYBIL_SIGNALS} order.
 */
export function adjustSybilSignals(rng: Rng, signals: readonly string[], severity: SybilSeverityName, rose: boolean): readonly string[] {
  if (severity === "none") return NO_SIGNALS;
  const set = new Set(signals);
  if (rose || set.size === 0) {
    const missing = SYBIL_SIGNALS.filter((s) => !set.has(s));
    if (missing.length > 0) set.add(rng.pick(missing));
  } else if (set.size > 1) {
    set.delete(rng.pick([...set]));
  }
  return Object.freeze(SYBIL_SIGNALS.filter((s) => set.has(s)));
}

/**
 * Draws a display name.
 *
 * @param rng - Generator.
 * @param agentId - Token id (some agents are just "Agent <id>").
 * @returns The name.
 */
export function drawName(rng: Rng, agentId: number): string {
  const r = rng.next();
  if (r < 0.15) return `Agent ${agentId}`;
  if (r < 0.4) return `${rng.pick(NOUNS)}Bot ${rng.int(1, 999)}`;
  return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
}

/**
 * Generates one agent, scored at `context.at`.
 *
 * @param rng - Generator (advanced by the draws).
 * @param context - Identity, owner and time.
 * @returns The frozen agent.
 */
export function generateAgent(rng: Rng, context: AgentSeedContext): PopulationAgent {
  const score = drawScore(rng);
  const sybilSeverity = drawSybilSeverity(rng, score);
  const sybilSignals = drawSybilSignals(rng, sybilSeverity);
  const maxAge = context.registry === "erc8004" ? 300 : 1000;
  let ageDays = context.ageDays ?? Math.floor(maxAge * rng.next() ** 2);
  if (context.ageDays === undefined && score >= 75) ageDays = Math.max(ageDays, rng.int(45, maxAge));
  let feedbackCount = Math.floor(Math.exp(rng.normal(Math.log(1 + Math.max(0, score - 40) / 4), 0.8)));
  if (SEVERITIES.indexOf(sybilSeverity) >= 3 && rng.chance(0.4)) feedbackCount += rng.int(10, 60);
  if (ageDays === 0) feedbackCount = Math.min(feedbackCount, 1);
  const isOriginalOwner = rng.chance(0.92);
  const ownerVerified = rng.chance(score >= 51 ? 0.55 : 0.2);
  const window = context.registeredAfter
    ? Math.max(1, Math.min(DAY_MS, context.at.getTime() - context.registeredAfter.getTime()) / 1000 - 1)
    : DAY_MS / 1000 - 1;
  const registeredAt = new Date(context.at.getTime() - ageDays * DAY_MS - rng.int(1, Math.floor(window)) * 1000);
  const traits = { score, sybilSeverity, feedbackCount, ageDays, isOriginalOwner, ownerVerified };
  return Object.freeze({
    agentId: context.agentId,
    chain: context.chain,
    registry: context.registry,
    name: drawName(rng, context.agentId),
    owner: context.owner,
    isOriginalOwner,
    ownerVerified,
    score,
    tier: tierForScore(score),
    sybilSeverity,
    sybilSignals,
    badges: deriveBadges(traits),
    feedbackCount,
    ageDays,
    registeredAt,
    updatedAt: new Date(context.at.getTime()),
  });
}
