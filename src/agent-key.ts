/**
 * The one identity string of an agent across the kit (service, drift reports, command line).
 *
 * @packageDocumentation
 */

/** What identifies an agent: chain slug, registry name and agent id. */
export interface AgentIdentity {
  readonly chain: string;
  readonly registry: string;
  readonly agentId: number | bigint | string;
}

/**
 * The key of an agent: `<chain>:<registry>:<agentId>`, for example `base:erc8004:1234`.
 *
 * @param agent - The agent (or any object with its identifying triple).
 * @returns The key.
 */
export function agentKey(agent: AgentIdentity): string {
  return `${agent.chain}:${agent.registry}:${agent.agentId}`;
}
