/**
 * The response bodies the local service serves, typed by the service itself (the verifier's types in
 * `attestation/types.ts` describe what the kit accepts, which is wider). Field names and order follow the
 * published sources, newest first: vocabulary crosswalks (2026-04-14), insumer multi-attestation spec
 * (2026-04), rnwy-sdk 0.3.0 `types.ts`, rnwy docs `SKILL.md` (2026-03). docs/service-api.md names the source
 * of each.
 *
 * @packageDocumentation
 */
import type { SignedAttestation } from "../../attestation/types.js";

/** A sybil severity as the API serves it: `null` when there is no sybil signal. */
export type ApiSybilSeverity = "low" | "moderate" | "elevated" | "heavy" | null;

/** The v2 signed block (`rnwy-trust-v2`), in signing order (vocabulary `rnwy.yaml`). */
export interface TrustSignedV2 {
  [field: string]: unknown;
  /** Agent id as a string. */
  agentId: string;
  /** Chain slug. */
  chain: string;
  /** Registry. */
  registry: string;
  /** Owner wallet (0x or base58). */
  owner: string;
  /** Score 0–95. */
  score: number;
  /** Tier name. */
  tier: string;
  /** Earned badges and warnings, one flat array. */
  badges: string[];
  /** `null` or a severity name. */
  sybilSeverity: ApiSybilSeverity;
  /** Active sybil signals. */
  sybilSignals: string[];
  /** When the score was computed (ISO 8601). */
  issuedAt: string;
  /** When the attestation was signed (request time, ISO 8601). */
  verifiedAt: string;
  /** `verifiedAt` + 24 h (ISO 8601). */
  expiry: string;
}

/** The legacy v1 signed block (`rnwy-trust-v1`), in signing order (insumer spec §3.3). */
export interface TrustSignedV1 {
  [field: string]: unknown;
  /** Agent id as a number. */
  agentId: number;
  /** Chain slug. */
  chain: string;
  /** Registry. */
  registry: string;
  /** Score 0–95. */
  score: number;
  /** Tier name. */
  tier: string;
  /** Earned badges and warnings, one flat array. */
  badges: string[];
  /** Severity name; `none` when there is no sybil signal (the legacy name). */
  sybilSeverity: string;
  /** Active sybil signals. */
  sybilSignals: string[];
  /** When the attestation was signed (ISO 8601). */
  attestedAt: string;
}

/** The signed proof of absence for an unknown wallet. */
export interface WalletNotFoundSignedBlock {
  [field: string]: unknown;
  /** Always `false`. */
  found: false;
  /** The wallet asked about. */
  wallet: string;
  /** When the answer was signed (ISO 8601). */
  issuedAt: string;
}

/** A `GET /api/trust-check` body (SDK `TrustCheckResponse` plus `registry` and the signed attestation). */
export interface TrustCheckBody {
  agentId: number;
  chain: string;
  registry: string;
  name: string | null;
  score: number;
  threshold: number;
  pass: boolean;
  tier: string;
  badges: { earned: string[]; warnings: string[] };
  reason: string;
  owner: string;
  isOriginalOwner: boolean;
  feedbackCount: number;
  ageDays: number;
  checkedAt: string;
  sybilSeverity: ApiSybilSeverity;
  sybilSignals: string[];
  /** The v2 attestation (or v1 when the service signs v1). */
  attestation: SignedAttestation<TrustSignedV2 | TrustSignedV1>;
  /** During the kid-migration window, on wallet look-ups: the same data signed with the legacy v1 key. */
  attestationV1?: SignedAttestation<TrustSignedV1>;
}

/** A `GET /api/trust-check?wallet=` body for a wallet that owns no agent. */
export interface WalletNotFoundBody {
  found: false;
  wallet: string;
  attestation: SignedAttestation<WalletNotFoundSignedBlock>;
}

/** The JWT claims of a wallet-score attestation (`rnwy-wallet-v1`), in order (a2a crosswalk, insumer §3.10). */
export interface WalletScoreClaims {
  [claim: string]: unknown;
  iss: string;
  sub: string;
  wallet: string;
  /** 0–95. */
  signalDepth: number;
  /** 0–100. */
  riskIntensity: number;
  quadrant: string;
  activityZone: string;
  riskZone: string;
  issuedAt: string;
  verifiedAt: string;
  expiry: string;
}

/** A `GET /api/wallet-score?address=` body: the claims for people, and the attestation (`signed: null`, JWT in `sig`). */
export interface WalletScoreBody {
  wallet: string;
  signalDepth: number;
  riskIntensity: number;
  quadrant: string;
  activityZone: string;
  riskZone: string;
  issuedAt: string;
  verifiedAt: string;
  expiry: string;
  attestation: SignedAttestation<null>;
}

/** A `GET /api/wallet-score` body for an unscored wallet; the JWT carries `{found: false, wallet, issuedAt}`. */
export interface WalletScoreNotFoundBody {
  found: false;
  wallet: string;
  attestation: SignedAttestation<null>;
}

