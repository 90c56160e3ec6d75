/**
 * `npm run generate`: writes `src/generated/` from the compiled artifacts — the contracts' ABIs as viem-typed
 * `as const` arrays (`abis.ts`), the creation code the oracle reader runs deployless (`creation-bytecode.ts`) and
 * the runtime code the local networks place by code (`runtime-bytecode.ts`). What goes where is listed in `scripts/generate/manifest.ts`. Run it (the npm script compiles first) after changing a
 * contract or the compiler settings; `test/generated/generated-files.test.ts` fails until then. Files of
 * `src/generated/` that the generator no longer writes are deleted.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { artifactReader } from "./generate/artifacts";
import { GENERATED_DIR } from "./generate/manifest";
import { renderGeneratedFiles } from "./generate/render";

const root = join(__dirname, "..");
const files = renderGeneratedFiles(artifactReader(root));

for (const [path, text] of Object.entries(files)) {
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${path}`);
}

for (const name of readdirSync(join(root, GENERATED_DIR))) {
  const path = `${GENERATED_DIR}/${name}`;
  if (path in files) continue;
  rmSync(join(root, path), { recursive: true, force: true });
  console.log(`deleted ${path} (no longer generated)`);
}
