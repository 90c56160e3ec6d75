/**
 * What the doctor asks the live service: one page of the listing, a couple of trust-checks, and one answer of every
 * other endpoint the kit reads, each request built from what the earlier answers named (an agent of the listing,
 * its owner, a reviewer of its reviewer analysis, an MCP server of its owner's entity). About fifteen requests in
 * all, within the service's anonymous rate. Nothing is validated here: the answers are kept as served (parsed
 * JSON, the API key scrubbed by the transport) for the checks to compare.
 *
 * @packageDocumentation
 */
import { type AgentRef, formatAgentRef, isEvmAgent } from "../agent/agent-ref.js";
import { agentIdToJson } from "../api/arguments.js";
import type { HttpRequest, HttpTransport } from "../api/http.js";
import { agentListItemSchema } from "../published/index.js";
import { listedAgent } from "../drift/stages/enumerate.js";
import { messageOf } from "../errors.js";
import { hasAddressShape } from "../inputs/address.js";
import type { DoctorEndpointId } from "./endpoints.js";

/** Agents asked for on one page of `/api/agents`. */
export const LISTING_PAGE_SIZE = 25;

/** Trust-checks asked for (each one agent of the listing, or of `--agents`). */
export const TRUST_CHECK_COUNT = 2;

/** Response headers kept with an answer: the rate-limit announcements, in any of the forms the kit reads. */
export const KEPT_HEADERS: readonly string[] = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "ratelimit-policy",
  "ratelimit",
  "retry-after",
];

