/**
 * Peak memory of `trustgate drift --demo` (`npm start`): the whole program, with the embedded Hardhat chain and the
 * local signing service in its process, at the demo's size (3,030 agents on-chain). Each run is its own process,
 * measured by the same preload as the CLI memory benchmark (`memory.ts`):
 *
 * - the program as shipped (`src/cli/bin.ts drift --demo`);
 * - the same with mimalloc's own purge delay (`MIMALLOC_PURGE_DELAY=10`) instead of the program's 0;
 * - the same with the embedded chain read in calls of 500 records (the reader's default) instead of its own 25
 *   (`demo-with-read-chunk.ts`);
 * - the same with neither setting;
 * - the anchor: the drift process alone, `trustgate drift --rpc … --api … --all` against the same environment run
 *   by the benchmark's own process (what the issue compared the demo with).
 *
 * Figures, not assertions.
 *
 * @packageDocumentation
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { type MeasuredRun, PEAK_RSS_PRELOAD, runMeasured } from "./memory";

/** One configuration's figures. */
export interface DemoMemoryFigures extends MeasuredRun {
  /** What ran. */
  readonly run: string;
  /** Whether this is the anchor (the drift process alone). */
  readonly anchor: boolean;
}

const REPO = resolve(__dirname, "../..");

/**
 * Measures the demo's configurations and the anchor (see the module notes), once each.
 *
 * @returns The figures, the anchor last.
 */
export async function measureDemoMemory(): Promise<DemoMemoryFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-demo-memory-"));
  const preload = join(dir, "max-rss.cjs");
  writeFileSync(preload, PEAK_RSS_PRELOAD);
  const node = (script: string, ...args: string[]) => [
    "--require",
    preload,
    "--import",
    "tsx",
    "--conditions=trustgate-source",
    join(REPO, script),
    ...args,
  ];
  const demo = ["drift", "--demo", "--quiet"];
  const figures: DemoMemoryFigures[] = [];
  const measure = async (run: string, args: string[], env: Record<string, string> = {}, anchor = false) => {
    figures.push({ run, anchor, ...(await runMeasured(args, join(dir, `${figures.length}.rss`), env)) });
  };
  try {
    await measure("trustgate drift --demo, as shipped", node("src/cli/bin.ts", ...demo));
    await measure("… with mimalloc's default purge delay (MIMALLOC_PURGE_DELAY=10)", node("src/cli/bin.ts", ...demo), {
      MIMALLOC_PURGE_DELAY: "10",
    });
    const calls500 = node("scripts/bench/demo-with-read-chunk.ts", "500", "--quiet");
    await measure("… reading the embedded chain in calls of 500 (the reader's default)", calls500);
    await measure("… with neither (calls of 500, MIMALLOC_PURGE_DELAY=10)", calls500, { MIMALLOC_PURGE_DELAY: "10" });
    const env = await startEmbeddedDriftEnvironment({ hardhatConfig: "standalone" });
    try {
      const endpoints = ["--rpc", env.rpcUrl, "--oracle", env.oracle, "--api", env.apiUrl, "--issuer", env.issuer, "--jwks", env.jwksUrl];
      await measure(
        "the drift process alone (--rpc, --api, --all against the same environment in another process)",
        node("src/cli/bin.ts", "drift", ...endpoints, "--all", "--rate", "60000", "--quiet"),
        {},
        true,
      );
    } finally {
      await env.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
