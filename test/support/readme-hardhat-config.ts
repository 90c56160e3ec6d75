/**
 * The README's Hardhat 2 `hardhat.config.ts` (the whole file, in "Offline or air-gapped (Hardhat 2)"), found by the
 * doc-test marker on the line before its block: the packaged-project test gives it to its Hardhat project as is, so
 * that the config the README prints is the one a test compiles and runs with.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The marker line before the README's Hardhat 2 config block. */
export const README_HARDHAT_CONFIG_MARKER =
  "<!-- doc-test: skip: a Hardhat 2 hardhat.config.ts, loaded by Hardhat in the project of test/package/installed-package.test.ts -->";

/**
 * The README's Hardhat 2 config.
 *
 * @returns The block's text, ending with a newline.
 * @throws Error when the README has no such marker followed by a `ts` block.
 */
export function readmeHardhatConfig(): string {
  const readme = readFileSync(join(resolve(__dirname, "../.."), "README.md"), "utf8");
  const at = readme.indexOf(`${README_HARDHAT_CONFIG_MARKER}\n\`\`\`ts\n`);
  if (at < 0) throw new Error("README.md has no Hardhat 2 config block after its marker");
  const start = readme.indexOf("\n", readme.indexOf("```ts", at)) + 1;
  return readme.slice(start, readme.indexOf("\n```\n", start) + 1);
}
