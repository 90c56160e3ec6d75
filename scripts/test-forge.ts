/**
 * `npm run test:forge [-- forge test options]`: the kit's forge suite (test/foundry: the gate's refusals through a
 * consumer contract, fuzz tests of the gate against a model of its policy, invariant tests of the reference oracle,
 * the Base fork tests), with the forge 1.7.1 that `tools/foundry` pins.
 *
 * The fork tests fork what `BASE_RPC_URL` names. When it is not set, this script serves a Base to fork on loopback
 * (`startForkableBase`: the kit's simulation with its seeded agents, mined up to the pinned block, or to
 * `BASE_FORK_BLOCK`) and gives forge its URL, and `BASE_FORK_LOOPBACK_AGENTS` so that LoopbackBaseFork.t.sol checks
 * the values only that chain holds: the fork path (`createSelectFork`, the overlay over forked records) runs on every
 * run. Real Base is forked only when the user sets `BASE_RPC_URL` to a Base node.
 *
 * forge is installed into `tools/foundry` first when it is missing. Where it cannot run (no binary for the platform,
 * or the install failed), the suite is skipped with the reason, and exits 0, except under CI (`CI` set) on a platform
 * that has a binary: there a missing forge is a failure, not a skip. forge compiles with `tools/foundry/solc`, the
 * `solc` npm package behind a shim (`--offline --use`), since it cannot download solc where only npm is reachable.
 *
 * @packageDocumentation
 */
import { spawn } from "node:child_process";
import { type ForkableBase, startForkableBase } from "../src/harness/devnet/forkable-base";
import { baseForkBlockFromEnv } from "../src/harness/testing/fork-block";
import { ensureForge, FORGE_SOLC_SHIM, REPO_ROOT } from "./lib/forge-binary";
import { FORGE_SUITE_SKIPPED } from "./lib/skip-summary";

/** Runs forge without blocking this process's event loop (the loopback Base answers forge from here). */
function runForge(path: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolveExit) => {
    const child = spawn(path, args, { cwd: REPO_ROOT, stdio: "inherit", env });
    child.once("error", (error) => {
      console.error(`test:forge: could not start forge (${path}): ${error.message}`);
      resolveExit(1);
    });
    child.once("exit", (code) => resolveExit(code ?? 1));
  });
}

async function main(args: readonly string[]): Promise<number> {
  const forge = ensureForge((line) => console.log(`test:forge: ${line}`));
  if (!forge.ok) {
    if (forge.installable && process.env.CI) {
      console.error(`test:forge failed: ${forge.reason} (under CI a platform with a forge binary must run the suite)`);
      return 1;
    }
    console.log(`${FORGE_SUITE_SKIPPED}${forge.reason}`);
    return 0;
  }
  let loopback: ForkableBase | undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  const forgeArgs = ["test", "--offline", "--use", FORGE_SOLC_SHIM];
  if (!process.env.BASE_RPC_URL?.trim()) {
    loopback = await startForkableBase({ forkBlock: baseForkBlockFromEnv() });
    env.BASE_RPC_URL = loopback.rpcUrl;
    env.BASE_FORK_BLOCK = String(loopback.forkBlock);
    env.BASE_FORK_LOOPBACK_AGENTS = String(loopback.owners.size);
    // forge caches forked state per chain and block; the loopback chain's state differs from run to run.
    forgeArgs.push("--no-storage-caching");
    console.log(`test:forge: fork tests fork a loopback Base (${loopback.rpcUrl}, block ${loopback.forkBlock}; not real Base)`);
  }
  try {
    return await runForge(forge.path, [...forgeArgs, ...args], env);
  } finally {
    await loopback?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("test:forge failed:", error);
    process.exit(1);
  },
);
