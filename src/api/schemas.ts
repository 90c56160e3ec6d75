/**
 * Runtime schemas of the trust service's responses (docs/service-api.md), written with zod 4.
 *
 * Why zod: one schema gives both the runtime check of an untrusted response and the static TypeScript type
 * of the validated value (`z.infer`), so the two cannot drift apart; and its loose objects
 * (`z.looseObject`) keep every field the schema does not name, which matters here because the real
 * service documents few of its fields and may add more at any time. Each schema therefore **requires only
 * what the service documents** (for `/api/trust-check`: `agentId`, `chain`, `score`, `tier`,
 * `sybilSeverity` and the attestation's `issuer`, `kid`, `alg`, `signed`) and leaves the rest optional or
 * nullable. Tier and sybil-severity names are checked as strings, not enums: an unknown name is something
 * the drift job reports, not a reason to drop the response.
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

/**
 * The `attestation` object of a signed response. `signed` is any JSON object (its fields are checked by the
 * verifier); at least one of `sig` and `jws` must be present.
 */
export const attestationSchema = z
  .looseObject({
    issuer: z.string(),
    type: z.string().nullish(),
    kid: z.string(),
    alg: z.string(),
    jwks: z.string().nullish(),
    signed: jsonObjectSchema,
    sig: z.string().optional(),
    jws: z.string().optional(),
    expiry: serviceTimeSchema.nullish(),
  })
  .refine((a) => a.sig !== undefined || a.jws !== undefined, {
    message: "attestation has neither sig nor jws",
  });

/** Badges of a trust-check response. */
export const badgesSchema = z.looseObject({
  earned: z.array(z.string()).optional(),
  warnings: z.array(z.string()).optional(),
});

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
  sybilSeverity: z.string(),
  sybilSignals: z.array(z.unknown()).nullish(),
  attestation: attestationSchema,
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
  sybilSeverity: z.string().nullish(),
  updatedAt: serviceTimeSchema.nullish(),
});

/** `GET /api/agents` body (one page). */
export const agentsPageSchema = z.looseObject({
  agents: z.array(agentListItemSchema),
  nextCursor: z.string().nullish(),
  total: z.number().nullish(),
});

/** `GET /api/explorer` body. */
export const explorerSchema = z.looseObject({
  agents: z.array(agentListItemSchema),
  total: z.number().nullish(),
});

/** `GET /api/stats` body. */
export const statsSchema = z.looseObject({
  totalAgents: z.number(),
  chains: z.number().nullish(),
  registrations: z.number().nullish(),
  byChain: z.record(z.string(), z.number()).nullish(),
  byRegistry: z.record(z.string(), z.number()).nullish(),
  updatedAt: serviceTimeSchema.nullish(),
});

/** One reviewer of `/api/reviewer-analysis`. */
export const analysedReviewerSchema = z.looseObject({
  address: z.string(),
  walletAgeDays: z.number().nullish(),
  classification: z.string().nullish(),
  sybilFlags: z.array(z.unknown()).nullish(),
  funder: z.string().nullish(),
});

/** `GET /api/reviewer-analysis` body. */
export const reviewerAnalysisSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  reviewers: z.array(analysedReviewerSchema),
  funderClusters: z
    .array(z.looseObject({ funder: z.string().nullish(), reviewers: z.array(z.unknown()).nullish() }))
    .nullish(),
  classificationBreakdown: z.record(z.string(), z.number()).nullish(),
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

/** `GET /api/compare` body (agents ranked by score, highest first). */
export const compareSchema = z.looseObject({
  agents: z.array(comparedAgentSchema),
  threshold: z.number().nullish(),
});

/** `GET /api/reviewer` body. */
export const reviewerSchema = z.looseObject({
  address: z.string(),
  chain: z.string().nullish(),
  velocity: z.unknown().optional(),
  sweepPatterns: z.array(z.unknown()).nullish(),
  scoreClustering: z.unknown().optional(),
  fundingSource: z.unknown().optional(),
  sybilSignals: z.array(z.unknown()).nullish(),
});

/** One agent of `/api/entity`. */
export const entityAgentSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  score: z.number().nullish(),
  tier: z.string().nullish(),
});

/** `GET /api/entity` body. */
export const entitySchema = z.looseObject({
  wallet: z.string(),
  agents: z.array(entityAgentSchema),
  sybilSignals: z.array(z.unknown()).nullish(),
  walletIntelligence: jsonObjectSchema.nullish(),
  mcpServers: z.array(z.unknown()).nullish(),
});

/** `GET /api/mcp-attestation` body. */
export const mcpAttestationSchema = z.looseObject({
  canonicalId: z.string(),
  riskScore: z.number(),
  findings: z.array(z.unknown()).nullish(),
  attestation: attestationSchema,
});

/** `POST /api/risk-terms` body. */
export const riskTermsSchema = z.looseObject({
  agentId: agentIdSchema,
  chain: z.string(),
  registry: z.string().nullish(),
  riskTier: z.string(),
  trustSignals: jsonObjectSchema.nullish(),
  dataCoverage: jsonObjectSchema.nullish(),
  methodology: z.string().nullish(),
});

/** `GET /api/address-ages` body. */
export const addressAgeSchema = z.looseObject({
  address: z.string(),
  chain: z.string().nullish(),
  ageDays: z.number().nullable(),
});

/** `GET /api/wallet-score` body: the service documents only its signed attestation. */
export const walletScoreSchema = z.looseObject({
  wallet: z.string().nullish(),
  score: z.number().nullish(),
  tier: z.string().nullish(),
  attestation: attestationSchema,
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

/** A time as the service writes it. */
export type ServiceTimeValue = z.infer<typeof serviceTimeSchema>;
/** The error body of a non-2xx response. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
/** A validated attestation object. */
export type Attestation = z.infer<typeof attestationSchema>;
/** A validated `/api/trust-check` body. */
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
