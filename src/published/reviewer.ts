/**
 * `GET /api/reviewer-analysis` (rnwy-sdk `ReviewerAnalysisResponse`) and `GET /api/reviewer` (rnwy-sdk
 * `ReviewerProfileResponse`, snake_case).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { agentIdSchema, jsonObjectSchema, serviceTimeSchema } from "./common.js";

/** One reviewer of `/api/reviewer-analysis` (SDK `ReviewerWallet`). */
const analysedReviewerSchema = z.looseObject({
  address: z.string(),
  ageAtReviewDays: z.number().nullish(),
  currentAgeDays: z.number().nullish(),
  classification: z.string().nullish(),
});

/** `GET /api/reviewer-analysis` body (SDK `ReviewerAnalysisResponse`; SKILL.md's example omits `reviewers`). */
export const reviewerAnalysisSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  totalReviews: z.number().nullish(),
  uniqueReviewers: z.number().nullish(),
  analyzedWallets: z.number().nullish(),
  distribution: z.record(z.string(), z.number()).nullish(),
  summary: z.record(z.string(), z.number()).nullish(),
  sybilFlags: z.array(z.string()).nullish(),
  clustering: z.unknown().optional(),
  reviewers: z.array(analysedReviewerSchema).nullish(),
});

/** The `summary` of `/api/reviewer` (SDK `ReviewerSummary`). */
const reviewerSummarySchema = z.looseObject({
  unique_agents_reviewed: z.number().nullish(),
  avg_score: z.number().nullish(),
  score_variance: z.number().nullish(),
  unique_scores_used: z.number().nullish(),
  score_distribution: z.record(z.string(), z.number()).nullish(),
  first_review: serviceTimeSchema.nullish(),
  last_review: serviceTimeSchema.nullish(),
  active_days: z.number().nullish(),
  reviews_per_day: z.number().nullish(),
  first_funder: z.string().nullish(),
  sybil_signals: z.array(z.string()).nullish(),
});

/** `GET /api/reviewer` body (SDK `ReviewerProfileResponse`; `reviews` only without `summary=true`). */
export const reviewerSchema = z.looseObject({
  address: z.string(),
  chain: z.string().nullish(),
  chain_id: z.number().nullish(),
  total_reviews: z.number().nullish(),
  summary: reviewerSummarySchema.nullish(),
  reviews: z.array(jsonObjectSchema).nullish(),
});

/** A validated `/api/reviewer-analysis` body. */
export type ReviewerAnalysis = z.infer<typeof reviewerAnalysisSchema>;
/** A validated `/api/reviewer` body. */
export type ReviewerProfile = z.infer<typeof reviewerSchema>;
