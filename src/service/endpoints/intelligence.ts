/**
 * The intelligence endpoints: `GET /api/reviewer-analysis`, `GET /api/compare`, `GET /api/reviewer`,
 * `GET /api/entity`, `GET /api/address-ages` and `POST /api/risk-terms`.
 *
 * @packageDocumentation
 */
import type { PopulationAgent } from "../agent.js";
import { ok, type ServiceContext, type ServiceHandler } from "../context.js";
import {
  parseAddress,
  parseAgentId,
  parseAgentList,
  parseChain,
  parseFlag,
  parseJsonObjectBody,
  parseRegistry,
  parseThreshold,
  type AgentSpec,
} from "../params.js";
import type { Population } from "../population.js";
import { reviewerAnalysisBody, reviewerProfileBody, reviewerQuality, reviewersOf } from "../synthetic/reviewers.js";
import { addressAgeDays, mcpServersOf, walletIntelligence } from "../synthetic/wallets.js";
import { requireAgent } from "./trust-check.js";

/** The `/api/compare` body. */
export interface CompareBody {
  agents: {
    agentId: number;
    chain: string;
    registry: string;
    score: number;
    tier: string;
    pass: boolean | null;
    reviewerQuality: number | null;
  }[];
  threshold: number | null;
}

/** Counterparty risk tiers of `/api/risk-terms`, lowest risk first. */
export type RiskTier = "low" | "medium" | "high" | "critical";

/**
 * The comparison of 2–10 agents, ranked by score (highest first; ties keep the order given).
 *
 * @param population - The population.
 * @param specs - The agents.
 * @param threshold - Threshold for `pass`, or `null`.
 * @returns The body; 404 when an agent is unknown.
 */
export function compareBody(population: Population, specs: readonly AgentSpec[], threshold: number | null): CompareBody {
  const agents = specs.map((spec) => requireAgent(population, spec.chain, spec.agentId, spec.registry));
  const ranked = agents
    .map((agent, index) => ({ agent, index }))
    .sort((a, b) => b.agent.score - a.agent.score || a.index - b.index)
    .map(({ agent }) => ({
      agentId: agent.agentId,
      chain: agent.chain,
      registry: agent.registry,
      score: agent.score,
      tier: agent.tier,
      pass: threshold === null ? null : agent.score >= threshold,
      reviewerQuality: reviewerQuality(population, agent),
    }));
  return { agents: ranked, threshold };
}

/**
 * The counterparty risk tier of an agent, from its score and sybil severity.
 *
 * @param agent - The agent.
 * @returns The tier.
 */
export function riskTierOf(agent: Pick<PopulationAgent, "score" | "sybilSeverity">): RiskTier {
  if (agent.score < 30 || agent.sybilSeverity === "heavy") return "critical";
  if (agent.score <= 50 || agent.sybilSeverity === "elevated") return "high";
  if (agent.score < 75 || agent.sybilSeverity === "moderate") return "medium";
  return "low";
}

/**
 * The risk terms of an agent: raw signals for a relying party.
 *
 * @param context - Service state.
 * @param agent - The agent.
 * @returns The `/api/risk-terms` body.
 */
export function riskTermsBody(context: ServiceContext, agent: PopulationAgent): Record<string, unknown> {
  const population = context.population;
  const reviewers = reviewersOf(population, agent);
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    riskTier: riskTierOf(agent),
    trustSignals: {
      score: agent.score,
      tier: agent.tier,
      sybilSeverity: agent.sybilSeverity,
      sybilSignals: [...agent.sybilSignals],
      badges: { earned: [...agent.badges.earned], warnings: [...agent.badges.warnings] },
      feedbackCount: agent.feedbackCount,
      ageDays: agent.ageDays,
      isOriginalOwner: agent.isOriginalOwner,
      reviewerQuality: reviewerQuality(population, agent),
    },
    dataCoverage: {
      reviewersAnalyzed: reviewers.length,
      feedbackCount: agent.feedbackCount,
      ownerHistoryDays: addressAgeDays(population, agent.owner, agent.chain),
      chainsObserved: [...new Set(population.byOwner(agent.owner).map((a) => a.chain))],
      lastScoredAt: agent.updatedAt.toISOString(),
      complete: agent.feedbackCount === reviewers.length,
    },
    methodology: new URL("/methodology/risk-terms", context.issuer).toString(),
  };
}

/** `GET /api/reviewer-analysis?id=&chain=&registry=`. */
export const handleReviewerAnalysis: ServiceHandler = async (request, context) => {
  const q = request.query;
  const agent = requireAgent(context.population, parseChain(q.get("chain")), parseAgentId(q.get("id")), parseRegistry(q.get("registry")));
  return ok(reviewerAnalysisBody(context.population, agent));
};

/** `GET /api/compare?agents=base:1,ethereum:2&threshold=`. */
export const handleCompare: ServiceHandler = async (request, context) => {
  const specs = parseAgentList(request.query.get("agents"));
  return ok(compareBody(context.population, specs, parseThreshold(request.query.get("threshold"))));
};

/** `GET /api/reviewer?address=&chain=&summary=`. */
export const handleReviewer: ServiceHandler = async (request, context) => {
  const q = request.query;
  const address = parseAddress(q.get("address"));
  const chain = parseChain(q.get("chain"));
  return ok(reviewerProfileBody(context.population, address, chain, parseFlag(q.get("summary"), "summary")));
};

/** `GET /api/entity?wallet=`: an operator's footprint (a wallet without agents gets an empty one). */
export const handleEntity: ServiceHandler = async (request, context) => {
  const wallet = parseAddress(request.query.get("wallet"), "wallet");
  const population = context.population;
  const agents = population.byOwner(wallet);
  const signals = new Set(agents.flatMap((a) => a.sybilSignals));
  return ok({
    wallet,
    agents: agents.map((a) => ({ agentId: a.agentId, chain: a.chain, registry: a.registry, score: a.score, tier: a.tier })),
    sybilSignals: [...signals].sort(),
    walletIntelligence: walletIntelligence(population, wallet),
    mcpServers: mcpServersOf(population, wallet),
  });
};

/** `GET /api/address-ages?address=&chain=`. */
export const handleAddressAges: ServiceHandler = async (request, context) => {
  const address = parseAddress(request.query.get("address"));
  const chain = parseChain(request.query.get("chain"));
  return ok({ address, chain, ageDays: addressAgeDays(context.population, address, chain) });
};

/** `POST /api/risk-terms` with `{ agent_id, chain, registry? }`. */
export const handleRiskTerms: ServiceHandler = async (request, context) => {
  const body = parseJsonObjectBody(request.body, request.headers["content-type"]);
  const agent = requireAgent(
    context.population,
    parseChain(body.chain),
    parseAgentId(body.agent_id, "agent_id"),
    parseRegistry(body.registry),
  );
  return ok(riskTermsBody(context, agent));
};
