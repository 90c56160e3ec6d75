/**
 * Synthetic MCP-server scans and quality, and agent commerce statistics, derived deterministically from the population seed.
 *
 * @packageDocumentation
 */
import { resolveChain } from "../../../config/chains.js";
import { createRng, hashSeed } from "../../prng.js";
import type { PopulationAgent } from "../agent.js";
import type { Population } from "../population.js";

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

/** The four components of an MCP server's quality (insumer spec v1.2 §3.12), 0–25 each. */
export interface McpQualityComponents {
  tenure: number;
  adoption: number;
  capability: number;
  reliability: number;
}

/** Largest value of one quality component: the four add up to at most 100. */
const MAX_QUALITY_COMPONENT = 25;
/** Reliability points one finding costs. */
const RELIABILITY_PER_FINDING = 6;

/**
 * The quality of an MCP server: four components (tenure, adoption, capability, reliability; 0–25 each, reliability
 * lower with more findings) and their sum, the quality score 0–100.
 *
 * @param population - The population (its seed drives the data).
 * @param server - `<owner>/<name>` (or the URL the server was asked by).
 * @param findings - How many findings its scan has.
 * @returns The components and the quality score.
 */
export function mcpServerQuality(
  population: Population,
  server: string,
  findings: number,
): { qualityScore: number; components: McpQualityComponents } {
  const rng = createRng(hashSeed("mcp-quality", population.seed, server.toLowerCase()));
  const component = () => rng.int(6, MAX_QUALITY_COMPONENT);
  const components = {
    tenure: component(),
    adoption: component(),
    capability: component(),
    reliability: Math.max(0, component() - RELIABILITY_PER_FINDING * findings),
  };
  const qualityScore = components.tenure + components.adoption + components.capability + components.reliability;
  return { qualityScore, components };
}

/**
 * Commerce statistics of one agent in one protocol (SDK `CommerceStats`); one JSON object of the explorer
 * profile's `commerceStats`.
 */
export type AgentCommerceStats = {
  agent_id: string;
  chain_id: number | null;
  registry: string;
  protocol: string;
  total_jobs_as_client: number;
  total_jobs_as_provider: number;
  total_jobs_as_evaluator: number;
  unique_counterparties: number;
  repeat_counterparty_pct: number;
  circular_job_count: number;
  total_payment_received: number;
  total_payment_sent: number;
  avg_delivery_time_seconds: number | null;
  first_job_at: string | null;
  last_job_at: string | null;
  updated_at: string;
};

/** Commerce protocols by registry (SKILL.md: Olas mechs, Virtuals ACP); ERC-8004 and SATI agents have none indexed. */
const COMMERCE_PROTOCOL: Readonly<Record<string, string>> = { olas: "olas_mech", virtuals: "virtuals_acp" };

const DAY_MS = 86_400_000;

/**
 * The commerce statistics of an agent: one entry for an Olas or Virtuals agent, none for the others.
 *
 * @param population - The population (its seed and time drive the data).
 * @param agent - The agent.
 * @returns The entries.
 */
export function agentCommerceStats(population: Population, agent: PopulationAgent): AgentCommerceStats[] {
  const protocol = COMMERCE_PROTOCOL[agent.registry];
  if (protocol === undefined) return [];
  const rng = createRng(hashSeed("commerce-agent", population.seed, agent.chain, agent.registry, agent.agentId));
  const provider = Math.round(Math.exp(rng.normal(Math.log(1 + agent.score), 1)));
  const client = rng.int(0, Math.ceil(provider / 4));
  const evaluator = rng.int(0, 3);
  const jobs = provider + client + evaluator;
  const counterparties = jobs === 0 ? 0 : rng.int(1, Math.max(1, Math.ceil(jobs / 2)));
  const first = jobs === 0 ? null : new Date(agent.registeredAt.getTime() + rng.int(0, Math.max(0, agent.ageDays)) * DAY_MS);
  return [
    {
      agent_id: String(agent.agentId),
      chain_id: resolveChain(agent.chain).chainId ?? null,
      registry: agent.registry,
      protocol,
      total_jobs_as_client: client,
      total_jobs_as_provider: provider,
      total_jobs_as_evaluator: evaluator,
      unique_counterparties: counterparties,
      repeat_counterparty_pct: jobs === 0 ? 0 : Math.round((100 * (jobs - counterparties)) / jobs),
      circular_job_count: agent.sybilSeverity === "heavy" ? rng.int(1, Math.max(1, client)) : 0,
      total_payment_received: Math.round(provider * (1 + rng.next() * 20) * 100) / 100,
      total_payment_sent: Math.round(client * (1 + rng.next() * 20) * 100) / 100,
      avg_delivery_time_seconds: provider === 0 ? null : rng.int(30, 7200),
      first_job_at: first?.toISOString() ?? null,
      last_job_at:
        first === null ? null : new Date(Math.max(first.getTime(), agent.updatedAt.getTime() - rng.int(0, 5) * DAY_MS)).toISOString(),
      updated_at: agent.updatedAt.toISOString(),
    },
  ];
}

/** The `commerce_stats` MCP tool's answer for an agent (`{id, chain, registry?}`). */
export interface AgentCommerceBody {
  agent_id: number;
  chain: string;
  registry: string;
  commerce_stats: AgentCommerceStats[];
}

/** The `commerce_stats` MCP tool's answer for an address (`{address}`). */
export interface AddressCommerceBody {
  address: string;
  linked_agents: { agent_id: number; chain: string; registry: string }[];
  commerce_stats: AgentCommerceStats[];
}

/**
 * The commerce of an address: the commerce statistics of the agents it owns.
 *
 * @param population - The population.
 * @param address - The address.
 * @returns The body.
 */
export function addressCommerce(population: Population, address: string): AddressCommerceBody {
  const agents = population.byOwner(address);
  return {
    address,
    linked_agents: agents.map((a) => ({ agent_id: a.agentId, chain: a.chain, registry: a.registry })),
    commerce_stats: agents.flatMap((a) => agentCommerceStats(population, a)),
  };
}
