/**
 * `npm run bench`: measures and prints the kit's figures side by side — gas of gated calls against the
 * `meetsThreshold`-only baseline, gas per published record, attestation verifications per second, oracle
 * records read per second through Multicall3 against one `eth_call` each and viem's multicall batching (a
 * loopback node behind a proxy that adds a hosted endpoint's latency and batch limit), the client rate limiter
 * under load, the nightly `--all` drift job over two nights of a 150,000-agent population with a state file
 * (`BENCH_DRIFT_SIZE` changes the size), the peak memory of the drift command line at 15,000, 150,000 and 300,000
 * agents (`BENCH_MEMORY_SIZES`, comma-separated, changes them), and the gas of the pull path: a gated call that brings the service's signed attestation, verified on-chain by
 * `AttestedTrustOracle` with and without the P-256 precompile, against reading the Base oracle alone.
 * Figures, not assertions: targets are shown next to the measured values, and the run never fails
 * because a target is missed.
 *
 * `--only <part>[,<part>…]` runs some parts only: `gas`, `attested`, `verification`, `reader`, `limiter`, `drift`, `memory`,
 * `demo` (the peak memory of `trustgate drift --demo`, chain and service in its process, beside the drift process
 * alone), `html` (the `--html` page at 150,000 agents: file size, time to write, time for headless Chromium to show it),
 * `markdown` (the `--markdown` summary at 150,000 agents: its size against its 64 KB limit and GitHub's 1 MiB),
 * `watch` (`trustgate watch`: the time from a record's write to its alert on the devnet, in blocks and ms; the chain
 * follower's heap over 100,000 blocks of a 150,000-agent population; the slow audit's requests an hour against the
 * service's limit)
 * (for example `npx tsx scripts/bench.ts --only reader`), and `mutation` (StrykerJS over the readers of signed data:
 * each module's mutation score and its surviving mutants), which runs only when `--only` names it
 * (`npm run test:mutation`).
 *
 * Besides printing, each run writes what it measured into `docs/benchmarks.md` (`scripts/bench/page.ts`): each part
 * it ran replaces that part's section, with the machine it ran on and how long it took; the other sections stay.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, release, totalmem, type } from "node:os";
import { dirname, join } from "node:path";
import { format, parseArgs } from "node:util";
import { measureAttestationVerification } from "./bench/attestation";
import { measureAttestedGas, printAttestedGas } from "./bench/attested";
import { type DriftNightsResult, measureDriftNights, type NightFigures } from "./bench/drift";
import { measureForgeGateGas } from "./bench/forge-gas";
import { measureGateGas, measurePublishGas } from "./bench/gas";
import { measureHtmlPage } from "./bench/html-page";
import { GITHUB_STEP_SUMMARY_MAX_BYTES, measureMarkdownSummary } from "./bench/markdown-summary";
import { MARKDOWN_SUMMARY_MAX_BYTES } from "../src/cli/format-markdown";
import { measureDemoMemory } from "./bench/demo-memory";
import { measureCliMemory } from "./bench/memory";
import { measureRateLimiter } from "./bench/rate-limiter";
import { measureAlertLatency, measureAuditRate, measureFollowerMemory, quantile, SERVICE_LIMITS_PER_MINUTE } from "./bench/watch";
import { measureMutation, MUTATION_REPORT_PATH, MUTATION_SCORE_TARGET } from "./bench/mutation";
import {
  BENCH_PAGE_PATH,
  BENCH_PART_TITLES,
  BENCH_PARTS,
  type BenchPart,
  markdownCode,
  markdownTable,
  mergeBenchPage,
  ON_DEMAND_BENCH_PARTS,
} from "./bench/page";
import { measureReaderThroughput, type ReaderRate } from "./bench/reader";

const GATE_RATIO_TARGET = 1.1;
const PUBLISH_TARGETS = { updated: 10_000, new: 30_000, batch: 500 };
const VERIFICATIONS_PER_SECOND_TARGET = 3_000;
const READER_RATIO_TARGET = 20;
/** Kit verifications per CPU-second on one core ÷ a bare crypto.verify loop's on the same core. */
const VERIFICATION_RATIO_TARGET = 0.7;
/** The simulated round trip to a hosted Base endpoint, per HTTP request. */
const HOSTED_LATENCY_MS = 40;
/** JSON-RPC calls per batch the simulated provider accepts (geth's own default is 1,000; this one is stricter). */
const PROVIDER_BATCH_LIMIT = 100;

