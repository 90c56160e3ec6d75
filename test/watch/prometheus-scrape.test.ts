/**
 * A real Prometheus (Debian's `prometheus`, installed by `.ci/run`) scrapes the watch's /metrics on loopback: the
 * test drives the metrics (records checked, flips, an oracle write, alerts, blocks, a reorg, errors, latencies, the
 * limiter's queue), waits until a scrape carries them, and reads every value back through Prometheus's HTTP API,
 * equal to what was driven; then drives more and reads the new values. Every query of the Grafana dashboard runs on
 * the same Prometheus and answers with data.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createWatchMetrics, type WatchMetrics } from "../../src/watch/metrics.js";
import { startWatchServer, type WatchServer } from "../../src/watch/server.js";
import { createFakeClock } from "../support/fake-clock.js";
import { dashboardExpressions, loadWatchDashboard, promqlFromGrafana } from "../support/grafana-dashboard.js";
import { HAS_PROMETHEUS, type PrometheusServer, SCRAPE_JOB, startPrometheus } from "../support/prometheus.js";

const suiteName = HAS_PROMETHEUS
  ? "a real Prometheus scraping the watch's /metrics"
  : "a real Prometheus scraping the watch's /metrics (skipped: /usr/bin/prometheus is absent; apt-get install -y prometheus)";

describe.skipIf(!HAS_PROMETHEUS)(suiteName, () => {
  const clock = createFakeClock();
  let metrics: WatchMetrics;
  let server: WatchServer;
  let prometheus: PrometheusServer;
  let target: string;

  beforeAll(async () => {
    metrics = createWatchMetrics({ now: () => new Date(clock.now()) });
    server = await startWatchServer({ host: "127.0.0.1", port: 0, metrics, health: () => ({ live: true, ready: true, reasons: [] }) });
    target = new URL(server.url).host;
    prometheus = await startPrometheus(target);
  });

  afterAll(async () => {
    await prometheus?.stop();
    await server?.close();
  });

  /** The one series an expression selects on this job's target, or `undefined`. */
  const valueOf = async (expression: string): Promise<number | undefined> => {
    const samples = await prometheus.query(expression);
    expect(samples.length, expression).toBeLessThanOrEqual(1);
    if (samples[0] !== undefined) expect(samples[0].metric).toMatchObject({ job: SCRAPE_JOB, instance: target });
    return samples[0]?.value;
  };

  test("the target is up, scraped at the watch's /metrics", async () => {
    await prometheus.waitFor("up", (samples) => samples.some((sample) => sample.value === 1));
    const targets = await prometheus.targets();
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({ scrapeUrl: `${server.url}/metrics`, health: "up", lastError: "" });
  });

  test("every value driven reads back through the HTTP API as driven", async () => {
    const write = new Date(clock.now() - 5 * 3600_000);
    for (let index = 0; index < 3; index++) metrics.recordChecked("drifted", "change");
    metrics.recordChecked("in-sync", "audit");
    metrics.recordChecked("invalid-attestation", "reorg");
    metrics.flip("pass-to-fail");
    metrics.flip("pass-to-fail");
    metrics.oracleWrite(write);
    metrics.alert("pass-to-fail", "firing", true);
    metrics.alert("oracle-silent", "firing", false);
    metrics.alert("oracle-silent", "resolved", true);
    metrics.attestationAge(600);
    metrics.apiRequest(0.02, "ok");
    metrics.apiRequest(0.2, "ok");
    metrics.rpcRequest(0.004, "timeout");
    metrics.limiterQueue(() => 7);
    metrics.error("rpc");
    metrics.block(1_200n, 1_203n);
    metrics.reorg(2);
    metrics.outstandingAlerts(1);
    metrics.auditPosition(40, 150_000);

    await prometheus.waitFor("trustgate_audit_population", (samples) => samples[0]?.value === 150_000);
    expect(await valueOf('trustgate_records_checked_total{status="drifted",trigger="change"}')).toBe(3);
    expect(await valueOf('trustgate_records_checked_total{status="in-sync",trigger="audit"}')).toBe(1);
    expect(await valueOf('trustgate_records_checked_total{status="invalid-attestation",trigger="reorg"}')).toBe(1);
    expect(await valueOf('trustgate_records_checked_total{status="drifted",trigger="audit"}')).toBe(0);
    expect(await valueOf("sum by (job, instance) (trustgate_records_checked_total)")).toBe(5);
    expect(await valueOf('trustgate_decision_flips_total{direction="pass-to-fail"}')).toBe(2);
    expect(await valueOf('trustgate_decision_flips_total{direction="fail-to-pass"}')).toBe(0);
    expect(await valueOf("trustgate_oracle_last_write_timestamp_seconds")).toBe(write.getTime() / 1000);
    expect(await valueOf("trustgate_oracle_write_age_seconds")).toBe(5 * 3600);
    expect(await valueOf('trustgate_alerts_sent_total{kind="pass-to-fail",state="firing"}')).toBe(1);
    expect(await valueOf('trustgate_alerts_failed_total{kind="oracle-silent",state="firing"}')).toBe(1);
    expect(await valueOf('trustgate_alerts_sent_total{kind="oracle-silent",state="resolved"}')).toBe(1);
    expect(await valueOf('trustgate_alerts_sent_total{kind="oracle-silent",state="firing"}')).toBe(0);
    expect(await valueOf("trustgate_attestation_age_seconds_count")).toBe(1);
    expect(await valueOf('trustgate_attestation_age_seconds_bucket{le="900"}')).toBe(1);
    expect(await valueOf('trustgate_attestation_age_seconds_bucket{le="300"}')).toBe(0);
    expect(await valueOf('trustgate_api_request_duration_seconds_count{outcome="ok"}')).toBe(2);
    expect(await valueOf('trustgate_api_request_duration_seconds_sum{outcome="ok"}')).toBeCloseTo(0.22, 10);
    expect(await valueOf('trustgate_rpc_request_duration_seconds_bucket{outcome="timeout",le="0.005"}')).toBe(1);
    expect(await valueOf("trustgate_rate_limiter_queue")).toBe(7);
    expect(await valueOf('trustgate_errors_total{cause="rpc"}')).toBe(1);
    expect(await valueOf("trustgate_block_processed")).toBe(1200);
    expect(await valueOf("trustgate_chain_head_block")).toBe(1203);
    expect(await valueOf("trustgate_block_lag_blocks")).toBe(3);
    expect(await valueOf("trustgate_reorgs_total")).toBe(1);
    expect(await valueOf("trustgate_reorg_depth_blocks")).toBe(2);
    expect(await valueOf("trustgate_alerts_outstanding")).toBe(1);
    expect(await valueOf("trustgate_audit_cursor")).toBe(40);
    expect(await valueOf("process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  test("later values replace earlier ones at the next scrape: counters grow, the write age follows the injected clock", async () => {
    metrics.recordChecked("drifted", "change");
    metrics.flip("fail-to-pass");
    clock.advance(600_000);
    metrics.outstandingAlerts(0);
    metrics.auditPosition(41, 150_001);
    await prometheus.waitFor("trustgate_audit_population", (samples) => samples[0]?.value === 150_001);
    expect(await valueOf('trustgate_records_checked_total{status="drifted",trigger="change"}')).toBe(4);
    expect(await valueOf('trustgate_decision_flips_total{direction="fail-to-pass"}')).toBe(1);
    expect(await valueOf("trustgate_oracle_write_age_seconds")).toBe(5 * 3600 + 600);
    expect(await valueOf("trustgate_alerts_outstanding")).toBe(0);
  });

  test("every query of the Grafana dashboard is valid PromQL and answers with data", async () => {
    const dashboard = loadWatchDashboard();
    const values = Object.fromEntries(
      dashboard.templating.list
        .filter((variable) => variable.type === "textbox")
        .map((variable) => [variable.name, String(variable.query)]),
    );
    // Two scrapes at least after the values above, so that rate() and increase() over them have two points.
    await prometheus.waitFor("count_over_time(trustgate_audit_population[1m])", (samples) => (samples[0]?.value ?? 0) >= 3);
    for (const { panel, expr } of dashboardExpressions(dashboard)) {
      const samples = await prometheus.query(promqlFromGrafana(expr, values));
      expect(samples.length, `${panel}: ${expr}`).toBeGreaterThan(0);
    }
  });
});
