/**
 * The opaque pagination cursor of `/api/agents`: base64url of the JSON `[chain, registry, agentId]` of the
 * last agent of a page (keyset pagination, so a cursor stays valid while agents are added).
 *
 * @packageDocumentation
 */
import type { PopulationKey } from "./agent.js";
import { badRequest } from "./http-error.js";

/**
 * Encodes the cursor after an agent.
 *
 * @param agent - The last agent of a page.
 * @returns The cursor.
 */
export function encodeCursor(agent: PopulationKey): string {
  return Buffer.from(JSON.stringify([agent.chain, agent.registry, agent.agentId])).toString("base64url");
}

/**
 * Decodes a cursor, answering 400 for one this service did not make.
 *
 * @param cursor - The cursor.
 * @returns The agent it points after.
 */
export function decodeCursor(cursor: string): PopulationKey {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error("not base64url");
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badRequest(`Invalid cursor "${cursor}"`);
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    typeof value[0] !== "string" ||
    typeof value[1] !== "string" ||
    !Number.isSafeInteger(value[2])
  ) {
    throw badRequest(`Invalid cursor "${cursor}"`);
  }
  return { chain: value[0], registry: value[1], agentId: value[2] as number };
}
