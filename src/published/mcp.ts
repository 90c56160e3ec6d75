/**
 * `POST /api/mcp`: the service's MCP endpoint (JSON-RPC 2.0, Streamable HTTP; SKILL.md names its eight tools).
 * The shapes are the JSON-RPC 2.0 and MCP protocol's; each tool's text is the body of the matching REST endpoint.
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { jsonObjectSchema } from "./common.js";

/** A JSON-RPC 2.0 error object. */
export const jsonRpcErrorSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/** A JSON-RPC 2.0 response: `result` or `error`. */
export const jsonRpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.unknown().optional(),
    error: jsonRpcErrorSchema.optional(),
  })
  .refine((r) => (r.error === undefined) !== (r.result === undefined), {
    message: "a JSON-RPC response has exactly one of result and error",
  });

/** MCP `initialize` result. */
export const mcpInitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  serverInfo: z.looseObject({ name: z.string(), version: z.string().nullish() }),
  capabilities: jsonObjectSchema,
});

/** One tool of MCP `tools/list`. */
export const mcpToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  inputSchema: jsonObjectSchema.nullish(),
});

/** MCP `tools/list` result. */
export const mcpToolsListResultSchema = z.looseObject({
  tools: z.array(mcpToolSchema),
  nextCursor: z.string().nullish(),
});

/** One content item of an MCP tool result. */
export const mcpContentSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
});

/** MCP `tools/call` result. */
export const mcpToolCallResultSchema = z.looseObject({
  content: z.array(mcpContentSchema),
  isError: z.boolean().nullish(),
});

/** A JSON-RPC error object. */
export type JsonRpcErrorObject = z.infer<typeof jsonRpcErrorSchema>;
/** A JSON-RPC response. */
export type JsonRpcResponse = z.infer<typeof jsonRpcResponseSchema>;
/** MCP `initialize` result. */
export type McpInitializeResult = z.infer<typeof mcpInitializeResultSchema>;
/** An MCP tool description. */
export type McpTool = z.infer<typeof mcpToolSchema>;
/** MCP `tools/list` result. */
export type McpToolsListResult = z.infer<typeof mcpToolsListResultSchema>;
/** One content item of an MCP tool result. */
export type McpContent = z.infer<typeof mcpContentSchema>;
/** MCP `tools/call` result. */
export type McpToolCallResult = z.infer<typeof mcpToolCallResultSchema>;
