/**
 * Reads the watch's Grafana dashboard (`docs/watch-dashboard.json`): its panels' PromQL expressions, those
 * expressions with Grafana's variables replaced by values Prometheus accepts, and the metric and function names each
 * expression uses, so that tests hold the dashboard to the names the watch serves and run its queries on a real
 * Prometheus.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Where the dashboard is. */
export const WATCH_DASHBOARD_PATH = join(__dirname, "../../docs/watch-dashboard.json");

/** The parts of Grafana's dashboard model the tests read. */
export interface GrafanaDashboard {
  readonly title: string;
  readonly uid: string;
  readonly templating: { readonly list: readonly { readonly name: string; readonly type: string; readonly query?: unknown }[] };
  readonly panels: readonly GrafanaPanel[];
}

/** One panel (a row is a panel of type `row`, without targets). */
export interface GrafanaPanel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly description?: string;
  readonly datasource?: { readonly type: string; readonly uid: string };
  readonly gridPos: { readonly h: number; readonly w: number; readonly x: number; readonly y: number };
  readonly targets?: readonly {
    readonly refId: string;
    readonly expr: string;
    readonly datasource?: { readonly type: string; readonly uid: string };
  }[];
}

/** Reads the dashboard. */
export function loadWatchDashboard(): GrafanaDashboard {
  return JSON.parse(readFileSync(WATCH_DASHBOARD_PATH, "utf8")) as GrafanaDashboard;
}

/** Every expression of every panel, with its panel's title. */
export function dashboardExpressions(dashboard: GrafanaDashboard): { readonly panel: string; readonly expr: string }[] {
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
}

/**
 * An expression with Grafana's variables replaced: `$__rate_interval` by `1m`, a selector's `$job`/`$instance` by
 * `.*`, and any other variable by the value `values` gives it.
 */
export function promqlFromGrafana(expr: string, values: Readonly<Record<string, string>> = {}): string {
  return expr
    .replaceAll("$__rate_interval", "1m")
    .replace(
      /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g,
      (whole, name: string) => values[name] ?? (name === "job" || name === "instance" ? ".*" : whole),
    );
}

/** PromQL's keywords that read like names: binary operators and modifiers. */
const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "bool",
  "offset",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "inf",
  "nan",
]);

/**
 * The metric names and the function (or aggregation) names an expression uses: label matchers, strings, ranges and
 * grouping clauses removed, a name followed by `(` a function, any other name a metric.
 */
export function namesOf(expr: string): { readonly metrics: string[]; readonly functions: string[] } {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const metrics = new Set<string>();
  const functions = new Set<string>();
  for (const match of stripped.matchAll(/(?<![0-9.])\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?/g)) {
    const name = match[1]!;
    if (KEYWORDS.has(name.toLowerCase())) continue;
    (match[2] === undefined ? metrics : functions).add(name);
  }
  return { metrics: [...metrics], functions: [...functions] };
}