const table = markdownTable;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const met = (ok: boolean) => (ok ? "(met)" : "(MISSED)");

async function benchGas(): Promise<void> {
  const gate = await measureGateGas();
  const baseline = gate[0]!.gas;
  const forge = measureForgeGateGas();
  const forgeGas = (r: (typeof gate)[number]) => (forge.ok && r.forgeKey !== undefined ? forge.gas[r.forgeKey] : undefined);
  console.log("Gas of one gated call (steady state, whole transaction; forge: the same calls under forge test --isolate)");
  console.log(
    table(
      ["gate", "gas", "× baseline", "forge", "forge − Hardhat"],
      gate.map((r) => {
        const f = forgeGas(r);
        return [
          r.name,
          fmt(r.gas),
          (r.gas / baseline).toFixed(3),
          f === undefined ? "—" : fmt(f),
          f === undefined ? "—" : String(f - r.gas),
        ];
      }),
    ),
  );
  if (!forge.ok) console.log(`forge: not measured (${forge.reason})`);
  else {
    const agree = gate.every((r) => forgeGas(r) === r.gas);
    console.log(`forge and Hardhat agree to the gas on every gated call: ${agree ? "yes" : "NO"}`);
  }
  const ratio = gate[1]!.gas / baseline;
  console.log(
    `target: all checks without the controller check ≤ ${GATE_RATIO_TARGET.toFixed(2)}× baseline → ${ratio.toFixed(3)}× ${ratio <= GATE_RATIO_TARGET ? "(met)" : "(MISSED)"}\n`,
  );

  const publish = await measurePublishGas([1, 100, PUBLISH_TARGETS.batch]);
  console.log("Gas of TrustScoreOracle.publish (whole transaction, per record = total / batch size)");
  console.log(
    table(
      ["batch", "new: total", "new: per record", "updated: total", "updated: per record", "updated ÷ new"],
      publish.map((r) => [
        r.batch,
        fmt(r.newTotal),
        fmt(Math.round(r.newTotal / r.batch)),
        fmt(r.updatedTotal),
        fmt(Math.round(r.updatedTotal / r.batch)),
        (r.updatedTotal / r.newTotal).toFixed(3),
      ]),
    ),
  );
  const big = publish.find((r) => r.batch === PUBLISH_TARGETS.batch)!;
  const perNew = big.newTotal / big.batch;
  const perUpdated = big.updatedTotal / big.batch;
  console.log(
    `target (batch of ${PUBLISH_TARGETS.batch}): ≤ ${fmt(PUBLISH_TARGETS.new)} per new record → ${fmt(Math.round(perNew))} ${perNew <= PUBLISH_TARGETS.new ? "(met)" : "(MISSED)"}; ` +
      `≤ ${fmt(PUBLISH_TARGETS.updated)} per updated record → ${fmt(Math.round(perUpdated))} ${perUpdated <= PUBLISH_TARGETS.updated ? "(met)" : "(MISSED)"}`,
  );
}

async function benchAttested(): Promise<void> {
  printAttestedGas(await measureAttestedGas(), table);
}

