// The fields each published source declares, encoded from the sources themselves, for the contract tests:
// rnwy-sdk 0.3.0 `src/types.ts` (every non-optional field of the interfaces named below), the vocabulary
// crosswalks (`crosswalk/rnwy.yaml` 60cdb46, `crosswalk/a2a.yaml` d8d6e8c) for signed blocks, the insumer
// multi-attestation spec (§1 envelope, §3.3 v1 block, §3.10 wallet claims, v1.2 §3.12 MCP server form) and SKILL.md
// where the SDK is silent.
// A type is one of: string, number, boolean, array, object, or several joined with "|" (null allowed by "null").

/** A field list: name → accepted JSON types. */
export type FieldSpec = Readonly<Record<string, string>>;

/** SDK `TrustCheckResponse` (attestation checked separately). */
export const SDK_TRUST_CHECK: FieldSpec = {
  agentId: "number",
  chain: "string",
  name: "string|null",
  score: "number",
  threshold: "number",
  pass: "boolean",
  tier: "string",
  badges: "object",
  reason: "string",
  owner: "string",
  isOriginalOwner: "boolean",
  feedbackCount: "number",
  ageDays: "number",
  checkedAt: "string",
  // The SDK types sybilSeverity as a string; the newer crosswalk makes "no signal" null.
  sybilSeverity: "string|null",
  sybilSignals: "array",
  attestation: "object",
};

/** Insumer spec §1 envelope, with the `jws` the kit's docs also name. */
export const ENVELOPE: FieldSpec = {
  issuer: "string",
  type: "string",
  kid: "string",
  alg: "string",
  jwks: "string",
  signed: "object|null",
  sig: "string",
  expiry: "string",
};

/** vocabulary `rnwy.yaml`: the v2 signed block, in order. */
export const V2_SIGNED_ORDER = [
  "agentId",
  "chain",
  "registry",
  "owner",
  "score",
  "tier",
  "badges",
  "sybilSeverity",
  "sybilSignals",
  "issuedAt",
  "verifiedAt",
  "expiry",
];
/** The types of the v2 block (`rnwy.yaml` comments). */
export const V2_SIGNED: FieldSpec = {
  agentId: "string",
  chain: "string",
  registry: "string",
  owner: "string",
  score: "number",
  tier: "string",
  badges: "array",
  sybilSeverity: "string|null",
  sybilSignals: "array",
  issuedAt: "string",
  verifiedAt: "string",
  expiry: "string",
};
/** insumer spec §3.3 (and SDK `AttestationSigned`): the v1 block, in order. */
export const V1_SIGNED_ORDER = ["agentId", "chain", "registry", "score", "tier", "badges", "sybilSeverity", "sybilSignals", "attestedAt"];
/** insumer spec §3.3.0: the signed proof of absence. */
export const NOT_FOUND_SIGNED_ORDER = ["found", "wallet", "issuedAt"];
/** a2a crosswalk / insumer §3.10: the wallet-score JWT claims, in order. */
export const WALLET_CLAIMS_ORDER = [
  "iss",
  "sub",
  "wallet",
  "signalDepth",
  "riskIntensity",
  "quadrant",
  "activityZone",
  "riskZone",
  "issuedAt",
  "verifiedAt",
  "expiry",
];

/** SDK `BadgeId`. */
export const SDK_BADGE_IDS = [
  "verified_reviews",
  "high_volume",
  "long_standing",
  "original_owner",
  "established_wallet",
  "low_history_reviewers",
  "ghost_reviewers",
  "recently_registered",
  "transferred",
  "sybil_heavy",
  "sybil_elevated",
  "incomplete_data",
];
/** insumer spec §3.3 sybil signals. */
export const SYBIL_SIGNAL_IDS = ["common_funder", "inhuman_velocity", "sweep_pattern", "score_clustering", "coordination"];

