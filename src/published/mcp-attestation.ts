/**
 * `GET /api/mcp-attestation` (kid `rnwy-mcp-v1`): an MCP server's signed quality and risk.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { attestationSchema } from "./attestation.js";

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

/** A validated `/api/mcp-attestation` body. */
export type McpServerAttestation = z.infer<typeof mcpAttestationSchema>;
