/**
 * Runtime schemas of the trust service's responses (docs/service-api.md), written with zod 4.
 *
 * Why zod: one schema gives both the runtime check of an untrusted response and the static TypeScript type
 * of the validated value (`z.infer`), so the two cannot drift apart; and its loose objects
 * (`z.looseObject`) keep every field the schema does not name, which matters here because the real
 * service documents few of its fields and may add more at any time. Each schema therefore **requires only
 * what every published variant carries** (for `/api/trust-check`: `agentId`, `chain`, `score`, `tier` and
 * the attestation's `issuer`, `kid`, `alg`, a signature) and leaves the rest optional or nullable, and it
 * accepts every published variant: `agentId` a number or a string; `sybilSeverity` `null`, a name or the
 * legacy `none`; `badges` `{earned, warnings}` or a flat array; v1 and v2 signed blocks; `attestationV1`;
 * `sig` only, `jws` only or both; `signed: null` with a compact JWS in `sig` (wallet-score). Field names are
 * the service's (snake_case where it uses snake_case). Tier and sybil-severity names are checked as strings,
 * not enums: an unknown name is something the drift job reports, not a reason to drop the response. Trust
 * comes from the verifier (`attestation/`), never from a schema.
 *
 * These schemas are the one definition of what the service publishes: the types below (`TrustCheck`,
 * `TrustSignedV2`, `Attestation`, …) are derived from them, the verifier reads responses as these types, and
 * the local stand-in service (`trustgate/service`) builds its bodies typed with them.
 *
 * @packageDocumentation
 */
import { z } from "zod";

/** A time as the service writes it: an ISO-8601 string or Unix seconds. */
export const serviceTimeSchema = z.union([z.string(), z.number()]);

/** An agent id: a JSON number (non-negative integer) or a decimal string. */
export const agentIdSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, "expected a decimal agent id")]);

/** A JSON object with any fields. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** The error body of a non-2xx response: `{ error: { code, message } }`. */
export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string().optional(),
  }),
});

/** Whether a string is a compact JWS (exactly two dots: `header.payload.signature`), per the insumer spec §1. */
export function isCompactJws(value: unknown): value is string {
  return typeof value === "string" && value.split(".").length === 3;
}

/**
 * The `attestation` object of a signed response (insumer multi-attestation spec §1). `signed` is any JSON
 * object (its fields are checked by the verifier), or `null` when the payload travels inside a compact JWS
 * (`sig` with two dots, or `jws`); at least one of `sig` and `jws` must be present.
 */
export const attestationSchema = z
  .looseObject({
    issuer: z.string(),
    type: z.string().nullish(),
    kid: z.string(),
    alg: z.string(),
    jwks: z.string().nullish(),
    signed: jsonObjectSchema.nullable(),
    sig: z.string().optional(),
    jws: z.string().optional(),
    expiry: serviceTimeSchema.nullish(),
  })
  .refine((a) => a.sig !== undefined || a.jws !== undefined, {
    message: "attestation has neither sig nor jws",
  })
  .refine((a) => a.signed !== null || isCompactJws(a.sig) || isCompactJws(a.jws), {
    message: "attestation has signed: null but no compact JWS (sig or jws) carrying the payload",
    path: ["signed"],
  });

/** The v2 signed block of a trust-check (`rnwy-trust-v2`, vocabulary `rnwy.yaml` 2026-04-14); other fields kept. */
export const trustSignedV2Schema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string(),
  owner: z.string().nullable(),
  score: z.number(),
  tier: z.string(),
  badges: z.array(z.string()),
  sybilSeverity: z.string().nullable(),
  sybilSignals: z.array(z.string()),
  issuedAt: serviceTimeSchema,
  verifiedAt: serviceTimeSchema,
  expiry: serviceTimeSchema,
});

