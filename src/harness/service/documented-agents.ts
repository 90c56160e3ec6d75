/**
 * The agents the real service's own documents use as examples (`rnwy/docs` SKILL.md: trust-check of base 16907
 * "Wolfpack Intelligence", reviewer analysis of base 1380, `compare?agents=base:1380,base:16907`), so that the
 * same examples — the kit's README among them — run unchanged against the local service. One small list, on
 * purpose: the values SKILL.md shows are used where it shows them; the rest is synthetic.
 *
 * @packageDocumentation
 */
import { tierForScore } from "../../config/encodings.js";
import { deriveBadges, type PopulationAgent } from "./agent.js";

/** What a documented example says about an agent. */
export interface DocumentedAgent {
  /** Chain slug. */
  readonly chain: string;
  /** Registry. */
  readonly registry: string;
  /** Token id. */
  readonly agentId: number;
  /** Display name. */
  readonly name: string;
  /** Trust score. */
  readonly score: number;
  /** Owner address (lowercase hex). */
  readonly owner: string;
  /** Number of feedback entries. */
  readonly feedbackCount: number;
  /** Age in days at the scoring. */
  readonly ageDays: number;
  /** Where the values come from. */
  readonly source: string;
}

/** The documented example agents: base 16907 and base 1380. */
export const documentedAgents: readonly DocumentedAgent[] = [
  {
    chain: "base",
    registry: "erc8004",
    agentId: 16907,
    name: "Wolfpack Intelligence",
    score: 59,
    owner: "0x6887dce558f76f36c281200fbc8e5d3da1241aea",
    feedbackCount: 1,
    ageDays: 31,
    source: "rnwy/docs SKILL.md, trust-check example",
  },
  {
    chain: "base",
    registry: "erc8004",
    agentId: 1380,
    name: "Agent 1380",
    score: 41,
    owner: "0x1380000000000000000000000000000000001380",
    feedbackCount: 1519,
    ageDays: 120,
    source: "rnwy/docs SKILL.md, reviewer-analysis and compare examples (1,519 reviews; name and score synthetic)",
  },
];

/**
 * The documented agents as population agents scored at `at`.
 *
 * @param at - Time of the population's scoring run.
 * @returns One agent per {@link documentedAgents} entry.
 */
export function documentedPopulationAgents(at: Date): PopulationAgent[] {
  return documentedAgents.map((d) => {
    const fields = {
      score: d.score,
      sybilSeverity: "none" as const,
      feedbackCount: d.feedbackCount,
      ageDays: d.ageDays,
      isOriginalOwner: true,
      ownerVerified: true,
    };
    return Object.freeze({
      agentId: d.agentId,
      chain: d.chain,
      registry: d.registry,
      name: d.name,
      owner: d.owner,
      ...fields,
      tier: tierForScore(d.score),
      sybilSignals: Object.freeze([]),
      badges: deriveBadges(fields),
      registeredAt: new Date(at.getTime() - d.ageDays * 86_400_000),
      updatedAt: new Date(at.getTime()),
    }) as PopulationAgent;
  });
}
