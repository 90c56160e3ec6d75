/**
 * The typed client of the trust service's HTTP API (docs/service-api.md): one method per endpoint, each
 * checking its arguments client-side and validating the response against its schema (unknown fields kept).
 * Requests go through one transport with a client-side rate limit, retries and a time limit.
 *
 * @packageDocumentation
 */

import type { z } from "zod";
import { DEFAULT_REGISTRY } from "../config/service.js";
import { InvalidArgumentError, InvalidResponseError } from "../errors.js";
import { parseWallet } from "../inputs/address.js";
import { type AgentIdInput, parseAgentId } from "../inputs/agent-id.js";
import { type ChainInput, parseChain } from "../inputs/chain.js";
import { parseCanonicalId, parseMcpServer } from "../inputs/mcp-server.js";
import { parseIntegerInRange, parseThreshold } from "../inputs/numbers.js";
import { parseRegistry } from "../inputs/registry.js";
import { addressAsGiven, agentIdToJson, type CompareAgentInput, compareEntry } from "./arguments.js";
import type { HttpRequest, HttpTransport, QueryValue } from "./http.js";
import { createTrustMcpClient, type TrustMcpClient } from "./mcp.js";
import { type TransportOption, type TrustApiClientParameters, transportFromOptions } from "./options.js";
import type {
  AddressAge,
  AgentListItem,
  AgentsPage,
  CompareResult,
  EntityProfile,
  ExplorerProfile,
  ExplorerResult,
  McpServerAttestation,
  NetworkStats,
  ReviewerAnalysis,
  ReviewerProfile,
  RiskTerms,
  TrustCheck,
  WalletNotFound,
  WalletScore,
} from "../generated/published-types.js";
import {
  addressAgeSchema,
  agentsPageSchema,
  compareSchema,
  entitySchema,
  explorerProfileSchema,
  explorerSchema,
  mcpAttestationSchema,
  reviewerAnalysisSchema,
  reviewerSchema,
  riskTermsSchema,
  statsSchema,
  trustCheckSchema,
  walletNotFoundSchema,
  walletScoreSchema,
} from "../published/index.js";
import { parseResponse } from "./validate.js";

/** Largest page of `/api/agents` and `/api/explorer`. */
const MAX_PAGE_SIZE = 1000;

/** Fewest and most agents of one `/api/compare` request. */
const COMPARE_LIMITS = { min: 2, max: 10 } as const;

const TIER_NAMES = ["flagged", "limited", "developing", "established"] as const;

/** Parameters of {@link TrustApiClient.trustCheck}. */
export interface TrustCheckParameters {
  /** Agent id. */
  id: AgentIdInput;
  /** Chain slug, alias or EVM chain id. */
  chain: ChainInput;
  /** Registry (default `erc8004`). */
  registry?: string;
  /** Score threshold 0–100; the response's `pass` is `score >= threshold`. */
  threshold?: number;
}

