/**
 * Validation of what callers give the kit, for every entry point (the command line, the API client's
 * arguments, the oracle reader's keys): addresses with their EIP-55 checksum, agent ids, chains with a
 * suggestion, registries, thresholds and bounded integers. Every problem is an `InvalidArgumentError` naming
 * the argument (or an `UnknownChainError` with the closest slug), thrown before anything is sent.
 *
 * @packageDocumentation
 */

export { parseAddress, parseWallet } from "./address.js";
export { type AgentIdInput, parseAgentId } from "./agent-id.js";
export { type ChainInput, parseChain, parseChainId, parseEvmChain } from "./chain.js";
export { describeInput } from "./describe.js";
export { parseCanonicalId, parseMcpServer } from "./mcp-server.js";
export { parseIntegerInRange, parseThreshold } from "./numbers.js";
export { parseRegistry } from "./registry.js";
