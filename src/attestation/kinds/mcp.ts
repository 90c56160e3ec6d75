/**
 * The MCP kind: `/api/mcp-attestation` attestations (kid `rnwy-mcp-v1`). The signed block names its server
 * either by `canonical_id` (`<owner>/<name>`, the first form; `canonicalId` is read too) or by `server` (the
 * newer `?server=` form with `qualityScore`, `riskScore`, `quadrant`, …). Neither form carries an expiry:
 * verification gives it a lifetime from its issue time.
 *
 * @packageDocumentation
 */
import type { AttestationKind, Classification } from "../pipeline.js";
import type { FieldMismatch, McpAttestationVersion } from "../result.js";

/** The MCP kind. */
export const MCP_KIND: AttestationKind<McpAttestationVersion> = {
  name: "MCP",
  type: undefined,
  requireTime: false,
  classify(signed): Classification<McpAttestationVersion> {
    if (signed.agentId !== undefined || signed.signalDepth !== undefined) {
      const field = signed.agentId !== undefined ? "agentId" : "signalDepth";
      return { ok: false, reason: "type-mismatch", field, message: `the signed block carries ${field}: it is not an MCP attestation` };
    }
    if (typeof canonicalIdOf(signed) === "string") return { ok: true, version: "canonical-id" };
    if (typeof signed.server === "string") return { ok: true, version: "server" };
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
    return version === "server" ? `server ${String(signed.server)}` : `server ${String(canonicalIdOf(signed))}`;
  },
};

function canonicalIdOf(signed: Record<string, unknown>): unknown {
  return signed.canonical_id ?? signed.canonicalId;
}
