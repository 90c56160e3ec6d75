/**
 * MCP servers, as the API client accepts them: the canonical `<owner>/<name>`, or a URL where a server is asked about.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { describeInput } from "./describe.js";

/**
 * Parses an MCP server's canonical id.
 *
 * @param value - `<owner>/<name>`, neither part empty or containing white space.
 * @param label - The argument's name, for the error message.
 * @returns The id, trimmed.
 * @throws {@link InvalidArgumentError} when it is not of that form.
 */
export function parseCanonicalId(value: unknown, label = "canonicalId"): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (/^[^/\s]+\/[^/\s]+$/.test(text)) return text;
  throw new InvalidArgumentError(`${label} must be of the form <owner>/<name>, got ${describeInput(value)}`);
}

/**
 * Parses an MCP server as `/api/mcp-attestation?server=` takes it: a canonical id or an http(s) URL.
 *
 * @param value - `<owner>/<name>` or `http(s)://…`.
 * @param label - The argument's name, for the error message.
 * @returns The server, trimmed.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseMcpServer(value: unknown, label = "server"): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (/^[^/\s]+\/[^/\s]+$/.test(text) || /^https?:\/\/\S+$/.test(text)) return text;
  throw new InvalidArgumentError(`${label} must be <owner>/<name> or an http(s) URL, got ${describeInput(value)}`);
}
