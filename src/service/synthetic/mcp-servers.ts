/**
 * Synthetic MCP-server scans and commerce statistics, derived deterministically from the population seed.
 *
 * @packageDocumentation
 */
import type { Population } from "../population.js";
import { createRng, hashSeed } from "../prng.js";

/** One threat finding of an MCP-server scan. */
export interface McpFinding {
  id: string;
  severity: "low" | "medium" | "high" | "critical";
  title: string;
}

const FINDINGS: readonly Omit<McpFinding, "severity">[] = [
  { id: "tool-poisoning", title: "Tool description contains hidden instructions" },
  { id: "excessive-permissions", title: "Tools request wallet signing without scoping" },
  { id: "unpinned-dependency", title: "Server installs unpinned dependencies at runtime" },
  { id: "credential-exposure", title: "Environment secrets echoed in tool output" },
  { id: "shadowed-tool", title: "Tool name shadows a well-known server's tool" },
  { id: "unverified-publisher", title: "Publisher identity not verified" },
  { id: "outbound-exfiltration", title: "Tool sends data to an undeclared host" },
];
const SEVERITY_WEIGHT = { low: 5, medium: 12, high: 25, critical: 40 } as const;

/**
 * The scan of an MCP server: findings and a risk score 0–100 (the sum of their weights, capped).
 *
 * @param population - The population (its seed drives the data).
 * @param canonicalId - `<owner>/<name>`.
 * @returns Risk score and findings, most severe first.
 */
export function mcpServerScan(population: Population, canonicalId: string): { riskScore: number; findings: McpFinding[] } {
  const rng = createRng(hashSeed("mcp-scan", population.seed, canonicalId.toLowerCase()));
  const count = rng.weighted([0, 1, 2, 3, 4], [35, 30, 18, 12, 5]);
  const picked = new Map<string, McpFinding>();
  while (picked.size < count) {
    const finding = rng.pick(FINDINGS);
    const severity = rng.weighted<McpFinding["severity"]>(["low", "medium", "high", "critical"], [40, 30, 20, 10]);
    picked.set(finding.id, { ...finding, severity });
  }
  const findings = [...picked.values()].sort((a, b) => SEVERITY_WEIGHT[b.severity] - SEVERITY_WEIGHT[a.severity] || (a.id < b.id ? -1 : 1));
  const riskScore = Math.min(100, rng.int(0, 8) + findings.reduce((sum, f) => sum + SEVERITY_WEIGHT[f.severity], 0));
  return { riskScore, findings };
}

/** The `commerce_stats` MCP tool's result. */
export interface CommerceStats {
  totalTransactions: number;
  totalVolumeUsd: number;
  activeAgents: number;
  averageTransactionUsd: number;
  byChain: Record<string, { transactions: number; volumeUsd: number }>;
  updatedAt: string;
}

/**
 * Agent-commerce statistics of the population (payments between agents), per chain.
 *
 * @param population - The population.
 * @returns The statistics.
 */
export function commerceStats(population: Population): CommerceStats {
  const rng = createRng(hashSeed("commerce", population.seed));
  const byChain: CommerceStats["byChain"] = {};
  let totalTransactions = 0;
  let totalVolumeUsd = 0;
  for (const chain of population.chains) {
    const agents = population.agents.filter((a) => a.chain === chain).length;
    const transactions = Math.round(agents * (2 + rng.next() * 6));
    const volumeUsd = Math.round(transactions * (5 + rng.next() * 40) * 100) / 100;
    byChain[chain] = { transactions, volumeUsd };
    totalTransactions += transactions;
    totalVolumeUsd += volumeUsd;
  }
  const activeAgents = population.agents.filter((a) => a.feedbackCount > 0 && a.score >= 30).length;
  return {
    totalTransactions,
    totalVolumeUsd: Math.round(totalVolumeUsd * 100) / 100,
    activeAgents,
    averageTransactionUsd: totalTransactions === 0 ? 0 : Math.round((totalVolumeUsd / totalTransactions) * 100) / 100,
    byChain,
    updatedAt: population.at.toISOString(),
  };
}
