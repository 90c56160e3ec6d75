/**
 * The other signed endpoints: `GET /api/wallet-score?address=` (kid `rnwy-wallet-v1`, type
 * `wallet_intelligence`, a JWT in `sig` with `signed: null`: a2a crosswalk, insumer spec §1 and §3.10) and
 * `GET /api/mcp-attestation` (kid `rnwy-mcp-v1`, type `mcp_trust`): `?canonical_id=` as rnwy-sdk 0.3.0 reads it,
 * and the `?server=` form of insumer spec v1.2 §3.12. Bodies typed with the kit's shapes (`WalletScore`, `WalletScoreClaims`, `McpServerAttestation`).
 *
 * @packageDocumentation
 */
import type { McpServerAttestation, McpServerSigned, WalletScore, WalletScoreClaims } from "../../../published/index.js";
import { ATTESTATION_TYPES } from "../../../config/service.js";
import { ok, type ServiceHandler } from "../context.js";
import { badRequest } from "../http-error.js";
import { isAbsent, readAddressParam, readCanonicalIdParam, readMcpServerParam } from "../params.js";
import { mcpServerQuality, mcpServerScan } from "../synthetic/mcp-servers.js";
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

/** Quality and risk at or above which an MCP server's quadrant says `high` (the local service's cut-offs). */
const MCP_QUADRANT_CUTOFFS = { quality: 50, risk: 30 } as const;
/** `breakdown.version` of the local service's MCP scoring (the real one's is not published). */
const MCP_SCORING_VERSION = "local-1";

/**
 * `GET /api/mcp-attestation?canonical_id=<owner>/<name>` or `?server=<owner>/<name>|<url>`. The `server` form is
 * insumer spec v1.2 §3.12's: type `mcp_trust`, the JWS first (`jws`, JWT form) with the raw `sig` beside it, and
 * the signed `{server, qualityScore, riskScore, quadrant, breakdown, issuedAt (the scan), verifiedAt (now), expiry
 * (verifiedAt + 24 h)}`, its values repeated at the top level with the findings.
 */
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
    const { qualityScore, components } = mcpServerQuality(context.population, server, findings.length);
    const quadrant = `${qualityScore >= MCP_QUADRANT_CUTOFFS.quality ? "high" : "low"}_quality_${
      riskScore >= MCP_QUADRANT_CUTOFFS.risk ? "high" : "low"
    }_risk`;
    const signed: McpServerSigned = {
      server,
      qualityScore,
      riskScore,
      quadrant,
      breakdown: {
        quality: { ...components },
        risk: { findings: findings.length, score: riskScore },
        version: MCP_SCORING_VERSION,
        quadrant: { ...MCP_QUADRANT_CUTOFFS },
      },
      issuedAt: context.population.at.toISOString(),
      verifiedAt: now.toISOString(),
      expiry,
    };
    const attestation = await context.signer.attest(signed, { ...options, jwsFirst: true });
    const s = attestation.signed;
    const body: McpServerAttestation = {
      server,
      qualityScore: s.qualityScore,
      riskScore: s.riskScore,
      quadrant: s.quadrant,
      breakdown: s.breakdown,
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
