/**
 * The command line's memory policy: its V8 heap, and the native memory of an in-process Hardhat chain (`--demo`).
 *
 * The heap. A nightly `--all` scan holds about 130–300 MB of live data at 150,000 agents, but
 * with Node's default settings V8 lets its heap grow to several times what is live before collecting (measured: a
 * peak resident set of about 800 MB at 150,000 agents, 364 MB with `--max-old-space-size=320`). V8's
 * `--optimize-for-size` makes it collect sooner and keep the heap near what is live (measured: 270–300 MB peak at
 * 150,000 agents, `npx tsx scripts/bench.ts --only memory`). The program sets it for itself at start, before
 * anything is allocated in bulk; the library never does (an embedding program keeps its own settings).
 *
 * The chain. `--demo` runs a Hardhat chain in the process, and Hardhat's EVM (EDR, a native module) allocates with
 * mimalloc, which by default hands freed memory back to the system only lazily: measured on the demo, 80–150 MB
 * more stayed resident (`npx tsx scripts/bench.ts --only demo`). The program asks mimalloc to return it at once
 * (`MIMALLOC_PURGE_DELAY=0`, read when EDR loads), for about a second more of the demo's time.
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

/** The mimalloc option {@link releaseFreedNativeMemory} sets, and its value. */
export const NATIVE_PURGE_SETTING = { name: "MIMALLOC_PURGE_DELAY", value: "0" } as const;

/**
 * Asks the allocator of Hardhat's in-process EVM (mimalloc, in EDR) to return freed memory to the system at once,
 * unless `MIMALLOC_PURGE_DELAY` is already set (the caller's own setting stands). Takes effect only if EDR has not
 * been loaded yet: call it before anything loads Hardhat.
 *
 * @param env - The environment to set it in (default `process.env`, which child processes and native code read).
 * @returns Whether it was set.
 */
export function releaseFreedNativeMemory(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[NATIVE_PURGE_SETTING.name] !== undefined) return false;
  env[NATIVE_PURGE_SETTING.name] = NATIVE_PURGE_SETTING.value;
  return true;
}
