#!/usr/bin/env node
/**
 * Entry point of the `trustgate` program: sets its memory policy (`preferSmallHeap`: memory stays near what is live
 * on large scans; `releaseFreedNativeMemory`: an in-process Hardhat chain gives back what it frees; both before
 * anything loads Hardhat), runs {@link main} on the process's arguments and sets the exit code (without
 * `process.exit`, so that pending output is flushed).
 *
 * @packageDocumentation
 */
import { preferSmallHeap, releaseFreedNativeMemory } from "./heap.js";
import { main } from "./main.js";

preferSmallHeap();
releaseFreedNativeMemory();

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`trustgate: unexpected error: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
