/**
 * The watch's Prometheus metrics (`prom-client`), in a registry of its own: what the loop did (records checked,
 * decision flips, alerts), the oracle's heartbeat (its last write and the seconds since), the latency of the service
 * and the RPC, the rate limiter's queue, errors by cause, the follower's blocks and reorgs, and the audit's walk.
 * `server.ts` serves the registry at `/metrics`.
 *
 * Names follow Prometheus's conventions: the `trustgate_` prefix, base units as suffixes (`_seconds`, `_blocks`),
 * `_total` on counters. Every label has a small fixed vocabulary: never an agent, a key or a URL, so that the number
 * of series stays bounded however long the watch runs. The free-text labels (`outcome`, `cause`) are normalised and
 * capped ({@link MAX_FREE_LABEL_VALUES} values each; past that, `other`).
 *
 * @packageDocumentation
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { TrustgateError } from "../errors.js";
import { DRIFT_STATUSES, type DriftStatus } from "../drift/types.js";
import type { AlertKind, AlertState, CheckTrigger } from "./types.js";

/** The watch's metrics: one method per thing the loop observes. Nothing here throws on a value it is given. */
export interface WatchMetrics {
  /** The registry that holds them (not prom-client's global one): `server.ts` serves it. */
  readonly registry: Registry;
  /** One agent checked, with its row's status and why it was checked: `trustgate_records_checked_total{status,trigger}`. */
  recordChecked(status: DriftStatus, trigger: CheckTrigger["kind"]): void;
  /** A gate's decision changed between the chain and the signed attestation: `trustgate_decision_flips_total{direction}`. */
  flip(direction: "pass-to-fail" | "fail-to-pass"): void;
  /**
   * The oracle's newest write, at the oracle's own time: `trustgate_oracle_last_write_timestamp_seconds`. The seconds
   * since it, `trustgate_oracle_write_age_seconds`, are computed at each scrape from the injected clock.
   */
  oracleWrite(at: Date): void;
  /** The age of a signed attestation when checked (now minus its `issuedAt`): `trustgate_attestation_age_seconds`. */
  attestationAge(seconds: number): void;
  /** One request to the service: `trustgate_api_request_duration_seconds{outcome}` ({@link requestOutcome}). */
  apiRequest(seconds: number, outcome: string): void;
  /** One request to the RPC: `trustgate_rpc_request_duration_seconds{outcome}` ({@link requestOutcome}). */
  rpcRequest(seconds: number, outcome: string): void;
  /** How to read the rate limiter's queue length, read at each scrape: `trustgate_rate_limiter_queue`. */
  limiterQueue(read: () => number): void;
  /** An error the loop survived, by cause (a short kebab-case word): `trustgate_errors_total{cause}`. */
  error(cause: string): void;
  /** An alert message delivered or not: `trustgate_alerts_sent_total` / `trustgate_alerts_failed_total` `{kind,state}`. */
  alert(kind: AlertKind, state: AlertState, delivered: boolean): void;
  /**
   * The follower's position: `trustgate_block_processed`, `trustgate_chain_head_block` and their difference,
   * `trustgate_block_lag_blocks`.
   */
  block(processed: bigint, head: bigint): void;
  /** A reorg found: `trustgate_reorgs_total`, and its depth, `trustgate_reorg_depth_blocks` (the last reorg's). */
  reorg(depth: number): void;
  /** The conditions the alert book holds as outstanding (raised, not resolved): `trustgate_alerts_outstanding`. */
  outstandingAlerts(count: number): void;
  /** The audit's walk: the next index, `trustgate_audit_cursor`, of a population of `trustgate_audit_population`. */
  auditPosition(cursor: number, size: number): void;
}

/** The type, labels and meaning of one metric the watch serves: the docs' metric table reads it. */
export interface WatchMetricSpec {
  readonly name: string;
  readonly type: "counter" | "gauge" | "histogram";
  readonly labels: readonly string[];
  readonly help: string;
}

/** How many distinct values a free-text label (`outcome`, `cause`) takes before the rest count as `other`. */
export const MAX_FREE_LABEL_VALUES = 32;

const TRIGGERS: Readonly<Record<CheckTrigger["kind"], true>> = { change: true, reorg: true, audit: true };
const ALERT_KINDS: Readonly<Record<AlertKind, true>> = {
  "pass-to-fail": true,
  "fail-to-pass": true,
  "invalid-attestation": true,
  "oracle-silent": true,
  "record-stale": true,
  "service-unhealthy": true,
  "signing-key-revoked": true,
};
const ALERT_STATES: Readonly<Record<AlertState, true>> = { firing: true, reminder: true, resolved: true };
const FLIP_DIRECTIONS = ["pass-to-fail", "fail-to-pass"] as const;

/** Request latencies: 5 ms to a minute (a request that waits on a 429's `Retry-After` lands in the top buckets). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Attestation ages: a minute to a week (a signed attestation is valid for 24 h; its score may be older). */
const ATTESTATION_AGE_BUCKETS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 2 * 86_400, 7 * 86_400];