async function benchVerification(): Promise<void> {
  const verification = await measureAttestationVerification({ durationMs: 3_000, includeBoth: true });
  console.log(
    "Attestation verification (v2 trust-check carrying jws + sig, local JWKS): one thread, the kit and a bare crypto.verify loop over the same signatures in alternating 50 ms slices",
  );
  const row = (name: string, r: { count: number; ms: number; perSecond: number; cpuMs: number; perCpuSecond: number }) => [
    name,
    fmt(r.count),
    fmt(r.ms),
    fmt(r.perSecond),
    fmt(r.cpuMs),
    fmt(r.perCpuSecond),
    (r.perCpuSecond / verification.raw.perCpuSecond).toFixed(2),
  ];
  const kit = {
    count: verification.count,
    ms: verification.ms,
    perSecond: verification.verificationsPerSecond,
    cpuMs: verification.cpuMs,
    perCpuSecond: verification.verificationsPerCpuSecond,
  };
  const rows = [
    row("bare crypto.verify loop, one core (the limit)", verification.raw),
    row('kit, verify: "one" (default: 1 ECDSA check)', kit),
    ...(verification.both ? [row('kit, verify: "both" (2 ECDSA checks)', verification.both)] : []),
  ];
  console.log(table(["path", "verified", "wall ms", "per second", "CPU ms", "per CPU-second", "× limit"], rows));
  // Judged on the lower of the two CPU estimates (the paired-slice median, the totals' ratio in the column).
  const ratio = Math.min(verification.ratio, verification.totalRatio);
  console.log(
    `target: kit ≥ ${VERIFICATION_RATIO_TARGET} × the bare verify rate on one core, per CPU-second → ${ratio.toFixed(2)}× ${met(ratio >= VERIFICATION_RATIO_TARGET)} ` +
      `(median of paired slices ${verification.ratio.toFixed(2)}×, totals ${verification.totalRatio.toFixed(2)}×; wall ${verification.wallRatio.toFixed(2)}×)`,
  );
  console.log(
    `target: ≥ ${fmt(VERIFICATIONS_PER_SECOND_TARGET)}/s on one core → ${fmt(verification.verificationsPerSecond)}/s ${met(verification.verificationsPerSecond >= VERIFICATIONS_PER_SECOND_TARGET)}`,
  );
}

async function benchReader(): Promise<void> {
  const records = 2_000;
  const reader = await measureReaderThroughput({
    records,
    rounds: 8,
    scenarios: [
      { label: "0 ms", latencyMs: 0, maxBatchSize: PROVIDER_BATCH_LIMIT },
      {
        label: `${HOSTED_LATENCY_MS} ms`,
        latencyMs: HOSTED_LATENCY_MS,
        maxBatchSize: PROVIDER_BATCH_LIMIT,
        tuning: [
          { chunkSize: 100, concurrency: 4 },
          { chunkSize: 250, concurrency: 4 },
          { chunkSize: 250, concurrency: 8 },
          { chunkSize: 500, concurrency: 2 },
          { chunkSize: 500, concurrency: 8 },
          { chunkSize: 1_000, concurrency: 4 },
        ],
      },
    ],
  });
  const { chunkSize, concurrency } = reader;
  console.log(
    `Oracle reads, ${fmt(records)} records: a loopback Hardhat node behind a proxy adding a fixed delay per HTTP request ` +
      `(${HOSTED_LATENCY_MS} ms: a hosted Base endpoint's round trip) and accepting at most ${PROVIDER_BATCH_LIMIT} calls per JSON-RPC batch`,
  );
  const rate = (r: ReaderRate) => fmt(r.recordsPerSecond);
  console.log(
    table(
      [
        "latency",
        `Multicall3 rec/s (${chunkSize}/call, ${concurrency} in flight)`,
        "requests",
        `eth_call rec/s (${concurrency} in flight)`,
        `eth_call rec/s (JSON-RPC batches of ${PROVIDER_BATCH_LIMIT})`,
        "viem multicall rec/s",
        "viem batch.multicall rec/s",
        "ratio",
      ],
      reader.scenarios.map((s) => [
        s.scenario.label,
        rate(s.multicall),
        s.multicall.httpRequests,
        rate(s.perRecord),
        rate(s.jsonRpcBatch),
        rate(s.viemMulticall),
        rate(s.viemBatchMulticall),
        `${s.ratio.toFixed(1)}×`,
      ]),
    ),
  );
  const hosted = reader.scenarios.find((s) => s.scenario.latencyMs === HOSTED_LATENCY_MS)!;
  console.log(
    `target: Multicall3 reads ≥ ${READER_RATIO_TARGET}× one eth_call per record at ${HOSTED_LATENCY_MS} ms → ${hosted.ratio.toFixed(1)}× ${met(hosted.ratio >= READER_RATIO_TARGET)}` +
      `; batches refused by the provider limit: ${reader.scenarios.reduce((n, s) => n + s.refusedBatches, 0)}`,
  );
  if (hosted.tuning.length > 0) {
    console.log(
      `readTrustRecords at ${HOSTED_LATENCY_MS} ms, other settings (records/call × in flight → rec/s): ` +
        [{ chunkSize, concurrency, rate: hosted.multicall }, ...hosted.tuning]
          .map((t) => `${t.chunkSize} × ${t.concurrency} → ${fmt(t.rate.recordsPerSecond)}`)
          .join(", "),
    );
  }
}

