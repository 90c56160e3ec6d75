/**
 * The intelligence endpoints: `GET /api/reviewer-analysis` (SDK `ReviewerAnalysisResponse`), `GET /api/compare`,
 * `GET /api/reviewer` (SDK `ReviewerProfileResponse`), `GET /api/entity` (SDK `getEntity`),
 * `GET /api/address-ages` and `POST /api/risk-terms` (SDK `RiskTermsResponse`, SKILL.md's tiers).
 *
 * @packageDocumentation
 */
import type { AddressAge, CompareResult, EntityProfile, RiskTerms } from "../../../published/index.js";
import { DEFAULT_THRESHOLD, RISK_TERMS_RATE_LIMITS } from "../../../config/service.js";
import { apiSybilSeverity, type PopulationAgent } from "../agent.js";
import { ok, type ServiceContext, type ServiceHandler } from "../context.js";
import {
  type AgentSpec,
  isAbsent,
  readAddressParam,
  readAgentIdParam,
  readAgentListParam,
  readChainParam,
  readFlagParam,
  readJsonObjectBodyParam,
  readOptionalChainParam,
  readRegistryParam,
  readThresholdParam,
  readWalletParam,
} from "../params.js";
import type { Population } from "../population.js";
import { mcpServerScan } from "../synthetic/mcp-servers.js";
import { chainIdOrNull, reviewerAnalysisBody, reviewerProfileBody, reviewerQuality } from "../synthetic/reviewers.js";
import { addressAgeDays, mcpServersOf, publishedWalletScores, walletIntelligenceScores } from "../synthetic/wallets.js";
import { requireAgent } from "./trust-check.js";

/**
 * The comparison of 2–10 agents, ranked by score (highest first; ties keep the order given).
 *
 * @param population - The population.
 * @param specs - The agents.
 * @param threshold - Threshold for `pass` (default 50).
 * @returns The body; 404 when an agent is unknown.
 */
export function compareBody(population: Population, specs: readonly AgentSpec[], threshold: number = DEFAULT_THRESHOLD): CompareResult {
  const agents = specs.map((spec) => requireAgent(population, spec.chain, spec.agentId, spec.registry));
  const ranked = agents
    .map((agent, index) => ({ agent, index }))
    .sort((a, b) => b.agent.score - a.agent.score || a.index - b.index)
    .map(({ agent }) => ({
      agentId: agent.agentId,
      chain: agent.chain,
      registry: agent.registry,
      name: agent.name,
      score: agent.score,
      tier: agent.tier,
      pass: agent.score >= threshold,
      sybilSeverity: apiSybilSeverity(agent.sybilSeverity),
      reviewerQuality: reviewerQuality(population, agent),
    }));
  return { agents: ranked, threshold };
}

/** The counterparty risk tiers of SKILL.md: level, label, and the lowest score of the band. */
export const RISK_TIERS = [
  { level: 1, label: "low", minScore: 75, description: "Low counterparty risk; strong trust signals established" },
  { level: 2, label: "moderate", minScore: 60, description: "Moderate counterparty risk; trust signals partly established" },
  { level: 3, label: "elevated", minScore: 45, description: "Elevated counterparty risk; limited trust signals established" },
  { level: 4, label: "high", minScore: 25, description: "High counterparty risk; weak trust signals" },
  { level: 5, label: "severe", minScore: 0, description: "Severe counterparty risk; little or no trust established" },
] as const;

/** Tier 6: declined (heavy coordinated activity). */
export const CRITICAL_RISK_TIER = {
  level: 6,
  label: "critical",
  description: "Decline recommended; indicators of heavy coordinated activity",
} as const;

/** Chains on which the synthetic service has no address-age data (as the real one lacks it on some). */
export const CHAINS_WITHOUT_ADDRESS_AGE: ReadonlySet<string> = new Set(["monad", "megaeth"]);

/**
 * The risk tier of a score by SKILL.md's bands.
 *
 * @param score - Trust score.
 * @returns Level 1–5 and its label.
 */
export function riskTierOfScore(score: number): (typeof RISK_TIERS)[number] {
  return RISK_TIERS.find((tier) => score >= tier.minScore) ?? RISK_TIERS[RISK_TIERS.length - 1]!;
}

