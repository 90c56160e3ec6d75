/**
 * `GET /api/trust-check`: an agent's trust data with its signed attestation (v2 by default, legacy v1 on
 * request), by id and chain or by the wallet that owns it (the wallet's best agent; during the kid-migration
 * window with both `attestation` and `attestationV1`), and the signed `found: false` envelope for a wallet
 * that owns none, typed with the kit's shapes (`TrustCheck`, `TrustSignedV2`, `TrustSignedV1`, `WalletNotFound`).
 * Sources: SKILL.md / SDK `TrustCheckResponse` for the top level, vocabulary `rnwy.yaml` (2026-04-14) for the
 * v2 block, insumer spec §3.3 for the v1 block and §3.3.0 for the wallet look-up.
 *
 * @packageDocumentation
 */

import type {
  Attestation,
  TrustCheck,
  TrustSignedV1,
  TrustSignedV2,
  WalletNotFound,
  WalletNotFoundSigned,
} from "../../../published/index.js";
import { ATTESTATION_LIFETIME_SECONDS, ATTESTATION_TYPES, DEFAULT_THRESHOLD } from "../../../config/service.js";
import { apiSybilSeverity, compareListingOrder, flatBadges, type PopulationAgent } from "../agent.js";
import { ok, type ServiceContext, type ServiceHandler } from "../context.js";
import { trustSigningOf } from "../deviations.js";
import { badRequest, notFound } from "../http-error.js";
import { isAbsent, readAgentIdParam, readChainParam, readRegistryParam, readThresholdParam, readWalletParam } from "../params.js";
import type { Population } from "../population.js";

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
    if (!best || agent.score > best.score || (agent.score === best.score && compareListingOrder(agent, best) < 0)) {
      best = agent;
    }
  }
  return best;
}

/**
 * The v2 signed block of an agent, in signing order.
 *
 * @param agent - The agent.
 * @param verifiedAt - Signing (request) time.
 * @returns The block (`agentId` a string, times RFC 3339): `issuedAt` is the agent's scoring time, written as the
 *   service's sample writes it ({@link scoringTimeText}); `verifiedAt` and `expiry` (24 h after it) in the `Z` form.
 */
export function trustSignedV2(agent: PopulationAgent, verifiedAt: Date): TrustSignedV2 {
  return {
    agentId: String(agent.agentId),
    chain: agent.chain,
    registry: agent.registry,
    owner: agent.owner,
    score: agent.score,
    tier: agent.tier,
    badges: flatBadges(agent.badges),
    sybilSeverity: apiSybilSeverity(agent.sybilSeverity),
    sybilSignals: [...agent.sybilSignals],
    issuedAt: scoringTimeText(agent.updatedAt),
    verifiedAt: verifiedAt.toISOString(),
    expiry: expiryAfter(verifiedAt),
  };
}

/**
 * The legacy v1 signed block of an agent, in signing order.
 *
 * @param agent - The agent.
 * @param attestedAt - Signing (request) time.
 * @returns The block (`agentId` a number, `sybilSeverity` `none` when there is no signal).
 */
export function trustSignedV1(agent: PopulationAgent, attestedAt: Date): TrustSignedV1 {
  return {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    score: agent.score,
    tier: agent.tier,
    badges: flatBadges(agent.badges),
    sybilSeverity: agent.sybilSeverity,
    sybilSignals: [...agent.sybilSignals],
    attestedAt: attestedAt.toISOString(),
  };
}

/** Options of {@link trustCheckBody}. */
export interface TrustCheckBodyOptions {
  /** Also sign the legacy v1 block as `attestationV1` (wallet look-ups during the kid migration). */
  readonly withV1?: boolean;
}

/**
 * Builds and signs a trust-check body. The top-level score, tier and sybil data are read back from the
 * signed block, so that a `tampered-signature` fault changes both alike.
 *
 * @param agent - The agent.
 * @param threshold - The pass/fail threshold (the service's default is 50).
 * @param context - Service state (clock, signer, which version signs).
 * @param path - Request path (for faults).
 * @param options - Whether to add `attestationV1`.
 * @returns The body.
 */
export async function trustCheckBody(
  agent: PopulationAgent,
  threshold: number,
  context: ServiceContext,
  path: string,
  options: TrustCheckBodyOptions = {},
): Promise<TrustCheck> {
  const now = context.now();
  const expiry = expiryAfter(now);
  const v1 = context.trustAttestationVersion === "v1";
  const attestation: Attestation<TrustSignedV2 | TrustSignedV1> = v1
    ? await context.signer.attest(trustSignedV1(agent, now), { purpose: "trustV1", type: ATTESTATION_TYPES.trust, path, expiry })
    : await signV2(trustSignedV2(agent, now), context, path, expiry);
  const signed = attestation.signed;
  const score = signed.score;
  const pass = score >= threshold;
  const body: TrustCheck = {
    agentId: agent.agentId,
    chain: agent.chain,
    registry: agent.registry,
    name: agent.name,
    score,
    threshold,
    pass,
    tier: signed.tier,
    badges: { earned: [...agent.badges.earned], warnings: [...agent.badges.warnings] },
    reason: reasonOf(score, threshold, agent),
    owner: agent.owner,
    isOriginalOwner: agent.isOriginalOwner,
    feedbackCount: agent.feedbackCount,
    ageDays: agent.ageDays,
    checkedAt: now.toISOString(),
    sybilSeverity: apiSybilSeverity(agent.sybilSeverity),
    sybilSignals: [...agent.sybilSignals],
    attestation,
  };
  if (options.withV1 && !v1) {
    body.attestationV1 = await context.signer.attest(trustSignedV1(agent, now), {
      purpose: "trustV1",
      type: ATTESTATION_TYPES.trust,
      path,
      expiry,
    });
  }
  return body;
}