/** A 2xx answer of the service. */
export interface ServiceAnswer {
  /** Always true: an answer. */
  readonly ok: true;
  /** The endpoint. */
  readonly endpoint: DoctorEndpointId;
  /** `GET <redacted URL>`: what was asked. */
  readonly request: string;
  /** HTTP status. */
  readonly status: number;
  /** The parsed JSON body, as served. */
  readonly body: unknown;
  /** The rate-limit headers it carried ({@link KEPT_HEADERS}), names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A request that failed, or was not made because what it needs is missing. */
export interface ServiceFailure {
  /** Always false: no answer. */
  readonly ok: false;
  /** The endpoint. */
  readonly endpoint: DoctorEndpointId;
  /** Why there is no answer (the error's one line, or what was missing). */
  readonly reason: string;
}

/** The outcome of one request. */
export type ServiceOutcome = ServiceAnswer | ServiceFailure;

/** Everything the service answered. */
export interface ServiceObservations {
  /** `/api/agents`, one page. */
  readonly listing: ServiceOutcome;
  /** The agents of the listing page (the EVM ones the oracle can hold records for), with what the page says of them. */
  readonly listed: readonly ListedAgent[];
  /** The agents the trust-checks asked about (`--agents`, else the listing's first EVM agents). */
  readonly asked: readonly AgentRef[];
  /** The trust-checks, one per agent of `asked`, in that order. */
  readonly trustChecks: readonly ServiceOutcome[];
  /** The one answer of each other endpoint. */
  readonly endpoints: ReadonlyMap<DoctorEndpointId, ServiceOutcome>;
}

/** An agent of the listing page and what the page states about it. */
export interface ListedAgent {
  /** The agent. */
  readonly agent: AgentRef;
  /** Score as listed. */
  readonly score: number;
  /** Tier name as listed, if listed. */
  readonly tier?: string;
  /** Sybil severity as listed: a name, `null` (no signal), or absent. */
  readonly sybilSeverity?: string | null;
  /** `updatedAt` as listed, if listed. */
  readonly updatedAt?: string | number;
}

/** What {@link probeService} needs. */
export interface ProbeServiceOptions {
  /** The transport (base URL, key, limiter, time limit). */
  readonly transport: HttpTransport;
  /** Agents to ask about instead of the listing's first ones (`--agents`). */
  readonly agents?: readonly AgentRef[];
  /** MCP server to ask `/api/mcp-attestation` about when the owner's entity names none (`--mcp-server`). */
  readonly mcpServer?: string;
}

/**
 * Asks the service (see the module notes). Never throws: a failed request is a {@link ServiceFailure}.
 *
 * @param options - Transport, agents, MCP server.
 * @returns The answers.
 */
export async function probeService(options: ProbeServiceOptions): Promise<ServiceObservations> {
  const ask = (endpoint: DoctorEndpointId, request: HttpRequest) => send(options.transport, endpoint, request);
  const listing = await ask("agents", { path: "/api/agents", query: { limit: LISTING_PAGE_SIZE } });
  const listed = listing.ok ? listedAgents(listing.body) : [];
  const agents = (options.agents ?? listed.map((l) => l.agent)).filter(isEvmAgent).slice(0, TRUST_CHECK_COUNT);
  const endpoints = new Map<DoctorEndpointId, ServiceOutcome>();
  const missing = (endpoint: DoctorEndpointId, reason: string) => endpoints.set(endpoint, { ok: false, endpoint, reason });

  const trustChecks: ServiceOutcome[] = [];
  for (const agent of agents) trustChecks.push(await ask("trust-check", { path: "/api/trust-check", query: agentQuery(agent) }));
  const first = agents[0];
  const noAgent = listing.ok ? "the listing names no agent on an EVM chain" : `no agent to ask about (${listing.reason})`;

  endpoints.set("explorer", await ask("explorer", { path: "/api/explorer", query: { limit: 5 } }));
  if (first) endpoints.set("explorer-profile", await ask("explorer-profile", { path: "/api/explorer", query: agentQuery(first) }));
  else missing("explorer-profile", noAgent);
  endpoints.set("stats", await ask("stats", { path: "/api/stats" }));
  if (agents.length >= 2) {
    const entries = agents.map((agent) => formatAgentRef(agent)).join(",");
    endpoints.set("compare", await ask("compare", { path: "/api/compare", query: { agents: entries } }));
  } else missing("compare", agents.length === 1 ? "only one agent to compare" : noAgent);

  if (first) {
    const analysis = await ask("reviewer-analysis", { path: "/api/reviewer-analysis", query: agentQuery(first) });
    endpoints.set("reviewer-analysis", analysis);
    const reviewer = analysis.ok ? firstReviewer(analysis.body) : undefined;
    if (reviewer)
      endpoints.set("reviewer", await ask("reviewer", { path: "/api/reviewer", query: { address: reviewer, chain: first.chain } }));
    else
      missing(
        "reviewer",
        analysis.ok ? "the reviewer analysis lists no reviewer address" : `no reviewer to ask about (${analysis.reason})`,
      );
  } else {
    missing("reviewer-analysis", noAgent);
    missing("reviewer", noAgent);
  }

  const owner = ownerOf(trustChecks);
  if (owner) {
    const entity = await ask("entity", { path: "/api/entity", query: { wallet: owner } });
    endpoints.set("entity", entity);
    const server = (entity.ok ? firstMcpServer(entity.body) : undefined) ?? options.mcpServer;
    if (server)
      endpoints.set("mcp-attestation", await ask("mcp-attestation", { path: "/api/mcp-attestation", query: { canonical_id: server } }));
    else missing("mcp-attestation", "no MCP server known: the owner's entity names none (give one with --mcp-server <owner/name>)");
  } else {
    const why = trustChecks.length === 0 ? noAgent : "no trust-check named an owner wallet";
    missing("entity", why);
    if (options.mcpServer) {
      endpoints.set(
        "mcp-attestation",
        await ask("mcp-attestation", { path: "/api/mcp-attestation", query: { canonical_id: options.mcpServer } }),
      );
    } else missing("mcp-attestation", `${why}, and no --mcp-server was given`);
  }

  if (first) {
    const body = { agent_id: agentIdToJson(first.agentId), chain: first.chain, registry: first.registry };
    endpoints.set("risk-terms", await ask("risk-terms", { method: "POST", path: "/api/risk-terms", body }));
  } else missing("risk-terms", noAgent);
  if (owner) {
    endpoints.set("address-ages", await ask("address-ages", { path: "/api/address-ages", query: { address: owner, chain: first?.chain } }));
    endpoints.set("wallet-score", await ask("wallet-score", { path: "/api/wallet-score", query: { address: owner } }));
  } else {
    missing("address-ages", "no trust-check named an owner wallet");
    missing("wallet-score", "no trust-check named an owner wallet");
  }
  return { listing, listed, asked: agents, trustChecks, endpoints };
}

async function send(transport: HttpTransport, endpoint: DoctorEndpointId, request: HttpRequest): Promise<ServiceOutcome> {
  try {
    const response = await transport.request(request);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return {
      ok: true,
      endpoint,
      request: `${request.method ?? "GET"} ${response.url}`,
      status: response.status,
      body: response.body,
      headers,
    };
  } catch (error) {
    return { ok: false, endpoint, reason: messageOf(error) };
  }
}

function agentQuery(agent: AgentRef): Record<string, string> {
  return { id: agent.agentId.toString(), chain: agent.chain, registry: agent.registry };
}

/** The agents of a listing page whose entries parse, with what each entry states. */
function listedAgents(body: unknown): ListedAgent[] {
  const items = (body as { agents?: unknown } | null | undefined)?.agents;
  if (!Array.isArray(items)) return [];
  const listed: ListedAgent[] = [];
  for (const item of items) {
    const parsed = agentListItemSchema.safeParse(item);
    if (!parsed.success) continue;
    const entry = parsed.data;
    listed.push({
      agent: listedAgent(entry),
      score: entry.score,
      ...(typeof entry.tier === "string" ? { tier: entry.tier } : {}),
      ...(entry.sybilSeverity !== undefined ? { sybilSeverity: entry.sybilSeverity } : {}),
      ...(entry.updatedAt !== undefined && entry.updatedAt !== null ? { updatedAt: entry.updatedAt } : {}),
    });
  }
  return listed;
}

/** The owner wallet the first trust-check names (`owner`, a 0x address). */
function ownerOf(trustChecks: readonly ServiceOutcome[]): string | undefined {
  for (const outcome of trustChecks) {
    const owner = outcome.ok ? (outcome.body as { owner?: unknown } | null)?.owner : undefined;
    if (typeof owner === "string" && hasAddressShape(owner)) return owner;
  }
  return undefined;
}

function firstReviewer(body: unknown): string | undefined {
  const reviewers = (body as { reviewers?: unknown } | null)?.reviewers;
  if (!Array.isArray(reviewers)) return undefined;
  for (const reviewer of reviewers) {
    const address = (reviewer as { address?: unknown } | null)?.address;
    if (typeof address === "string" && address !== "") return address;
  }
  return undefined;
}

function firstMcpServer(body: unknown): string | undefined {
  const servers = (body as { mcp_servers?: unknown } | null)?.mcp_servers;
  if (!Array.isArray(servers)) return undefined;
  for (const server of servers) {
    const id = typeof server === "string" ? server : (server as { canonical_id?: unknown } | null)?.canonical_id;
    if (typeof id === "string" && /^[^/\s]+\/[^/\s]+$/.test(id)) return id;
  }
  return undefined;
}
