/**
 * Synthetic wallet data, derived deterministically from the population: wallet ages, an operator's
 * wallet-intelligence scores and MCP servers.
 *
 * @packageDocumentation
 */

import type { WalletScoreClaims } from "../../../published/index.js";
import { createRng, hashSeed } from "../../prng.js";
import type { Population } from "../population.js";

/** The dual wallet-intelligence scores of an operator wallet (insumer spec §3.10). */
export interface WalletIntelligenceScores {
  /** Observability: tenure, agents, feedback; 0–95. */
  signalDepth: number;
  /** Sybil risk of the wallet's agents; 0–100, 0 is clean. */
  riskIntensity: number;
  /** `<high|low>_depth_<high|low>_risk`. */
  quadrant: string;
  /** `Minimal`, `Emerging`, `Established` or `Deep`. */
  activityZone: string;
  /** `Clean`, `Low`, `Elevated` or `Severe`. */
  riskZone: string;
  /** When the scores were computed: the latest scoring of the wallet's agents. */
  computedAt: Date;
}

const DAY_MS = 86_400_000;

/**
 * The age of a wallet on a chain, in days at the population's time. An agent owner's wallet is at least as
 * old as its agents on that chain.
 *
 * @param population - The population.
 * @param address - The wallet (lowercase).
 * @param chain - Chain slug.
 * @returns Whole days.
 */
export function addressAgeDays(population: Population, address: string, chain: string): number {
  const rng = createRng(hashSeed("address-age", population.seed, address, chain));
  const owned = population.byOwner(address).filter((a) => a.chain === chain);
  const oldest = Math.max(0, ...owned.map((a) => Math.floor((population.at.getTime() - a.registeredAt.getTime()) / DAY_MS)));
  return owned.length > 0 ? oldest + rng.int(0, 400) : Math.floor(1500 * rng.next() ** 1.5);
}

const RISK_BY_SEVERITY: Readonly<Record<string, number>> = { none: 0, low: 10, moderate: 35, elevated: 60, heavy: 85 };

/**
 * The wallet-intelligence scores of a wallet that owns agents; `undefined` for any other wallet (the service
 * then answers with the signed `found: false`).
 *
 * @param population - The population.
 * @param wallet - The wallet (lowercase).
 * @returns The scores, or `undefined`.
 */
export function walletIntelligenceScores(population: Population, wallet: string): WalletIntelligenceScores | undefined {
  const agents = population.byOwner(wallet);
  if (agents.length === 0) return undefined;
  const ageDays = Math.max(...[...new Set(agents.map((a) => a.chain))].map((chain) => addressAgeDays(population, wallet, chain)));
  const feedback = agents.reduce((sum, a) => sum + a.feedbackCount, 0);
  const signalDepth = Math.min(
    95,
    Math.round(45 * Math.min(1, Math.log1p(ageDays) / Math.log(731)) + Math.min(20, 5 * agents.length) + Math.min(30, feedback / 2)),
  );
  const flagged = agents.filter((a) => a.sybilSignals.length > 0).length;
  const riskIntensity = Math.min(100, Math.max(...agents.map((a) => RISK_BY_SEVERITY[a.sybilSeverity] ?? 0)) + Math.min(15, 3 * flagged));
  const computedAt = new Date(Math.max(...agents.map((a) => a.updatedAt.getTime())));
  return {
    signalDepth,
    riskIntensity,
    quadrant: `${signalDepth >= 50 ? "high" : "low"}_depth_${riskIntensity >= 30 ? "high" : "low"}_risk`,
    activityZone: signalDepth < 25 ? "Minimal" : signalDepth < 50 ? "Emerging" : signalDepth < 75 ? "Established" : "Deep",
    riskZone: riskIntensity === 0 ? "Clean" : riskIntensity < 30 ? "Low" : riskIntensity < 60 ? "Elevated" : "Severe",
    computedAt,
  };
}

/**
 * The scores as the service publishes them, in its order: the wallet-score claims between `wallet` and
 * `verifiedAt`, and `/api/entity`'s `wallet_score`.
 *
 * @param scores - The wallet's scores.
 * @returns `signalDepth`, `riskIntensity`, `quadrant`, `activityZone`, `riskZone` and `issuedAt` (ISO 8601).
 */
export function publishedWalletScores(
  scores: WalletIntelligenceScores,
): Pick<WalletScoreClaims, "signalDepth" | "riskIntensity" | "quadrant" | "activityZone" | "riskZone" | "issuedAt"> {
  return {
    signalDepth: scores.signalDepth,
    riskIntensity: scores.riskIntensity,
    quadrant: scores.quadrant,
    activityZone: scores.activityZone,
    riskZone: scores.riskZone,
    issuedAt: scores.computedAt.toISOString(),
  };
}

/**
 * The MCP servers an operator runs (about one agent owner in four runs one or two), as canonical ids.
 *
 * @param population - The population.
 * @param wallet - The wallet (lowercase).
 * @returns Canonical ids `<owner>/<name>`.
 */
export function mcpServersOf(population: Population, wallet: string): string[] {
  if (population.byOwner(wallet).length === 0) return [];
  const rng = createRng(hashSeed("mcp-servers", population.seed, wallet));
  if (!rng.chance(0.25)) return [];
  const names = ["trade-tools", "wallet-ops", "market-data", "agent-kit", "defi-router", "search"];
  const count = rng.int(1, 2);
  const chosen = new Set<string>();
  while (chosen.size < count) chosen.add(rng.pick(names));
  return [...chosen].map((name) => `op-${wallet.slice(2, 10)}/${name}`);
}
