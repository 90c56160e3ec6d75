/**
 * The command line's heap policy. A nightly `--all` scan holds about 130–300 MB of live data at 150,000 agents, but
 * with Node's default settings V8 lets its heap grow to several times what is live before collecting (measured: a
 * peak resident set of about 800 MB at 150,000 agents, 364 MB with `--max-old-space-size=320`). V8's
 * `--optimize-for-size` makes it collect sooner and keep the heap near what is live (measured: 294 MB peak at
 * 150,000 agents, `npx tsx scripts/bench.ts --only memory`). The program sets it for itself at start, before
 * anything is allocated in bulk; the library never does (an embedding program keeps its own settings).
 *
 * @packageDocumentation
 */
import { setFlagsFromString } from "node:v8";

/**
 * Asks V8 to favour a small heap over speed, unless `TRUSTGATE_V8_DEFAULT_HEAP=1` is set (to compare, or where the
 * process's own V8 flags should stand).
 *
 * @param env - The environment (default `process.env`).
 * @returns Whether the flag was set.
 */
export function preferSmallHeap(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.TRUSTGATE_V8_DEFAULT_HEAP === "1") return false;
  setFlagsFromString("--optimize-for-size");
  return true;
}
