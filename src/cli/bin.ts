#!/usr/bin/env node
/**
 * Entry point of the `trustgate` program: sets its heap policy (`preferSmallHeap`: memory stays near what is live
 * on large scans), runs {@link main} on the process's arguments and sets the exit code (without `process.exit`, so
 * that pending output is flushed).
 *
 * @packageDocumentation
 */
import { preferSmallHeap } from "./heap.js";
import { main } from "./main.js";

preferSmallHeap();

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`trustgate: unexpected error: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
