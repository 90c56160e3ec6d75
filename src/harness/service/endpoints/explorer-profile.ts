/**
 * `GET /api/explorer?id=&chain=&registry=`: one agent's profile in rnwy-sdk 0.3.0's `ExplorerResponse` shape
 * (`{agent, blockExplorer, similarAgents, qualityTrajectory}`, every field `Agent` declares), derived from the
 * synthetic population.
 *
 * @packageDocumentation
 */
import type { ExplorerProfile } from "../../../published/index.js";
import { SYBIL_SIGNAL_ALIASES } from "../../../published/sybil-signals.js";
import { resolveChain } from "../../../config/chains.js";
import { createRng, hashSeed } from "../../prng.js";
import type { PopulationAgent } from "../agent.js";
import { badgeLabel } from "../badge-labels.js";
import type { ServiceContext } from "../context.js";
import type { Population } from "../population.js";
import { agentCommerceStats } from "../synthetic/mcp-servers.js";
import { reviewersOf } from "../synthetic/reviewers.js";
import { addressAgeDays } from "../synthetic/wallets.js";

/** Block explorers by chain slug, for `blockExplorer`. */
const BLOCK_EXPLORERS: Readonly<Record<string, string>> = {
  ethereum: "https://etherscan.io",
  base: "https://basescan.org",
  bnb: "https://bscscan.com",
  gnosis: "https://gnosisscan.io",
  avalanche: "https://snowtrace.io",
  celo: "https://celoscan.io",
  arbitrum: "https://arbiscan.io",
  polygon: "https://polygonscan.com",
  optimism: "https://optimistic.etherscan.io",
  monad: "https://monadexplorer.com",
  megaeth: "https://megaexplorer.xyz",
  solana: "https://solscan.io",
};

const DAY_MS = 86_400_000;
/**
 * The SDK's `by_signal` key of a canonical signal id, where it spells it otherwise (`spray_pattern` for the spec's
 * `sweep_pattern`): `by_signal` is the SDK's object, so it keeps the SDK's keys.
 */
const SDK_SIGNAL_KEYS: ReadonlyMap<string, string> = new Map(Object.entries(SYBIL_SIGNAL_ALIASES).map(([alias, id]) => [id, alias]));
const SYBIL_WEIGHTS: Readonly<Record<string, number>> = {
  common_funder: 6,
  inhuman_velocity: 5,
  sweep_pattern: 3,
  score_clustering: 1,
  coordination: 8,
};

/**
 * Builds an agent's explorer profile.
 *
 * @param context - Service state.
 * @param agent - The agent.
 * @returns The body.
 */
