/**
 * Synthetic wallet data, derived deterministically from the population: wallet ages, an operator's wallet
 * intelligence and MCP servers, and wallet scores.
 *
 * @packageDocumentation
 */
import { tierForScore, type TierName } from "../../config/encodings.js";
import type { Population } from "../population.js";
import { createRng, hashSeed, syntheticAddress } from "../prng.js";

/** What `/api/entity` reports about a wallet beyond its agents. */
export interface WalletIntelligence {
  ageDays: number;
  firstSeen: string;
  transactionCount: number;
  fundedBy: string;
  labels: string[];
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

/**
 * The wallet intelligence of a wallet.
 *
 * @param population - The population.
 * @param wallet - The wallet (lowercase).
 * @returns Age, first sighting, activity, funder and labels.
 */
export function walletIntelligence(population: Population, wallet: string): WalletIntelligence {
  const rng = createRng(hashSeed("wallet-intel", population.seed, wallet));
  const agents = population.byOwner(wallet);
  const chains = [...new Set(agents.map((a) => a.chain))];
  const firstChain = chains[0] ?? "ethereum";
  const ageDays = addressAgeDays(population, wallet, firstChain);
  const labels: string[] = [];
  if (agents.length > 0) labels.push("agent-operator");
  if (chains.length > 1) labels.push("multi-chain");
  if (agents.length >= 10) labels.push("bulk-registrant");
  if (agents.some((a) => a.sybilSeverity === "heavy" || a.sybilSeverity === "elevated")) labels.push("sybil-cluster-member");
  return {
    ageDays,
    firstSeen: new Date(population.at.getTime() - ageDays * DAY_MS).toISOString(),
    transactionCount: rng.int(agents.length, agents.length * 40 + 200),
    fundedBy: syntheticAddress("funder", population.seed, wallet),
    labels,
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

/**
 * The trust score of a wallet: for an agent owner, the mean of its best three agents' scores; otherwise a
 * deterministic score drawn mostly below the developing tier.
 *
 * @param population - The population.
 * @param wallet - The wallet (lowercase).
 * @param chain - Restricts the owner's agents to a chain, if given.
 * @returns Score and tier.
 */
export function walletScore(population: Population, wallet: string, chain?: string): { score: number; tier: TierName } {
  const agents = population.byOwner(wallet).filter((a) => chain === undefined || a.chain === chain);
  let score: number;
  if (agents.length > 0) {
    const top = agents.map((a) => a.score).sort((a, b) => b - a).slice(0, 3);
    score = Math.round(top.reduce((sum, s) => sum + s, 0) / top.length);
  } else {
    const rng = createRng(hashSeed("wallet-score", population.seed, wallet, chain ?? "*"));
    score = Math.max(0, Math.min(95, Math.round(rng.normal(40, 12))));
  }
  return { score, tier: tierForScore(score) };
}
