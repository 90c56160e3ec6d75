/**
 * The Grafana dashboard of the watch (docs/watch-dashboard.json) against the metrics it serves: every metric name in
 * every panel's expressions is one the watch serves (a histogram's through `_bucket`, `_sum`, `_count`; prom-client's
 * process and Node.js metrics where the registry serves them too), every one of WATCH_METRIC_NAMES is plotted, every
 * histogram has its quantiles, and the Prometheus datasource is a variable every panel and query reads. The queries
 * run on a real Prometheus in prometheus-scrape.test.ts.
 */
import { describe, expect, test } from "vitest";
import { createWatchMetrics, WATCH_METRIC_NAMES, WATCH_METRICS } from "../../src/watch/metrics.js";
import { dashboardExpressions, loadWatchDashboard, namesOf, promqlFromGrafana } from "../support/grafana-dashboard.js";

/** Metrics the dashboard deliberately leaves out, each with the reason (none: every one is plotted). */
const UNPLOTTED: Readonly<Record<string, string>> = {};

/** The functions and aggregations the dashboard may call: PromQL's, as Prometheus 2.42 knows them. */
const PROMQL_FUNCTIONS = new Set([
  "sum",
  "avg",
  "min",
  "max",
  "count",
  "topk",
  "bottomk",
  "quantile",
  "rate",
  "irate",
  "increase",
  "delta",
  "deriv",
  "histogram_quantile",
  "vector",
  "scalar",
  "time",
  "timestamp",
  "abs",
  "clamp_min",
  "clamp_max",
  "absent",
  "max_over_time",
  "min_over_time",
  "avg_over_time",
  "changes",
  "resets",
  "label_replace",
]);

const dashboard = loadWatchDashboard();
const variables = Object.fromEntries(
  dashboard.templating.list.filter((variable) => variable.type === "textbox").map((variable) => [variable.name, String(variable.query)]),
);
const expressions = dashboardExpressions(dashboard).map(({ panel, expr }) => ({
  panel,
  expr,
  names: namesOf(promqlFromGrafana(expr, variables)),
}));

/** prom-client's process and Node.js metrics: served beside the watch's own with `defaultMetrics` (the default). */
const DEFAULT_METRIC_NAMES = new Set(
  createWatchMetrics()
    .registry.getMetricsAsArray()
    .map((metric) => metric.name)
    .filter((name) => !WATCH_METRIC_NAMES.includes(name)),
);

/** The watch metric an exposed series name belongs to (a histogram's `_bucket`, `_sum`, `_count` to the histogram). */
function watchMetricOf(series: string): string | undefined {
  if (WATCH_METRIC_NAMES.includes(series)) return series;
  const base = series.replace(/_(bucket|sum|count)$/, "");
  return WATCH_METRICS.find((spec) => spec.name === base && spec.type === "histogram")?.name;
}

describe("docs/watch-dashboard.json", () => {
  test("has panels with expressions, unique ids, inside Grafana's 24-column grid", () => {
    expect(dashboard.uid).toBe("trustgate-watch");
    expect(expressions.length).toBeGreaterThan(15);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type !== "row") expect(panel.description, panel.title).toBeTruthy();
    }
  });

  test("the Prometheus datasource is a variable, and every panel and query reads it", () => {
    const datasource = dashboard.templating.list.find((variable) => variable.type === "datasource");
    expect(datasource).toMatchObject({ name: "datasource", query: "prometheus" });
    for (const panel of dashboard.panels.filter((candidate) => candidate.type !== "row")) {
      expect(panel.datasource, panel.title).toEqual({ type: "prometheus", uid: "${datasource}" });
      for (const target of panel.targets ?? [])
        expect(target.datasource, panel.title).toEqual({ type: "prometheus", uid: "${datasource}" });
    }
  });

  test("every metric name in every expression is one the watch serves", () => {
    expect(DEFAULT_METRIC_NAMES.has("process_resident_memory_bytes")).toBe(true);
    for (const panel of new Set(expressions.map((entry) => entry.panel))) {
      const metrics = expressions.filter((entry) => entry.panel === panel).flatMap((entry) => entry.names.metrics);
      expect(metrics.length, `${panel} plots no metric`).toBeGreaterThan(0);
    }
    for (const { panel, expr, names } of expressions) {
      for (const name of names.metrics) {
        const known = watchMetricOf(name) !== undefined || DEFAULT_METRIC_NAMES.has(name);
        expect(known, `${panel}: ${name} is not a metric the watch serves (${expr})`).toBe(true);
      }
      for (const name of names.functions) expect(PROMQL_FUNCTIONS.has(name), `${panel}: ${name}( is not a PromQL function`).toBe(true);
    }
  });

  test("every one of WATCH_METRIC_NAMES is plotted by some panel, or listed as unplotted with the reason", () => {
    const plotted = new Set(expressions.flatMap(({ names }) => names.metrics.map(watchMetricOf).filter((name) => name !== undefined)));
    for (const name of WATCH_METRIC_NAMES) expect(plotted.has(name) || name in UNPLOTTED, `${name} is on no panel`).toBe(true);
    for (const name of Object.keys(UNPLOTTED)) expect(WATCH_METRIC_NAMES, `UNPLOTTED names ${name}`).toContain(name);
  });

  test("every histogram is plotted as quantiles of its buckets (histogram_quantile by le)", () => {
    for (const spec of WATCH_METRICS.filter((candidate) => candidate.type === "histogram")) {
      const quantiles = expressions.filter(
        ({ expr, names }) =>
          names.functions.includes("histogram_quantile") && names.metrics.includes(`${spec.name}_bucket`) && /by \([^)]*\ble\b/.test(expr),
      );
      expect(quantiles.length, spec.name).toBeGreaterThan(0);
    }
  });

  test("counters are plotted through rate or increase, never raw", () => {
    for (const { panel, expr, names } of expressions) {
      const counters = names.metrics.filter((name) => WATCH_METRICS.find((spec) => spec.name === name)?.type === "counter");
      if (counters.length > 0)
        expect(
          names.functions.some((name) => name === "rate" || name === "increase"),
          `${panel}: ${expr}`,
        ).toBe(true);
    }
  });

  test("the name reader finds metrics and functions, and leaves out labels, strings, ranges and grouping", () => {
    expect(namesOf('histogram_quantile(0.99, sum by (le, outcome) (rate(a_bucket{job=~"x|y", le!="1"}[5m]))) / b offset 1h')).toEqual({
      metrics: ["a_bucket", "b"],
      functions: ["histogram_quantile", "sum", "rate"],
    });
    expect(namesOf("vector(1e3) and on (instance) c > bool 2")).toEqual({ metrics: ["c"], functions: ["vector"] });
    expect(promqlFromGrafana('x{job=~"$job"}[$__rate_interval] > $cadence', { cadence: "5" })).toBe('x{job=~".*"}[1m] > 5');
  });
});
