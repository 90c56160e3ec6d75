/**
 * Writes the trust-check vector set: one JSON file per vector under `trust-check/`, the manifest
 * `trust-check/index.json`, and the public key set `keys/jwks.json`, from the committed test keys and fixed
 * times. Files of vectors that no longer exist are removed. Run: `npx tsx test/vectors/generate.ts`.
 *
 * Contents are the same on every run; only signature bytes change (ECDSA draws a new nonce each time). A vector
 * whose file already holds the same contents keeps its file, signatures included, so that a regeneration changes
 * only the vectors whose contents changed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { format, resolveConfig } from "prettier";
import { INDEX_FILE, indexEntryOf, JWKS_FILE, type TrustCheckVector, VECTOR_DIR, withoutSignatures } from "./format";
import { buildVectors } from "./make/build";
import { loadVectorKeys } from "./make/keys";

/** Writes a JSON file formatted as the repository's Prettier configuration formats it. */
async function writeJson(file: string, value: unknown): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(JSON.stringify(value), { ...options, filepath: file }));
}

/** Whether a vector file already holds these contents (signatures aside). */
function sameContents(file: string, vector: TrustCheckVector): boolean {
  if (!existsSync(file)) return false;
  const existing = JSON.parse(readFileSync(file, "utf8")) as TrustCheckVector;
  return isDeepStrictEqual(withoutSignatures(existing), withoutSignatures(vector));
}

async function main(): Promise<void> {
  const keys = await loadVectorKeys();
  const vectors = await buildVectors(keys);
  mkdirSync(VECTOR_DIR, { recursive: true });
  const current = new Set(vectors.map((vector) => indexEntryOf(vector).file));
  for (const name of readdirSync(VECTOR_DIR)) {
    if (name.endsWith(".json") && name !== path.basename(INDEX_FILE) && !current.has(name)) rmSync(path.join(VECTOR_DIR, name));
  }
  let kept = 0;
  for (const vector of vectors) {
    const file = path.join(VECTOR_DIR, indexEntryOf(vector).file);
    if (sameContents(file, vector)) kept++;
    else await writeJson(file, vector);
  }
  await writeJson(INDEX_FILE, vectors.map(indexEntryOf));
  await writeJson(JWKS_FILE, keys.jwks);
  const counts = new Map<string, number>();
  for (const { category } of vectors) counts.set(category, (counts.get(category) ?? 0) + 1);
  console.log(
    `${vectors.length} vectors in ${path.relative(process.cwd(), VECTOR_DIR)} (${[...counts].map(([c, n]) => `${c} ${n}`).join(", ")}): ${vectors.length - kept} written, ${kept} unchanged`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
