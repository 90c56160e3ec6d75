/**
 * How the API client writes arguments — already checked by the kit's one input dialect (`src/inputs/`) —
 * in the service's own forms: agent ids in JSON bodies, the `"<chain>:<id>"` entries of `/api/compare`, and
 * addresses as the caller gave them.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { type AgentIdInput, parseAgentId } from "../inputs/agent-id.js";
import { type ChainInput, parseChain } from "../inputs/chain.js";
import { describeInput } from "../inputs/describe.js";

/**
 * One agent of a comparison, as `compare` takes it: `{ id, chain }` or the service's `"<chain>:<id>"`
 * (no registry: the service compares by chain and id). Not an `AgentRef`: the service's compare form.
 */
export type CompareAgentInput = { id: AgentIdInput; chain: ChainInput } | string;

/**
 * Checks one agent of a comparison and writes it in the service's form.
 *
 * @param agent - `{ id, chain }` or `"<chain>:<id>"`.
 * @param index - Position in the list, for the message.
 * @returns `"<chain slug>:<decimal id>"`.
 * @throws {@link InvalidArgumentError} or `UnknownChainError`.
 */
export function compareEntry(agent: CompareAgentInput, index: number): string {
  if (typeof agent === "string") {
    const match = /^([^:]+):(.+)$/.exec(agent.trim());
    if (!match) throw new InvalidArgumentError(`agents[${index}] must be "<chain>:<id>", got ${describeInput(agent)}`);
    return `${parseChain(match[1]!, `agents[${index}].chain`).slug}:${parseAgentId(match[2]!, `agents[${index}].id`)}`;
  }
  if (typeof agent !== "object" || agent === null) {
    throw new InvalidArgumentError(`agents[${index}] must be { id, chain } or "<chain>:<id>", got ${describeInput(agent)}`);
  }
  return `${parseChain(agent.chain, `agents[${index}].chain`).slug}:${parseAgentId(agent.id, `agents[${index}].id`)}`;
}

/**
 * An agent id for a JSON body: a number when it is a safe integer (every id the service issues), else the
 * decimal string.
 *
 * @param id - The agent id.
 * @returns The JSON value.
 */
export function agentIdToJson(id: bigint): number | string {
  return id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id.toString();
}

/**
 * Checks an EVM address (with its EIP-55 checksum when mixed-case) and returns it as the caller wrote it,
 * trimmed: the service is asked about the text it was given.
 *
 * @param value - The address.
 * @param label - The argument's name, for the error message.
 * @returns The address, trimmed, in its own case.
 * @throws {@link InvalidArgumentError} as `parseAddress` does.
 */
export function addressAsGiven(value: string, label: string): string {
  parseAddress(value, label);
  return value.trim();
}