async function benchLimiter(): Promise<void> {
  console.log("Client rate limiter under load (simulated clock, 60 s windows)");
  const limiterRows: Array<Array<string | number>> = [];
  for (const [limit, arrival] of [
    [30, "burst"],
    [300, "burst"],
    [300, "random"],
  ] as const) {
    const r = await measureRateLimiter({ limitPerMinute: limit, requests: limit * 50, arrival });
    limiterRows.push([
      limit,
      arrival,
      fmt(r.requests),
      r.maxInAnyWindow,
      r.throughputPerWindow.toFixed(1),
      r.withinLimit ? "yes" : "NO",
      fmt(r.acquiresPerSecond),
    ]);
  }
  console.log(
    table(
      ["limit/min", "arrivals", "requests", "max in any 60 s", "granted per 60 s", "never above limit", "acquires/s (overhead)"],
      limiterRows,
    ),
  );
}

async function benchDrift(): Promise<void> {
  printDriftNights(await measureDriftNights({ size: Number(process.env.BENCH_DRIFT_SIZE ?? 150_000) }));
}

const MEMORY_SIZES = [15_000, 150_000, 300_000];
const MEMORY_TARGET_BYTES = 400 * 1024 * 1024;
const MEMORY_TARGET_SIZE = 150_000;

async function benchMemory(): Promise<void> {
  const sizes = process.env.BENCH_MEMORY_SIZES ? process.env.BENCH_MEMORY_SIZES.split(",").map(Number) : MEMORY_SIZES;
  const figures = await measureCliMemory(sizes, [MEMORY_TARGET_SIZE]);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const smallest = figures[0]!;
  console.log(
    "\nPeak memory of the CLI (trustgate drift --all, first night with --state, JSON and Markdown written; its own process, default Node options)",
  );
  console.log(
    table(
      ["agents", "heap policy", "peak RSS", "× smallest", "÷ 400 MB target", "rows written", "signed fetches", "exit", "wall ms"],
      figures.map((f) => [
        fmt(f.agents),
        f.v8DefaultHeap ? "V8 default (TRUSTGATE_V8_DEFAULT_HEAP=1)" : "the CLI's (--optimize-for-size)",
        mb(f.peakRssBytes),
        (f.peakRssBytes / smallest.peakRssBytes).toFixed(2),
        (f.peakRssBytes / MEMORY_TARGET_BYTES).toFixed(2),
        fmt(f.rows),
        fmt(f.signedFetches),
        String(f.exitCode),
        fmt(f.wallMs),
      ]),
    ),
  );
  const atTarget = figures.find((f) => f.agents === MEMORY_TARGET_SIZE && !f.v8DefaultHeap);
  if (atTarget) {
    console.log(
      `target: peak RSS ≤ 400 MB at ${fmt(MEMORY_TARGET_SIZE)} agents → ${mb(atTarget.peakRssBytes)} ${met(atTarget.peakRssBytes <= MEMORY_TARGET_BYTES)}`,
    );
  }
}

async function benchDemoMemory(): Promise<void> {
  const figures = await measureDemoMemory();
  const anchor = figures.find((f) => f.anchor)!;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    "\nPeak memory of the demo (trustgate drift --demo: 3,030 agents on-chain, Hardhat 2's in-process chain and the local service in the process), each run its own process",
  );
  console.log(
    table(
      ["run", "peak RSS", "× the drift process alone", "exit", "wall ms"],
      figures.map((f) => [f.run, mb(f.peakRssBytes), (f.peakRssBytes / anchor.peakRssBytes).toFixed(2), String(f.exitCode), fmt(f.wallMs)]),
    ),
  );
}

const HTML_PAGE_SIZE = 150_000;

