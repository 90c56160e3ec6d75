/**
 * Peak memory of the `trustgate drift --all` command line as the population grows: for each size, an embedded
 * environment (local Base chain over loopback HTTP, local signing service) is started in this process, and the CLI
 * runs as its own process against it — a first night with a state file, the JSON and Markdown reports written — with
 * Node's default options (not the benchmark's larger heap). Its peak resident set size is read by a preload module
 * as the process exits: on Linux `VmHWM` of `/proc/self/status`, the high-water mark of the process's own memory
 * image, since `process.resourceUsage().maxRSS` there also keeps the resident size of the process it was forked from
 * at the moment of `exec` (here the benchmark, which holds the whole chain: it read 15 GB for every size); elsewhere
 * `maxRSS`. Figures, not assertions.
 *
 * The CLI runs from the TypeScript sources through tsx (the repository's way of running it); tsx's loader adds to the
 * figure, so it is an upper bound of what the built package uses.
 *
 * @packageDocumentation
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";

/** One run's figures. */
export interface CliMemoryFigures {
  readonly agents: number;
  /** Whether the CLI ran with V8's default heap policy (`TRUSTGATE_V8_DEFAULT_HEAP=1`) rather than its own. */
  readonly v8DefaultHeap: boolean;
  /** Peak resident set size of the CLI process, bytes. */
  readonly peakRssBytes: number;
  /** Rows in the JSON report written (every agent, streamed). */
  readonly rows: number;
  /** Signed fetches the run made. */
  readonly signedFetches: number;
  /** The CLI's exit code (3: drift found, as the embedded default is built to show). */
  readonly exitCode: number;
  readonly wallMs: number;
}

const REPO = resolve(__dirname, "../..");

/** The preload module: writes the process's peak RSS (bytes) to `$TRUSTGATE_BENCH_RSS_FILE` on exit. */
export const PEAK_RSS_PRELOAD = `
const { readFileSync, writeFileSync } = require("node:fs");
function peakRssKiB() {
  try {
    const hwm = /^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm) return Number(hwm[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
}
process.on("exit", () => writeFileSync(process.env.TRUSTGATE_BENCH_RSS_FILE, String(peakRssKiB() * 1024)));
`;

/**
 * Runs the CLI once per size, and at the sizes in `compareDefaultHeapAt` once more with V8's default heap policy.
 *
 * @param sizes - Populations to measure (agents the service lists).
 * @param compareDefaultHeapAt - Sizes at which to run the comparison too.
 * @returns The figures, in order.
 */
export async function measureCliMemory(
  sizes: readonly number[],
  compareDefaultHeapAt: readonly number[] = [],
): Promise<CliMemoryFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-memory-"));
  const preload = join(dir, "max-rss.cjs");
  writeFileSync(preload, PEAK_RSS_PRELOAD);
  const figures: CliMemoryFigures[] = [];
  try {
    for (const size of sizes) {
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const env = await startEmbeddedDriftEnvironment({
        size,
        now,
        snapshotAt: new Date(now.getTime() - 2 * 3600_000),
        faults: false,
        rateLimit: false,
      });
      try {
        for (const v8DefaultHeap of compareDefaultHeapAt.includes(size) ? [false, true] : [false]) {
          figures.push(await runCli(env, size, join(dir, `${size}${v8DefaultHeap ? "-default-heap" : ""}`), preload, v8DefaultHeap));
        }
      } finally {
        await env.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** Runs the CLI once against `env` and reads its figures. */
async function runCli(
  env: Awaited<ReturnType<typeof startEmbeddedDriftEnvironment>>,
  size: number,
  out: string,
  preload: string,
  v8DefaultHeap: boolean,
): Promise<CliMemoryFigures> {
  const before = env.service.stats().byPath["/api/trust-check"] ?? 0;
  const rssFile = `${out}.rss`;
  const args = [
    "--require",
    preload,
    "--import",
    "tsx",
    "--conditions=trustgate-source",
    join(REPO, "src/cli/bin.ts"),
    "drift",
    ...["--rpc", env.rpcUrl, "--oracle", env.oracle, "--api", env.apiUrl, "--issuer", env.issuer, "--jwks", env.jwksUrl],
    ...["--all", "--events-from", "0", "--state", `${out}.state.jsonl`, "--rate", "1000000", "--concurrency", "16"],
    ...["--json", `${out}.json`, "--markdown", `${out}.md`],
  ];
  const run = await runMeasured(args, rssFile, v8DefaultHeap ? { TRUSTGATE_V8_DEFAULT_HEAP: "1" } : {});
  const report = JSON.parse(readFileSync(`${out}.json`, "utf8")) as { agents: unknown[] };
  return {
    agents: size,
    v8DefaultHeap,
    peakRssBytes: run.peakRssBytes,
    rows: report.agents.length,
    signedFetches: (env.service.stats().byPath["/api/trust-check"] ?? 0) - before,
    exitCode: run.exitCode,
    wallMs: run.wallMs,
  };
}

/** What {@link runMeasured} measured of one process. */
export interface MeasuredRun {
  readonly exitCode: number;
  /** Peak resident set size of the process, bytes (written by {@link PEAK_RSS_PRELOAD}). */
  readonly peakRssBytes: number;
  readonly wallMs: number;
}

/**
 * Runs Node with `args` (which load {@link PEAK_RSS_PRELOAD} with `--require`) from the repository's root, output
 * ignored, without this process's `NODE_OPTIONS`, the CLI's memory settings (`TRUSTGATE_V8_DEFAULT_HEAP`,
 * `MIMALLOC_PURGE_DELAY`) or anything else the benchmark was started with that would change them; `env` adds to it.
 *
 * @param args - Node's arguments.
 * @param rssFile - Where the preload writes the peak.
 * @param env - Variables to add.
 * @returns Its exit code, peak RSS and wall time.
 */
export async function runMeasured(args: readonly string[], rssFile: string, env: Record<string, string> = {}): Promise<MeasuredRun> {
  const started = performance.now();
  const exitCode = await new Promise<number>((done, fail) => {
    const { NODE_OPTIONS: _options, TRUSTGATE_V8_DEFAULT_HEAP: _policy, MIMALLOC_PURGE_DELAY: _purge, ...rest } = process.env;
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      env: { ...rest, TRUSTGATE_BENCH_RSS_FILE: rssFile, ...env },
      stdio: "ignore",
    });
    child.on("error", fail);
    child.on("exit", (code) => done(code ?? -1));
  });
  return { exitCode, peakRssBytes: Number(readFileSync(rssFile, "utf8")), wallMs: performance.now() - started };
}
