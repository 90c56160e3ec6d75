/**
 * The MCP kind: `/api/mcp-attestation` attestations (kid `rnwy-mcp-v1`, type `mcp_trust`). The signed block
 * names its server either by `server` (the `?server=` form of insumer spec v1.2 §3.12, `mcpServerSignedSchema`:
 * `qualityScore`, `riskScore`, `quadrant`, `breakdown`, `issuedAt`, `verifiedAt` and a signed `expiry`, which the
 * validity check reads and enforces) or by `canonical_id` (`<owner>/<name>`, the SDK's form; `canonicalId` is read
 * too), which signs no expiry: verification gives it a lifetime from its issue time.
 *
 * @packageDocumentation
 */
import { ATTESTATION_TYPES } from "../../config/service.js";
import { mcpServerSignedSchema } from "../../published/mcp-attestation.js";
import type { AttestationKind, Classification } from "../pipeline.js";
import type { FieldMismatch, McpAttestationVersion } from "../result.js";

/** The MCP kind. */
export const MCP_KIND: AttestationKind<McpAttestationVersion> = {
  name: "MCP",
  type: ATTESTATION_TYPES.mcp,
  requireTime: false,
  classify(signed): Classification<McpAttestationVersion> {
    if (signed.agentId !== undefined || signed.signalDepth !== undefined) {
      const field = signed.agentId !== undefined ? "agentId" : "signalDepth";
      return { ok: false, reason: "type-mismatch", field, message: `the signed block carries ${field}: it is not an MCP attestation` };
    }
    if (typeof canonicalIdOf(signed) === "string") return { ok: true, version: "canonical-id" };
    if (signed.server !== undefined) return classifyServerForm(signed);
    return {
      ok: false,
      reason: "malformed",
      field: "canonical_id",
      message: "the signed block names no MCP server (canonical_id or server)",
    };
  },
  checkSubject(signed, expected, version): FieldMismatch | undefined {
    if (expected.canonicalId !== undefined && (version !== "canonical-id" || canonicalIdOf(signed) !== expected.canonicalId)) {
      return { field: "canonical_id", signed: canonicalIdOf(signed), response: expected.canonicalId };
    }
    if (expected.server !== undefined && (version !== "server" || signed.server !== expected.server)) {
      return { field: "server", signed: signed.server, response: expected.server };
    }
    return undefined;
  },
  describe(signed, version) {
    return version === "server"
      ? `server ${String(signed.server)}, quality ${String(signed.qualityScore)}, risk ${String(signed.riskScore)}`
      : `server ${String(canonicalIdOf(signed))}`;
  },
};

/**
 * The `?server=` form is read as its published shape: every field the spec signs (its `expiry` above all, so
 * that the window is the one the issuer signed, never a lifetime the kit implies), `qualityScore` within 0–100.
 */
function classifyServerForm(signed: Record<string, unknown>): Classification<McpAttestationVersion> {
  const parsed = mcpServerSignedSchema.safeParse(signed);
  if (parsed.success) return { ok: true, version: "server" };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "server";
  const missing = signed[field] === undefined;
  return {
    ok: false,
    reason: "malformed",
    field,
    message: missing
      ? `the signed block of the server form has no ${field} (insumer spec v1.2 §3.12 signs it)`
      : `the signed ${field} of the server form is invalid: ${issue.message}`,
  };
}

function canonicalIdOf(signed: Record<string, unknown>): unknown {
  return signed.canonical_id ?? signed.canonicalId;
}