/** The legacy v1 signed block of a trust-check (`rnwy-trust-v1`, insumer spec §3.3); other fields kept. */
export const trustSignedV1Schema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string(),
  score: z.number(),
  tier: z.string(),
  badges: z.array(z.string()),
  sybilSeverity: z.string().nullable(),
  sybilSignals: z.array(z.string()),
  attestedAt: serviceTimeSchema,
});

/** The signed proof of absence for an unknown wallet: `{found: false, wallet, issuedAt}`. */
export const walletNotFoundSignedSchema = z.looseObject({
  found: z.literal(false),
  wallet: z.string(),
  issuedAt: serviceTimeSchema,
});

/** Badges of a trust-check response: `{earned, warnings}` (SKILL.md, SDK) or one flat array (as signed). */
export const badgesSchema = z.union([
  z.looseObject({
    earned: z.array(z.string()).optional(),
    warnings: z.array(z.string()).optional(),
  }),
  z.array(z.string()),
]);

/** A sybil severity: `null` (no signal), a name, or the legacy `none`. */
export const sybilSeveritySchema = z.string().nullable();

/** `GET /api/trust-check?id=&chain=` body. */
export const trustCheckSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  name: z.string().nullish(),
  score: z.number(),
  threshold: z.number().nullish(),
  pass: z.boolean().nullish(),
  tier: z.string(),
  badges: badgesSchema.nullish(),
  reason: z.string().nullish(),
  owner: z.string().nullish(),
  isOriginalOwner: z.boolean().nullish(),
  feedbackCount: z.number().nullish(),
  ageDays: z.number().nullish(),
  checkedAt: serviceTimeSchema.nullish(),
  sybilSeverity: sybilSeveritySchema.optional(),
  sybilSignals: z.array(z.unknown()).nullish(),
  attestation: attestationSchema,
  /** During the kid migration, wallet look-ups also carry the legacy v1 attestation. */
  attestationV1: attestationSchema.nullish(),
});

/** `GET /api/trust-check?wallet=` body for a wallet that owns no known agent. */
export const walletNotFoundSchema = z.looseObject({
  found: z.literal(false),
  wallet: z.string(),
  attestation: attestationSchema,
});

/** One agent of `/api/agents` and `/api/explorer`. */
export const agentListItemSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  name: z.string().nullish(),
  score: z.number(),
  tier: z.string().nullish(),
  sybilSeverity: sybilSeveritySchema.optional(),
  updatedAt: serviceTimeSchema.nullish(),
});

/** `GET /api/agents` body (one page): the kit's own shape, the service does not publish one. */
export const agentsPageSchema = z.looseObject({
  agents: z.array(agentListItemSchema),
  nextCursor: z.string().nullish(),
  total: z.number().nullish(),
});

/** `GET /api/explorer` body without `id`: a listing (its shape is not published; the kit's). */
export const explorerSchema = z.looseObject({
  agents: z.array(agentListItemSchema),
  total: z.number().nullish(),
});

/** The `agent` of an explorer profile (SDK `Agent`): `id` and `owner` required, the rest kept as served. */
export const explorerAgentSchema = z.looseObject({
  id: agentIdSchema,
  name: z.string().nullish(),
  owner: z.string(),
  agentURI: z.string().nullish(),
  registeredAt: serviceTimeSchema.nullish(),
  ageInDays: z.number().nullish(),
  metadata: jsonObjectSchema.nullish(),
  reputation: jsonObjectSchema.nullish(),
  feedback: z.array(jsonObjectSchema).nullish(),
  ownership: jsonObjectSchema.nullish(),
  addressAgeDetails: jsonObjectSchema.nullish(),
  addressAgeScore: z.number().nullish(),
  scores: z.looseObject({ overall: z.number().nullish() }).nullish(),
  scoreBreakdown: jsonObjectSchema.nullish(),
  badges: z.array(z.union([z.looseObject({ id: z.string() }), z.string()])).nullish(),
  reviewerSybil: jsonObjectSchema.nullish(),
  chain: z.string().nullish(),
  registry: z.string().nullish(),
  commerceStats: z.array(jsonObjectSchema).nullish(),
});