/** Every metric the watch serves, its type, labels and meaning. */
export const WATCH_METRICS: readonly WatchMetricSpec[] = [
  {
    name: "trustgate_records_checked_total",
    type: "counter",
    labels: ["status", "trigger"],
    help: "Agents checked against a fresh signed attestation, by the row's drift status and by why they were checked (change, reorg, audit).",
  },
  {
    name: "trustgate_decision_flips_total",
    type: "counter",
    labels: ["direction"],
    help: "Checks where the gate's decision differs between the on-chain record and the signed attestation, by direction (pass-to-fail, fail-to-pass).",
  },
  {
    name: "trustgate_oracle_last_write_timestamp_seconds",
    type: "gauge",
    labels: [],
    help: "The oracle's newest write, at the oracle's own time, in seconds since the epoch (0: no write seen yet).",
  },
  {
    name: "trustgate_oracle_write_age_seconds",
    type: "gauge",
    labels: [],
    help: "Seconds since the oracle's newest write, computed at scrape time (+Inf: no write seen yet).",
  },
  {
    name: "trustgate_attestation_age_seconds",
    type: "histogram",
    labels: [],
    help: "Age of each signed attestation checked (the check's time minus its issuedAt), in seconds.",
  },
  {
    name: "trustgate_api_request_duration_seconds",
    type: "histogram",
    labels: ["outcome"],
    help: "Duration of each request to the trust service, by outcome (ok, or the error's code).",
  },
  {
    name: "trustgate_rpc_request_duration_seconds",
    type: "histogram",
    labels: ["outcome"],
    help: "Duration of each RPC request, by outcome (ok, or the error's code).",
  },
  {
    name: "trustgate_rate_limiter_queue",
    type: "gauge",
    labels: [],
    help: "Requests waiting in the shared rate limiter's queue, read at scrape time.",
  },
  { name: "trustgate_errors_total", type: "counter", labels: ["cause"], help: "Errors the watch survived, by cause." },
  {
    name: "trustgate_alerts_sent_total",
    type: "counter",
    labels: ["kind", "state"],
    help: "Alert messages delivered, by alert kind and state (firing, reminder, resolved).",
  },
  {
    name: "trustgate_alerts_failed_total",
    type: "counter",
    labels: ["kind", "state"],
    help: "Alert messages not delivered after every retry (the dead-letter file keeps them), by alert kind and state.",
  },
  { name: "trustgate_alerts_outstanding", type: "gauge", labels: [], help: "Conditions raised and not yet resolved." },
  { name: "trustgate_block_processed", type: "gauge", labels: [], help: "The last confirmed block the watch processed." },
  { name: "trustgate_chain_head_block", type: "gauge", labels: [], help: "The chain's head when last polled." },
  {
    name: "trustgate_block_lag_blocks",
    type: "gauge",
    labels: [],
    help: "Blocks between the chain's head and the last block processed (the confirmations included).",
  },
  { name: "trustgate_reorgs_total", type: "counter", labels: [], help: "Reorgs found: processed blocks no longer on the chain." },
  {
    name: "trustgate_reorg_depth_blocks",
    type: "gauge",
    labels: [],
    help: "How many processed blocks the last reorg dropped (0: none yet).",
  },
  { name: "trustgate_audit_cursor", type: "gauge", labels: [], help: "The index of the next agent the audit between writes checks." },
  { name: "trustgate_audit_population", type: "gauge", labels: [], help: "How many agents the audit between writes walks." },
];

/** Every metric name the watch serves (the prom-client process and Node.js metrics aside): the docs and the dashboard read it. */
export const WATCH_METRIC_NAMES: readonly string[] = WATCH_METRICS.map((spec) => spec.name);

/**
 * The `outcome` label of a request: `ok` when it succeeded, else the kit error's code in kebab-case
 * (`rate-limited`, `timeout`, `network-error`, …), else `unexpected`. A fixed vocabulary, so the latency
 * histograms stay bounded.
 *
 * @param error - What the request threw; `undefined` when it succeeded.
 */
export function requestOutcome(error?: unknown): string {
  if (error === undefined) return "ok";
  if (error instanceof TrustgateError) return error.code.toLowerCase().replaceAll("_", "-");
  return "unexpected";
}

/**
 * Creates the watch's metrics in a registry of their own. Every labelled series with a fixed vocabulary starts at 0,
 * so a rate over the first increment is seen and a dashboard shows every status from the start.
 *
 * @param options - `now`: the clock the write age is computed with (default the system's); `defaultMetrics`:
 *   also serve prom-client's process and Node.js metrics (memory, CPU, event loop; default `true`).
 */
