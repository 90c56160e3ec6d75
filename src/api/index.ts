/**
 * The trust service's API client: typed HTTP client, MCP client, transport and rate limiter. (The response
 * shapes it validates against are the service's, in `src/published/`.)
 *
 * @packageDocumentation
 */

export {
  HttpRequestError,
  InvalidArgumentError,
  InvalidResponseError,
  McpError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  UnknownChainError,
} from "../errors.js";
export * from "./arguments.js";
export * from "./client.js";
export * from "./http.js";
export * from "./mcp.js";
export * from "./options.js";
export {
  type HeaderReader,
  type ParseRateLimitHeadersOptions,
  parseRateLimitHeaders,
  type RateLimitAnnouncement,
} from "./rate-limit-headers.js";
export * from "./rate-limiter.js";
export * from "./validate.js";