/** `GET /api/explorer?id=&chain=` body: one agent's profile (SDK `ExplorerResponse`). */
export const explorerProfileSchema = z.looseObject({
  agent: explorerAgentSchema,
  blockExplorer: z.string().nullish(),
  similarAgents: z.array(jsonObjectSchema).nullish(),
  qualityTrajectory: jsonObjectSchema.nullish(),
});

/** `GET /api/stats` body. */
export const statsSchema = z.looseObject({
  totalAgents: z.number(),
  chains: z.number().nullish(),
  registrations: z.number().nullish(),
  byChain: z.record(z.string(), z.number()).nullish(),
  byRegistry: z.record(z.string(), z.number()).nullish(),
  byTier: z.record(z.string(), z.number()).nullish(),
  updatedAt: serviceTimeSchema.nullish(),
});

/** One reviewer of `/api/reviewer-analysis` (SDK `ReviewerWallet`). */
export const analysedReviewerSchema = z.looseObject({
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

/** One agent of `/api/compare`. */
export const comparedAgentSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  score: z.number(),
  tier: z.string().nullish(),
  pass: z.boolean().nullish(),
  reviewerQuality: z.unknown().optional(),
});

/** `GET /api/compare` body (agents ranked by score, highest first; not typed by the SDK). */
export const compareSchema = z.looseObject({
  agents: z.array(comparedAgentSchema),
  threshold: z.number().nullish(),
});

/** The `summary` of `/api/reviewer` (SDK `ReviewerSummary`). */
export const reviewerSummarySchema = z.looseObject({
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

/** `GET /api/entity` body (SDK `getEntity`, untyped there: `agents`, `wallet_score`, `mcp_servers`). */
export const entitySchema = z.looseObject({
  wallet: z.string().nullish(),
  agents: z.array(jsonObjectSchema),
  wallet_score: jsonObjectSchema.nullish(),
  mcp_servers: z.array(z.union([jsonObjectSchema, z.string()])).nullish(),
});

/**
 * `GET /api/mcp-attestation` body: `?canonical_id=` (`{canonical_id, mcp_risk_score, findings, attestation}`,
 * SDK README) or the newer `?server=` (`{server, qualityScore, riskScore, quadrant, attestation}`).
 */
export const mcpAttestationSchema = z
  .looseObject({
    canonical_id: z.string().nullish(),
    mcp_risk_score: z.number().nullish(),
    server: z.string().nullish(),
    qualityScore: z.number().nullish(),
    riskScore: z.number().nullish(),
    quadrant: z.string().nullish(),
    findings: z.array(z.unknown()).nullish(),
    attestation: attestationSchema,
  })
  .refine((b) => typeof b.canonical_id === "string" || typeof b.server === "string", {
    message: "an MCP attestation body names neither canonical_id nor server",
  });

/** `POST /api/risk-terms` body (SDK `RiskTermsResponse`, snake_case). */
export const riskTermsSchema = z.looseObject({
  recommendation: z.string(),
  agent_id: agentIdSchema,
  agent_name: z.string().nullish(),
  chain: z.string(),
  chain_id: z.number().nullish(),
  registry: z.string().nullish(),
  explorer_url: z.string().nullish(),
  risk_tier: z.looseObject({
    level: z.number().int(),
    label: z.string(),
    description: z.string().nullish(),
    computed: z.boolean().nullish(),
  }),
  signals: jsonObjectSchema.nullish(),
  data_coverage: jsonObjectSchema.nullish(),
  decline_reasons: z.array(jsonObjectSchema).nullish(),
  methodology: z.union([jsonObjectSchema, z.string()]).nullish(),
  disclaimer: z.union([jsonObjectSchema, z.string()]).nullish(),
  warning: z.string().nullish(),
  timestamp: serviceTimeSchema.nullish(),
});

/** `GET /api/address-ages` body. */
export const addressAgeSchema = z.looseObject({
  address: z.string(),
  chain: z.string().nullish(),
  ageDays: z.number().nullable(),
});

/**
 * `GET /api/wallet-score?address=` body: the attestation (kid `rnwy-wallet-v1`, usually `signed: null` with the
 * JWT in `sig`) and, for people, the same values at the top level; `found: false` for an unscored wallet.
 */
export const walletScoreSchema = z.looseObject({
  found: z.boolean().nullish(),
  wallet: z.string().nullish(),
  signalDepth: z.number().nullish(),
  riskIntensity: z.number().nullish(),
  quadrant: z.string().nullish(),
  activityZone: z.string().nullish(),
  riskZone: z.string().nullish(),
  issuedAt: serviceTimeSchema.nullish(),
  verifiedAt: serviceTimeSchema.nullish(),
  expiry: serviceTimeSchema.nullish(),
  attestation: attestationSchema,
});

/** The claims of a wallet-score JWT (a2a crosswalk, insumer spec §3.10); other claims kept. */
export const walletScoreClaimsSchema = z.looseObject({
  iss: z.string(),
  sub: z.string(),
  wallet: z.string(),
  signalDepth: z.number(),
  riskIntensity: z.number(),
  quadrant: z.string(),
  activityZone: z.string(),
  riskZone: z.string(),
  issuedAt: serviceTimeSchema,
  verifiedAt: serviceTimeSchema,
  expiry: serviceTimeSchema,
});

/** A JSON-RPC 2.0 error object. */
export const jsonRpcErrorSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/** A JSON-RPC 2.0 response: `result` or `error`. */
export const jsonRpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.unknown().optional(),
    error: jsonRpcErrorSchema.optional(),
  })
  .refine((r) => (r.error === undefined) !== (r.result === undefined), {
    message: "a JSON-RPC response has exactly one of result and error",
  });

