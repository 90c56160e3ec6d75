/**
 * The documented Hardhat 2 `hardhat.config.ts` (the whole file, in docs/contracts.md, "Offline or air-gapped
 * (Hardhat 2)"), found by the doc-test marker on the line before its block: the packaged-project test gives it to its
 * Hardhat project as is, so that the config the manual prints is the one a test compiles and runs with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "./doc-blocks";

/** The page that prints the Hardhat 2 config, relative to the repository's root. */
export const HARDHAT2_CONFIG_PAGE = "docs/contracts.md";

/** The marker line before the documented Hardhat 2 config block. */
export const HARDHAT2_CONFIG_MARKER =
  "<!-- doc-test: skip: a Hardhat 2 hardhat.config.ts, loaded by Hardhat in the project of test/package/installed-package.test.ts -->";

/**
 * The documented Hardhat 2 config.
 *
 * @returns The block's text, ending with a newline.
 * @throws Error when the page has no such marker followed by a `ts` block.
 */
export function documentedHardhatConfig(): string {
  const page = readFileSync(join(REPOSITORY_ROOT, HARDHAT2_CONFIG_PAGE), "utf8");
  const at = page.indexOf(`${HARDHAT2_CONFIG_MARKER}\n\`\`\`ts\n`);
  if (at < 0) throw new Error(`${HARDHAT2_CONFIG_PAGE} has no Hardhat 2 config block after its marker`);
  const start = page.indexOf("\n", page.indexOf("```ts", at)) + 1;
  return page.slice(start, page.indexOf("\n```\n", start) + 1);
}
