/**
 * `POST /api/mcp`: the service's tools over MCP (JSON-RPC 2.0): `initialize`, `ping`, `tools/list`,
 * `tools/call`. A notification gets 202 with no body; a parse error or an invalid request gets HTTP 400 with
 * the JSON-RPC error; every other answer is HTTP 200.
 *
 * @packageDocumentation
 */

import type { JsonRpcErrorObject, McpInitializeResult, McpToolCallResult, McpToolsListResult } from "../../../published/index.js";
import { DEFAULT_THRESHOLD } from "../../../config/service.js";
import { ok, type ServiceContext, type ServiceHandler, type ServiceRequest, type ServiceResponse } from "../context.js";
import { badRequest, ServiceHttpError } from "../http-error.js";
import {
  isAbsent,
  readAgentIdParam,
  readAgentListParam,
  readChainParam,
  readFlagParam,
  readOptionalChainParam,
  readRegistryParam,
  readThresholdParam,
  readWalletParam,
} from "../params.js";
import { addressCommerce, agentCommerceStats } from "../synthetic/mcp-servers.js";
import { reviewerAnalysisBody, reviewerProfileBody } from "../synthetic/reviewers.js";
import { addressAgeBody, compareBody, riskTermsBody } from "./intelligence.js";
import { statsBody } from "./listing.js";
import { requireAgent, trustCheckBody } from "./trust-check.js";

/** JSON-RPC error codes the endpoint uses. */
export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** MCP protocol versions the endpoint speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ["2025-06-18", "2025-03-26", "2024-11-05"];

/** `serverInfo` of `initialize`. */
export const MCP_SERVER_INFO = { name: "rnwy-trust-local", version: "0.1.0" } as const;

/** A tool the endpoint serves: its listing and its implementation. */
interface ServedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  run(args: Record<string, unknown>, context: ServiceContext, path: string): Promise<unknown>;
}

type JsonRpcId = string | number | null;