export function explorerProfileBody(context: ServiceContext, agent: PopulationAgent): ExplorerProfile {
  const population = context.population;
  const rng = createRng(hashSeed("explorer-profile", population.seed, agent.chain, agent.registry, agent.agentId));
  const reviewers = reviewersOf(population, agent);
  const feedback = reviewers.map((r, i) => ({
    score: r.sybilFlags.length > 0 ? 100 : 40 + ((i * 37 + agent.agentId) % 61),
    tag1: i % 3 === 0 ? "quality" : null,
    tag2: null,
    clientAddress: r.address,
    createdAt: new Date(agent.updatedAt.getTime() - (r.currentAgeDays - r.ageAtReviewDays) * DAY_MS).toISOString(),
    text: null,
  }));
  const avgScore = feedback.length === 0 ? null : Math.round((100 * feedback.reduce((s, f) => s + f.score, 0)) / feedback.length) / 100;
  const walletAge = addressAgeDays(population, agent.owner, agent.chain);
  const addressAgeScore = Math.min(100, Math.round((100 * Math.log1p(walletAge)) / Math.log(731)));
  const continuity = agent.isOriginalOwner ? 100 : 40;
  const transferCount = agent.isOriginalOwner ? 0 : 1 + rng.int(0, 2);
  const lowHistory = reviewers.filter((r) => r.ageAtReviewDays < 30).length;
  const noHistory = reviewers.filter((r) => r.ageAtReviewDays === 0).length;
  const pctFresh = reviewers.length === 0 ? 0 : Math.round((100 * lowHistory) / reviewers.length);
  const computedAt = agent.updatedAt.toISOString();
  const chainId = resolveChain(agent.chain).chainId ?? null;
  const buckets = { sameDay: 0, d1to3: 0, d4to15: 0, d16to30: 0, m1to12: 0, over1yr: 0 };
  for (const r of reviewers) {
    const a = r.ageAtReviewDays;
    if (a === 0) buckets.sameDay++;
    else if (a <= 3) buckets.d1to3++;
    else if (a <= 15) buckets.d4to15++;
    else if (a <= 30) buckets.d16to30++;
    else if (a < 365) buckets.m1to12++;
    else buckets.over1yr++;
  }
  const flagged = reviewers.filter((r) => r.sybilFlags.length > 0);
  const bySignal = { common_funder: 0, inhuman_velocity: 0, spray_pattern: 0, score_clustering: 0 };
  for (const r of flagged) {
    for (const f of r.sybilFlags) {
      const key = (SDK_SIGNAL_KEYS.get(f) ?? f) as keyof typeof bySignal;
      if (key in bySignal) bySignal[key]++;
    }
  }
  const weighted = agent.sybilSignals.reduce((sum, s) => sum + (SYBIL_WEIGHTS[s] ?? 1), 0);
  const description = `${agent.name}: a synthetic agent of the kit's local service`;
  return {
    agent: {
      id: agent.agentId,
      name: agent.name,
      owner: agent.owner,
      agentURI: `${context.publicBase}/api/agent-metadata/${agent.chain}-${agent.registry}-${agent.agentId}`,
      registeredAt: agent.registeredAt.toISOString(),
      ageInDays: agent.ageDays,
      metadata: {
        name: agent.name,
        description,
        image: null,
        mcpEndpoint: rng.chance(0.3) ? `https://mcp.example/${agent.chain}/${agent.agentId}` : null,
        mcpVersion: null,
        capabilities: [],
        a2aEndpoint: null,
        a2aVersion: null,
        ens: null,
        did: null,
        supportedTrusts: ["reputation"],
        x402Support: rng.chance(0.2),
        domains: [],
        email: null,
        website: null,
        twitter: null,
        github: null,
        discord: null,
        services: [],
        a2aCapabilities: null,
        a2aSecurityScheme: null,
      },
      reputation: {
        totalFeedback: String(agent.feedbackCount),
        avgScore,
        feedbackAddresses: feedback.map((f) => f.clientAddress),
        feedbackDates: feedback.map((f) => f.createdAt),
      },
      feedback,
      ownership: {
        isOriginalOwner: agent.isOriginalOwner,
        transferCount,
        originalOwner: agent.isOriginalOwner ? agent.owner : originalOwnerOf(population, agent),
        transfers: [],
      },
      addressAgeDetails: {
        label: walletAge >= 365 ? "established" : walletAge >= 30 ? "developing" : "new",
        score: addressAgeScore,
        method: "first_seen_transaction",
        chain_id: chainId,
        computed_at: computedAt,
        owner_address: agent.owner,
        first_seen_date: new Date(population.at.getTime() - walletAge * DAY_MS).toISOString(),
        wallet_age_days: walletAge,
        first_seen_block: null,
        walletsWithNoHistory: noHistory,
        totalAddresses: reviewers.length,
        feedbackerPctFresh: pctFresh,
        feedbackerAvgAge: reviewers.length === 0 ? 0 : Math.round(reviewers.reduce((s, r) => s + r.ageAtReviewDays, 0) / reviewers.length),
        feedbackerLabel: pctFresh >= 70 ? "Not Credible" : pctFresh >= 40 ? "Low" : pctFresh >= 15 ? "Moderate" : "High",
        feedbackerBucketCounts: buckets,
        precomputedOverall: agent.score,
      },
      addressAgeScore,
      scores: { addressAge: addressAgeScore, continuity, overall: agent.score },
      scoreBreakdown: {
        base: 50,
        inputs: {
          avg_score: avgScore,
          age_in_days: agent.ageDays,
          total_feedback: agent.feedbackCount,
          transfer_count: transferCount,
          address_age_days: walletAge,
          is_original_owner: agent.isOriginalOwner,
          feedbacker_pct_fresh: pctFresh,
          feedbacker_no_history: noHistory,
          feedbacker_total_checked: reviewers.length,
          sybil_severity: agent.sybilSeverity === "none" ? null : agent.sybilSeverity,
        },
        bonuses: agent.score > 50 ? { observed_history: { value: agent.score - 50, reason: "Wallet tenure, ownership and feedback" } } : {},
        penalties: agent.score < 50 ? { risk_signals: { value: 50 - agent.score, reason: "Sybil signals and low-history reviewers" } } : {},
        computed_at: computedAt,
        formula_version: "2.4",
      },
      badges: [
        ...agent.badges.earned.map((id) => ({ id, type: "earned", label: badgeLabel(id) })),
        ...agent.badges.warnings.map((id) => ({ id, type: "warning", label: badgeLabel(id) })),
      ],
      reviewerSybil:
        agent.sybilSeverity === "none"
          ? null
          : {
              count: flagged.length,
              pct: reviewers.length === 0 ? 0 : Math.round((100 * flagged.length) / reviewers.length),
              signals: {
                severity: agent.sybilSeverity,
                by_signal: bySignal,
                computed_at: computedAt,
                flagged_pct: reviewers.length === 0 ? 0 : Math.round((100 * flagged.length) / reviewers.length),
                coordination: agent.sybilSignals.includes("coordination")
                  ? {
                      born_to_review_pct: pctFresh,
                      score_variance: 12,
                      unique_scores: 2,
                      cohort_size: flagged.length,
                      total_reviewers: reviewers.length,
                      level: agent.sybilSeverity === "heavy" ? "heavy" : "elevated",
                    }
                  : null,
                flagged_count: flagged.length,
                total_reviewed: reviewers.length,
                weighted_score: weighted,
                flagged_addresses: flagged.slice(0, 50).map((r) => ({ address: r.address, signals: [...r.sybilFlags] })),
                score_distribution: { all: distributionOf(feedback.map((f) => f.score)), flagged: distributionOf(flagged.map(() => 100)) },
                flagged_addresses_truncated: flagged.length > 50,
              },
            },
      chain: agent.chain,
      registry: agent.registry,
      commerceStats: agentCommerceStats(population, agent),
    },
    blockExplorer: `${BLOCK_EXPLORERS[agent.chain] ?? "https://blockscan.com"}/${agent.chain === "solana" ? "account" : "address"}/${agent.owner}`,
    similarAgents: similarAgentsOf(population, agent),
    qualityTrajectory: {
      current: agent.score,
      previous: agent.ageDays > 0 ? Math.max(0, agent.score - rng.int(-3, 3)) : null,
      resolvedAt: computedAt,
    },
  };
}

function distributionOf(scores: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of scores) out[String(s)] = (out[String(s)] ?? 0) + 1;
  return out;
}

function originalOwnerOf(population: Population, agent: PopulationAgent): string {
  const rng = createRng(hashSeed("original-owner", population.seed, agent.chain, agent.registry, agent.agentId));
  const hex = Array.from({ length: 5 }, () => rng.uint32().toString(16).padStart(8, "0")).join("");
  return agent.chain === "solana" ? agent.owner : `0x${hex}`;
}

/** Up to five agents of the same chain and registry with the closest scores. */
function similarAgentsOf(population: Population, agent: PopulationAgent) {
  return population
    .sorted()
    .filter((a) => a.chain === agent.chain && a.registry === agent.registry && a.agentId !== agent.agentId)
    .map((a) => ({ a, d: Math.abs(a.score - agent.score) }))
    .sort((x, y) => x.d - y.d || x.a.agentId - y.a.agentId)
    .slice(0, 5)
    .map(({ a }) => ({
      id: a.agentId,
      name: a.name,
      description: null,
      image: null,
      score: a.score,
      sharedAttributes: { mcpTools: 0, a2aSkills: 0, domains: 0 },
      fallback: true,
    }));
}
