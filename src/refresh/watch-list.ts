/**
 * A watch list for `trustgate refresh --watch <file>`: the agents an operator wants kept fresh on an attested oracle,
 * in one of two forms.
 *
 * - Text: one `chain:id[:registry]` reference a line (the syntax of `trustgate drift --agents`), blank lines and `#`
 *   comments (a whole line, or the rest of a line) skipped.
 * - The JSON `npm run keys -- --records <kid> --json <file>` writes (`KeyRecordsJson`): its `records[].agent`, and the
 *   oracle and chain it lists them from. So the leaked-key runbook's step 3 hands its listing to step 4 as it is
 *   (docs/security.md).
 *
 * Either way the references are read by the drift job's own list reader (`parseAgentRefList`): the same chains,
 * registries and messages, an agent written twice kept once.
 *
 * @packageDocumentation
 */
import { type AgentRef, parseAgentRefList } from "../agent/agent-ref.js";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { parseAddress } from "../inputs/address.js";

/** What a watch list names. */
export interface WatchList {
  /** The agents, in the file's order, each once. */
  readonly agents: AgentRef[];
  /** The attested oracle a records listing names (absent for a text list). */
  readonly attestedOracle?: `0x${string}`;
  /** The chain of that oracle (absent for a text list). */
  readonly chainId?: number;
}

/**
 * Reads the text of a watch list.
 *
 * @param text - The file's text.
 * @param source - What to call it in messages (`--watch agents.txt`).
 * @returns The agents, and for a records listing the oracle and chain it names.
 * @throws {@link InvalidArgumentError} naming the file and the line of the first reference that does not parse (the
 *   record, for a listing), a listing without its oracle, chain or records, or saying the list is empty.
 */
export function readWatchList(text: string, source: string): WatchList {
  if (text.trimStart().startsWith("{")) return readKeyRecordsListing(text, source);
  return { agents: readReferenceLines(text, source) };
}

/** The text form: one reference a line. */
function readReferenceLines(text: string, source: string): AgentRef[] {
  const lines = text.split(/\r?\n/);
  const entries: string[] = [];
  lines.forEach((line, index) => {
    const reference = line.replace(/#.*$/, "").trim();
    if (reference === "") return;
    try {
      parseAgentRefList(reference, source);
    } catch (error) {
      throw new InvalidArgumentError(`${source}, line ${index + 1}: ${messageOf(error)}`);
    }
    entries.push(reference);
  });
  if (entries.length === 0) {
    throw new InvalidArgumentError(`${source} names no agent: write one chain:id[:registry] reference a line (# starts a comment)`);
  }
  return parseAgentRefList(entries.join(","), source);
}

/** The JSON form: a key id's records listing, as `npm run keys -- --records <kid> --json` writes it. */
function readKeyRecordsListing(text: string, source: string): WatchList {
  let listing: unknown;
  try {
    listing = JSON.parse(text);
  } catch (error) {
    throw new InvalidArgumentError(`${source} is not valid JSON: ${messageOf(error)}`);
  }
  const { oracle, chainId, records } = (listing ?? {}) as { oracle?: unknown; chainId?: unknown; records?: unknown };
  const shape = "a records listing (npm run keys -- --records <kid> --json) with oracle, chainId and records[].agent";
  let attestedOracle: `0x${string}`;
  try {
    attestedOracle = parseAddress(oracle, `oracle of ${source}`);
  } catch (error) {
    throw new InvalidArgumentError(`${source}: expected ${shape}; ${messageOf(error)}`);
  }
  if (typeof chainId !== "number" || !Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new InvalidArgumentError(`${source}: expected ${shape}; its chainId is missing or not a chain id`);
  }
  if (!Array.isArray(records)) throw new InvalidArgumentError(`${source}: expected ${shape}; it has no records array`);
  const references = records.map((record: unknown, index) => {
    const agent = (record as { agent?: unknown } | null)?.agent;
    if (typeof agent !== "string" || agent.trim() === "") {
      throw new InvalidArgumentError(`${source}: records[${index}] has no agent (chain:id:registry)`);
    }
    try {
      parseAgentRefList(agent, source);
    } catch (error) {
      throw new InvalidArgumentError(`${source}, records[${index}]: ${messageOf(error)}`);
    }
    return agent;
  });
  if (references.length === 0) throw new InvalidArgumentError(`${source} lists no record: there is nothing to restore`);
  return { agents: parseAgentRefList(references.join(","), source), attestedOracle, chainId };
}