async function benchHtmlPage(): Promise<void> {
  const f = await measureHtmlPage(Number(process.env.BENCH_HTML_SIZE ?? HTML_PAGE_SIZE));
  const ms = (value: number | null) => (value === null ? "not measured (no /usr/bin/chromium)" : fmt(value));
  console.log(
    `\nThe HTML report page (trustgate drift --html), ${fmt(f.agents)} agents; headless Debian Chromium opening it from disk (BENCH_HTML_SIZE changes the size)`,
  );
  console.log(
    table(
      ["agents", "file", "write ms", "first view ms", "of which the page's script ms"],
      [[fmt(f.agents), `${(f.fileBytes / 1024 / 1024).toFixed(1)} MB`, fmt(f.writeMs), ms(f.firstViewMs), ms(f.scriptMs)]],
    ),
  );
}

const MARKDOWN_SUMMARY_SIZE = 150_000;

async function benchMarkdownSummary(): Promise<void> {
  const f = await measureMarkdownSummary(Number(process.env.BENCH_MARKDOWN_SIZE ?? MARKDOWN_SUMMARY_SIZE));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `\nThe Markdown summary (trustgate drift --markdown), ${fmt(f.agents)} agents, beside every row as Markdown (--markdown-rows); BENCH_MARKDOWN_SIZE changes the size`,
  );
  console.log(
    table(
      [
        "agents",
        "summary",
        "÷ its 64 KB limit",
        "÷ GitHub's 1 MiB step summary",
        "flips and invalid listed",
        "every row (--markdown-rows)",
        "write ms",
      ],
      [
        [
          fmt(f.agents),
          `${fmt(f.summaryBytes)} B (${kb(f.summaryBytes)})`,
          (f.summaryBytes / MARKDOWN_SUMMARY_MAX_BYTES).toFixed(3),
          (f.summaryBytes / GITHUB_STEP_SUMMARY_MAX_BYTES).toFixed(3),
          `${fmt(f.listed)} of ${fmt(f.problems)}`,
          `${(f.rowsBytes / 1024 / 1024).toFixed(1)} MB`,
          fmt(f.writeMs),
        ],
      ],
    ),
  );
  console.log(
    `target: summary ≤ ${fmt(MARKDOWN_SUMMARY_MAX_BYTES)} B → ${fmt(f.summaryBytes)} B ${met(f.summaryBytes <= MARKDOWN_SUMMARY_MAX_BYTES)}`,
  );
}

const FIRST_NIGHT_TARGET = 18_000;
const SECOND_NIGHT_TARGET = 4_500;

function counts(record: Readonly<Record<string, number>> | undefined): string {
  const entries = Object.entries(record ?? {}).filter(([, n]) => n > 0);
  if (entries.length === 0) return "none";
  return entries
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(", ");
}