/**
 * The risk terms of an agent: `terms` with the tier of its score band, `decline` (tier 6) for heavy sybil
 * severity, `insufficient_data` (tier 5, not computed) for an agent without a usable score (no feedback and
 * registered less than a day before its scoring).
 *
 * @param context - Service state.
 * @param agent - The agent.
 * @param authenticated - Whether the caller sent a key (echoed in `auth`).
 * @param perMinute - The caller's limit on `/api/risk-terms` (echoed in `auth`); default the documented 5 or 60.
 * @returns The `/api/risk-terms` body.
 */
export function riskTermsBody(context: ServiceContext, agent: PopulationAgent, authenticated: boolean, perMinute?: number): RiskTerms {
  const population = context.population;
  const quality = reviewerQuality(population, agent);
  const hasAddressAge = !CHAINS_WITHOUT_ADDRESS_AGE.has(agent.chain);
  const scoreAvailable = !(agent.feedbackCount === 0 && agent.ageDays === 0);
  const credibility = quality === null ? null : quality >= 70 ? "high" : quality >= 40 ? "medium" : "low";
  const coverage = {
    address_age: hasAddressAge,
    sybil_analysis: true,
    reviewer_credibility: credibility !== null,
  };
  const signalsAvailable = 3 + Object.values(coverage).filter(Boolean).length;
  const missing = Object.entries(coverage)
    .filter(([, has]) => !has)
    .map(([name]) => name);
  const heavy = agent.sybilSeverity === "heavy";
  const band = riskTierOfScore(agent.score);
  const base = context.publicBase;
  const body: RiskTerms = {
    recommendation: heavy ? "decline" : scoreAvailable ? "terms" : "insufficient_data",
    agent_id: agent.agentId,
    agent_name: agent.name,
    chain: agent.chain,
    chain_id: chainIdOrNull(agent.chain),
    registry: agent.registry,
    explorer_url: `${base}${explorerPath(agent)}`,
    risk_tier: heavy
      ? { ...CRITICAL_RISK_TIER, computed: true }
      : scoreAvailable
        ? { level: band.level, label: band.label, description: band.description, computed: true }
        : { level: 5, label: "severe", description: "Trust score unavailable; conservative default tier", computed: false },
    signals: {
      trust_score: scoreAvailable ? agent.score : null,
      score_available: scoreAvailable,
      sybil_severity: apiSybilSeverity(agent.sybilSeverity),
      address_age_days: hasAddressAge ? addressAgeDays(population, agent.owner, agent.chain) : null,
      is_original_owner: agent.isOriginalOwner,
      review_count: agent.feedbackCount,
      reviewer_credibility: credibility,
    },
    data_coverage: { ...coverage, signals_available: signalsAvailable, signals_total: 6 },
    methodology: {
      version: "1.0.0",
      url: `${base}/risk-intelligence`,
      description: "Tier from the trust score band; heavy sybil severity declines; raw signals for the relying party to set its own terms",
    },
    disclaimer: {
      status: "INFORMATIONAL_ONLY",
      text: "Algorithmic assessment of public on-chain data; not an accusation, endorsement or financial advice.",
      data_limitations: "Data may be delayed, incomplete or wrong through indexing errors.",
      tos_url: `${base}/terms`,
    },
    warning: missing.length === 0 ? null : `Trust score computed from incomplete data: missing ${missing.join(", ")}`,
    timestamp: context.now().toISOString(),
    auth: authenticated
      ? { status: "authenticated", limit: `${perMinute ?? RISK_TERMS_RATE_LIMITS.withApiKey}/min` }
      : { status: "anonymous", limit: `${perMinute ?? RISK_TERMS_RATE_LIMITS.anonymous}/min` },
  };
  if (heavy) {
    body.decline_reasons = [
      { signal: "sybil_severity", value: "heavy", reason: "Indicators consistent with heavy coordinated activity" },
      ...agent.sybilSignals.map((signal) => ({ signal: "sybil_signal", value: signal, reason: `Sybil signal ${signal} is active` })),
    ];
  }
  return body;
}

/**
 * The path of an agent's explorer page (SKILL.md's URL patterns).
 *
 * @param agent - The agent.
 * @returns `/explorer/<chain>/<id>`, `/explorer/olas/<chain>/<id>`, `/explorer/solana/<id>` or `/explorer/virtuals/<chain>/<id>`.
 */
export function explorerPath(agent: Pick<PopulationAgent, "agentId" | "chain" | "registry">): string {
  if (agent.registry === "sati") return `/explorer/solana/${agent.agentId}`;
  if (agent.registry === "olas" || agent.registry === "virtuals") return `/explorer/${agent.registry}/${agent.chain}/${agent.agentId}`;
  return `/explorer/${agent.chain}/${agent.agentId}`;
}

