/**
 * `GET /api/trust-check`: an agent's trust data with a signed v2 attestation, by id and chain or by the
 * wallet that owns it (with the signed `found: false` envelope for a wallet that owns none).
 *
 * @packageDocumentation
 */
import { ATTESTATION_LIFETIME_SECONDS } from "../../config/service.js";
import type { SignedAttestation, TrustAttestationSignedV2, WalletNotFoundSigned } from "../../attestation/types.js";
import { compareAgentRefs, type PopulationAgent } from "../agent.js";
import { ok, type ServiceContext, type ServiceHandler } from "../context.js";
import { badRequest, notFound } from "../http-error.js";
import { isAbsent, parseAddress, parseAgentId, parseChain, parseRegistry, parseThreshold } from "../params.js";
import type { Population } from "../population.js";

/** The v2 signed block, fields in the service's signing order. */
export interface TrustCheckSigned extends TrustAttestationSignedV2 {
  agentId: number;
  owner: string;
  badges: string[];
  sybilSignals: string[];
  issuedAt: string;
  verifiedAt: string;
  expiry: string;
}

/** A trust-check body as the local service serves it (docs/service-api.md). */
export interface TrustCheckBody {
  agentId: number;
  chain: string;
  registry: string;
  name: string;
  score: number;
  threshold: number | null;
  pass: boolean | null;
  tier: string;
  badges: { earned: string[]; warnings: string[] };
  reason: string;
  owner: string;
  isOriginalOwner: boolean;
  feedbackCount: number;
  ageDays: number;
  checkedAt: string;
  sybilSeverity: string;
  sybilSignals: string[];
  attestation: SignedAttestation<TrustCheckSigned>;
}

/** The body for a wallet that owns no agent. */
export interface WalletNotFoundBody {
  found: false;
  wallet: string;
  attestation: SignedAttestation<WalletNotFoundSigned>;
}

/**
 * Finds an agent or answers 404.
 *
 * @param population - The population.
 * @param chain - Chain slug.
 * @param agentId - Agent id.
 * @param registry - Registry.
 * @returns The agent.
 */
export function requireAgent(population: Population, chain: string, agentId: number, registry: string): PopulationAgent {
  const agent = population.get(chain, agentId, registry);
  if (!agent) throw notFound(`Unknown agent ${agentId} on ${chain} (registry ${registry})`);
  return agent;
}

/**
 * The best agent of a wallet: the highest score among the agents it owns, ties broken by listing order.
 *
 * @param population - The population.
 * @param wallet - Owner address.
 * @returns The agent, or `undefined` when the wallet owns none.
 */
export function bestAgentOf(population: Population, wallet: string): PopulationAgent | undefined {
  let best: PopulationAgent | undefined;
  for (const agent of population.byOwner(wallet)) {
    if (!best || agent.score > best.score || (agent.score === best.score && compareAgentRefs(agent, best) < 0)) {
      best = agent;
    }
  }
  return best;
}

/**
 * Builds and signs a trust-check body.
 *
 * @param agent - The agent.
 * @param threshold - The threshold asked for, or `null`.
 * @param context - Service state (clock, signer).
 * @param path - Request path (for faults).
 * @returns The body.
 */
export async function trustCheckBody(
  agent: PopulationAgent,
  threshold: number | null,
  context: ServiceContext,
  path: string,
): Promise<TrustCheckBody> {
  const now = context.now();
  const issuedAt = now.toISOString();
  const expiry = new Date(now.getTime() + ATTESTATION_LIFETIME_SECONDS * 1000).toISOString();
  const signed: TrustCheckSigned = {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    owner: agent.owner,
    score: agent.score,
    tier: agent.tier,
    badges: [...agent.badges.earned],
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: [...agent.sybilSignals],
    issuedAt,
    verifiedAt: agent.updatedAt.toISOString(),
    expiry,
  };
  const attestation = await context.signer.attest(signed, { purpose: "trust", type: "trust-check", path, expiry });
  const score = attestation.signed.score;
  const pass = threshold === null ? null : score >= threshold;
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    name: agent.name,
    score,
    threshold,
    pass,
    tier: attestation.signed.tier,
    badges: { earned: [...agent.badges.earned], warnings: [...agent.badges.warnings] },
    reason: reasonOf(score, attestation.signed.tier, agent.sybilSeverity, threshold),
    owner: agent.owner,
    isOriginalOwner: agent.isOriginalOwner,
    feedbackCount: agent.feedbackCount,
    ageDays: agent.ageDays,
    checkedAt: issuedAt,
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: [...agent.sybilSignals],
    attestation,
  };
}

/**
 * Builds and signs the envelope for a wallet that owns no agent.
 *
 * @param wallet - The wallet (lowercase).
 * @param context - Service state.
 * @param path - Request path (for faults).
 * @returns The body.
 */
export async function walletNotFoundBody(wallet: string, context: ServiceContext, path: string): Promise<WalletNotFoundBody> {
  const now = context.now();
  const signed: WalletNotFoundSigned = { found: false, wallet, issuedAt: now.toISOString() };
  const expiry = new Date(now.getTime() + ATTESTATION_LIFETIME_SECONDS * 1000).toISOString();
  const attestation = await context.signer.attest(signed, { purpose: "trust", type: "trust-check", path, expiry });
  return { found: false, wallet, attestation };
}

/** `GET /api/trust-check?id=&chain=&registry=&threshold=` or `?wallet=`. */
export const handleTrustCheck: ServiceHandler = async (request, context) => {
  const q = request.query;
  const threshold = parseThreshold(q.get("threshold"));
  if (!isAbsent(q.get("wallet"))) {
    if (!isAbsent(q.get("id"))) throw badRequest('Give either "wallet" or "id" and "chain", not both');
    const wallet = parseAddress(q.get("wallet"), "wallet");
    const agent = bestAgentOf(context.population, wallet);
    return ok(
      agent
        ? await trustCheckBody(agent, threshold, context, request.path)
        : await walletNotFoundBody(wallet, context, request.path),
    );
  }
  const agentId = parseAgentId(q.get("id"));
  const chain = parseChain(q.get("chain"));
  const registry = parseRegistry(q.get("registry"));
  const agent = requireAgent(context.population, chain, agentId, registry);
  return ok(await trustCheckBody(agent, threshold, context, request.path));
};

function reasonOf(score: number, tier: string, sybilSeverity: string, threshold: number | null): string {
  const base =
    threshold === null
      ? `Score ${score} (${tier})`
      : score >= threshold
        ? `Score ${score} meets threshold ${threshold}`
        : `Score ${score} is below threshold ${threshold}`;
  return sybilSeverity === "none" || sybilSeverity === "low" ? base : `${base}; sybil severity ${sybilSeverity}`;
}
