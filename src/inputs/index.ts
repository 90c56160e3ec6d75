/**
 * Validation of what callers give the kit, for every entry point (the command line, the API client's
 * arguments, the oracle reader's keys): addresses with their EIP-55 checksum, agent ids, chains with a
 * suggestion, registries, thresholds and bounded integers. Every problem is an `InvalidArgumentError` naming
 * the argument (or an `UnknownChainError` with the closest slug), thrown before anything is sent.
 *
 * @packageDocumentation
 */
export { describeInput } from "./describe.js";
export { MAX_AGENT_ID, parseAgentId, type AgentIdInput } from "./agent-id.js";
export { parseAddress, parseWallet } from "./address.js";
export { parseChain, parseChainId, parseEvmChain, type ChainInput } from "./chain.js";
export { parseRegistry } from "./registry.js";
export { parseIntegerInRange, parseThreshold } from "./numbers.js";
export { parseCanonicalId, parseMcpServer } from "./mcp-server.js";
