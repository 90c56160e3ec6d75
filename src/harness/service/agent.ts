/**
 * One agent of the local service's synthetic population, its key, and the badges derived from it.
 *
 * @packageDocumentation
 */
import type { SybilSeverityName, TierName } from "../../config/encodings.js";

/**
 * Earned badges and warnings of an agent, as `/api/trust-check` reports them; ids from the SDK's `BadgeId`
 * list (rnwy-sdk 0.3.0). A signed block carries both merged into one flat array.
 */
export interface AgentBadges {
  /** Badges the agent has earned. */
  readonly earned: readonly string[];
  /** Warnings about the agent. */
  readonly warnings: readonly string[];
}

/** An agent of the synthetic population (frozen; a changed agent is a new object). */
export interface PopulationAgent {
  /** Token id in its registry on its chain. */
  readonly agentId: number;
  /** Chain slug (`base`, `ethereum`, …). */
  readonly chain: string;
  /** Registry (`erc8004`, `olas`, …). */
  readonly registry: string;
  /** Display name. */
  readonly name: string;
  /** Current owner address: lowercase hex on EVM chains, base58 on Solana. */
  readonly owner: string;
  /** Whether the owner is the address that registered the agent. */
  readonly isOriginalOwner: boolean;
  /** Whether the agent's reviews are backed by verified activity (drives the `verified_reviews` badge). */
  readonly ownerVerified: boolean;
  /** Trust score, 0–95. */
  readonly score: number;
  /** Tier name, derived from `score` by the published boundaries. */
  readonly tier: TierName;
  /**
   * Sybil severity name; `none` stands for "no sybil signal", which the API serves as `null` (v2) and the
   * legacy v1 block as `none`.
   */
  readonly sybilSeverity: SybilSeverityName;
  /** Sybil signals behind the severity, snake_case (`common_funder`, …); empty for `none`. */
  readonly sybilSignals: readonly string[];
  /** Badges derived from the other fields. */
  readonly badges: AgentBadges;
  /** Number of feedback entries the agent has received. */
  readonly feedbackCount: number;
  /** Age of the agent in whole days at its last scoring (`updatedAt`). */
  readonly ageDays: number;
  /** When the agent was registered. */
  readonly registeredAt: Date;
  /** When the agent was last scored (what an oracle record's `updatedAt` would carry). */
  readonly updatedAt: Date;
}

/** The identifying triple of an agent. */
export interface PopulationKey {
  /** Token id. */
  readonly agentId: number;
  /** Chain slug. */
  readonly chain: string;
  /** Registry name. */
  readonly registry: string;
}

export { agentKey } from "../../agent/agent-ref.js";

/**
 * Orders agents as `/api/agents` lists them: chain slug, then registry (both in string order), then agent id.
 *
 * @param a - First agent.
 * @param b - Second agent.
 * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
 */
export function compareListingOrder(a: PopulationKey, b: PopulationKey): number {
  if (a.chain !== b.chain) return a.chain < b.chain ? -1 : 1;
  if (a.registry !== b.registry) return a.registry < b.registry ? -1 : 1;
  return a.agentId - b.agentId;
}

/** The sybil severities from which an agent carries the `low_history_reviewers` warning. */
const LOW_HISTORY_SEVERITIES: ReadonlySet<string> = new Set(["moderate", "elevated", "heavy"]);

/** Badge ids the synthetic service awards, from the SDK's `BadgeId` list. */
export const BADGE_IDS = {
  earned: ["verified_reviews", "original_owner", "established_wallet", "high_volume", "long_standing"],
  warnings: ["sybil_heavy", "sybil_elevated", "low_history_reviewers", "transferred", "recently_registered", "incomplete_data"],
} as const;

/**
 * The badges an agent has, derived from its other fields, so that a changed score or severity changes the
 * badges consistently.
 *
 * @param agent - The fields the badges depend on.
 * @returns Earned badges and warnings, in a fixed order.
 */
export function deriveBadges(
  agent: Pick<PopulationAgent, "score" | "sybilSeverity" | "feedbackCount" | "ageDays" | "isOriginalOwner" | "ownerVerified">,
): AgentBadges {
  const flags =
    (agent.ownerVerified ? 1 : 0) |
    (agent.isOriginalOwner ? 2 : 0) |
    (agent.ageDays >= 180 ? 4 : 0) |
    (agent.feedbackCount >= 10 ? 8 : 0) |
    (agent.ageDays >= 365 && agent.score >= 51 ? 16 : 0) |
    (agent.sybilSeverity === "heavy" ? 32 : 0) |
    (agent.sybilSeverity === "elevated" ? 64 : 0) |
    (LOW_HISTORY_SEVERITIES.has(agent.sybilSeverity) ? 128 : 0) |
    (agent.ageDays < 14 ? 256 : 0) |
    (agent.feedbackCount === 0 ? 512 : 0);
  let badges = badgeCache.get(flags);
  if (!badges) {
    badges = badgesOf(flags);
    badgeCache.set(flags, badges);
  }
  return badges;
}

/** Badge sets are shared between agents (frozen), one per combination of the conditions. */
const badgeCache = new Map<number, AgentBadges>();

function badgesOf(flags: number): AgentBadges {
  const earned: string[] = [];
  const warnings: string[] = [];
  if (flags & 1) earned.push("verified_reviews");
  if (flags & 2) earned.push("original_owner");
  if (flags & 4) earned.push("established_wallet");
  if (flags & 8) earned.push("high_volume");
  if (flags & 16) earned.push("long_standing");
  if (flags & 32) warnings.push("sybil_heavy");
  if (flags & 64) warnings.push("sybil_elevated");
  if (flags & 128) warnings.push("low_history_reviewers");
  if (!(flags & 2)) warnings.push("transferred");
  if (flags & 256) warnings.push("recently_registered");
  if (flags & 512) warnings.push("incomplete_data");
  return Object.freeze({ earned: Object.freeze(earned), warnings: Object.freeze(warnings) });
}

/**
 * The flat badge array of a signed block: earned badges, then warnings.
 *
 * @param badges - The agent's badges.
 * @returns A new array.
 */
export function flatBadges(badges: AgentBadges): string[] {
  return [...badges.earned, ...badges.warnings];
}

/**
 * The sybil severity as the API serves it: `null` when there is no sybil signal, else the name.
 *
 * @param severity - The population's severity name.
 * @returns `null` or `low`/`moderate`/`elevated`/`heavy`.
 */
export function apiSybilSeverity(severity: SybilSeverityName): Exclude<SybilSeverityName, "none"> | null {
  return severity === "none" ? null : severity;
}
