/**
 * The watch's metrics: each method's effect on the exposition a scraper reads, the write age computed at scrape from
 * the injected clock, the registry's own names against WATCH_METRIC_NAMES, and labels that stay bounded (never an
 * agent, free-text labels capped).
 */
import { describe, expect, test } from "vitest";
import { register as globalRegister } from "prom-client";
import { DRIFT_STATUSES } from "../../src/drift/types.js";
import { RateLimitedError, TimeoutError } from "../../src/errors.js";
import { createWatchMetrics, MAX_FREE_LABEL_VALUES, requestOutcome, WATCH_METRIC_NAMES, WATCH_METRICS } from "../../src/watch/metrics.js";
import { createFakeClock } from "../support/fake-clock.js";
import { parseExposition, sampleValue } from "../support/exposition.js";

const exposed = async (metrics: ReturnType<typeof createWatchMetrics>) => parseExposition(await metrics.registry.metrics());

describe("createWatchMetrics", () => {
  test("serves exactly WATCH_METRIC_NAMES, each with its documented type, in its own registry (not prom-client's global one)", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    const served = metrics.registry.getMetricsAsArray().map((metric) => metric.name);
    expect([...served].sort()).toEqual([...WATCH_METRIC_NAMES].sort());
    for (const metric of await metrics.registry.getMetricsAsJSON()) {
      expect(metric.type).toBe(WATCH_METRICS.find((spec) => spec.name === metric.name)?.type);
    }
    expect(globalRegister.getMetricsAsArray().map((metric) => metric.name)).not.toContain("trustgate_records_checked_total");
    expect(metrics.registry).not.toBe(globalRegister);
  });

  test("two instances keep separate values (a registry each)", async () => {
    const first = createWatchMetrics({ defaultMetrics: false });
    const second = createWatchMetrics({ defaultMetrics: false });
    first.error("rpc");
    expect(sampleValue(await exposed(first), "trustgate_errors_total", { cause: "rpc" })).toBe(1);
    expect(sampleValue(await exposed(second), "trustgate_errors_total", { cause: "rpc" })).toBeUndefined();
  });

  test("names follow Prometheus's conventions: the trustgate_ prefix, _total on counters only, a unit or no suffix on the rest", () => {
    for (const spec of WATCH_METRICS) {
      expect(spec.name).toMatch(/^trustgate_[a-z0-9_]+$/);
      expect(spec.name.endsWith("_total")).toBe(spec.type === "counter");
      expect(spec.help.length).toBeGreaterThan(10);
    }
    for (const spec of WATCH_METRICS.filter((candidate) => candidate.type === "histogram")) expect(spec.name).toMatch(/_seconds$/);
  });

  test("with default metrics it also serves prom-client's process and Node.js metrics (memory among them)", async () => {
    const metrics = createWatchMetrics();
    const names = metrics.registry.getMetricsAsArray().map((metric) => metric.name);
    expect(names).toEqual(expect.arrayContaining([...WATCH_METRIC_NAMES, "process_resident_memory_bytes", "nodejs_heap_size_used_bytes"]));
  });

  test("every status x trigger, flip direction and alert kind x state is served at 0 before anything happens", async () => {
    const samples = await exposed(createWatchMetrics({ defaultMetrics: false }));
    for (const status of DRIFT_STATUSES) {
      for (const trigger of ["change", "reorg", "audit"])
        expect(sampleValue(samples, "trustgate_records_checked_total", { status, trigger })).toBe(0);
    }
    expect(samples.filter((sample) => sample.name === "trustgate_records_checked_total")).toHaveLength(DRIFT_STATUSES.length * 3);
    expect(sampleValue(samples, "trustgate_decision_flips_total", { direction: "pass-to-fail" })).toBe(0);
    expect(sampleValue(samples, "trustgate_decision_flips_total", { direction: "fail-to-pass" })).toBe(0);
    expect(samples.filter((sample) => sample.name === "trustgate_alerts_sent_total")).toHaveLength(7 * 3);
    expect(sampleValue(samples, "trustgate_alerts_failed_total", { kind: "oracle-silent", state: "resolved" })).toBe(0);
  });

  test("recordChecked and flip count by their labels", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    metrics.recordChecked("drifted", "change");
    metrics.recordChecked("drifted", "change");
    metrics.recordChecked("in-sync", "audit");
    metrics.flip("pass-to-fail");
    const samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_records_checked_total", { status: "drifted", trigger: "change" })).toBe(2);
    expect(sampleValue(samples, "trustgate_records_checked_total", { status: "in-sync", trigger: "audit" })).toBe(1);
    expect(sampleValue(samples, "trustgate_records_checked_total", { status: "drifted", trigger: "audit" })).toBe(0);
    expect(sampleValue(samples, "trustgate_decision_flips_total", { direction: "pass-to-fail" })).toBe(1);
    expect(sampleValue(samples, "trustgate_decision_flips_total", { direction: "fail-to-pass" })).toBe(0);
  });

  test("the write age is computed at each scrape from the injected clock; before any write it is +Inf and the timestamp 0", async () => {
    const clock = createFakeClock();
    const metrics = createWatchMetrics({ defaultMetrics: false, now: () => new Date(clock.now()) });
    let samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_oracle_write_age_seconds")).toBe(Infinity);
    expect(sampleValue(samples, "trustgate_oracle_last_write_timestamp_seconds")).toBe(0);

    const write = new Date(clock.now() - 7 * 3600_000);
    metrics.oracleWrite(write);
    samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_oracle_last_write_timestamp_seconds")).toBe(write.getTime() / 1000);
    expect(sampleValue(samples, "trustgate_oracle_write_age_seconds")).toBe(7 * 3600);

    clock.advance(90_500);
    samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_oracle_write_age_seconds")).toBe(7 * 3600 + 90.5);

    metrics.oracleWrite(new Date(clock.now()));
    expect(sampleValue(await exposed(metrics), "trustgate_oracle_write_age_seconds")).toBe(0);
  });

  test("an invalid date is ignored rather than served as NaN", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false, now: () => new Date(1_000_000) });
    metrics.oracleWrite(new Date(400_000));
    metrics.oracleWrite(new Date(Number.NaN));
    expect(sampleValue(await exposed(metrics), "trustgate_oracle_write_age_seconds")).toBe(600);
  });

  test("attestationAge, apiRequest and rpcRequest fill their histograms' buckets, sums and counts", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    metrics.attestationAge(120);
    metrics.attestationAge(7200);
    metrics.apiRequest(0.03, "ok");
    metrics.apiRequest(0.3, "ok");
    metrics.apiRequest(1.5, requestOutcome(new RateLimitedError({ method: "GET", url: "http://127.0.0.1:1/api", status: 429 }, 1000)));
    metrics.rpcRequest(0.004, "ok");
    metrics.attestationAge(Number.NaN);
    const samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_attestation_age_seconds_count")).toBe(2);
    expect(sampleValue(samples, "trustgate_attestation_age_seconds_sum")).toBe(7320);
    expect(sampleValue(samples, "trustgate_attestation_age_seconds_bucket", { le: "300" })).toBe(1);
    expect(sampleValue(samples, "trustgate_attestation_age_seconds_bucket", { le: "10800" })).toBe(2);
    expect(sampleValue(samples, "trustgate_api_request_duration_seconds_count", { outcome: "ok" })).toBe(2);
    expect(sampleValue(samples, "trustgate_api_request_duration_seconds_bucket", { outcome: "ok", le: "0.05" })).toBe(1);
    expect(sampleValue(samples, "trustgate_api_request_duration_seconds_bucket", { outcome: "ok", le: "0.5" })).toBe(2);
    expect(sampleValue(samples, "trustgate_api_request_duration_seconds_count", { outcome: "rate-limited" })).toBe(1);
    expect(sampleValue(samples, "trustgate_rpc_request_duration_seconds_bucket", { outcome: "ok", le: "0.005" })).toBe(1);
    expect(sampleValue(samples, "trustgate_rpc_request_duration_seconds_count", { outcome: "ok" })).toBe(1);
  });

  test("limiterQueue is read at each scrape; 0 before a reader is given, NaN when the reader throws", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    expect(sampleValue(await exposed(metrics), "trustgate_rate_limiter_queue")).toBe(0);
    let queue = 3;
    metrics.limiterQueue(() => queue);
    expect(sampleValue(await exposed(metrics), "trustgate_rate_limiter_queue")).toBe(3);
    queue = 11;
    expect(sampleValue(await exposed(metrics), "trustgate_rate_limiter_queue")).toBe(11);
    metrics.limiterQueue(() => {
      throw new Error("limiter gone");
    });
    expect(sampleValue(await exposed(metrics), "trustgate_rate_limiter_queue")).toBeNaN();
  });

  test("error counts by cause; alert counts delivered messages as sent and the rest as failed", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    metrics.error("rpc");
    metrics.error("rpc");
    metrics.error("JWKS_UNAVAILABLE");
    metrics.alert("pass-to-fail", "firing", true);
    metrics.alert("pass-to-fail", "firing", true);
    metrics.alert("oracle-silent", "firing", false);
    metrics.alert("oracle-silent", "resolved", true);
    const samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_errors_total", { cause: "rpc" })).toBe(2);
    expect(sampleValue(samples, "trustgate_errors_total", { cause: "jwks-unavailable" })).toBe(1);
    expect(sampleValue(samples, "trustgate_alerts_sent_total", { kind: "pass-to-fail", state: "firing" })).toBe(2);
    expect(sampleValue(samples, "trustgate_alerts_failed_total", { kind: "pass-to-fail", state: "firing" })).toBe(0);
    expect(sampleValue(samples, "trustgate_alerts_failed_total", { kind: "oracle-silent", state: "firing" })).toBe(1);
    expect(sampleValue(samples, "trustgate_alerts_sent_total", { kind: "oracle-silent", state: "firing" })).toBe(0);
    expect(sampleValue(samples, "trustgate_alerts_sent_total", { kind: "oracle-silent", state: "resolved" })).toBe(1);
  });

  test("block sets the processed block, the head and the lag; reorg counts and keeps the last depth", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    metrics.block(1_000n, 1_003n);
    let samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_block_processed")).toBe(1000);
    expect(sampleValue(samples, "trustgate_chain_head_block")).toBe(1003);
    expect(sampleValue(samples, "trustgate_block_lag_blocks")).toBe(3);
    expect(sampleValue(samples, "trustgate_reorg_depth_blocks")).toBe(0);
    metrics.reorg(2);
    metrics.reorg(1);
    metrics.block(44_000_010n, 44_000_010n);
    samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_reorgs_total")).toBe(2);
    expect(sampleValue(samples, "trustgate_reorg_depth_blocks")).toBe(1);
    expect(sampleValue(samples, "trustgate_block_processed")).toBe(44_000_010);
    expect(sampleValue(samples, "trustgate_block_lag_blocks")).toBe(0);
  });

  test("outstandingAlerts and auditPosition set their gauges", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    metrics.outstandingAlerts(4);
    metrics.auditPosition(1_200, 150_000);
    let samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_alerts_outstanding")).toBe(4);
    expect(sampleValue(samples, "trustgate_audit_cursor")).toBe(1200);
    expect(sampleValue(samples, "trustgate_audit_population")).toBe(150_000);
    metrics.outstandingAlerts(0);
    samples = await exposed(metrics);
    expect(sampleValue(samples, "trustgate_alerts_outstanding")).toBe(0);
  });

  test("no label names an agent: every label is one of the fixed set, whatever the loop reports", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    metrics.recordChecked("drifted", "change");
    metrics.error("base:357:erc8004");
    metrics.apiRequest(0.1, "ok");
    metrics.alert("record-stale", "reminder", true);
    const labelNames = new Set((await exposed(metrics)).flatMap((sample) => Object.keys(sample.labels)));
    expect([...labelNames].sort()).toEqual(["cause", "direction", "kind", "le", "outcome", "state", "status", "trigger"]);
    for (const spec of WATCH_METRICS) for (const label of spec.labels) expect(label).not.toMatch(/agent|key|id|url/);
  });

  test("the number of series stays flat however many blocks, checks and alerts the loop reports", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    const driveRound = (index: number) => {
      metrics.recordChecked(DRIFT_STATUSES[index % DRIFT_STATUSES.length]!, index % 2 === 0 ? "change" : "audit");
      metrics.block(BigInt(index), BigInt(index + 3));
      metrics.attestationAge(index);
      metrics.apiRequest(index / 1000, index % 3 === 0 ? "ok" : "timeout");
      metrics.rpcRequest(index / 1000, "ok");
      metrics.alert(index % 2 === 0 ? "pass-to-fail" : "record-stale", "firing", index % 5 !== 0);
      metrics.error(index % 2 === 0 ? "rpc" : "api");
      metrics.oracleWrite(new Date(index * 1000));
      metrics.auditPosition(index, 150_000);
    };
    for (let index = 0; index < 10; index++) driveRound(index);
    const series = (await exposed(metrics)).length;
    for (let index = 10; index < 20_000; index++) driveRound(index);
    expect((await exposed(metrics)).length).toBe(series);
  });

  test(`free-text labels are normalised to kebab-case and capped at ${MAX_FREE_LABEL_VALUES} values; the rest count as other`, async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    for (let index = 0; index < MAX_FREE_LABEL_VALUES + 10; index++) metrics.error(`Cause ${index}`);
    metrics.error("Cause 0");
    metrics.error("");
    const samples = (await exposed(metrics)).filter((sample) => sample.name === "trustgate_errors_total");
    expect(samples).toHaveLength(MAX_FREE_LABEL_VALUES + 1);
    expect(sampleValue(samples, "trustgate_errors_total", { cause: "cause-0" })).toBe(2);
    expect(sampleValue(samples, "trustgate_errors_total", { cause: "other" })).toBe(11);
    expect(samples.every((sample) => /^[a-z0-9-]+$/.test(sample.labels.cause ?? ""))).toBe(true);
  });
});

describe("requestOutcome", () => {
  test("ok for success, the kit error's code in kebab-case, unexpected for anything else", () => {
    expect(requestOutcome()).toBe("ok");
    expect(requestOutcome(new TimeoutError({ method: "GET", url: "http://127.0.0.1:1/", timeoutMs: 10 }))).toBe("timeout");
    expect(requestOutcome(new Error("boom"))).toBe("unexpected");
    expect(requestOutcome("a string")).toBe("unexpected");
  });
});
