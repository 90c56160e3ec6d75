#!/usr/bin/env node
/**
 * Entry point of the `trustgate` program: runs {@link main} on the process's arguments and sets the exit
 * code (without `process.exit`, so that pending output is flushed).
 *
 * @packageDocumentation
 */
import { main } from "./main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`trustgate: unexpected error: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
