/**
 * Writes the trust-check vector set: one JSON file per vector under `trust-check/`, the manifest
 * `trust-check/index.json`, and the public key set `keys/jwks.json`, from the committed test keys and fixed
 * times. Files of vectors that no longer exist are removed. Run: `npx tsx test/vectors/generate.ts`.
 *
 * Contents are the same on every run; only signature bytes change (ECDSA draws a new nonce each time).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { format, resolveConfig } from "prettier";
import { INDEX_FILE, indexEntryOf, JWKS_FILE, VECTOR_DIR } from "./format";
import { buildVectors } from "./make/build";
import { loadVectorKeys } from "./make/keys";

/** Writes a JSON file formatted as the repository's Prettier configuration formats it. */
async function writeJson(file: string, value: unknown): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(JSON.stringify(value), { ...options, filepath: file }));
}

async function main(): Promise<void> {
  const keys = await loadVectorKeys();
  const vectors = await buildVectors(keys);
  mkdirSync(VECTOR_DIR, { recursive: true });
  const kept = new Set(vectors.map((vector) => indexEntryOf(vector).file));
  for (const name of readdirSync(VECTOR_DIR)) {
    if (name.endsWith(".json") && name !== path.basename(INDEX_FILE) && !kept.has(name)) rmSync(path.join(VECTOR_DIR, name));
  }
  for (const vector of vectors) await writeJson(path.join(VECTOR_DIR, indexEntryOf(vector).file), vector);
  await writeJson(INDEX_FILE, vectors.map(indexEntryOf));
  await writeJson(JWKS_FILE, keys.jwks);
  const counts = new Map<string, number>();
  for (const { category } of vectors) counts.set(category, (counts.get(category) ?? 0) + 1);
  console.log(
    `wrote ${vectors.length} vectors to ${path.relative(process.cwd(), VECTOR_DIR)} (${[...counts].map(([c, n]) => `${c} ${n}`).join(", ")})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
