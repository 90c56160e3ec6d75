/**
 * `npm run bench`: measures and prints the kit's figures side by side — gas of gated calls against the
 * `meetsThreshold`-only baseline, gas per published record, attestation verifications per second, oracle
 * records read per second through Multicall3 against one `eth_call` each, and the client rate limiter under
 * load, the nightly `--all` drift job over two nights of a 150,000-agent population with a state file (`BENCH_DRIFT_SIZE`
 * changes the size), and the gas of the pull path: a gated call that brings the service's signed attestation, verified
 * on-chain by `AttestedTrustOracle` with and without the P-256 precompile, against reading the Base oracle alone.
 * Figures, not assertions: targets are shown next to the measured values, and the run never fails
 * because a target is missed.
 *
 * `--only <parts>` runs some of them (comma-separated: gas, attested, verification, reader, limiter, drift);
 * `--help` lists them.
 */
import { measureAttestationVerification } from "./bench/attestation";
import { measureAttestedGas, printAttestedGas } from "./bench/attested";
import { type DriftNightsResult, measureDriftNights, type NightFigures } from "./bench/drift";
import { measureGateGas, measurePublishGas } from "./bench/gas";
import { measureRateLimiter } from "./bench/rate-limiter";
import { measureReaderThroughput } from "./bench/reader";

const GATE_RATIO_TARGET = 1.1;
const PUBLISH_TARGETS = { updated: 10_000, new: 30_000, batch: 500 };
const VERIFICATIONS_PER_SECOND_TARGET = 3_000;
const READER_RATIO_TARGET = 20;

function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((v, c) => (c === 0 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join("  ");
  return [line(cells[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const met = (ok: boolean) => (ok ? "(met)" : "(MISSED)");

/** The parts of the benchmark, in the order they run. */
const PARTS = ["gas", "attested", "verification", "reader", "limiter", "drift"] as const;
type Part = (typeof PARTS)[number];

const HELP = `Usage: npx tsx scripts/bench.ts [--only <parts>]   (npm run bench: every part)

Parts, comma-separated with --only (default: all of them, in this order):
  gas           gas of gated calls and of TrustScoreOracle.publish
  attested      gas of the pull path through AttestedTrustOracle
  verification  attestation verifications per second
  reader        oracle records read per second, Multicall3 against one eth_call each
  limiter       the client rate limiter under load
  drift         the nightly --all drift job over two nights with a state file, and a night killed
                halfway and continued (BENCH_DRIFT_SIZE agents, default 150,000; several minutes)
`;

function selectedParts(argv: readonly string[]): ReadonlySet<Part> | null {
  if (argv.includes("--help") || argv.includes("-h")) return null;
  const at = argv.indexOf("--only");
  if (at < 0) return new Set(PARTS);
  const names = (argv[at + 1] ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(PARTS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes parts among ${PARTS.join(", ")}${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""}`);
  }
  return new Set(names as Part[]);
}

async function main(): Promise<void> {
  const parts = selectedParts(process.argv.slice(2));
  if (parts === null) {
    process.stdout.write(HELP);
    return;
  }
  console.log("trustgate benchmark — Hardhat network (in-process EDR), solc 0.8.28, optimizer 10,000 runs\n");
  if (parts.has("gas")) await gasFigures();
  if (parts.has("attested")) {
    console.log("");
    printAttestedGas(await measureAttestedGas(), table);
  }
  if (parts.has("verification")) await verificationFigures();
  if (parts.has("reader")) await readerFigures();
  if (parts.has("limiter")) await limiterFigures();
  if (parts.has("drift")) printDriftNights(await measureDriftNights({ size: Number(process.env.BENCH_DRIFT_SIZE ?? 150_000) }));
}

async function gasFigures(): Promise<void> {
  const gate = await measureGateGas();
  const baseline = gate[0]!.gas;
  console.log("Gas of one gated call (steady state, whole transaction)");
  console.log(
    table(
      ["gate", "gas", "× baseline"],
      gate.map((r) => [r.name, fmt(r.gas), (r.gas / baseline).toFixed(3)]),
    ),
  );
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

async function verificationFigures(): Promise<void> {
  const verification = await measureAttestationVerification({ durationMs: 3_000 });
  console.log("\nAttestation verification (v2 trust-check, jws + sig, local JWKS, one process)");
  console.log(
    table(
      ["verified", "wall ms", "per second (wall)", "CPU ms", "per CPU-second"],
      [
        [
          fmt(verification.count),
          fmt(verification.ms),
          fmt(verification.verificationsPerSecond),
          fmt(verification.cpuMs),
          fmt(verification.verificationsPerCpuSecond),
        ],
      ],
    ),
  );
  console.log(
    `target: ≥ ${fmt(VERIFICATIONS_PER_SECOND_TARGET)}/s on one core → ${fmt(verification.verificationsPerSecond)}/s ${met(verification.verificationsPerSecond >= VERIFICATIONS_PER_SECOND_TARGET)}`,
  );
}

async function readerFigures(): Promise<void> {
  console.log("\nOracle reads: Multicall3 (readTrustRecords, chunks of 250, 4 in flight) vs one eth_call per record, same node");
  const readerRows: Array<Array<string | number>> = [];
  let loopbackRatio = 0;
  for (const [label, options] of [
    ["loopback HTTP node", { transport: "http" as const }],
    ["loopback HTTP node + 5 ms per request", { transport: "http" as const, latencyMs: 5 }],
    ["in-process provider (no HTTP)", { transport: "in-process" as const }],
  ] as const) {
    const r = await measureReaderThroughput({ records: 2_000, rounds: 2, ...options });
    if (label === "loopback HTTP node") loopbackRatio = r.ratio;
    readerRows.push([
      label,
      fmt(r.multicall.recordsPerSecond),
      r.multicall.requests,
      fmt(r.sequential.recordsPerSecond),
      fmt(r.viemMulticall.recordsPerSecond),
      `${r.ratio.toFixed(1)}×`,
    ]);
  }
  console.log(table(["node", "multicall rec/s", "requests", "eth_call rec/s", "viem multicall rec/s", "ratio"], readerRows));
  console.log(
    `target: ≥ ${READER_RATIO_TARGET}× on the local node → ${loopbackRatio.toFixed(1)}× ${met(loopbackRatio >= READER_RATIO_TARGET)}`,
  );
}

async function limiterFigures(): Promise<void> {
  console.log("\nClient rate limiter under load (simulated clock, 60 s windows)");
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

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
