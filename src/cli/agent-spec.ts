/**
 * The `--agents` list: `chain:id[:registry],…`, for example `base:1234,ethereum:7:olas`.
 *
 * @packageDocumentation
 */
import { resolveChain } from "../config/chains.js";
import { DEFAULT_REGISTRY, REGISTRIES } from "../config/service.js";
import { agentKey, type AgentRef } from "../agent-key.js";

export type { AgentRef } from "../agent-key.js";
import { InvalidArgumentError, messageOf } from "../errors.js";

/**
 * Parses an `--agents` value. Duplicates are removed, order kept.
 *
 * @param text - Comma-separated `chain:id[:registry]` entries.
 * @returns The agents.
 * @throws {@link InvalidArgumentError} naming the first bad entry and why.
 */
export function parseAgentList(text: string): AgentRef[] {
  const entries = text.split(",").map((e) => e.trim()).filter((e) => e.length > 0);
  if (entries.length === 0) throw new InvalidArgumentError("--agents is empty", { details: "Use chain:id[:registry],…" });
  const seen = new Set<string>();
  const agents: AgentRef[] = [];
  for (const entry of entries) {
    const agent = parseAgentRef(entry);
    const key = agentKey(agent);
    if (!seen.has(key)) {
      seen.add(key);
      agents.push(agent);
    }
  }
  return agents;
}

/**
 * Parses one `chain:id[:registry]` entry.
 *
 * @param entry - For example `base:1234` or `bsc:9:olas`.
 * @returns The agent.
 * @throws {@link InvalidArgumentError} for a malformed entry, an unknown chain (with a suggestion), a bad id
 *   or an unknown registry.
 */
export function parseAgentRef(entry: string): AgentRef {
  const parts = entry.split(":");
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p.trim() === "")) {
    throw new InvalidArgumentError(`Invalid agent "${entry}": expected chain:id[:registry]`);
  }
  const [chainText, idText, registryText] = parts.map((p) => p.trim()) as [string, string, string | undefined];
  let chain;
  try {
    chain = resolveChain(chainText);
  } catch (error) {
    const hint = messageOf(error);
    throw new InvalidArgumentError(`Invalid agent "${entry}": ${hint}`, { cause: error });
  }
  if (!/^\d+$/.test(idText)) throw new InvalidArgumentError(`Invalid agent "${entry}": id "${idText}" is not a non-negative integer`);
  const registry = (registryText ?? DEFAULT_REGISTRY).toLowerCase();
  if (!(REGISTRIES as readonly string[]).includes(registry)) {
    throw new InvalidArgumentError(`Invalid agent "${entry}": unknown registry "${registryText}"`, {
      details: `Known registries: ${REGISTRIES.join(", ")}`,
    });
  }
  return { chain: chain.slug, chainId: chain.chainId ?? null, agentId: BigInt(idText).toString(), registry };
}
