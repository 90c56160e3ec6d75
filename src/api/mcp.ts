/**
 * MCP client of the trust service: JSON-RPC 2.0 over `POST /api/mcp`, through the same transport as the
 * HTTP client (rate limit, retries, time limit). JSON-RPC errors — in a 200 response or in a 4xx/5xx body —
 * become {@link McpError} with the JSON-RPC `code`, `message` and `data`; a tool result flagged `isError`
 * becomes an {@link McpError} without a code.
 *
 * @packageDocumentation
 */
import { HttpRequestError, InvalidResponseError, McpError } from "../errors.js";
import { parseWallet } from "../inputs/address.js";
import { type AgentIdInput, parseAgentId } from "../inputs/agent-id.js";
import { type ChainInput, parseChain } from "../inputs/chain.js";
import { parseRegistry } from "../inputs/registry.js";
import { agentIdToJson } from "./arguments.js";
import type { HttpTransport } from "./http.js";
import { TRUSTGATE_VERSION } from "../generated/version.js";
import { type TransportOption, type TrustApiClientParameters, transportFromOptions } from "./options.js";
import type {
  McpContent,
  McpInitializeResult,
  McpTool,
  McpToolCallResult,
  NetworkStats,
  RiskTerms,
  TrustCheck,
} from "../generated/published-types.js";
import {
  jsonRpcResponseSchema,
  mcpInitializeResultSchema,
  mcpToolCallResultSchema,
  mcpToolsListResultSchema,
  riskTermsSchema,
  statsSchema,
  trustCheckSchema,
} from "../published/index.js";
import { parseResponse } from "./validate.js";

/** Path of the MCP endpoint. */
const MCP_PATH = "/api/mcp";

/** MCP protocol version the client asks for in `initialize`. */
const MCP_PROTOCOL_VERSION = "2025-06-18";

/** The outcome of a successful `tools/call`. */
export interface McpToolOutput {
  /** The content items as the server sent them. */
  content: McpContent[];
  /**
   * The parsed content: for one text item, its text parsed as JSON (or the text itself when it is not
   * JSON); for several, an array of those; `undefined` when there is no text item.
   */
  data: unknown;
  /** The full validated result (unknown fields kept). */
  result: McpToolCallResult;
}

/** Arguments of the `trust_check` tool. */
export interface McpTrustCheckParameters {
  /** Agent id. */
  id: AgentIdInput;
  /** Chain slug, alias or id. */
  chain: ChainInput;
  /** Registry (default the service's, `erc8004`). */
  registry?: string;
}

/** Arguments of the `risk_terms` tool (SKILL.md: `agent_id, chain, registry?`). */
export interface McpRiskTermsParameters {
  /** Agent id. */
  agentId: AgentIdInput;
  /** Chain slug, alias or id. */
  chain: ChainInput;
  /** Registry (default the service's, `erc8004`). */
  registry?: string;
}

/** Arguments of the `commerce_stats` tool: an address, or an agent (SKILL.md). */
export type McpCommerceStatsParameters = { address: string } | { id: AgentIdInput; chain: ChainInput; registry?: string };

/** MCP client (see the module notes). */
export interface TrustMcpClient {
  /** The transport in use. */
  readonly transport: HttpTransport;
  /**
   * Sends one JSON-RPC request and returns its `result`.
   *
   * @param method - JSON-RPC method.
   * @param params - Parameters.
   * @throws {@link McpError} for a JSON-RPC error; transport errors as {@link HttpTransport.request}.
   */
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /**
   * Sends a JSON-RPC notification (no `id`, no result expected).
   *
   * @param method - JSON-RPC method.
   * @param params - Parameters.
   */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /**
   * `initialize`, followed by the `notifications/initialized` notification.
   *
   * @returns Protocol version, server info and capabilities.
   */
  initialize(): Promise<McpInitializeResult>;
  /** `tools/list`: the tools the server offers. */
  listTools(): Promise<McpTool[]>;
  /**
   * `tools/call`.
   *
   * @param name - Tool name (`trust_check`, `network_stats`, …).
   * @param args - Tool arguments.
   * @returns The content and its parsed form.
   * @throws {@link McpError} for a JSON-RPC error or a result flagged `isError`.
   */
  callTool(name: string, args?: Record<string, unknown>): Promise<McpToolOutput>;
  /**
   * The `trust_check` tool, its text parsed and validated as a `/api/trust-check` body.
   *
   * @param args - Agent id, chain and registry (checked client-side).
   */
  trustCheck(args: McpTrustCheckParameters): Promise<TrustCheck>;
  /** The `network_stats` tool, its text parsed and validated as a `/api/stats` body. */
  networkStats(): Promise<NetworkStats>;
  /**
   * The `risk_terms` tool, its text parsed and validated as a `POST /api/risk-terms` body.
   *
   * @param args - Agent id, chain and registry (checked client-side).
   */
  riskTerms(args: McpRiskTermsParameters): Promise<RiskTerms>;
  /**
   * The `commerce_stats` tool: by address or by agent; the parsed JSON (its shape is not published).
   *
   * @param args - `{address}` or `{id, chain, registry?}` (checked client-side).
   */
  commerceStats(args: McpCommerceStatsParameters): Promise<unknown>;
}

