/**
 * The other signed endpoints: `GET /api/mcp-attestation` (signed with the MCP key) and
 * `GET /api/wallet-score` (signed with the trust key).
 *
 * @packageDocumentation
 */
import { ATTESTATION_LIFETIME_SECONDS } from "../../config/service.js";
import { ok, type ServiceHandler } from "../context.js";
import { parseAddress, parseCanonicalId, parseOptionalChain } from "../params.js";
import { mcpServerScan, type McpFinding } from "../synthetic/mcp-servers.js";
import { walletScore } from "../synthetic/wallets.js";

/** `GET /api/mcp-attestation?canonical_id=<owner>/<name>`. */
export const handleMcpAttestation: ServiceHandler = async (request, context) => {
  const canonicalId = parseCanonicalId(request.query.get("canonical_id"));
  const { riskScore, findings } = mcpServerScan(context.population, canonicalId);
  const now = context.now();
  const expiry = new Date(now.getTime() + ATTESTATION_LIFETIME_SECONDS * 1000).toISOString();
  const signed: { canonicalId: string; riskScore: number; findings: McpFinding[]; issuedAt: string; expiry: string } = {
    canonicalId,
    riskScore,
    findings,
    issuedAt: now.toISOString(),
    expiry,
  };
  const attestation = await context.signer.attest(signed, { purpose: "mcp", type: "mcp-attestation", path: request.path, expiry });
  return ok({
    canonicalId,
    riskScore: attestation.signed.riskScore,
    findings: attestation.signed.findings,
    attestation,
  });
};

/** `GET /api/wallet-score?wallet=&chain=`. */
export const handleWalletScore: ServiceHandler = async (request, context) => {
  const wallet = parseAddress(request.query.get("wallet"), "wallet");
  const chain = parseOptionalChain(request.query.get("chain"));
  const { score, tier } = walletScore(context.population, wallet, chain);
  const now = context.now();
  const expiry = new Date(now.getTime() + ATTESTATION_LIFETIME_SECONDS * 1000).toISOString();
  const signed: { wallet: string; score: number; tier: string; issuedAt: string; expiry: string } = {
    wallet,
    score,
    tier,
    issuedAt: now.toISOString(),
    expiry,
  };
  const attestation = await context.signer.attest(signed, { purpose: "trust", type: "wallet-score", path: request.path, expiry });
  return ok({
    wallet,
    ...(chain !== undefined ? { chain } : {}),
    score: attestation.signed.score,
    tier: attestation.signed.tier,
    attestation,
  });
};
