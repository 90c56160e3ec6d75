/**
 * The agents of `trustgate refresh --gate <address>`: the agents the gate can be asked about that its attested oracle
 * can answer for, and the oracles to read them with.
 *
 * How, and why so: a `TrustGated` gate emits no event naming the agents its users ask about (its hooks are the
 * inheriting contract's, and what they log is theirs), so the gate itself cannot list them. What the chain does say:
 * the gate's configuration (`trustOracle()`, `trustPolicy()`, `agentDomain()`, read by `readGatePolicy`) and, for its
 * oracle, the records it answers with. An `AttestedTrustOracle` answers the fresher of its own record and its
 * upstream's; both announce each record with `RecordAdded` (and the reference oracle a removal with `RecordRemoved`).
 * So the agents are those whose records the gate's oracle or its upstream hold, under the gate's agent chain and
 * registry (every other record is one the gate never reads), found by replaying those events (`listOracleKeys`) from
 * each oracle's deployment block — the drift job's `--events-from auto` (`planOnchainEnumeration`), so a span the
 * drift job would not replay by default is not replayed here either, and is said. An agent no oracle has ever held a
 * record of is not found this way: put it on a watch list (`--watch`). The decision rule is the gate's own policy.
 *
 * @packageDocumentation
 */
import { type Address, getAddress } from "viem";
import { getBlockNumber, readContract } from "viem/actions";
import { type AgentRef, agentKey } from "../agent/agent-ref.js";
import { chainSlugOf } from "../config/chains.js";
import { ENUMERATION_SOURCE_NAMES, planOnchainEnumeration } from "../drift/onchain-enumeration.js";
import { ConfigurationError, messageOf } from "../errors.js";
import { attestedTrustOracleAbi } from "../generated/abis.js";
import type { AnyClient } from "../oracle/client.js";
import { listOracleKeys } from "../oracle/events.js";
import { type GatePolicy, readGatePolicy } from "../oracle/gate.js";

/** What {@link listGateAgents} found. */
export interface GateAgents {
  /** The gate's configuration, read at one block. */
  readonly gate: GatePolicy;
  /** The gate's oracle: the attested oracle to push to. */
  readonly attestedOracle: Address;
  /** Its upstream. */
  readonly upstream: Address;
  /** The agents, each once: the attested oracle's records first, then the upstream's, in order of first record. */
  readonly agents: readonly AgentRef[];
  /** One sentence per oracle whose events were not replayed, and why (empty when both were). */
  readonly notes: readonly string[];
}

/**
 * Lists the agents of a gate (see the module notes).
 *
 * @param client - A viem client of the gate's chain.
 * @param gate - The gate's address.
 * @param eventsFromBlock - Replay the events from this block, or `"auto"` (the default): from each oracle's deployment
 *   block, when the span is at most the drift job's limit.
 * @returns The gate, its oracles, the agents and the notes.
 * @throws {@link ConfigurationError} when the address holds no gate, its oracle is not an `AttestedTrustOracle`, its
 *   agent chain is one the service does not cover, the events of neither oracle could be replayed, or no agent was
 *   found.
 */
export async function listGateAgents(client: AnyClient, gate: Address, eventsFromBlock: bigint | "auto" = "auto"): Promise<GateAgents> {
  const blockNumber = await getBlockNumber(client, { cacheTime: 0 });
  let policy: GatePolicy;
  try {
    policy = await readGatePolicy(client, { gate, blockNumber });
  } catch (error) {
    throw new ConfigurationError(`--gate ${gate}: ${messageOf(error)}`, { cause: error });
  }
  let upstream: Address;
  try {
    upstream = getAddress(
      await readContract(client, { address: policy.oracle, abi: attestedTrustOracleAbi, functionName: "upstream", blockNumber }),
    );
  } catch (error) {
    throw new ConfigurationError(
      `--gate ${gate}: the oracle it reads, ${policy.oracle}, is not an AttestedTrustOracle (its upstream() cannot be read): there is nothing to push to`,
      { cause: error, details: messageOf(error) },
    );
  }
  let chain: string;
  try {
    chain = chainSlugOf(policy.agentChainId);
  } catch (error) {
    throw new ConfigurationError(`--gate ${gate}: its agent chain ${policy.agentChainId} is not one the service covers`, { cause: error });
  }

  const notes: string[] = [];
  const seen = new Map<string, AgentRef>();
  let replayed = 0;
  const oracles = [
    { role: "attested-oracle" as const, address: policy.oracle },
    { role: "upstream" as const, address: upstream },
  ];
  for (const { role, address } of oracles) {
    const name = `${ENUMERATION_SOURCE_NAMES[role]} ${address}`;
    const plan = await planOnchainEnumeration(client, address, eventsFromBlock, blockNumber);
    if (plan.kind === "skipped") {
      notes.push(`the records of ${name} were not looked for: ${plan.reason}`);
      continue;
    }
    let keys: Awaited<ReturnType<typeof listOracleKeys>>;
    try {
      keys = await listOracleKeys(client, address, { fromBlock: plan.fromBlock, toBlock: blockNumber });
    } catch (error) {
      notes.push(`the records of ${name} could not be replayed: ${messageOf(error)}`);
      continue;
    }
    replayed++;
    for (const key of keys) {
      if (key.chainId !== policy.agentChainId || key.registry !== policy.agentRegistry) continue;
      const agent: AgentRef = { chain, chainId: policy.agentChainId, agentId: key.agentId, registry: key.registry };
      const id = agentKey(agent);
      if (!seen.has(id)) seen.set(id, agent);
    }
  }
  if (replayed === 0) {
    throw new ConfigurationError(`--gate ${gate}: the records its oracles hold could not be listed (${notes.join("; ")})`, {
      details: "Give the agents with --watch <file> instead, or --events-from <block>.",
    });
  }
  if (seen.size === 0) {
    throw new ConfigurationError(
      `--gate ${gate}: neither its oracle nor the upstream holds a record under the gate's agent domain (chain ${policy.agentChainId}, registry ${policy.agentRegistry})`,
      { details: "Give the agents with --watch <file> instead." },
    );
  }
  return { gate: policy, attestedOracle: getAddress(policy.oracle), upstream, agents: [...seen.values()], notes };
}