/** MCP `initialize` result. */
export const mcpInitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  serverInfo: z.looseObject({ name: z.string(), version: z.string().nullish() }),
  capabilities: jsonObjectSchema,
});

/** One tool of MCP `tools/list`. */
export const mcpToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  inputSchema: jsonObjectSchema.nullish(),
});

/** MCP `tools/list` result. */
export const mcpToolsListResultSchema = z.looseObject({
  tools: z.array(mcpToolSchema),
  nextCursor: z.string().nullish(),
});

/** One content item of an MCP tool result. */
export const mcpContentSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
});

/** MCP `tools/call` result. */
export const mcpToolCallResultSchema = z.looseObject({
  content: z.array(mcpContentSchema),
  isError: z.boolean().nullish(),
});

/** A time as the service writes it: an ISO-8601 string, or Unix seconds. */
export type ServiceTime = z.infer<typeof serviceTimeSchema>;
/** A JSON object with any fields. */
export type JsonObject = z.infer<typeof jsonObjectSchema>;
/**
 * A sybil severity as the service writes it: `null` when there is no sybil signal, else a name (`low`,
 * `moderate`, `elevated`, `heavy`); older material also writes `none` for "no signal".
 */
export type ServiceSybilSeverity = z.infer<typeof sybilSeveritySchema>;
/** Badges of a trust-check response: `{earned, warnings}` in the body, a flat array of ids in a signed block. */
export type TrustBadges = z.infer<typeof badgesSchema>;
/** The error body of a non-2xx response. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
/**
 * The `attestation` object of a signed response. `sig` is either base64 of the raw 64-byte `r‖s` ES256
 * signature over the UTF-8 bytes of `JSON.stringify(signed)`, or itself a compact JWS (it then has two dots,
 * and `signed` may be `null`); `jws` is an RFC 7515 compact JWS. `jwks` is the JWKS URL the response claims
 * (never fetched: keys come from the configured issuer); `expiry`, an unsigned copy, can shorten the signed
 * window, never extend it.
 *
 * @typeParam Signed - The signed block, where it is known (the service's own signer, a test fixture): e.g.
 *   `Attestation<TrustSignedV2>`, or `Attestation<null>` for a payload that travels only inside a JWS.
 */
