/**
 * Prometheus's own linter, `promtool check metrics` (Debian's `prometheus` package, installed by `.ci/run`), over
 * what the watch's /metrics serves after every method has run: the watch's metrics pass it, and with prom-client's
 * process and Node.js metrics served too, the only findings are prom-client's own gauges named `_total`.
 */
import { describe, expect, test } from "vitest";
import { createWatchMetrics, WATCH_METRIC_NAMES, type WatchMetrics } from "../../src/watch/metrics.js";
import { startWatchServer } from "../../src/watch/server.js";
import { HAS_PROMTOOL, promtoolCheckMetrics } from "../support/prometheus.js";

const suiteName = HAS_PROMTOOL
  ? "the watch's /metrics under promtool check metrics"
  : "the watch's /metrics under promtool check metrics (skipped: /usr/bin/promtool is absent; apt-get install -y prometheus)";

/** prom-client 15's default metrics that promtool faults: gauges whose names end in `_total`, not ours to rename. */
const PROM_CLIENT_FINDINGS = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

function driveEveryMethod(metrics: WatchMetrics): void {
  metrics.recordChecked("drifted", "change");
  metrics.flip("fail-to-pass");
  metrics.oracleWrite(new Date(Date.UTC(2026, 10, 22, 3, 0, 0)));
  metrics.attestationAge(3600);
  metrics.apiRequest(0.1, "ok");
  metrics.rpcRequest(0.01, "network-error");
  metrics.limiterQueue(() => 2);
  metrics.error("jwks-unavailable");
  metrics.alert("service-unhealthy", "reminder", false);
  metrics.block(5n, 8n);
  metrics.reorg(1);
  metrics.outstandingAlerts(3);
  metrics.auditPosition(7, 70);
}

describe.skipIf(!HAS_PROMTOOL)(suiteName, () => {
  test("the watch's metrics, served over HTTP after every method has run, pass the linter with no finding", async () => {
    const metrics = createWatchMetrics({ defaultMetrics: false });
    driveEveryMethod(metrics);
    const server = await startWatchServer({
      host: "127.0.0.1",
      port: 0,
      metrics,
      health: () => ({ live: true, ready: true, reasons: [] }),
    });
    try {
      const exposition = await (await fetch(`${server.url}/metrics`)).text();
      for (const name of WATCH_METRIC_NAMES) expect(exposition).toContain(`# TYPE ${name} `);
      expect(await promtoolCheckMetrics(exposition)).toEqual({ code: 0, problems: [] });
    } finally {
      await server.close();
    }
  });

  test("with prom-client's default metrics, every finding names one of prom-client's gauges, none of the watch's", async () => {
    const metrics = createWatchMetrics();
    driveEveryMethod(metrics);
    const check = await promtoolCheckMetrics(await metrics.registry.metrics());
    const named = check.problems.map((line) => line.split(" ")[0] ?? "");
    for (const name of named) expect(PROM_CLIENT_FINDINGS, check.problems.join("\n")).toContain(name);
    for (const name of named) expect(WATCH_METRIC_NAMES).not.toContain(name);
  });

  test("the linter is not a rubber stamp: a counter without _total is a finding", async () => {
    const check = await promtoolCheckMetrics("# HELP trustgate_checks Checks.\n# TYPE trustgate_checks counter\ntrustgate_checks 1\n");
    expect(check.code).not.toBe(0);
    expect(check.problems.join("\n")).toContain("trustgate_checks");
  });
});
