/**
 * Synthetic reviewer data, derived deterministically from the population seed: the reviewers of an agent
 * (more suspicious and sharing funders for agents with a heavier sybil severity), reviewer quality, and a
 * reviewer wallet's behaviour profile.
 *
 * @packageDocumentation
 */

import type { ReviewerAnalysis, ReviewerProfile } from "../../../published/index.js";
import { SYBIL_SIGNALS } from "../../../published/sybil-signals.js";
import { resolveChain } from "../../../config/chains.js";
import { createRng, hashSeed, syntheticAddress } from "../../prng.js";
import { agentKey, type PopulationAgent } from "../agent.js";
import type { Population } from "../population.js";

/** How a reviewer is classified, least suspicious first (snake_case like the service's other ids). */
export const REVIEWER_CLASSIFICATIONS = ["organic", "low_activity", "new_wallet", "coordinated", "sweeper", "sybil_suspect"] as const;

/** A reviewer classification. */
export type ReviewerClassification = (typeof REVIEWER_CLASSIFICATIONS)[number];

/** Sybil flags a reviewer can carry: the service's sybil signals but `coordination`, an agent-level modifier. */
export const REVIEWER_FLAGS: readonly string[] = SYBIL_SIGNALS.filter((signal) => signal !== "coordination");

/** One reviewer of an agent. */
export interface ReviewerEntry {
  address: string;
  /** Age of the wallet when it reviewed the agent, in days. */
  ageAtReviewDays: number;
  /** Age of the wallet now, in days. */
  currentAgeDays: number;
  classification: ReviewerClassification;
  sybilFlags: string[];
  funder: string;
  /** Suspicion, 0–100 (the order of the list). */
  suspicion: number;
}

const SUSPICIOUS_SHARE: Readonly<Record<string, number>> = { none: 0.05, low: 0.15, moderate: 0.35, elevated: 0.6, heavy: 0.85 };
const MAX_REVIEWERS = 100;

/**
 * The reviewers of an agent (one per feedback entry, at most 100), most suspicious first.
 *
 * @param population - The population (its seed drives the data).
 * @param agent - The agent.
 * @returns The reviewers.
 */
export function reviewersOf(population: Population, agent: PopulationAgent): ReviewerEntry[] {
  const key = agentKey(agent);
  const rng = createRng(hashSeed("reviewers", population.seed, key));
  const count = Math.min(agent.feedbackCount, MAX_REVIEWERS);
  const share = SUSPICIOUS_SHARE[agent.sybilSeverity] ?? 0.1;
  const clusterFunders = Array.from({ length: rng.int(1, 3) }, (_, i) => syntheticAddress("funder-cluster", population.seed, key, i));
  const pool = Math.max(200, population.size * 2);
  const seen = new Set<string>();
  const reviewers: ReviewerEntry[] = [];
  for (let i = 0; i < count; i++) {
    const suspicious = rng.chance(share);
    const address = suspicious
      ? syntheticAddress("sybil-reviewer", population.seed, key, i)
      : syntheticAddress("reviewer", population.seed, rng.int(0, pool - 1));
    if (seen.has(address)) continue;
    seen.add(address);
    if (suspicious) {
      const flags = REVIEWER_FLAGS.filter((_, f) => f < 1 || rng.chance(0.4));
      const classification = rng.weighted<ReviewerClassification>(["new_wallet", "coordinated", "sweeper", "sybil_suspect"], [2, 3, 2, 3]);
      const currentAgeDays = rng.int(0, 20);
      const funder = rng.pick(clusterFunders);
      const ageAtReviewDays = Math.min(currentAgeDays, rng.int(0, 2));
      reviewers.push({
        address,
        ageAtReviewDays,
        currentAgeDays,
        classification,
        sybilFlags: flags,
        funder,
        suspicion: suspicionOf(classification, flags.length, ageAtReviewDays),
      });
    } else {
      const classification: ReviewerClassification = rng.chance(0.2) ? "low_activity" : "organic";
      const currentAgeDays = rng.int(30, 900);
      const ageAtReviewDays = Math.max(0, currentAgeDays - rng.int(0, agent.ageDays));
      reviewers.push({
        address,
        ageAtReviewDays,
        currentAgeDays,
        classification,
        sybilFlags: [],
        funder: syntheticAddress("funder", population.seed, address),
        suspicion: suspicionOf(classification, 0, ageAtReviewDays),
      });
    }
  }
  return reviewers.sort((a, b) => b.suspicion - a.suspicion || (a.address < b.address ? -1 : 1));
}

