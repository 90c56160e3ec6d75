/**
 * A watch list for `trustgate refresh --watch <file>`: the agents an operator wants kept fresh on an attested oracle,
 * one `chain:id[:registry]` reference a line (the syntax of `trustgate drift --agents`), blank lines and `#` comments
 * (a whole line, or the rest of a line) skipped. The references are read by the drift job's own list reader
 * (`parseAgentRefList`): the same chains, registries and messages, an agent written twice kept once.
 *
 * @packageDocumentation
 */
import { type AgentRef, parseAgentRefList } from "../agent/agent-ref.js";
import { InvalidArgumentError, messageOf } from "../errors.js";

/**
 * Reads the text of a watch list.
 *
 * @param text - The file's text.
 * @param source - What to call it in messages (`--watch agents.txt`).
 * @returns The agents, in the file's order, each once.
 * @throws {@link InvalidArgumentError} naming the file and the line of the first reference that does not parse, or
 *   saying the list is empty.
 */
export function readWatchList(text: string, source: string): AgentRef[] {
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
