/**
 * The agent reference: parse, format, order and key an agent.
 *
 * @packageDocumentation
 */
export {
  type AgentKeyParts,
  type AgentRef,
  agentKey,
  compareAgentRefs,
  type EvmAgentRef,
  formatAgentRef,
  type FormatAgentRefOptions,
  isEvmAgent,
  parseAgentRef,
  parseAgentRefList,
} from "./agent-ref.js";
