/**
 * `npm run forge:install`, the first step of `npm test`: installs the forge that `tools/foundry` pins when the
 * platform has a binary and none is installed, so that the forge-backed tests run on a fresh clone. Idempotent (an
 * installed forge is left as it is) and safe offline (npm's cache first; a failed install is said, not fatal: the
 * forge-backed tests then skip, each with the reason, and `npm test` lists them at the end). Under CI (`CI` set) a
 * platform that has a binary must get it: there a failed install fails.
 *
 * @packageDocumentation
 */
import { ensureForge } from "./lib/forge-binary";

const forge = ensureForge((line) => console.log(`forge: ${line}`));
if (forge.ok) {
  console.log(`forge: ${forge.path}`);
} else if (forge.installable && process.env.CI) {
  console.error(`forge: ${forge.reason} (under CI a platform with a forge binary must run the forge-backed tests)`);
  process.exitCode = 1;
} else {
  console.log(`forge: ${forge.reason}; the forge-backed tests will be skipped, each with this reason`);
}