/** The `/api/risk-terms` body (SDK `RiskTermsResponse`). */
export interface RiskTermsBody {
  recommendation: "terms" | "decline" | "insufficient_data";
  agent_id: number;
  agent_name: string | null;
  chain: string;
  chain_id: number | null;
  registry: string;
  explorer_url: string;
  risk_tier: {
    level: number;
    label: "low" | "moderate" | "elevated" | "high" | "severe" | "critical";
    description: string;
    computed: boolean;
  };
  signals: {
    trust_score: number | null;
    score_available: boolean;
    sybil_severity: ApiSybilSeverity;
    address_age_days: number | null;
    is_original_owner: boolean;
    review_count: number;
    reviewer_credibility: "high" | "medium" | "low" | null;
  };
  data_coverage: {
    address_age: boolean;
    sybil_analysis: boolean;
    reviewer_credibility: boolean;
    signals_available: number;
    signals_total: number;
  };
  decline_reasons?: { signal: string; value: string; reason: string }[];
  methodology: { version: string; url: string; description: string };
  disclaimer: { status: string; text: string; data_limitations: string; tos_url: string };
  warning: string | null;
  timestamp: string;
  auth: { status: "anonymous" | "authenticated"; limit: string };
}

/** One reviewer of `/api/reviewer-analysis` (SDK `ReviewerWallet` plus the kit's `sybilFlags`, `funder`, `suspicion`). */
export interface ReviewerWalletBody {
  address: string;
  ageAtReviewDays: number;
  currentAgeDays: number;
  classification: string;
  sybilFlags: string[];
  funder: string;
  suspicion: number;
}

/** The `/api/reviewer-analysis` body (SDK `ReviewerAnalysisResponse`, plus `registry`). */
export interface ReviewerAnalysisBody {
  agentId: number;
  chain: string;
  registry: string;
  totalReviews: number;
  uniqueReviewers: number;
  analyzedWallets: number;
  uncachedWallets: number;
  metric: string;
  distribution: {
    sameDay: number;
    under3d: number;
    under15d: number;
    under30d: number;
    under1yr: number;
    over1yr: number;
    noHistory: number;
  };
  summary: { sameDayPct: number; lowHistoryPct: number; lowHistoryCount: number; establishedPct: number; establishedCount: number };
  sybilFlags: string[];
  clustering: { funder_clusters: { funder: string; wallets_that_reviewed_this_agent: number; reviewers: string[] }[] } | null;
  reviewers: ReviewerWalletBody[];
}

/** The `summary` of `/api/reviewer` (SDK `ReviewerSummary`). */
export interface ReviewerSummaryBody {
  unique_agents_reviewed: number;
  avg_score: number;
  score_variance: number;
  unique_scores_used: number;
  score_distribution: Record<string, number>;
  first_review: string;
  last_review: string;
  active_days: number;
  reviews_per_day: number;
  first_funder: string | null;
  sybil_signals: string[];
}

/** One review in `/api/reviewer` without `summary=true` (not typed by the SDK: the kit's shape). */
export interface ReviewBody {
  agent_id: number;
  chain: string;
  score: number;
  created_at: string;
}

/** The `/api/reviewer` body (SDK `ReviewerProfileResponse`; `reviews` only without `summary=true`). */
export interface ReviewerProfileBody {
  address: string;
  chain: string;
  chain_id: number | null;
  total_reviews: number;
  summary: ReviewerSummaryBody;
  reviews?: ReviewBody[];
}

/** The `/api/entity` body (SDK `getEntity`: `agents`, `wallet_score`, `mcp_servers`; inner shapes the kit's). */
export interface EntityBody {
  wallet: string;
  agents: {
    agentId: number;
    chain: string;
    registry: string;
    name: string;
    score: number;
    tier: string;
    sybilSeverity: ApiSybilSeverity;
    sybilSignals: string[];
  }[];
  wallet_score: Omit<WalletScoreBody, "attestation" | "wallet" | "verifiedAt" | "expiry"> | null;
  mcp_servers: { canonical_id: string; mcp_risk_score: number }[];
}

/** One finding of an MCP-server scan. */
export interface McpFindingBody {
  id: string;
  severity: "low" | "medium" | "high" | "critical";
  title: string;
}

/** The signed block of `/api/mcp-attestation?canonical_id=` (no expiry inside; the envelope has one). */
export interface McpSignedBlock {
  [field: string]: unknown;
  canonical_id: string;
  mcp_risk_score: number;
  findings: McpFindingBody[];
  attestedAt: string;
}

/** The `/api/mcp-attestation?canonical_id=` body (SDK `getMCPAttestation`). */
export interface McpAttestationBody {
  canonical_id: string;
  mcp_risk_score: number;
  findings: McpFindingBody[];
  attestation: SignedAttestation<McpSignedBlock>;
}

/** The signed block of the newer `/api/mcp-attestation?server=` form. */
export interface McpServerSignedBlock {
  [field: string]: unknown;
  server: string;
  qualityScore: number;
  riskScore: number;
  quadrant: string;
  issuedAt: string;
  verifiedAt: string;
  expiry: string;
}

/** The `/api/mcp-attestation?server=` body. */
export interface McpServerAttestationBody {
  server: string;
  qualityScore: number;
  riskScore: number;
  quadrant: string;
  findings: McpFindingBody[];
  attestation: SignedAttestation<McpServerSignedBlock>;
}