/**
 * Signs a v2 block as the service is configured to: the documented way, or with its deviations (a rewritten block,
 * other signed bytes or JWS header). Typed as a v2 block: a rewritten one is whatever the deviation made.
 */
async function signV2(block: TrustSignedV2, context: ServiceContext, path: string, expiry: string): Promise<Attestation<TrustSignedV2>> {
  const { deviations } = context;
  const signed = (deviations.trustSigned ? deviations.trustSigned(block) : block) as TrustSignedV2;
  const signing = trustSigningOf(deviations, signed);
  return context.signer.attest(signed, { purpose: "trust", type: ATTESTATION_TYPES.trust, path, expiry, ...(signing ? { signing } : {}) });
}

/**
 * Builds and signs the envelope for a wallet that owns no agent (signed with the current trust key).
 *
 * @param wallet - The wallet (lowercase for 0x addresses).
 * @param context - Service state.
 * @param path - Request path (for faults).
 * @returns The body.
 */
export async function walletNotFoundBody(wallet: string, context: ServiceContext, path: string): Promise<WalletNotFound> {
  const now = context.now();
  const signed: WalletNotFoundSigned = { found: false, wallet, issuedAt: now.toISOString() };
  const v1 = context.trustAttestationVersion === "v1";
  const attestation = await context.signer.attest(signed, {
    purpose: v1 ? "trustV1" : "trust",
    type: ATTESTATION_TYPES.trust,
    path,
    expiry: expiryAfter(now),
  });
  return { found: false, wallet, attestation };
}

/** `GET /api/trust-check?id=&chain=&registry=&threshold=` or `?wallet=`. */
export const handleTrustCheck: ServiceHandler = async (request, context) => {
  const q = request.query;
  const threshold = readThresholdParam(q.get("threshold")) ?? DEFAULT_THRESHOLD;
  if (!isAbsent(q.get("wallet"))) {
    if (!isAbsent(q.get("id"))) throw badRequest('Give either "wallet" or "id" and "chain", not both');
    const wallet = readWalletParam(q.get("wallet"), "wallet");
    const agent = bestAgentOf(context.population, wallet);
    return ok(
      agent
        ? await trustCheckBody(agent, threshold, context, request.path, { withV1: context.kidMigrationOpen(context.now()) })
        : await walletNotFoundBody(wallet, context, request.path),
    );
  }
  const agentId = readAgentIdParam(q.get("id"));
  const chain = readChainParam(q.get("chain"));
  const registry = readRegistryParam(q.get("registry"));
  const agent = requireAgent(context.population, chain, agentId, registry);
  return ok(await trustCheckBody(agent, threshold, context, request.path));
};

/**
 * A scoring time as the service's sample writes a v2 block's `issuedAt` (a2aproject/A2A#1628, 2026-04-14:
 * `"2026-04-14T10:38:38.243+00:00"`, a database timestamp beside the `Z` form of `verifiedAt` and `expiry`):
 * milliseconds and the offset `+00:00`.
 *
 * @param at - The time.
 * @returns RFC 3339 with milliseconds and `+00:00`.
 */
export function scoringTimeText(at: Date): string {
  return `${at.toISOString().slice(0, -1)}+00:00`;
}

/**
 * An ISO time 24 h (the attestation lifetime) after a time.
 *
 * @param at - The time.
 * @returns ISO 8601.
 */
export function expiryAfter(at: Date): string {
  return new Date(at.getTime() + ATTESTATION_LIFETIME_SECONDS * 1000).toISOString();
}

function reasonOf(score: number, threshold: number, agent: PopulationAgent): string {
  const verdict = score >= threshold ? `Score ${score} meets threshold ${threshold}.` : `Score ${score} is below threshold ${threshold}.`;
  const parts = [verdict];
  if (agent.badges.earned.length > 0) parts.push(`Earned: ${agent.badges.earned.join(", ")}.`);
  if (agent.badges.warnings.length > 0) parts.push(`Warnings: ${agent.badges.warnings.join(", ")}.`);
  if (agent.sybilSeverity !== "none") parts.push(`Sybil severity: ${agent.sybilSeverity}.`);
  return parts.join(" ");
}