function printDriftNights(r: DriftNightsResult): void {
  const rate = r.projectedRatePerMinute;
  console.log(
    `\nThe nightly --all drift job, ${fmt(r.size)} agents, embedded default (chain over loopback HTTP, local service, 16 requests in flight), with --state`,
  );
  const row = (name: string, n: NightFigures, target: number) => {
    const t = n.report.summary.triage!;
    return [
      name,
      fmt(n.signedFetches),
      fmt(target),
      (n.signedFetches / target).toFixed(3),
      `${n.projectedMinutes.toFixed(1)} min`,
      `${(target / rate).toFixed(0)} min`,
      fmt(t.audit?.sampleSize ?? 0),
      fmt(n.wallMs),
    ];
  };
  console.log(
    table(
      ["night", "signed fetches", "target", "÷ target", `at ${rate}/min (all requests)`, "target", "audit", "wall ms"],
      [
        row("1: first full scan, no state", r.first, FIRST_NIGHT_TARGET),
        row("2: incremental, with the state", r.second, SECOND_NIGHT_TARGET),
      ],
    ),
  );
  for (const [name, n, target] of [
    ["night 1", r.first, FIRST_NIGHT_TARGET],
    ["night 2", r.second, SECOND_NIGHT_TARGET],
  ] as const) {
    const t = n.report.summary.triage!;
    const a = t.audit!;
    console.log(
      `${name}: fetched for: ${counts(t.reasons)}; avoided: ${counts(t.avoided)} (by the state ${fmt(t.avoidedBy?.state ?? 0)}, by the on-chain record ${fmt(t.avoidedBy?.chain ?? 0)})`,
    );
    console.log(
      `  audit ${fmt(a.sampleSize)} of ${fmt(a.eligible)} eligible (${(100 * (a.confidence ?? 0)).toFixed(0)}% to catch a listing lying about ${(100 * (a.lieRate ?? 0)).toFixed(0)}%: ` +
        `detection ${(100 * (a.detectionProbability ?? 0)).toFixed(2)}%); status: ${counts(n.report.summary.byStatus)}; ` +
        `state ${fmt(t.state?.entries ?? 0)} agents, ${fmt(t.state?.fromState ?? 0)} rows from it; ` +
        `target ≤ ${fmt(target)} signed fetches → ${fmt(n.signedFetches)} ${met(n.signedFetches <= target)}`,
    );
  }
  const old = r.second.report.summary.triage?.state?.oldestAttestation;
  if (old)
    console.log(
      `  oldest verified attestation in the state after night 2: ${old.agent}, verified ${old.verifiedAt}, computed ${old.computedAt}`,
    );
  console.log(
    `between the nights: the nightly refresh published ${fmt(r.refresh.records)} records (${fmt(r.refresh.ms)} ms); then the service's data moved on: ` +
      `${fmt(r.change.changed)} agents changed (${(100 * r.change.options.changedFraction).toFixed(1)}% of scores, ` +
      `${(100 * r.change.options.sybilChangedFraction).toFixed(1)}% of sybil severities), ${fmt(r.change.added)} new`,
  );
  const k = r.resume;
  console.log(
    `night 2 killed halfway and started again: ${fmt(k.answeredBeforeKill)} answers checkpointed before the kill (${fmt(k.fetchedBeforeKill)} fetches made, ` +
      `${fmt(k.fetchedBeforeKill - k.answeredBeforeKill)} in flight lost); the continued run reused ${fmt(k.reused)} and fetched ${fmt(k.fetchedOnResume)}; ` +
      `together ${fmt(k.fetchedBeforeKill + k.fetchedOnResume)} against ${fmt(r.second.signedFetches)} uninterrupted; same report (rows and summary): ${k.sameReport ? "yes" : "NO"}; ${fmt(k.wallMs)} ms`,
  );
  console.log(
    `projected against the real service at ${rate}/min: night 1 ${fmt(r.first.requests)} requests → ${r.first.projectedMinutes.toFixed(1)} min (target ≤ 60 min ${met(r.first.projectedMinutes <= 60)}), ` +
      `night 2 ${fmt(r.second.requests)} → ${r.second.projectedMinutes.toFixed(1)} min (target ≤ 15 min ${met(r.second.projectedMinutes <= 15)}); ` +
      `every agent fetched signed would take ${((r.first.report.summary.triage!.listed + Math.ceil(r.first.report.summary.triage!.listed / 1000)) / rate / 60).toFixed(1)} h`,
  );
}

/** Records written one by one for the watch's alert latency. */
const WATCH_LATENCY_RECORDS = 20;