/**
 * An operator's footprint (`agents`, `wallet_score`, `mcp_servers`).
 *
 * @param population - The population.
 * @param wallet - The wallet.
 * @returns The `/api/entity` body (empty lists and `wallet_score: null` for a wallet without agents).
 */
export function entityBody(population: Population, wallet: string): EntityProfile {
  const agents = population.byOwner(wallet);
  const scores = walletIntelligenceScores(population, wallet);
  return {
    wallet,
    agents: agents.map((a) => ({
      agentId: a.agentId,
      chain: a.chain,
      registry: a.registry,
      name: a.name,
      score: a.score,
      tier: a.tier,
      sybilSeverity: apiSybilSeverity(a.sybilSeverity),
      sybilSignals: [...a.sybilSignals],
    })),
    wallet_score: scores ? publishedWalletScores(scores) : null,
    mcp_servers: mcpServersOf(population, wallet).map((id) => ({
      canonical_id: id,
      mcp_risk_score: mcpServerScan(population, id).riskScore,
    })),
  };
}

/**
 * The age of a wallet: on one chain, or (no chain) the oldest over the population's chains and Solana.
 *
 * @param population - The population.
 * @param address - The wallet.
 * @param chain - Chain slug, or `undefined`.
 * @returns The `/api/address-ages` body.
 */
export function addressAgeBody(population: Population, address: string, chain: string | undefined): AddressAge {
  if (chain !== undefined) return { address, chain, ageDays: addressAgeDays(population, address, chain) };
  const chains = address.startsWith("0x") ? population.chains.filter((c) => c !== "solana") : ["solana"];
  return { address, chain: null, ageDays: Math.max(0, ...chains.map((c) => addressAgeDays(population, address, c))) };
}

/** `GET /api/reviewer-analysis?id=&chain=&registry=`. */
export const handleReviewerAnalysis: ServiceHandler = async (request, context) => {
  const q = request.query;
  const agent = requireAgent(
    context.population,
    readChainParam(q.get("chain")),
    readAgentIdParam(q.get("id")),
    readRegistryParam(q.get("registry")),
  );
  return ok(reviewerAnalysisBody(context.population, agent));
};

/** `GET /api/compare?agents=base:1,ethereum:2&threshold=` (threshold default 50). */
export const handleCompare: ServiceHandler = async (request, context) => {
  const specs = readAgentListParam(request.query.get("agents"));
  return ok(compareBody(context.population, specs, readThresholdParam(request.query.get("threshold")) ?? DEFAULT_THRESHOLD));
};

/** `GET /api/reviewer?address=&chain=&summary=`. */
export const handleReviewer: ServiceHandler = async (request, context) => {
  const q = request.query;
  const address = readWalletParam(q.get("address"), "address");
  const chain = readChainParam(q.get("chain"));
  return ok(reviewerProfileBody(context.population, address, chain, readFlagParam(q.get("summary"), "summary")));
};

/** `GET /api/entity?wallet=`: an operator's footprint (a wallet without agents gets an empty one). */
export const handleEntity: ServiceHandler = async (request, context) => {
  return ok(entityBody(context.population, readAddressParam(request.query.get("wallet"), "wallet")));
};

/** `GET /api/address-ages?address=&chain=` (chain optional). */
export const handleAddressAges: ServiceHandler = async (request, context) => {
  const address = readWalletParam(request.query.get("address"), "address");
  return ok(addressAgeBody(context.population, address, readOptionalChainParam(request.query.get("chain"))));
};

/** `POST /api/risk-terms` with `{ agent_id, chain, registry? }`. */
export const handleRiskTerms: ServiceHandler = async (request, context) => {
  const body = readJsonObjectBodyParam(request.body, request.headers["content-type"]);
  const agent = requireAgent(
    context.population,
    readChainParam(body.chain),
    readAgentIdParam(body.agent_id, "agent_id"),
    readRegistryParam(body.registry),
  );
  // The caller's actual limit when the service limits (a key outside `apiKeys` counts as anonymous), else the key's presence.
  if (request.rate) return ok(riskTermsBody(context, agent, request.rate.keyed, request.rate.limit));
  const authenticated = !isAbsent(request.headers.authorization) && /^Bearer\s+\S+/i.test(String(request.headers.authorization));
  return ok(riskTermsBody(context, agent, authenticated));
};