/** Parameters of {@link TrustApiClient.agents} and {@link TrustApiClient.iterateAgents}. */
export interface AgentsParameters {
  /** Only agents on this chain (all chains when absent). */
  chain?: ChainInput;
  /** Only agents of this registry. */
  registry?: string;
  /** Page size, 1–1000 (service default 100). */
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

/** Parameters of {@link TrustApiClient.explorer}. */
export interface ExplorerParameters {
  /** Only agents on this chain. */
  chain?: ChainInput;
  /** Only agents of this registry. */
  registry?: string;
  /** Order: by score (the local service's default) or `recent` (latest registration first). */
  sort?: "score" | "recent";
  /** Most results, 1–1000. */
  limit?: number;
  /** Free-text search. */
  q?: string;
  /** Only agents with at least this score (0–100). */
  minScore?: number;
  /** Only agents of this tier. */
  tier?: (typeof TIER_NAMES)[number];
}

/** Parameters of the endpoints that take an agent id and a chain. */
export interface AgentParameters {
  /** Agent id. */
  id: AgentIdInput;
  /** Chain slug, alias or EVM chain id. */
  chain: ChainInput;
  /** Registry (the service's default, `erc8004`, when absent). */
  registry?: string;
}

/** Parameters of {@link TrustApiClient.reviewer}. */
export interface ReviewerParameters {
  /** Reviewer wallet. */
  address: string;
  /** Chain slug, alias or EVM chain id. */
  chain: ChainInput;
  /** Ask for the summary form. */
  summary?: boolean;
}

/** Parameters of {@link TrustApiClient.riskTerms}. */
export interface RiskTermsParameters {
  /** Agent id. */
  agentId: AgentIdInput;
  /** Chain slug, alias or EVM chain id. */
  chain: ChainInput;
  /** Registry (default `erc8004`). */
  registry?: string;
}

/** Parameters of {@link TrustApiClient.addressAge}. */
export interface AddressAgeParameters {
  /** Wallet address (0x…, or base58 for Solana). */
  address: string;
  /** Chain slug, alias or EVM chain id; optional (SKILL.md). */
  chain?: ChainInput;
}

/**
 * The API client. Every method checks its arguments ({@link InvalidArgumentError},
 * {@link UnknownChainError}) before any request, and validates the response
 * ({@link InvalidResponseError}); transport failures are {@link HttpRequestError},
 * {@link RateLimitedError}, {@link TimeoutError} and {@link NetworkError}.
 */
export interface TrustApiClient {
  /** The transport in use (base URL, limiter, retry policy). */
  readonly transport: HttpTransport;
  /** MCP client over the same transport. */
  readonly mcp: TrustMcpClient;
  /** `GET /api/trust-check?id=&chain=&registry=&threshold=`: an agent's score, tier, sybil data and signed attestation. */
  trustCheck(params: TrustCheckParameters): Promise<TrustCheck>;
  /**
   * `GET /api/trust-check?wallet=`: the wallet's best agent, or the signed `found: false` envelope for a
   * wallet that owns none (tell them apart with {@link isWalletNotFound}).
   */
  trustCheckByWallet(wallet: string): Promise<TrustCheck | WalletNotFound>;
  /** `GET /api/agents`: one page of the listing. */
  agents(params?: AgentsParameters): Promise<AgentsPage>;
  /** Every agent of the listing, page after page, following `nextCursor` until it is null. */
  iterateAgents(params?: Omit<AgentsParameters, "cursor"> & { cursor?: string }): AsyncGenerator<AgentListItem, void, undefined>;
  /** `GET /api/explorer` without `id`: search and filter (a listing). */
  explorer(params?: ExplorerParameters): Promise<ExplorerResult>;
  /** `GET /api/explorer?id=&chain=&registry=`: one agent's profile (SDK `ExplorerResponse`). */
  explorerProfile(params: AgentParameters): Promise<ExplorerProfile>;
  /** `GET /api/stats`: network statistics. */
  stats(): Promise<NetworkStats>;
  /** `GET /api/reviewer-analysis`: the reviewers of an agent, most suspicious first. */
  reviewerAnalysis(params: AgentParameters): Promise<ReviewerAnalysis>;
  /** `GET /api/compare`: 2–10 agents ranked by score, highest first. */
  compare(agents: readonly CompareAgentInput[], threshold?: number): Promise<CompareResult>;
  /** `GET /api/reviewer`: a reviewer wallet's behaviour profile. */
  reviewer(params: ReviewerParameters): Promise<ReviewerProfile>;
  /** `GET /api/entity?wallet=`: an operator's footprint. */
  entity(wallet: string): Promise<EntityProfile>;
  /** `GET /api/mcp-attestation?canonical_id=`: an MCP server's risk score, findings and signed attestation. */
  mcpAttestation(canonicalId: string): Promise<McpServerAttestation>;
  /** `GET /api/mcp-attestation?server=`: the newer form, signed `{server, qualityScore, riskScore, quadrant, …}`. */
  mcpServerAttestation(server: string): Promise<McpServerAttestation>;
  /** `POST /api/risk-terms`: counterparty risk tier, raw signals, data coverage (SDK `RiskTermsResponse`). */
  riskTerms(params: RiskTermsParameters): Promise<RiskTerms>;
  /** `GET /api/address-ages`: a wallet's age in days. */
  addressAge(params: AddressAgeParameters): Promise<AddressAge>;
  /**
   * `GET /api/wallet-score?address=`: a wallet's signal depth and risk intensity with a signed attestation
   * (kid `rnwy-wallet-v1`, JWT in `sig`), or `found: false` for an unscored wallet.
   */
  walletScore(address: string): Promise<WalletScore>;
}

/**
 * Tells the wallet-not-found envelope of {@link TrustApiClient.trustCheckByWallet} from a trust-check body.
 *
 * @param body - A result of `trustCheckByWallet`.
 * @returns True for the `found: false` envelope.
 *
 * @example
 * ```ts
 * import { createTrustApiClient, isWalletNotFound } from "trustgate";
 *
 * const best = await createTrustApiClient().trustCheckByWallet("0x6887dce558f76f36c281200fbc8e5d3da1241aea");
 * if (isWalletNotFound(best)) console.log(`no agent for ${best.wallet}`); // the signed { found: false, wallet }
 * else console.log(best.agentId, best.score);
 * ```
 */
export function isWalletNotFound(body: TrustCheck | WalletNotFound): body is WalletNotFound {
  return (body as { found?: unknown }).found === false;
}

/**
 * Creates the API client.
 *
 * @param options - Base URL (default `https://rnwy.com`), API key, time limit, retries, rate limit,
 *   `fetch` and user agent; or `{ transport }` to share a transport.
 * @returns The client.
 * @throws {@link InvalidArgumentError} for bad options.
 *
 * @example
 * ```ts
 * import { createTrustApiClient } from "trustgate";
 *
 * const api = createTrustApiClient({ apiKey: process.env.TRUSTGATE_API_KEY }); // https://rnwy.com by default
 * const body = await api.trustCheck({ id: 16907, chain: "base", threshold: 50 });
 * console.log(body.score, body.tier, body.pass);
 * ```
 */
export function createTrustApiClient(options: TrustApiClientParameters | TransportOption = {}): TrustApiClient {
  const transport = transportFromOptions(options);
  const mcp = createTrustMcpClient({ transport });

  async function call<S extends z.ZodType>(schema: S, request: HttpRequest): Promise<z.output<S>> {
    const response = await transport.request(request);
    return parseResponse(schema, response.body, { what: `${request.method ?? "GET"} ${request.path}`, url: response.url });
  }
  const get = <S extends z.ZodType>(schema: S, path: string, query: Record<string, QueryValue> = {}) =>
    call(schema, { method: "GET", path, query });

  function agentsQuery(params: AgentsParameters): Record<string, QueryValue> {
    return {
      chain: params.chain === undefined ? undefined : parseChain(params.chain).slug,
      registry: params.registry === undefined ? undefined : parseRegistry(params.registry),
      limit: params.limit === undefined ? undefined : parseIntegerInRange(params.limit, "limit", 1, MAX_PAGE_SIZE),
      cursor: params.cursor === undefined ? undefined : checkCursor(params.cursor),
    };
  }

  async function agents(params: AgentsParameters = {}): Promise<AgentsPage> {
    return get(agentsPageSchema, "/api/agents", agentsQuery(params));
  }

  return {
    transport,
    mcp,

    async trustCheck(params) {
      const query = {
        id: parseAgentId(params.id, "id").toString(),
        chain: parseChain(params.chain).slug,
        registry: params.registry === undefined ? undefined : parseRegistry(params.registry),
        threshold: params.threshold === undefined ? undefined : parseThreshold(params.threshold),
      };
      return get(trustCheckSchema, "/api/trust-check", query);
    },

    async trustCheckByWallet(wallet) {
      const response = await transport.request({ path: "/api/trust-check", query: { wallet: parseWallet(wallet, "wallet") } });
      const context = { what: "GET /api/trust-check?wallet=", url: response.url };
      if ((response.body as { found?: unknown } | undefined)?.found === false) {
        return parseResponse(walletNotFoundSchema, response.body, context);
      }
      return parseResponse(trustCheckSchema, response.body, context);
    },

    agents,

    async *iterateAgents(params = {}) {
      const base = { ...params };
      agentsQuery(base); // check the arguments before the first request
      const seen = new Set<string>();
      let cursor = params.cursor;
      for (;;) {
        const page = await agents({ ...base, ...(cursor === undefined ? {} : { cursor }) });
        yield* page.agents;
        const next = page.nextCursor;
        if (next === null || next === undefined || next === "") return;
        if (seen.has(next)) {
          throw new InvalidResponseError(`GET /api/agents returned cursor ${JSON.stringify(next)} twice`, {
            url: `${transport.baseUrl}/api/agents`,
            issues: ["nextCursor: repeats an earlier cursor, the listing would never end"],
          });
        }
        seen.add(next);
        cursor = next;
      }
    },

    async explorer(params = {}) {
      if (params.tier !== undefined && !(TIER_NAMES as readonly string[]).includes(params.tier)) {
        throw new InvalidArgumentError(`tier must be one of ${TIER_NAMES.join(", ")}, got ${JSON.stringify(params.tier)}`);
      }
      if (params.sort !== undefined && params.sort !== "score" && params.sort !== "recent") {
        throw new InvalidArgumentError(`sort must be "score" or "recent", got ${JSON.stringify(params.sort)}`);
      }
      return get(explorerSchema, "/api/explorer", {
        chain: params.chain === undefined ? undefined : parseChain(params.chain).slug,
        registry: params.registry === undefined ? undefined : parseRegistry(params.registry),
        sort: params.sort,
        limit: params.limit === undefined ? undefined : parseIntegerInRange(params.limit, "limit", 1, MAX_PAGE_SIZE),
        q: params.q === undefined || params.q === "" ? undefined : params.q,
        minScore: params.minScore === undefined ? undefined : parseIntegerInRange(params.minScore, "minScore", 0, 100),
        tier: params.tier,
      });
    },

    async explorerProfile(params) {
      return get(explorerProfileSchema, "/api/explorer", agentQuery(params));
    },

    async stats() {
      return get(statsSchema, "/api/stats");
    },

    async reviewerAnalysis(params) {
      return get(reviewerAnalysisSchema, "/api/reviewer-analysis", agentQuery(params));
    },

    async compare(list, threshold) {
      if (!Array.isArray(list) || list.length < COMPARE_LIMITS.min || list.length > COMPARE_LIMITS.max) {
        throw new InvalidArgumentError(
          `compare takes ${COMPARE_LIMITS.min} to ${COMPARE_LIMITS.max} agents, got ${Array.isArray(list) ? list.length : String(list)}`,
        );
      }
      const refs = list.map((ref, i) => compareEntry(ref, i));
      return get(compareSchema, "/api/compare", {
        agents: refs.join(","),
        threshold: threshold === undefined ? undefined : parseThreshold(threshold),
      });
    },

    async reviewer(params) {
      return get(reviewerSchema, "/api/reviewer", {
        address: parseWallet(params.address, "address"),
        chain: parseChain(params.chain).slug,
        summary: params.summary ? "true" : undefined,
      });
    },

    async entity(wallet) {
      return get(entitySchema, "/api/entity", { wallet: addressAsGiven(wallet, "wallet") });
    },

    async mcpAttestation(canonicalId) {
      return get(mcpAttestationSchema, "/api/mcp-attestation", { canonical_id: parseCanonicalId(canonicalId) });
    },

    async mcpServerAttestation(server) {
      return get(mcpAttestationSchema, "/api/mcp-attestation", { server: parseMcpServer(server) });
    },

    async riskTerms(params) {
      const body = {
        agent_id: agentIdToJson(parseAgentId(params.agentId, "agentId")),
        chain: parseChain(params.chain).slug,
        registry: params.registry === undefined ? DEFAULT_REGISTRY : parseRegistry(params.registry),
      };
      return call(riskTermsSchema, { method: "POST", path: "/api/risk-terms", body });
    },

    async addressAge(params) {
      return get(addressAgeSchema, "/api/address-ages", {
        address: parseWallet(params.address, "address"),
        chain: params.chain === undefined ? undefined : parseChain(params.chain).slug,
      });
    },

    async walletScore(address) {
      return get(walletScoreSchema, "/api/wallet-score", { address: addressAsGiven(address, "address") });
    },
  };
}

function agentQuery(params: AgentParameters): Record<string, QueryValue> {
  return {
    id: parseAgentId(params.id, "id").toString(),
    chain: parseChain(params.chain).slug,
    registry: params.registry === undefined ? undefined : parseRegistry(params.registry),
  };
}

function checkCursor(cursor: string): string {
  if (typeof cursor === "string" && cursor !== "") return cursor;
  throw new InvalidArgumentError(`cursor must be a non-empty string from nextCursor, got ${JSON.stringify(cursor)}`);
}