async function benchWatch(): Promise<void> {
  const latency = await measureAlertLatency({ records: WATCH_LATENCY_RECORDS, confirmations: 2, pollIntervalMs: 500 });
  const blocks = latency.samples.map((s) => s.blocks);
  const ms = latency.samples.map((s) => s.ms);
  console.log(
    `Alert latency of trustgate watch on the devnet (local Base chain over HTTP, local signing service, a webhook receiver on loopback): ` +
      `${latency.samples.length} records that flip the gate's decision, written one by one, each followed by --confirmations ${latency.confirmations} mined blocks; ` +
      `--poll-interval ${latency.pollIntervalMs} ms; from the write's block to the signed alert's arrival`,
  );
  console.log(
    table(
      ["", "p50", "p99", "max"],
      [
        ["blocks", quantile(blocks, 0.5), quantile(blocks, 0.99), Math.max(...blocks)],
        ["ms", fmt(quantile(ms, 0.5)), fmt(quantile(ms, 0.99)), fmt(Math.max(...ms))],
        [
          "ms ÷ poll interval",
          (quantile(ms, 0.5) / latency.pollIntervalMs).toFixed(2),
          (quantile(ms, 0.99) / latency.pollIntervalMs).toFixed(2),
          (Math.max(...ms) / latency.pollIntervalMs).toFixed(2),
        ],
      ],
    ),
  );
  const within = blocks.every((b) => b <= latency.confirmations);
  console.log(
    `bound: every alert within the confirmation depth (${latency.confirmations} blocks) → ${within ? "yes" : "NO"}; ` +
      `signed (x-trustgate-signature) ${latency.signed} of ${latency.samples.length}`,
  );

  const memory = await measureFollowerMemory();
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `\nMemory of the chain follower and the alert book over ${fmt(memory.blocks)} blocks of simulated history (an in-memory EIP-1193 stand-in: ` +
      `${fmt(memory.changes)} RecordUpdated events of a ${fmt(memory.population)}-key population, ${fmt(memory.polls)} polls; each change raised in or cleared from a book of at most 1,000 conditions): ` +
      `heapUsed after a full GC`,
  );
  console.log(
    table(
      ["blocks processed", "heapUsed MB", "÷ first sample"],
      [
        ["0 (keys loaded)", mb(memory.start.heapUsed), "–"],
        ...memory.samples.map((s) => [fmt(s.block), mb(s.heapUsed), (s.heapUsed / memory.samples[0]!.heapUsed).toFixed(3)]),
      ],
    ),
  );
  const first = memory.samples[0]!;
  const last = memory.samples.at(-1)!;
  const perStep = (last.heapUsed - first.heapUsed) / Math.max(1, memory.samples.length - 1);
  console.log(
    `growth per 10,000 blocks ${(perStep / 1024).toFixed(1)} KB; last ÷ first sample ${(last.heapUsed / first.heapUsed).toFixed(3)} (flat: close to 1); ` +
      `${memory.outstanding} alerts outstanding at the end; ${fmt(memory.ms)} ms`,
  );

  const rates = [SERVICE_LIMITS_PER_MINUTE.anonymous, SERVICE_LIMITS_PER_MINUTE.withKey].map((rate) => measureAuditRate(rate));
  console.log(
    `\nThe slow audit's requests an hour at the default share (${(rates[0]!.share * 100).toFixed(0)} % of the limit): its walk over 150,000 agents driven through one simulated hour, asked every 4 s`,
  );
  console.log(
    table(
      ["limit", "limit / h", "auditRequestsPerHour", "measured / h", "÷ limit", "one pass over 150,000"],
      rates.map((r, i) => [
        `${r.ratePerMinute}/min (${i === 0 ? "no key" : "with a key"})`,
        fmt(r.limitPerHour),
        fmt(r.computedPerHour),
        fmt(r.measuredPerHour),
        (r.measuredPerHour / r.limitPerHour).toFixed(3),
        `${r.passHours.toFixed(1)} h`,
      ]),
    ),
  );
}

async function benchMutation(): Promise<void> {
  const run = await measureMutation();
  console.log(
    "Mutation score of each reader of signed data (StrykerJS with the vitest runner; each mutant run against the unit suites that import the module, narrowed to the tests that reach the mutated code)",
  );
  const percent = (score: number | undefined) => (score === undefined ? "–" : `${score.toFixed(1)} %`);
  console.log(
    table(
      ["module", "mutants", "killed", "survived", "timeout", "no coverage", "not run (errors)", "score"],
      run.modules.map((m) => [`\`${m.module}\``, m.mutants, m.killed, m.survived, m.timeout, m.noCoverage, m.errors, percent(m.score)]),
    ),
  );
  for (const m of run.modules) {
    console.log(
      `target: \`${m.module}\` ≥ ${MUTATION_SCORE_TARGET} % → ${percent(m.score)} ${met(m.score !== undefined && m.score >= MUTATION_SCORE_TARGET)}`,
    );
  }
  if (run.undetected.length === 0) {
    console.log("Surviving mutants: none.");
  } else {
    console.log(
      `Surviving mutants (every mutant with its tests: ${MUTATION_REPORT_PATH}, written by the run, not committed). ` +
        "A survivor with 0 tests run broke the module's loading: no test ran to its end, which the vitest runner does not count as a failure.",
    );
    console.log(
      table(
        ["where", "mutator", "status", "tests run", "replacement"],
        run.undetected.map((u) => [
          `${u.module}:${u.line}`,
          u.mutator,
          u.status === "NoCoverage" ? "no coverage" : "survived",
          u.testsCompleted ?? "–",
          markdownCode(u.replacement.length > 80 ? `${u.replacement.slice(0, 80)}…` : u.replacement),
        ]),
      ),
    );
  }
}

