/**
 * The other signed endpoints: `GET /api/wallet-score?address=` (kid `rnwy-wallet-v1`, type
 * `wallet_intelligence`, a JWT in `sig` with `signed: null`: a2a crosswalk, insumer spec §1 and §3.10) and
 * `GET /api/mcp-attestation` (kid `rnwy-mcp-v1`): `?canonical_id=` as rnwy-sdk 0.3.0 reads it, and the newer
 * `?server=` form. Bodies typed with the kit's shapes (`WalletScore`, `WalletScoreClaims`, `McpServerAttestation`).
 *
 * @packageDocumentation
 */
import type { McpServerAttestation, WalletScore, WalletScoreClaims } from "../../../published/index.js";
import { ATTESTATION_TYPES } from "../../../config/service.js";
import { createRng, hashSeed } from "../../prng.js";
import { ok, type ServiceHandler } from "../context.js";
import { badRequest } from "../http-error.js";
import { isAbsent, readAddressParam, readCanonicalIdParam, readMcpServerParam } from "../params.js";
import { mcpServerScan } from "../synthetic/mcp-servers.js";
import { publishedWalletScores, walletIntelligenceScores } from "../synthetic/wallets.js";
import { expiryAfter } from "./trust-check.js";

/** `GET /api/wallet-score?address=` (EVM wallets only, as the service covers them). */
export const handleWalletScore: ServiceHandler = async (request, context) => {
  const q = request.query;
  if (isAbsent(q.get("address")) && !isAbsent(q.get("wallet"))) {
    throw badRequest('wallet-score takes the wallet as "address" (?address=0x…), not "wallet"');
  }
  const wallet = readAddressParam(q.get("address"), "address");
  const now = context.now();
  const expiry = expiryAfter(now);
  const scores = walletIntelligenceScores(context.population, wallet);
  const options = { purpose: "wallet" as const, type: ATTESTATION_TYPES.wallet, path: request.path, expiry };
  if (!scores) {
    const { attestation } = await context.signer.attestJwt({ found: false, wallet, issuedAt: now.toISOString() }, options);
    const body: WalletScore = { found: false, wallet, attestation };
    return ok(body);
  }
  const claims: WalletScoreClaims = {
    iss: context.issuer,
    sub: wallet,
    wallet,
    ...publishedWalletScores(scores),
    verifiedAt: now.toISOString(),
    expiry,
  };
  const signed = await context.signer.attestJwt(claims, options);
  const c = signed.claims;
  const body: WalletScore = {
    wallet,
    signalDepth: c.signalDepth,
    riskIntensity: c.riskIntensity,
    quadrant: c.quadrant,
    activityZone: c.activityZone,
    riskZone: c.riskZone,
    issuedAt: c.issuedAt,
    verifiedAt: c.verifiedAt,
    expiry: c.expiry,
    attestation: signed.attestation,
  };
  return ok(body);
};

/** `GET /api/mcp-attestation?canonical_id=<owner>/<name>` or `?server=<owner>/<name>|<url>`. */
export const handleMcpAttestation: ServiceHandler = async (request, context) => {
  const q = request.query;
  const hasServer = !isAbsent(q.get("server"));
  if (hasServer && !isAbsent(q.get("canonical_id"))) throw badRequest('Give either "canonical_id" or "server", not both');
  const now = context.now();
  const expiry = expiryAfter(now);
  const options = { purpose: "mcp" as const, type: ATTESTATION_TYPES.mcp, path: request.path, expiry };
  if (hasServer) {
    const server = readMcpServerParam(q.get("server"));
    const { riskScore, findings } = mcpServerScan(context.population, server);
    const qualityScore = mcpQualityScore(context.population.seed, server, findings.length);
    const signed = {
      server,
      qualityScore,
      riskScore,
      quadrant: `${qualityScore >= 50 ? "high" : "low"}_quality_${riskScore >= 30 ? "high" : "low"}_risk`,
      issuedAt: context.population.at.toISOString(),
      verifiedAt: now.toISOString(),
      expiry,
    };
    const attestation = await context.signer.attest(signed, options);
    const s = attestation.signed;
    const body: McpServerAttestation = {
      server,
      qualityScore: s.qualityScore,
      riskScore: s.riskScore,
      quadrant: s.quadrant,
      findings,
      attestation,
    };
    return ok(body);
  }
  const canonicalId = readCanonicalIdParam(q.get("canonical_id"));
  const { riskScore, findings } = mcpServerScan(context.population, canonicalId);
  // The signed block of the `canonical_id` form carries no expiry (the envelope announces one).
  const signed = { canonical_id: canonicalId, mcp_risk_score: riskScore, findings, attestedAt: now.toISOString() };
  const attestation = await context.signer.attest(signed, options);
  const body: McpServerAttestation = {
    canonical_id: canonicalId,
    mcp_risk_score: attestation.signed.mcp_risk_score,
    findings: attestation.signed.findings,
    attestation,
  };
  return ok(body);
};

/** A deterministic quality score 0–95 of an MCP server, lower with more findings. */
function mcpQualityScore(seed: number, server: string, findings: number): number {
  const rng = createRng(hashSeed("mcp-quality", seed, server.toLowerCase()));
  return Math.max(0, Math.min(95, rng.int(40, 95) - 12 * findings));
}
