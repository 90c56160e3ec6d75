/**
 * `trustgate drift` as a real process, for the tests that stop one mid-run (a SIGKILL, a Ctrl-C): node itself with tsx
 * as a loader, so that the signal reaches the process that runs the scan (the `tsx` command would run it in a child
 * of its own, which a signal to the command leaves running).
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";

const ROOT = resolve(__dirname, "../..");

/**
 * Starts `trustgate drift` with `args` in the repository, under `CI=1`, its stdout ignored and its stderr piped.
 *
 * @param args - The arguments after `drift`.
 * @returns The child process.
 */
export function spawnDrift(args: readonly string[]): ChildProcessByStdio<null, null, Readable> {
  return spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "drift", ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/**
 * Waits until the state file holds at least `count` signed fetches' outcomes (its journal's `outcome` lines), polling
 * every 50 ms; throws when the process exits first or 90 s pass.
 *
 * @param state - The state file the process writes.
 * @param count - The outcomes to wait for.
 * @param child - The process.
 * @param failure - The error's message when it does not get that far.
 */
export async function waitForOutcomes(
  state: string,
  count: number,
  child: { readonly exitCode: number | null },
  failure: () => string,
): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(existsSync(state) && (readFileSync(state, "utf8").match(/"type":"outcome"/g)?.length ?? 0) >= count)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(failure());
    await new Promise((r) => setTimeout(r, 50));
  }
}
