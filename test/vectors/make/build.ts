/**
 * The whole vector set, built from the test keys: the valid forms, the refusals, the parser differentials and the
 * time forms.
 */
import type { TrustCheckVector } from "../format";
import type { VectorKeys } from "./keys";
import { parserDifferentialVectors } from "./parser-differentials";
import { refusalVectors } from "./refusals";
import { timeFormVectors } from "./time-forms";
import { validFormVectors } from "./valid-forms";

/**
 * Builds every vector. Contents are the same on every run; only the signature bytes differ (ECDSA draws a
 * new nonce each time).
 *
 * @param keys - The test keys.
 * @returns The vectors, in file order.
 * @throws Error when two vectors share an id.
 */
export async function buildVectors(keys: VectorKeys): Promise<TrustCheckVector[]> {
  const vectors = [
    ...(await validFormVectors(keys)),
    ...(await refusalVectors(keys)),
    ...(await parserDifferentialVectors(keys)),
    ...(await timeFormVectors(keys)),
  ];
  const seen = new Set<string>();
  for (const { id } of vectors) {
    if (seen.has(id)) throw new Error(`two vectors have the id ${id}`);
    seen.add(id);
  }
  return vectors;
}
