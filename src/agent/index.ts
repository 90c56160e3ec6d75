/**
 * The agent reference: parse, format, order and key an agent.
 *
 * @packageDocumentation
 */
export {
  agentKey,
  compareAgentRefs,
  formatAgentRef,
  isEvmAgent,
  parseAgentRef,
  parseAgentRefList,
  type AgentKeyParts,
  type AgentRef,
  type EvmAgentRef,
} from "./agent-ref.js";