/** SDK `ExplorerResponse`. */
export const SDK_EXPLORER_RESPONSE: FieldSpec = {
  agent: "object",
  blockExplorer: "string",
  similarAgents: "array",
  qualityTrajectory: "object|null",
};
/** SDK `Agent`. */
export const SDK_AGENT: FieldSpec = {
  id: "number",
  name: "string|null",
  owner: "string",
  agentURI: "string",
  registeredAt: "string",
  ageInDays: "number",
  metadata: "object",
  reputation: "object",
  feedback: "array",
  ownership: "object",
  addressAgeDetails: "object|null",
  addressAgeScore: "number|null",
  scores: "object",
  scoreBreakdown: "object|null",
  badges: "array",
  reviewerSybil: "object|null",
  chain: "string",
  registry: "string",
  commerceStats: "array",
};
/** SDK `AgentMetadata`. */
export const SDK_AGENT_METADATA: FieldSpec = {
  name: "string|null",
  description: "string|null",
  image: "string|null",
  mcpEndpoint: "string|null",
  mcpVersion: "string|null",
  capabilities: "array",
  a2aEndpoint: "string|null",
  a2aVersion: "string|null",
  ens: "string|null",
  did: "string|null",
  supportedTrusts: "array",
  x402Support: "boolean",
  domains: "array",
  email: "string|null",
  website: "string|null",
  twitter: "string|null",
  github: "string|null",
  discord: "string|null",
  services: "array",
  a2aCapabilities: "object|null",
  a2aSecurityScheme: "object|null",
};
/** SDK `Agent.reputation`, `Ownership`, `Agent.scores`, `FeedbackItem`, `Badge`. */
export const SDK_REPUTATION: FieldSpec = {
  totalFeedback: "string",
  avgScore: "number|null",
  feedbackAddresses: "array",
  feedbackDates: "array",
};
export const SDK_OWNERSHIP: FieldSpec = {
  isOriginalOwner: "boolean",
  transferCount: "number",
  originalOwner: "string",
  transfers: "array",
};
export const SDK_SCORES: FieldSpec = { addressAge: "number|null", continuity: "number|null", overall: "number|null" };
export const SDK_FEEDBACK_ITEM: FieldSpec = {
  score: "number",
  tag1: "string|null",
  tag2: "string|null",
  clientAddress: "string",
  createdAt: "string",
  text: "string|null",
};
export const SDK_BADGE: FieldSpec = { id: "string", type: "string", label: "string" };
/** SDK `AddressAgeDetails`. */
export const SDK_ADDRESS_AGE_DETAILS: FieldSpec = {
  label: "string",
  score: "number",
  method: "string",
  chain_id: "number",
  computed_at: "string",
  owner_address: "string",
  first_seen_date: "string|null",
  wallet_age_days: "number",
  first_seen_block: "number|null",
  walletsWithNoHistory: "number",
  totalAddresses: "number",
  feedbackerPctFresh: "number",
  feedbackerAvgAge: "number",
  feedbackerLabel: "string",
  feedbackerBucketCounts: "object",
  precomputedOverall: "number",
};
/** SDK `ScoreBreakdown` (required part). */
export const SDK_SCORE_BREAKDOWN: FieldSpec = {
  base: "number",
  inputs: "object",
  bonuses: "object",
  penalties: "object",
  computed_at: "string",
  formula_version: "string",
};
/** SDK `ReviewerSybil` and `ReviewerSybilSignals` (required part). */
export const SDK_REVIEWER_SYBIL: FieldSpec = { count: "number", pct: "number", signals: "object" };
export const SDK_REVIEWER_SYBIL_SIGNALS: FieldSpec = {
  severity: "string",
  by_signal: "object",
  computed_at: "string",
  flagged_pct: "number",
  coordination: "object|null",
  flagged_count: "number",
  total_reviewed: "number",
  weighted_score: "number",
  flagged_addresses: "array",
  score_distribution: "object",
  flagged_addresses_truncated: "boolean",
};
/** SDK `CommerceStats`. */
export const SDK_COMMERCE_STATS: FieldSpec = {
  agent_id: "string",
  chain_id: "number",
  registry: "string",
  protocol: "string",
  total_jobs_as_client: "number",
  total_jobs_as_provider: "number",
  total_jobs_as_evaluator: "number",
  unique_counterparties: "number",
  repeat_counterparty_pct: "number",
  circular_job_count: "number",
  total_payment_received: "number",
  total_payment_sent: "number",
  avg_delivery_time_seconds: "number|null",
  first_job_at: "string|null",
  last_job_at: "string|null",
  updated_at: "string",
};
/** SDK `SimilarAgent`, `QualityTrajectory`. */
export const SDK_SIMILAR_AGENT: FieldSpec = {
  id: "number",
  name: "string|null",
  description: "string|null",
  image: "string|null",
  score: "number",
  sharedAttributes: "object",
  fallback: "boolean",
};
export const SDK_QUALITY_TRAJECTORY: FieldSpec = { current: "number", previous: "number|null", resolvedAt: "string" };

/** SDK `RiskTermsResponse` and its parts. */
export const SDK_RISK_TERMS: FieldSpec = {
  recommendation: "string",
  agent_id: "number",
  agent_name: "string|null",
  chain: "string",
  chain_id: "number",
  registry: "string",
  explorer_url: "string",
  risk_tier: "object",
  signals: "object",
  data_coverage: "object",
  methodology: "object",
  disclaimer: "object",
  warning: "string|null",
  timestamp: "string",
};
export const SDK_RISK_TIER: FieldSpec = { level: "number", label: "string", description: "string", computed: "boolean" };
export const SDK_RISK_SIGNALS: FieldSpec = {
  trust_score: "number|null",
  score_available: "boolean",
  sybil_severity: "string|null",
  address_age_days: "number|null",
  is_original_owner: "boolean",
  review_count: "number",
  reviewer_credibility: "string|null",
};
export const SDK_RISK_COVERAGE: FieldSpec = {
  address_age: "boolean",
  sybil_analysis: "boolean",
  reviewer_credibility: "boolean",
  signals_available: "number",
  signals_total: "number",
};
export const SDK_RISK_METHODOLOGY: FieldSpec = { version: "string", url: "string", description: "string" };
export const SDK_RISK_DISCLAIMER: FieldSpec = { status: "string", text: "string", data_limitations: "string", tos_url: "string" };
export const SDK_RISK_DECLINE_REASON: FieldSpec = { signal: "string", value: "string", reason: "string" };

