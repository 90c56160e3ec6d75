/**
 * What `trustgate refresh --state <file>` takes from the drift job's state file (`src/drift/state/schema.ts`): the
 * agents and the setup a fresh drift run over them needs.
 *
 * Why a fresh drift run and not the state's own lines: the state keeps, per agent, the last verified attestation's
 * signed fields and the on-chain record seen then, but not what the plan decides on. It holds no decision of the gate
 * on either side (only the rule's description), no check of the attestation's kid against the attested oracle's keys
 * (`row.refresh`), and its records may be a night old; an attestation it keeps has usually expired. So the state gives
 * the agents (every `agent` line: those a night asked the service about) and the setup its header records — the
 * oracle, the attested oracle, the chain, the decision rule (`score >= N`, or a gate whose policy is read again from
 * the chain) and the tier/sybil encoding — and the refresh runs a fresh drift over those agents, whose report the plan
 * reads. The service asked is the command's own (`--api`, its issuer and JWKS), not the one the header names: the
 * state gives the list of agents, not the answers. The state file is only read, never written: the nightly job's
 * history and journal stay its own. A fresh drift run asks the service about every agent the state holds (one signed
 * fetch each); for a large state, `trustgate drift --all --state <file> --refresh` lets the night's triage choose the
 * fetches instead.
 *
 * @packageDocumentation
 */
import { type AgentRef, parseAgentRef } from "../agent/agent-ref.js";
import { createTrustEncoding, type TrustEncoding } from "../config/encodings.js";
import type { LoadedDriftState } from "../drift/state/read.js";
import { ConfigurationError, messageOf } from "../errors.js";
import { parseAddress } from "../inputs/address.js";

/** The decision rule a state was written with: a threshold, or a gate (its policy is read from the chain again). */
export type StateRule = { readonly threshold: number } | { readonly gate: `0x${string}` };

/** What a state file gives a refresh: its agents and the setup of the runs that wrote it. */
export interface RefreshStateAgents {
  /** Every agent the state holds a line for, in the file's order. */
  readonly agents: readonly AgentRef[];
  /** The oracle the state was written for (the attested oracle's upstream when it names one). */
  readonly oracle: `0x${string}`;
  /** The attested oracle the state's runs read, or `null` when they read the oracle itself. */
  readonly attestedOracle: `0x${string}` | null;
  /** The chain id the state was written for. */
  readonly chainId: number;
  /** The decision rule. */
  readonly rule: StateRule;
  /** The tier and sybil encoding. */
  readonly encoding: TrustEncoding;
}

/**
 * Reads the agents and the setup out of a loaded state file.
 *
 * @param state - What `readDriftState` read.
 * @returns The agents, oracle, attested oracle, chain id, rule and encoding.
 * @throws {@link ConfigurationError} naming the file when it holds no agent, or a header value (an address, the rule,
 *   the encoding) or an agent key cannot be read back.
 */
export function refreshStateAgents(state: LoadedDriftState): RefreshStateAgents {
  const { header, path } = state;
  const fail = (what: string, cause?: unknown): never => {
    throw new ConfigurationError(`--state ${path}: ${what}`, cause === undefined ? {} : { cause, details: messageOf(cause) });
  };
  const agents: AgentRef[] = [];
  for (const key of state.entries.keys()) {
    // agentKey writes chain:registry:id; parseAgentRef reads chain:id:registry
    const [chain, registry, id] = key.split(":");
    try {
      agents.push(parseAgentRef(`${chain}:${id}:${registry}`));
    } catch (error) {
      fail(`the agent key "${key}" cannot be read back`, error);
    }
  }
  if (agents.length === 0) fail("the state holds no agent yet: run trustgate drift --all --state <file> first");
  let oracle: `0x${string}` = "0x0000000000000000000000000000000000000000";
  let attestedOracle: `0x${string}` | null = null;
  try {
    oracle = parseAddress(header.oracle, "the state's oracle");
    attestedOracle = header.attestedOracle === null ? null : parseAddress(header.attestedOracle, "the state's attested oracle");
  } catch (error) {
    fail("its header names an address that cannot be read", error);
  }
  let encoding: TrustEncoding = createTrustEncoding();
  try {
    encoding = createTrustEncoding(header.encoding as Partial<TrustEncoding>);
  } catch (error) {
    fail("its header's tier/sybil encoding cannot be read", error);
  }
  return { agents, oracle, attestedOracle, chainId: header.chainId, rule: ruleOf(header.rule, fail), encoding };
}

/** Reads back the rule's description (`describeRule` of src/drift/decision.ts). */
function ruleOf(text: string, fail: (what: string) => never): StateRule {
  const threshold = /^score >= (\d{1,3})$/.exec(text);
  if (threshold) return { threshold: Number(threshold[1]) };
  const gate = /^gate (0x[0-9a-fA-F]{40})\b/.exec(text);
  if (gate) return { gate: gate[1] as `0x${string}` };
  return fail(`its header's decision rule "${text}" is neither "score >= N" nor "gate 0x…"`);
}