/**
 * The reviewer analysis of an agent (SDK `ReviewerAnalysisResponse`): wallet ages at review time in the
 * service's buckets, the share of low-history reviewers, the sybil flags the published rules fire, funder
 * clusters, and the reviewers most suspicious first.
 *
 * @param population - The population.
 * @param agent - The agent.
 * @returns The `/api/reviewer-analysis` body.
 */
export function reviewerAnalysisBody(population: Population, agent: PopulationAgent): ReviewerAnalysis {
  const reviewers = reviewersOf(population, agent);
  const byFunder = new Map<string, string[]>();
  const distribution = { sameDay: 0, under3d: 0, under15d: 0, under30d: 0, under1yr: 0, over1yr: 0, noHistory: 0 };
  for (const reviewer of reviewers) {
    byFunder.set(reviewer.funder, [...(byFunder.get(reviewer.funder) ?? []), reviewer.address]);
    const age = reviewer.ageAtReviewDays;
    if (age === 0) distribution.sameDay++;
    else if (age < 3) distribution.under3d++;
    else if (age < 15) distribution.under15d++;
    else if (age < 30) distribution.under30d++;
    else if (age < 365) distribution.under1yr++;
    else distribution.over1yr++;
    if (age === 0 && reviewer.sybilFlags.length > 0) distribution.noHistory++;
  }
  const n = reviewers.length;
  const pct = (count: number): number => (n === 0 ? 0 : Math.round((1000 * count) / n) / 10);
  const lowHistoryCount = distribution.sameDay + distribution.under3d + distribution.under15d + distribution.under30d;
  const establishedCount = n - lowHistoryCount;
  const sybilFlags: string[] = [];
  if (n > 0 && lowHistoryCount / n >= 0.7)
    sybilFlags.push(`${pct(lowHistoryCount)}% of reviewer wallets were under 30 days old when they reviewed`);
  if (n > 0 && distribution.noHistory / n >= 0.5)
    sybilFlags.push(`${pct(distribution.noHistory)}% of reviewer wallets had no on-chain history`);
  if (n > 0 && distribution.sameDay / n >= 0.5)
    sybilFlags.push(`${pct(distribution.sameDay)}% of reviewer wallets were created on the day they reviewed`);
  const clusters = [...byFunder]
    .filter(([, members]) => members.length >= 3)
    .map(([funder, members]) => ({ funder, wallets_that_reviewed_this_agent: members.length, reviewers: members }))
    .sort((a, b) => b.reviewers.length - a.reviewers.length || (a.funder < b.funder ? -1 : 1));
  if (clusters.length > 0) sybilFlags.push(`${clusters.length} funder(s) funded 3 or more of the reviewer wallets`);
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    totalReviews: agent.feedbackCount,
    uniqueReviewers: n,
    analyzedWallets: n,
    uncachedWallets: 0,
    metric: "wallet_age_at_review",
    distribution,
    summary: {
      sameDayPct: pct(distribution.sameDay),
      lowHistoryPct: pct(lowHistoryCount),
      lowHistoryCount,
      establishedPct: pct(establishedCount),
      establishedCount,
    },
    sybilFlags,
    clustering: clusters.length === 0 ? null : { funder_clusters: clusters },
    reviewers: reviewers.map((r) => ({ ...r, sybilFlags: [...r.sybilFlags] })),
  };
}

/**
 * Reviewer quality of an agent: the share of its reviewers classified organic or low-activity, 0–100;
 * `null` for an agent without reviewers.
 *
 * @param population - The population.
 * @param agent - The agent.
 * @returns The quality.
 */
export function reviewerQuality(population: Population, agent: PopulationAgent): number | null {
  const reviewers = reviewersOf(population, agent);
  if (reviewers.length === 0) return null;
  const good = reviewers.filter((r) => r.classification === "organic" || r.classification === "low_activity").length;
  return Math.round((100 * good) / reviewers.length);
}

/**
 * The behaviour profile of a reviewer wallet on a chain (SDK `ReviewerProfileResponse`); any address has one,
 * about one in five looks like a sybil reviewer. Without `summary`, the individual reviews (at most 100) come
 * too.
 *
 * @param population - The population.
 * @param address - The wallet (lowercase for 0x, base58 as is).
 * @param chain - Chain slug.
 * @param summaryOnly - `summary=true`: leave the individual reviews out.
 * @returns The `/api/reviewer` body.
 */