const idOrString = { type: ["integer", "string"], description: "Agent id" };
const chainProp = { type: "string", description: "Chain slug (base, ethereum, bnb, solana, …)" };
const registryProp = { type: "string", description: "erc8004 (default), olas, virtuals or sati" };
const thresholdProp = { type: "integer", minimum: 0, maximum: 100, description: "Pass/fail threshold (default 50)" };
const addressProp = { type: "string", description: "Wallet address (0x… for EVM, base58 for Solana)" };
const schema = (properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** The eight tools of SKILL.md, in its order. */
const TOOLS: readonly ServedTool[] = [
  {
    name: "trust_check",
    description: "Pass/fail trust verdict of an agent: score, tier, badges, reasoning, signed attestation",
    inputSchema: schema({ id: idOrString, chain: chainProp, registry: registryProp, threshold: thresholdProp }, ["id", "chain"]),
    run: async (args, context, path) => {
      const agent = requireAgent(
        context.population,
        readChainParam(args.chain),
        readAgentIdParam(args.id),
        readRegistryParam(args.registry),
      );
      return trustCheckBody(agent, readThresholdParam(args.threshold) ?? DEFAULT_THRESHOLD, context, path);
    },
  },
  {
    name: "reviewer_analysis",
    description: "Wallet ages of an agent's reviewers, sybil flags, funding source clusters",
    inputSchema: schema({ id: idOrString, chain: chainProp, registry: registryProp }, ["id", "chain"]),
    run: async (args, context) => {
      const agent = requireAgent(
        context.population,
        readChainParam(args.chain),
        readAgentIdParam(args.id),
        readRegistryParam(args.registry),
      );
      return reviewerAnalysisBody(context.population, agent);
    },
  },
  {
    name: "reviewer_wallet",
    description: "Behaviour profile of a reviewer wallet: velocity, sweep pattern, score clustering, funder, sybil signals",
    inputSchema: schema({ address: addressProp, chain: chainProp, summary: { type: "boolean" } }, ["address", "chain"]),
    run: async (args, context) =>
      reviewerProfileBody(
        context.population,
        readWalletParam(args.address, "address"),
        readChainParam(args.chain),
        readFlagParam(args.summary, "summary"),
      ),
  },
  {
    name: "compare_agents",
    description: "Side-by-side ranking of 2–10 agents with reviewer quality",
    inputSchema: schema({ agents: { type: "string", description: "Comma-separated <chain>:<id> pairs" }, threshold: thresholdProp }, [
      "agents",
    ]),
    run: async (args, context) =>
      compareBody(context.population, readAgentListParam(args.agents), readThresholdParam(args.threshold) ?? DEFAULT_THRESHOLD),
  },
  {
    name: "address_age",
    description: "Wallet age in days (on one chain, or the oldest when no chain is given)",
    inputSchema: schema({ address: addressProp, chain: chainProp }, ["address"]),
    run: async (args, context) =>
      addressAgeBody(context.population, readWalletParam(args.address, "address"), readOptionalChainParam(args.chain)),
  },
  {
    name: "network_stats",
    description: "Total agents by registry and chain, trust tier breakdown, commerce totals",
    inputSchema: schema({}),
    run: async (_args, context) => statsBody(context.population),
  },
  {
    name: "commerce_stats",
    description: "Jobs, counterparties, repeat rate, earnings: by address, or by agent id + chain (+ registry)",
    inputSchema: {
      ...schema({ address: addressProp, id: idOrString, chain: chainProp, registry: registryProp }),
      oneOf: [{ required: ["address"] }, { required: ["id", "chain"] }],
    },
    run: async (args, context) => {
      const byAddress = !isAbsent(args.address);
      const byAgent = !isAbsent(args.id) || !isAbsent(args.chain);
      if (byAddress === byAgent) throw badRequest('commerce_stats takes either "address" or "id" and "chain"');
      if (byAddress) return addressCommerce(context.population, readWalletParam(args.address, "address"));
      const agent = requireAgent(
        context.population,
        readChainParam(args.chain),
        readAgentIdParam(args.id),
        readRegistryParam(args.registry),
      );
      return {
        agent_id: agent.agentId,
        chain: agent.chain,
        registry: agent.registry,
        commerce_stats: agentCommerceStats(context.population, agent),
      };
    },
  },
  {
    name: "risk_terms",
    description: "Counterparty risk tier, trust signals, data coverage, methodology reference",
    inputSchema: schema({ agent_id: idOrString, chain: chainProp, registry: registryProp }, ["agent_id", "chain"]),
    run: async (args, context) => {
      const agent = requireAgent(
        context.population,
        readChainParam(args.chain),
        readAgentIdParam(args.agent_id, "agent_id"),
        readRegistryParam(args.registry),
      );
      return riskTermsBody(context, agent, false);
    },
  },
];

/** Names of the tools `tools/list` returns. */
export const MCP_TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

/** `POST /api/mcp`. */
export const handleMcp: ServiceHandler = async (request, context) => {
  let message: unknown;
  try {
    message = JSON.parse(request.body);
  } catch {
    return rpcFailure(400, null, JSON_RPC_ERRORS.parseError, "Parse error: the body is not valid JSON");
  }
  if (Array.isArray(message)) {
    if (message.length === 0) return rpcFailure(400, null, JSON_RPC_ERRORS.invalidRequest, "Invalid request: empty batch");
    const answers: unknown[] = [];
    for (const item of message) {
      const answer = await handleMessage(item, request, context);
      if (answer !== undefined) answers.push(answer);
    }
    return answers.length === 0 ? { status: 202 } : ok(answers);
  }
  const answer = await handleMessage(message, request, context);
  if (answer === undefined) return { status: 202 };
  const invalid = "error" in answer && answer.error.code === JSON_RPC_ERRORS.invalidRequest;
  return { status: invalid ? 400 : 200, body: answer };
};

type RpcAnswer = { jsonrpc: "2.0"; id: JsonRpcId; result: unknown } | { jsonrpc: "2.0"; id: JsonRpcId; error: JsonRpcErrorObject };

/** One JSON-RPC message: a response object, or `undefined` for a notification. */
async function handleMessage(message: unknown, request: ServiceRequest, context: ServiceContext): Promise<RpcAnswer | undefined> {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return rpcError(null, JSON_RPC_ERRORS.invalidRequest, "Invalid request: expected a JSON-RPC 2.0 object");
  }
  const m = message as Record<string, unknown>;
  const hasId = "id" in m;
  const id = m.id;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string" || (hasId && !validId)) {
    return rpcError(
      validId ? (id as JsonRpcId) : null,
      JSON_RPC_ERRORS.invalidRequest,
      'Invalid request: needs jsonrpc "2.0", a method and a string or number id',
    );
  }
  if (!hasId) return undefined;
  const params = m.params;
  if (params !== undefined && (typeof params !== "object" || params === null)) {
    return rpcError(id as JsonRpcId, JSON_RPC_ERRORS.invalidParams, "Invalid params: params must be an object");
  }
  const p = (params ?? {}) as Record<string, unknown>;
  switch (m.method) {
    case "initialize": {
      const asked = typeof p.protocolVersion === "string" ? p.protocolVersion : undefined;
      return rpcResult(id as JsonRpcId, {
        protocolVersion: asked && MCP_PROTOCOL_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0]!,
        serverInfo: { ...MCP_SERVER_INFO },
        capabilities: { tools: {} },
      } satisfies McpInitializeResult);
    }
    case "ping":
      return rpcResult(id as JsonRpcId, {});
    case "tools/list":
      return rpcResult(id as JsonRpcId, {
        tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      } satisfies McpToolsListResult);
    case "tools/call":
      return callTool(id as JsonRpcId, p, request, context);
    default:
      return rpcError(id as JsonRpcId, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${m.method}`);
  }
}

/** `tools/call`: bad arguments are JSON-RPC errors; a failed look-up (unknown agent) is a tool error (`isError`). */
async function callTool(
  id: JsonRpcId,
  params: Record<string, unknown>,
  request: ServiceRequest,
  context: ServiceContext,
): Promise<RpcAnswer> {
  const tool = TOOLS.find((t) => t.name === params.name);
  if (!tool) return rpcError(id, JSON_RPC_ERRORS.invalidParams, `Unknown tool: ${String(params.name)}`);
  const args = params.arguments ?? {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return rpcError(id, JSON_RPC_ERRORS.invalidParams, "Invalid params: arguments must be an object");
  }
  try {
    const body = await tool.run(args as Record<string, unknown>, context, request.path);
    return rpcResult(id, { content: [{ type: "text", text: JSON.stringify(body) }], isError: false } satisfies McpToolCallResult);
  } catch (error) {
    if (error instanceof ServiceHttpError && error.status === 400) {
      return rpcError(id, JSON_RPC_ERRORS.invalidParams, `Invalid arguments for ${tool.name}: ${error.message}`);
    }
    if (error instanceof ServiceHttpError) {
      return rpcResult(id, { content: [{ type: "text", text: JSON.stringify(error.body) }], isError: true } satisfies McpToolCallResult);
    }
    return rpcError(id, JSON_RPC_ERRORS.internalError, "Internal error");
  }
}

function rpcResult(id: JsonRpcId, result: unknown): RpcAnswer {
  return { jsonrpc: "2.0", id, result };
}

function rpcError(id: JsonRpcId, code: number, message: string): RpcAnswer {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function rpcFailure(status: number, id: JsonRpcId, code: number, message: string): ServiceResponse {
  return { status, body: rpcError(id, code, message) };
}