export type Attestation<Signed extends JsonObject | null = JsonObject | null> = z.infer<typeof attestationSchema> & { signed: Signed };
/**
 * The v2 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v2`), in signing order. `issuedAt`
 * is when the score was computed, `verifiedAt` when the attestation was signed, `expiry` = `verifiedAt` + 24 h;
 * `badges` is one flat array (earned and warnings merged).
 */
export type TrustSignedV2 = z.infer<typeof trustSignedV2Schema>;
/** The legacy v1 signed block of a `/api/trust-check` attestation (kid `rnwy-trust-v1`; one time, `attestedAt`). */
export type TrustSignedV1 = z.infer<typeof trustSignedV1Schema>;
/** The signed `{found: false, wallet, issuedAt}` for a wallet that owns no known agent (trust-check `?wallet=`, wallet-score). */
export type WalletNotFoundSigned = z.infer<typeof walletNotFoundSignedSchema>;
/** The claims of a wallet-score JWT. */
export type WalletScoreClaims = z.infer<typeof walletScoreClaimsSchema>;
/** A validated `/api/explorer?id=` body. */
export type ExplorerProfile = z.infer<typeof explorerProfileSchema>;
/**
 * A validated `/api/trust-check` body: the agent's data, its signed `attestation` (a v2 or v1 block) and,
 * during a kid migration on `?wallet=` look-ups, the same data signed under the legacy kid in `attestationV1`.
 */
export type TrustCheck = z.infer<typeof trustCheckSchema>;
/** A validated wallet-not-found envelope of `/api/trust-check?wallet=`. */
export type WalletNotFound = z.infer<typeof walletNotFoundSchema>;
/** One agent of a listing. */
export type AgentListItem = z.infer<typeof agentListItemSchema>;
/** One page of `/api/agents`. */
export type AgentsPage = z.infer<typeof agentsPageSchema>;
/** A validated `/api/explorer` body. */
export type ExplorerResult = z.infer<typeof explorerSchema>;
/** A validated `/api/stats` body. */
export type NetworkStats = z.infer<typeof statsSchema>;
/** A validated `/api/reviewer-analysis` body. */
export type ReviewerAnalysis = z.infer<typeof reviewerAnalysisSchema>;
/** One agent of a comparison. */
export type ComparedAgent = z.infer<typeof comparedAgentSchema>;
/** A validated `/api/compare` body. */
export type CompareResult = z.infer<typeof compareSchema>;
/** A validated `/api/reviewer` body. */
export type ReviewerProfile = z.infer<typeof reviewerSchema>;
/** A validated `/api/entity` body. */
export type EntityProfile = z.infer<typeof entitySchema>;
/** A validated `/api/mcp-attestation` body. */
export type McpServerAttestation = z.infer<typeof mcpAttestationSchema>;
/** A validated `/api/risk-terms` body. */
export type RiskTerms = z.infer<typeof riskTermsSchema>;
/** A validated `/api/address-ages` body. */
export type AddressAge = z.infer<typeof addressAgeSchema>;
/** A validated `/api/wallet-score` body. */
export type WalletScore = z.infer<typeof walletScoreSchema>;
/** A JSON-RPC error object. */
export type JsonRpcErrorObject = z.infer<typeof jsonRpcErrorSchema>;
/** A JSON-RPC response. */
export type JsonRpcResponse = z.infer<typeof jsonRpcResponseSchema>;
/** MCP `initialize` result. */
export type McpInitializeResult = z.infer<typeof mcpInitializeResultSchema>;
/** An MCP tool description. */
export type McpTool = z.infer<typeof mcpToolSchema>;
/** MCP `tools/list` result. */
export type McpToolsListResult = z.infer<typeof mcpToolsListResultSchema>;
/** One content item of an MCP tool result. */
export type McpContent = z.infer<typeof mcpContentSchema>;
/** MCP `tools/call` result. */
export type McpToolCallResult = z.infer<typeof mcpToolCallResultSchema>;