/** SDK `ReviewerAnalysisResponse` and `ReviewerWallet`. */
export const SDK_REVIEWER_ANALYSIS: FieldSpec = {
  agentId: "number",
  chain: "string",
  totalReviews: "number",
  uniqueReviewers: "number",
  analyzedWallets: "number",
  uncachedWallets: "number",
  metric: "string",
  distribution: "object",
  summary: "object",
  sybilFlags: "array",
  clustering: "object|null",
  reviewers: "array",
};
export const SDK_REVIEWER_ANALYSIS_DISTRIBUTION: FieldSpec = {
  sameDay: "number",
  under3d: "number",
  under15d: "number",
  under30d: "number",
  under1yr: "number",
  over1yr: "number",
  noHistory: "number",
};
export const SDK_REVIEWER_ANALYSIS_SUMMARY: FieldSpec = {
  sameDayPct: "number",
  lowHistoryPct: "number",
  lowHistoryCount: "number",
  establishedPct: "number",
  establishedCount: "number",
};
export const SDK_REVIEWER_WALLET: FieldSpec = {
  address: "string",
  ageAtReviewDays: "number",
  currentAgeDays: "number",
  classification: "string",
};

/** SDK `ReviewerProfileResponse` and `ReviewerSummary`. */
export const SDK_REVIEWER_PROFILE: FieldSpec = {
  address: "string",
  chain: "string",
  chain_id: "number",
  total_reviews: "number",
  summary: "object",
};
export const SDK_REVIEWER_SUMMARY: FieldSpec = {
  unique_agents_reviewed: "number",
  avg_score: "number",
  score_variance: "number",
  unique_scores_used: "number",
  score_distribution: "object",
  first_review: "string",
  last_review: "string",
  active_days: "number",
  reviews_per_day: "number",
  first_funder: "string|null",
  sybil_signals: "array",
};

/** SDK `getEntity` (documented fields; the SDK types the body as `any`). */
export const SDK_ENTITY: FieldSpec = { agents: "array", wallet_score: "object|null", mcp_servers: "array" };
/** SDK `getMCPAttestation` / README (documented fields; typed `any`). */
export const SDK_MCP_ATTESTATION: FieldSpec = { mcp_risk_score: "number", findings: "array", attestation: "object" };

/** insumer spec v1.2 §2 and §3.12: the `attestation.type` of MCP attestations. */
export const SPEC_MCP_ATTESTATION_TYPE = "mcp_trust";
/** insumer spec v1.2 §3.12: the signed block of the `?server=` form, in the spec's order. */
export const SPEC_MCP_SERVER_SIGNED: FieldSpec = {
  server: "string",
  qualityScore: "number",
  riskScore: "number",
  quadrant: "string",
  breakdown: "object",
  issuedAt: "string",
  verifiedAt: "string",
  expiry: "string",
};

/** SKILL.md's eight MCP tools and their inputs (required ones without `?`). */
export const SKILL_MCP_TOOLS: Readonly<Record<string, { required: string[]; optional: string[] }>> = {
  trust_check: { required: ["id", "chain"], optional: ["registry", "threshold"] },
  reviewer_analysis: { required: ["id", "chain"], optional: [] },
  reviewer_wallet: { required: ["address", "chain"], optional: ["summary"] },
  compare_agents: { required: ["agents"], optional: ["threshold"] },
  address_age: { required: ["address"], optional: ["chain"] },
  network_stats: { required: [], optional: [] },
  commerce_stats: { required: [], optional: ["address", "id", "chain", "registry"] },
  risk_terms: { required: ["agent_id", "chain"], optional: ["registry"] },
};

/** The JSON type of a value, as the specs above name it. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The problems of an object against a field list: a missing field, or a value of another type.
 *
 * @param value - The object.
 * @param spec - The field list.
 * @param where - Path for the messages.
 * @returns The problems (empty when it conforms).
 */
export function fieldProblems(value: unknown, spec: FieldSpec, where: string): string[] {
  if (jsonType(value) !== "object") return [`${where} is ${jsonType(value)}, not an object`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, types] of Object.entries(spec)) {
    if (!(field in record)) problems.push(`${where}.${field} is missing`);
    else if (!types.split("|").includes(jsonType(record[field]))) {
      problems.push(`${where}.${field} is ${jsonType(record[field])}, expected ${types}`);
    }
  }
  return problems;
}