const SECTIONS: Record<BenchPart, () => Promise<void>> = {
  gas: benchGas,
  attested: benchAttested,
  verification: benchVerification,
  reader: benchReader,
  limiter: benchLimiter,
  drift: benchDrift,
  memory: benchMemory,
  demo: benchDemoMemory,
  html: benchHtmlPage,
  markdown: benchMarkdownSummary,
  watch: benchWatch,
  mutation: benchMutation,
};

function selectedParts(): BenchPart[] {
  const { values } = parseArgs({ options: { only: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(
      `Usage: tsx scripts/bench.ts [--only <part>[,<part>…]]\nParts: ${BENCH_PARTS.join(", ")} (default: all but ${ON_DEMAND_BENCH_PARTS.join(", ")}, in that order)`,
    );
    process.exit(0);
  }
  if (values.only === undefined) return BENCH_PARTS.filter((p) => !ON_DEMAND_BENCH_PARTS.includes(p));
  const asked = values.only.split(",").map((p) => p.trim());
  const unknown = asked.filter((p) => !(BENCH_PARTS as readonly string[]).includes(p));
  if (unknown.length > 0 || asked.length === 0) {
    throw new Error(`--only takes parts from ${BENCH_PARTS.join(", ")}; got ${JSON.stringify(values.only)}`);
  }
  return BENCH_PARTS.filter((p) => asked.includes(p));
}

const SETUP = "Hardhat network (in-process EDR), solc 0.8.28, optimizer 10,000 runs";

/** The machine this run measures on, in one line. */
function machineFacts(): string {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  const memory = `${(totalmem() / 1024 ** 3).toFixed(1)} GB`;
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
  return `${cpu}, ${availableParallelism()} cores, ${memory} memory, ${type()} ${release()}, Node ${process.version}; load average at the start ${load}`;
}

function pageHeader(): string {
  return [
    "<!-- Generated by `npm run bench` (scripts/bench.ts). Do not edit: run the benchmark again. -->",
    "",
    "# Benchmarks",
    "",
    `Figures, not assertions: each target stands beside the measured value, and a missed target fails nothing. ${SETUP}.`,
    "`npm run bench` measures every part; `npx tsx scripts/bench.ts --only <part>[,<part>…]` measures some and rewrites",
    "only their sections. Each section names the machine and the run that measured it.",
    "",
    `Last written ${new Date().toISOString()} on: ${machineFacts()}.`,
  ].join("\n");
}

/** Runs one part, printing as it goes, and returns its section of the page. */
async function measureSection(part: BenchPart): Promise<string> {
  const blocks: string[] = [];
  const print = console.log;
  const facts = machineFacts();
  const started = Date.now();
  console.log = (...args: unknown[]) => {
    print(...args);
    const block = format(...args).trim();
    if (block) blocks.push(block);
  };
  try {
    await SECTIONS[part]();
  } finally {
    console.log = print;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const command = ["tsx scripts/bench.ts", ...process.argv.slice(2)].join(" ");
  const run = `Measured ${new Date(started).toISOString()} by \`${command}\`, this part in ${seconds} s, on: ${facts}.`;
  return [`## ${BENCH_PART_TITLES[part]}`, run, ...blocks].join("\n\n");
}

async function main(): Promise<void> {
  const parts = selectedParts();
  console.log(`trustgate benchmark — ${SETUP}\n`);
  const page = join(__dirname, "..", BENCH_PAGE_PATH);
  const fresh = new Map<BenchPart, string>();
  for (const [i, part] of parts.entries()) {
    if (i > 0) console.log("");
    fresh.set(part, await measureSection(part));
    // Written after each part, so an interrupted run keeps what it measured.
    mkdirSync(dirname(page), { recursive: true });
    writeFileSync(page, mergeBenchPage(pageHeader(), fresh, existsSync(page) ? readFileSync(page, "utf8") : undefined));
  }
  console.log(`\nWrote ${BENCH_PAGE_PATH} (${parts.join(", ")}).`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
