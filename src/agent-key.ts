/**
 * The one identity string of an agent across the kit (service, drift reports, command line).
 *
 * @packageDocumentation
 */

/** An agent as the kit names it across chains and registries. */
export interface AgentRef {
  /** The service's chain slug (aliases resolved). */
  readonly chain: string;
  /** EVM chain id, or `null` for a non-EVM chain. */
  readonly chainId: number | null;
  /** Agent id as a decimal string (ids can exceed 2^53). */
  readonly agentId: string;
  readonly registry: string;
}

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
