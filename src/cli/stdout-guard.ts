/**
 * While a machine format takes stdout (`--json -`, `--markdown -`), nothing else may reach it: the kit writes
 * its notices, progress and summary to stderr, and this guard sends anything a dependency prints through
 * `console.log` / `console.info` / `console.debug` (Hardhat, a plugin) to stderr as well, for the duration of
 * the run.
 *
 * @packageDocumentation
 */
import type { CliStream } from "./io.js";

/**
 * Redirects `console.log`, `console.info` and `console.debug` to `stderr` until the returned function is called.
 *
 * @param stderr - Where their output goes instead.
 * @param enabled - Whether to redirect (false: nothing changes).
 * @returns A function restoring the console.
 */
export function guardStdout(stderr: CliStream, enabled: boolean): () => void {
  if (!enabled) return () => {};
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => {
    stderr.write(`${args.map((arg) => (typeof arg === "string" ? arg : String(arg))).join(" ")}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => {
    console.log = saved.log;
    console.info = saved.info;
    console.debug = saved.debug;
  };
}
