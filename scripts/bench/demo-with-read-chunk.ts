/**
 * `trustgate drift --demo` as `src/cli/bin.ts` runs it (the same memory policy, the same command line), except that
 * the embedded chain is read in calls of the size given first: for the demo memory benchmark to measure what the
 * embedded environment's `readChunkSize` saves.
 *
 *   node --import tsx scripts/bench/demo-with-read-chunk.ts <records per eth_call> [drift options…]
 *
 * @packageDocumentation
 */
import { main } from "../../src/cli/main";
import { preferSmallHeap, releaseFreedNativeMemory } from "../../src/cli/heap";
import { runDrift } from "../../src/drift/run";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";

preferSmallHeap();
releaseFreedNativeMemory();

const [chunk, ...argv] = process.argv.slice(2);
main(["drift", "--demo", ...argv], undefined, {
  runDrift,
  startEmbedded: (options) => startEmbeddedDriftEnvironment({ ...options, hardhatConfig: "standalone", readChunkSize: Number(chunk) }),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo-with-read-chunk: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