/**
 * Creates an MCP client.
 *
 * @param options - The same options as `createTrustApiClient`, or `{ transport }` to share one.
 * @returns The client.
 *
 * @example
 * ```ts
 * import { createTrustMcpClient } from "trustgate";
 *
 * const mcp = createTrustMcpClient({ baseUrl: "https://rnwy.com" });
 * await mcp.initialize();
 * const tools = await mcp.listTools(); // the service's MCP tools, risk_terms among them
 * const body = await mcp.trustCheck({ id: 16907, chain: "base" });
 * ```
 */
export function createTrustMcpClient(options: TrustApiClientParameters | TransportOption = {}): TrustMcpClient {
  const transport = transportFromOptions(options);
  let nextId = 1;

  async function request(method: string, params?: Record<string, unknown>): Promise<unknown> {
    const id = nextId++;
    const message = { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
    let body: unknown;
    let url: string | undefined;
    try {
      const response = await transport.request({ method: "POST", path: MCP_PATH, body: message });
      body = response.body;
      url = response.url;
    } catch (error) {
      // A JSON-RPC error may come with a 4xx/5xx status; report it as the JSON-RPC error it is.
      if (error instanceof HttpRequestError) {
        const rpc = jsonRpcResponseSchema.safeParse(error.body);
        if (rpc.success && rpc.data.error) throw mcpErrorOf(method, rpc.data.error, error);
      }
      throw error;
    }
    const rpc = parseResponse(jsonRpcResponseSchema, body, { what: `MCP ${method}`, url });
    if (rpc.error) throw mcpErrorOf(method, rpc.error);
    if (rpc.id !== id) {
      throw new InvalidResponseError(`MCP ${method} answered request id ${JSON.stringify(rpc.id)} instead of ${id}`, { url });
    }
    return rpc.result;
  }

  async function notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await transport.request({
      method: "POST",
      path: MCP_PATH,
      body: { jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) },
    });
  }

  async function callTool(name: string, args: Record<string, unknown> = {}): Promise<McpToolOutput> {
    const result = parseResponse(mcpToolCallResultSchema, await request("tools/call", { name, arguments: args }), {
      what: `MCP tools/call ${name}`,
    });
    const texts = result.content.filter((c) => c.type === "text" && typeof c.text === "string").map((c) => c.text!);
    if (result.isError) {
      throw new McpError({ method: `tools/call ${name}`, rpcCode: undefined, rpcMessage: texts.join("\n") || "tool error", data: result });
    }
    const parsed = texts.map(parseText);
    return { content: result.content, data: parsed.length === 0 ? undefined : parsed.length === 1 ? parsed[0] : parsed, result };
  }

  return {
    transport,
    request,
    notify,
    async initialize() {
      const result = parseResponse(
        mcpInitializeResultSchema,
        await request("initialize", {
          protocolVersion: MCP_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "trustgate", version: TRUSTGATE_VERSION },
        }),
        { what: "MCP initialize" },
      );
      await notify("notifications/initialized");
      return result;
    },
    async listTools() {
      return parseResponse(mcpToolsListResultSchema, await request("tools/list", {}), { what: "MCP tools/list" }).tools;
    },
    callTool,
    async trustCheck(args) {
      const toolArgs: Record<string, unknown> = { id: agentIdToJson(parseAgentId(args.id, "id")), chain: parseChain(args.chain).slug };
      if (args.registry !== undefined) toolArgs.registry = parseRegistry(args.registry);
      const output = await callTool("trust_check", toolArgs);
      return parseResponse(trustCheckSchema, output.data, { what: "MCP tools/call trust_check" });
    },
    async networkStats() {
      const output = await callTool("network_stats", {});
      return parseResponse(statsSchema, output.data, { what: "MCP tools/call network_stats" });
    },
    async riskTerms(args) {
      const toolArgs: Record<string, unknown> = {
        agent_id: agentIdToJson(parseAgentId(args.agentId, "agentId")),
        chain: parseChain(args.chain).slug,
      };
      if (args.registry !== undefined) toolArgs.registry = parseRegistry(args.registry);
      const output = await callTool("risk_terms", toolArgs);
      return parseResponse(riskTermsSchema, output.data, { what: "MCP tools/call risk_terms" });
    },
    async commerceStats(args) {
      let toolArgs: Record<string, unknown>;
      if ("address" in args) {
        toolArgs = { address: parseWallet(args.address, "address") };
      } else {
        toolArgs = { id: agentIdToJson(parseAgentId(args.id, "id")), chain: parseChain(args.chain).slug };
        if (args.registry !== undefined) toolArgs.registry = parseRegistry(args.registry);
      }
      return (await callTool("commerce_stats", toolArgs)).data;
    },
  };
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function mcpErrorOf(method: string, error: { code: number; message: string; data?: unknown }, cause?: unknown): McpError {
  return new McpError({ method, rpcCode: error.code, rpcMessage: error.message, data: error.data }, cause === undefined ? {} : { cause });
}
