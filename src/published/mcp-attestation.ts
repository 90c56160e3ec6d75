/**
 * `GET /api/mcp-attestation` (kid `rnwy-mcp-v1`): an MCP server's signed quality and risk, in two forms.
 *
 * - `?server={owner}/{repo}` (insumer spec v1.2 §3.12, since 2026-05-24): attestation `type` `mcp_trust`, a
 *   compact JWS (JWT) in `jws` with a raw `sig` over `JSON.stringify(signed)` beside it, and the signed block
 *   `{server, qualityScore (0–100), riskScore, quadrant, breakdown, issuedAt, verifiedAt, expiry}` with
 *   `expiry` = `verifiedAt` + 24 h ({@link mcpServerSignedSchema}).
 * - `?canonical_id=` (rnwy-sdk 0.3.0 `getMCPAttestation` and README): `{canonical_id, mcp_risk_score (0–100),
 *   findings, attestation}`; no source spells out its signed block.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { attestationSchema } from "./attestation.js";
import { jsonObjectSchema, serviceTimeSchema } from "./common.js";

/** Highest `qualityScore` of the `?server=` form (insumer spec v1.2 §3.12: "Composite quality (0–100)"). */
const MAX_MCP_QUALITY_SCORE = 100;

/**
 * The signed block of the `?server=` form (insumer spec v1.2 §3.12); other fields kept. Every field the spec
 * lists is required but `breakdown` ("per-component scoring detail": `quality`, `risk`, `version`, `quadrant`),
 * which the kit does not read: it must be an object when present. `riskScore` has no published range ("lower is
 * cleaner").
 */
export const mcpServerSignedSchema = z.looseObject({
  server: z.string().min(1),
  qualityScore: z.number().min(0).max(MAX_MCP_QUALITY_SCORE),
  riskScore: z.number(),
  quadrant: z.string(),
  breakdown: jsonObjectSchema.optional(),
  issuedAt: serviceTimeSchema,
  verifiedAt: serviceTimeSchema,
  expiry: serviceTimeSchema,
});

/**
 * `GET /api/mcp-attestation` body: `?canonical_id=` (`{canonical_id, mcp_risk_score, findings, attestation}`,
 * SDK README) or `?server=` (the signed block's values repeated at the top level, as the local service does; the
 * spec describes only the signed block).
 */
export const mcpAttestationSchema = z
  .looseObject({
    canonical_id: z.string().nullish(),
    mcp_risk_score: z.number().nullish(),
    server: z.string().nullish(),
    qualityScore: z.number().nullish(),
    riskScore: z.number().nullish(),
    quadrant: z.string().nullish(),
    breakdown: jsonObjectSchema.nullish(),
    findings: z.array(z.unknown()).nullish(),
    attestation: attestationSchema,
  })
  .refine((b) => typeof b.canonical_id === "string" || typeof b.server === "string", {
    message: "an MCP attestation body names neither canonical_id nor server",
  });

/** The signed block of an MCP attestation in the `?server=` form, in signing order. */
export type McpServerSigned = z.infer<typeof mcpServerSignedSchema>;
/** A validated `/api/mcp-attestation` body. */
export type McpServerAttestation = z.infer<typeof mcpAttestationSchema>;
