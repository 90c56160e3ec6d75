/**
 * Synthetic reviewer data, derived deterministically from the population seed: the reviewers of an agent
 * (more suspicious and sharing funders for agents with a heavier sybil severity), reviewer quality, and a
 * reviewer wallet's behaviour profile.
 *
 * @packageDocumentation
 */
import { agentKey, type PopulationAgent } from "../agent.js";
import type { Population } from "../population.js";
import { createRng, hashSeed, syntheticAddress } from "../prng.js";

/** How a reviewer is classified, least suspicious first. */
export const REVIEWER_CLASSIFICATIONS = ["organic", "low-activity", "new-wallet", "coordinated", "sweeper", "sybil-suspect"] as const;

/** A reviewer classification. */
export type ReviewerClassification = (typeof REVIEWER_CLASSIFICATIONS)[number];

/** Sybil flags a reviewer can carry. */
export const REVIEWER_FLAGS: readonly string[] = ["fresh-wallet", "shared-funder", "burst-activity", "sweep-pattern", "score-clustering"];

/** One reviewer of an agent. */
export interface ReviewerEntry {
  address: string;
  walletAgeDays: number;
  classification: ReviewerClassification;
  sybilFlags: string[];
  funder: string;
  /** Suspicion, 0–100 (the order of the list). */
  suspicion: number;
}

/** The `/api/reviewer-analysis` body. */
export interface ReviewerAnalysisBody {
  agentId: number;
  chain: string;
  registry: string;
  reviewers: ReviewerEntry[];
  funderClusters: { funder: string; reviewers: string[] }[];
  classificationBreakdown: Record<string, number>;
}

/** The `/api/reviewer` body. */
export interface ReviewerProfileBody {
  address: string;
  chain: string;
  velocity: { totalReviews: number; reviewsLast30d: number; reviewsPerDay: number };
  sweepPatterns: { pattern: string; agentsReviewed: number; windowHours: number }[];
  scoreClustering: { meanScoreGiven: number; stddev: number; clustered: boolean };
  fundingSource: { funder: string; type: string; sharedWith: number };
  sybilSignals: string[];
  summary?: string;
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
      const flags = REVIEWER_FLAGS.filter((_, f) => f < 2 || rng.chance(0.4));
      const classification = rng.weighted<ReviewerClassification>(["new-wallet", "coordinated", "sweeper", "sybil-suspect"], [2, 3, 2, 3]);
      const walletAgeDays = rng.int(0, 20);
      reviewers.push({
        address,
        walletAgeDays,
        classification,
        sybilFlags: flags,
        funder: rng.pick(clusterFunders),
        suspicion: suspicionOf(classification, flags.length, walletAgeDays),
      });
    } else {
      const classification: ReviewerClassification = rng.chance(0.2) ? "low-activity" : "organic";
      const walletAgeDays = rng.int(30, 900);
      reviewers.push({
        address,
        walletAgeDays,
        classification,
        sybilFlags: [],
        funder: syntheticAddress("funder", population.seed, address),
        suspicion: suspicionOf(classification, 0, walletAgeDays),
      });
    }
  }
  return reviewers.sort((a, b) => b.suspicion - a.suspicion || (a.address < b.address ? -1 : 1));
}

/**
 * The reviewer analysis of an agent.
 *
 * @param population - The population.
 * @param agent - The agent.
 * @returns The `/api/reviewer-analysis` body.
 */
export function reviewerAnalysisBody(population: Population, agent: PopulationAgent): ReviewerAnalysisBody {
  const reviewers = reviewersOf(population, agent);
  const byFunder = new Map<string, string[]>();
  const classificationBreakdown: Record<string, number> = {};
  for (const reviewer of reviewers) {
    byFunder.set(reviewer.funder, [...(byFunder.get(reviewer.funder) ?? []), reviewer.address]);
    classificationBreakdown[reviewer.classification] = (classificationBreakdown[reviewer.classification] ?? 0) + 1;
  }
  const funderClusters = [...byFunder]
    .filter(([, members]) => members.length >= 2)
    .map(([funder, members]) => ({ funder, reviewers: members }))
    .sort((a, b) => b.reviewers.length - a.reviewers.length || (a.funder < b.funder ? -1 : 1));
  return { agentId: agent.agentId, chain: agent.chain, registry: agent.registry, reviewers, funderClusters, classificationBreakdown };
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
  const good = reviewers.filter((r) => r.classification === "organic" || r.classification === "low-activity").length;
  return Math.round((100 * good) / reviewers.length);
}

/**
 * The behaviour profile of a reviewer wallet on a chain (any address has one; about one in five looks like
 * a sybil reviewer).
 *
 * @param population - The population.
 * @param address - The wallet (lowercase).
 * @param chain - Chain slug.
 * @param summary - Whether to add a one-line `summary`.
 * @returns The `/api/reviewer` body.
 */
export function reviewerProfileBody(population: Population, address: string, chain: string, summary: boolean): ReviewerProfileBody {
  const rng = createRng(hashSeed("reviewer-profile", population.seed, address, chain));
  const suspicious = rng.chance(0.2);
  const totalReviews = suspicious ? rng.int(20, 400) : rng.int(0, 40);
  const reviewsLast30d = Math.min(totalReviews, suspicious ? rng.int(10, 200) : rng.int(0, 8));
  const sweepPatterns = suspicious
    ? Array.from({ length: rng.int(1, 3) }, () => ({
        pattern: rng.pick(["rapid-sweep", "registry-sweep", "new-agent-sweep"]),
        agentsReviewed: rng.int(10, 120),
        windowHours: rng.int(1, 24),
      }))
    : [];
  const meanScoreGiven = suspicious ? rng.pick([1, 5]) : Math.round(rng.normal(3.8, 0.6) * 10) / 10;
  const stddev = suspicious ? Math.round(rng.next() * 20) / 100 : Math.round((0.6 + rng.next()) * 100) / 100;
  const sybilSignals = suspicious ? REVIEWER_FLAGS.filter((_, i) => i < 2 || rng.chance(0.5)) : [];
  const body: ReviewerProfileBody = {
    address,
    chain,
    velocity: { totalReviews, reviewsLast30d, reviewsPerDay: Math.round((reviewsLast30d / 30) * 100) / 100 },
    sweepPatterns,
    scoreClustering: { meanScoreGiven: Math.min(5, Math.max(1, meanScoreGiven)), stddev, clustered: suspicious },
    fundingSource: {
      funder: syntheticAddress(suspicious ? "funder-cluster" : "funder", population.seed, address),
      type: suspicious ? rng.pick(["bridge", "eoa"]) : rng.pick(["cex", "cex", "bridge", "eoa"]),
      sharedWith: suspicious ? rng.int(5, 80) : rng.int(0, 2),
    },
    sybilSignals,
  };
  if (summary) {
    body.summary = suspicious
      ? `Likely sybil reviewer: ${totalReviews} reviews, ${sweepPatterns.length} sweep pattern(s), funder shared with ${body.fundingSource.sharedWith} wallets`
      : `Ordinary reviewer: ${totalReviews} reviews, no sweep patterns`;
  }
  return body;
}

function suspicionOf(classification: ReviewerClassification, flags: number, walletAgeDays: number): number {
  const base = REVIEWER_CLASSIFICATIONS.indexOf(classification) * 12;
  return Math.min(100, base + flags * 6 + (walletAgeDays < 30 ? 10 : 0));
}
