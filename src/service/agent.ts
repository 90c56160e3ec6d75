/**
 * One agent of the local service's synthetic population, its key, and the badges derived from it.
 *
 * @packageDocumentation
 */
import type { SybilSeverityName, TierName } from "../config/encodings.js";

/** Earned badges and warnings of an agent, as `/api/trust-check` reports them. */
export interface AgentBadges {
  /** Badges the agent has earned (signed as `badges` in a v2 attestation). */
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
  /** Current owner address (lowercase hex). */
  readonly owner: `0x${string}`;
  /** Whether the owner is the address that registered the agent. */
  readonly isOriginalOwner: boolean;
  /** Whether the owner has verified control of the agent (drives the `verified-owner` badge). */
  readonly ownerVerified: boolean;
  /** Trust score, 0–95. */
  readonly score: number;
  /** Tier name, derived from `score` by the published boundaries. */
  readonly tier: TierName;
  /** Sybil severity name. */
  readonly sybilSeverity: SybilSeverityName;
  /** Sybil signals behind the severity (empty for `none`). */
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
export interface AgentRef {
  /** Token id. */
  readonly agentId: number;
  /** Chain slug. */
  readonly chain: string;
  /** Registry name. */
  readonly registry: string;
}

export { agentKey } from "../agent-key.js";

/**
 * Orders agents as `/api/agents` lists them: chain slug, then registry (both in string order), then agent id.
 *
 * @param a - First agent.
 * @param b - Second agent.
 * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
 */
export function compareAgentRefs(a: AgentRef, b: AgentRef): number {
  if (a.chain !== b.chain) return a.chain < b.chain ? -1 : 1;
  if (a.registry !== b.registry) return a.registry < b.registry ? -1 : 1;
  return a.agentId - b.agentId;
}

/** The sybil severities from which an agent carries the `sybil-risk` warning. */
const SYBIL_RISK_SEVERITIES: ReadonlySet<string> = new Set(["moderate", "elevated", "heavy"]);

/**
 * The badges an agent has, derived from its other fields, so that a changed score or severity changes the
 * badges consistently.
 *
 * @param agent - The fields the badges depend on.
 * @returns Earned badges and warnings, in a fixed order.
 */
export function deriveBadges(
  agent: Pick<
    PopulationAgent,
    "score" | "sybilSeverity" | "feedbackCount" | "ageDays" | "isOriginalOwner" | "ownerVerified"
  >,
): AgentBadges {
  const flags =
    (agent.ownerVerified ? 1 : 0) |
    (agent.isOriginalOwner ? 2 : 0) |
    (agent.ageDays >= 180 ? 4 : 0) |
    (agent.feedbackCount >= 10 ? 8 : 0) |
    (agent.score >= 75 ? 16 : 0) |
    (SYBIL_RISK_SEVERITIES.has(agent.sybilSeverity) ? 32 : 0) |
    (agent.ageDays < 14 ? 64 : 0) |
    (agent.feedbackCount < 3 ? 128 : 0) |
    (agent.score < 30 ? 256 : 0);
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
  if (flags & 1) earned.push("verified-owner");
  if (flags & 2) earned.push("original-owner");
  if (flags & 4) earned.push("established-history");
  if (flags & 8) earned.push("active-feedback");
  if (flags & 16) earned.push("high-trust");
  if (flags & 32) warnings.push("sybil-risk");
  if (!(flags & 2)) warnings.push("ownership-transferred");
  if (flags & 64) warnings.push("new-agent");
  if (flags & 128) warnings.push("low-feedback");
  if (flags & 256) warnings.push("flagged-score");
  return Object.freeze({ earned: Object.freeze(earned), warnings: Object.freeze(warnings) });
}