export function createWatchMetrics(options: { readonly now?: () => Date; readonly defaultMetrics?: boolean } = {}): WatchMetrics {
  const now = options.now ?? (() => new Date());
  const registry = new Registry();
  const specOf = (name: string): WatchMetricSpec => {
    const spec = WATCH_METRICS.find((candidate) => candidate.name === name);
    if (spec === undefined) throw new Error(`no metric named ${name}`);
    return spec;
  };
  const common = (name: string) => {
    const spec = specOf(name);
    return { name, help: spec.help, labelNames: [...spec.labels], registers: [registry] };
  };

  const checked = new Counter(common("trustgate_records_checked_total"));
  const flips = new Counter(common("trustgate_decision_flips_total"));
  let lastWrite: number | null = null;
  const lastWriteTimestamp = new Gauge(common("trustgate_oracle_last_write_timestamp_seconds"));
  new Gauge({
    ...common("trustgate_oracle_write_age_seconds"),
    collect() {
      this.set(lastWrite === null ? Number.POSITIVE_INFINITY : (now().getTime() - lastWrite) / 1000);
    },
  });
  const attestationAges = new Histogram({ ...common("trustgate_attestation_age_seconds"), buckets: ATTESTATION_AGE_BUCKETS });
  const api = new Histogram({ ...common("trustgate_api_request_duration_seconds"), buckets: REQUEST_BUCKETS });
  const rpc = new Histogram({ ...common("trustgate_rpc_request_duration_seconds"), buckets: REQUEST_BUCKETS });
  let readQueue: (() => number) | null = null;
  new Gauge({
    ...common("trustgate_rate_limiter_queue"),
    collect() {
      if (readQueue === null) return this.set(0);
      try {
        this.set(readQueue());
      } catch {
        this.set(Number.NaN);
      }
    },
  });
  const errors = new Counter(common("trustgate_errors_total"));
  const sent = new Counter(common("trustgate_alerts_sent_total"));
  const failed = new Counter(common("trustgate_alerts_failed_total"));
  const outstanding = new Gauge(common("trustgate_alerts_outstanding"));
  const processedBlock = new Gauge(common("trustgate_block_processed"));
  const headBlock = new Gauge(common("trustgate_chain_head_block"));
  const lag = new Gauge(common("trustgate_block_lag_blocks"));
  const reorgs = new Counter(common("trustgate_reorgs_total"));
  const reorgDepth = new Gauge(common("trustgate_reorg_depth_blocks"));
  const auditCursor = new Gauge(common("trustgate_audit_cursor"));
  const auditPopulation = new Gauge(common("trustgate_audit_population"));

  for (const status of DRIFT_STATUSES) for (const trigger of Object.keys(TRIGGERS)) checked.inc({ status, trigger }, 0);
  for (const direction of FLIP_DIRECTIONS) flips.inc({ direction }, 0);
  for (const kind of Object.keys(ALERT_KINDS)) {
    for (const state of Object.keys(ALERT_STATES)) {
      sent.inc({ kind, state }, 0);
      failed.inc({ kind, state }, 0);
    }
  }

  const outcomes = boundedLabel();
  const causes = boundedLabel();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  return {
    registry,
    recordChecked: (status, trigger) => checked.inc({ status, trigger }),
    flip: (direction) => flips.inc({ direction }),
    oracleWrite: (at) => {
      const ms = at.getTime();
      if (!Number.isFinite(ms)) return;
      lastWrite = ms;
      lastWriteTimestamp.set(ms / 1000);
    },
    attestationAge: (seconds) => {
      if (Number.isFinite(seconds)) attestationAges.observe(seconds);
    },
    apiRequest: (seconds, outcome) => {
      if (Number.isFinite(seconds)) api.observe({ outcome: outcomes(outcome) }, seconds);
    },
    rpcRequest: (seconds, outcome) => {
      if (Number.isFinite(seconds)) rpc.observe({ outcome: outcomes(outcome) }, seconds);
    },
    limiterQueue: (read) => {
      readQueue = read;
    },
    error: (cause) => errors.inc({ cause: causes(cause) }),
    alert: (kind, state, delivered) => (delivered ? sent : failed).inc({ kind, state }),
    block: (processed, head) => {
      processedBlock.set(Number(processed));
      headBlock.set(Number(head));
      lag.set(Number(head - processed));
    },
    reorg: (depth) => {
      reorgs.inc();
      reorgDepth.set(depth);
    },
    outstandingAlerts: (count) => outstanding.set(count),
    auditPosition: (cursor, size) => {
      auditCursor.set(cursor);
      auditPopulation.set(size);
    },
  };
}

/**
 * A free-text label kept bounded: each value normalised to kebab-case (at most 40 characters; `unknown` when nothing
 * is left), the first {@link MAX_FREE_LABEL_VALUES} distinct values kept, every later one counted as `other`.
 */
function boundedLabel(): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    const normalised =
      String(value)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 40) || "unknown";
    if (seen.has(normalised)) return normalised;
    if (seen.size >= MAX_FREE_LABEL_VALUES) return "other";
    seen.add(normalised);
    return normalised;
  };
}