export function reviewerProfileBody(population: Population, address: string, chain: string, summaryOnly: boolean): ReviewerProfile {
  const rng = createRng(hashSeed("reviewer-profile", population.seed, address, chain));
  const suspicious = rng.chance(0.2);
  const totalReviews = suspicious ? rng.int(100, 2000) : rng.int(1, 40);
  const activeDays = suspicious ? rng.int(1, 20) : rng.int(1, Math.max(1, totalReviews));
  const uniqueAgents = suspicious ? totalReviews - rng.int(0, Math.floor(totalReviews / 50)) : rng.int(1, totalReviews);
  const scoreChoices = suspicious ? [rng.pick([85, 90, 100])] : [20, 40, 60, 70, 80, 90, 100];
  const lastReview = new Date(population.at.getTime() - rng.int(0, 30) * DAY_MS);
  const firstReview = new Date(lastReview.getTime() - (activeDays - 1) * DAY_MS - rng.int(0, 3) * DAY_MS);
  const reviews: { agent_id: number; chain: string; score: number; created_at: string }[] = [];
  const distribution: Record<string, number> = {};
  let sum = 0;
  let sumSquares = 0;
  const scoreRng = createRng(hashSeed("reviewer-scores", population.seed, address, chain));
  const reviewRng = createRng(hashSeed("reviewer-reviews", population.seed, address, chain));
  for (let i = 0; i < totalReviews; i++) {
    const score = scoreRng.pick(scoreChoices);
    distribution[String(score)] = (distribution[String(score)] ?? 0) + 1;
    sum += score;
    sumSquares += score * score;
    if (!summaryOnly && i < MAX_REVIEWS_LISTED) {
      reviews.push({
        agent_id: reviewRng.int(1, Math.max(1, population.size)),
        chain,
        score,
        created_at: new Date(
          firstReview.getTime() + reviewRng.int(0, Math.max(0, lastReview.getTime() - firstReview.getTime())),
        ).toISOString(),
      });
    }
  }
  const avg = sum / totalReviews;
  const variance = sumSquares / totalReviews - avg * avg;
  const reviewsPerDay = Math.round((100 * totalReviews) / activeDays) / 100;
  const uniquePct = Math.round((100 * uniqueAgents) / totalReviews);
  const signals: string[] = [];
  if (reviewsPerDay > 50) signals.push(`${reviewsPerDay} reviews/day — inhuman velocity`);
  if (uniqueAgents >= 100 && uniquePct >= 95) signals.push(`${uniquePct}% unique agents across ${totalReviews} reviews — sweep pattern`);
  if (totalReviews >= 30 && (variance < 50 || Object.keys(distribution).length <= 3)) {
    signals.push(`${Object.keys(distribution).length} distinct scores across ${totalReviews} reviews — score clustering`);
  }
  const firstFunder = rng.chance(0.9) ? syntheticAddress(suspicious ? "funder-cluster" : "funder", population.seed, address) : null;
  const resolved = chainIdOrNull(chain);
  const body: ReviewerProfile = {
    address,
    chain,
    chain_id: resolved,
    total_reviews: totalReviews,
    summary: {
      unique_agents_reviewed: uniqueAgents,
      avg_score: Math.round(avg * 100) / 100,
      score_variance: Math.round(variance * 100) / 100,
      unique_scores_used: Object.keys(distribution).length,
      score_distribution: distribution,
      first_review: firstReview.toISOString(),
      last_review: lastReview.toISOString(),
      active_days: activeDays,
      reviews_per_day: reviewsPerDay,
      first_funder: firstFunder,
      sybil_signals: signals,
    },
  };
  if (!summaryOnly) body.reviews = reviews;
  return body;
}

/** Most individual reviews `/api/reviewer` lists without `summary=true`. */
export const MAX_REVIEWS_LISTED = 100;

const DAY_MS = 86_400_000;

/**
 * The EVM chain id of a slug, `null` for Solana (which has none).
 *
 * @param chain - Chain slug.
 * @returns The id or `null`.
 */
export function chainIdOrNull(chain: string): number | null {
  return resolveChain(chain).chainId ?? null;
}

function suspicionOf(classification: ReviewerClassification, flags: number, ageAtReviewDays: number): number {
  const base = REVIEWER_CLASSIFICATIONS.indexOf(classification) * 12;
  return Math.min(100, base + flags * 6 + (ageAtReviewDays < 30 ? 10 : 0));
}
