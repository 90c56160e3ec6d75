/**
 * `npm run test:forge [-- forge test options]`: the kit's forge suite (test/foundry: the gate's refusals through a
 * consumer contract, fuzz tests of the gate against a model of its policy, invariant tests of the reference oracle,
 * a Base fork test that runs only with `BASE_RPC_URL`), with the forge 1.7.1 that `tools/foundry` pins.
 *
 * forge is installed into `tools/foundry` first when it is missing. Where it cannot run (no binary for the platform,
 * or the install failed), the suite is skipped with the reason, and exits 0, except under CI (`CI` set) on a platform
 * that has a binary: there a missing forge is a failure, not a skip. forge compiles with `tools/foundry/solc`, the
 * `solc` npm package behind a shim (`--offline --use`), since it cannot download solc where only npm is reachable.
 *
 * @packageDocumentation
 */
import { spawnSync } from "node:child_process";
import { FORGE_SOLC_SHIM, FORGE_TOOLCHAIN_DIR, REPO_ROOT, locateForge } from "./lib/forge-binary";

function installForge(): boolean {
  console.log("test:forge: installing forge 1.7.1 into tools/foundry (npm ci --prefix tools/foundry)");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", FORGE_TOOLCHAIN_DIR, "--no-audit", "--no-fund"], { stdio: "inherit" });
  return install.status === 0;
}

function main(args: readonly string[]): number {
  let forge = locateForge();
  if (!forge.ok && forge.installable && installForge()) forge = locateForge();
  if (!forge.ok) {
    if (forge.installable && process.env.CI) {
      console.error(`test:forge failed: ${forge.reason} (under CI a platform with a forge binary must run the suite)`);
      return 1;
    }
    console.log(`test:forge skipped: ${forge.reason}`);
    return 0;
  }
  const run = spawnSync(forge.path, ["test", "--offline", "--use", FORGE_SOLC_SHIM, ...args], { cwd: REPO_ROOT, stdio: "inherit" });
  if (run.error) {
    console.error(`test:forge: could not start forge (${forge.path}): ${run.error.message}`);
    return 1;
  }
  return run.status ?? 1;
}

process.exitCode = main(process.argv.slice(2));
