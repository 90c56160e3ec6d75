/**
 * `npm run tools:install`, the first step of `npm test`: installs each pinned toolchain of `tools/` (forge for the
 * Solidity suite and the Foundry project tests, Node 22 for the Hardhat 3 project test) when the platform has a
 * binary and none is installed, so that the tests that need them run on a fresh clone. Idempotent (an installed
 * toolchain is left as it is) and safe offline (npm's cache first; a failed install is said, not fatal: the tests that
 * need it then skip, each with the reason, and `npm test` lists them at the end). Under CI (`CI` set) a platform that
 * has a binary must get it: there a failed install fails.
 *
 * @packageDocumentation
 */
import { ensureToolchain, PINNED_TOOLCHAINS } from "./lib/toolchains";

for (const toolchain of PINNED_TOOLCHAINS) {
  const found = ensureToolchain(toolchain, (line) => console.log(`tools: ${line}`));
  if (found.ok) {
    console.log(`tools: ${toolchain.name}: ${found.path}`);
  } else if (found.installable && process.env.CI) {
    console.error(`tools: ${found.reason} (under CI a platform with a ${toolchain.name} binary must run the tests that need it)`);
    process.exitCode = 1;
  } else {
    console.log(`tools: ${found.reason}; the tests that need ${toolchain.name} will be skipped, each with this reason`);
  }
}
