/**
 * A real Prometheus server for tests: Debian's `prometheus` (`/usr/bin/prometheus`, installed by `.ci/run`) started
 * on a free loopback port with a generated configuration (one job scraping one `host:port` every second, storage in
 * a temporary directory), waited for until ready (`/-/ready`), queried through its HTTP API (`/api/v1/query`,
 * `/api/v1/targets`) and stopped. Also `promtool check metrics`, the linter of the exposition format.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian's package installs the server and its tool. */
export const PROMETHEUS = "/usr/bin/prometheus";
export const PROMTOOL = "/usr/bin/promtool";
/** Whether this machine has them (`apt-get install -y prometheus`). */
export const HAS_PROMETHEUS = existsSync(PROMETHEUS);
export const HAS_PROMTOOL = existsSync(PROMTOOL);

/** The job name of the one scrape the generated configuration holds. */
export const SCRAPE_JOB = "trustgate-watch";

/** One series of an instant query's answer. */
export interface PrometheusSample {
  readonly metric: Readonly<Record<string, string>>;
  /** The value as Prometheus writes it (`"3"`, `"+Inf"`, `"NaN"`), parsed. */
  readonly value: number;
}

/** One scrape target as `/api/v1/targets` describes it. */
export interface PrometheusTarget {
  readonly scrapeUrl: string;
  readonly health: "up" | "down" | "unknown";
  readonly lastError: string;
  readonly lastScrape: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** A running Prometheus. */
export interface PrometheusServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** An instant query (`/api/v1/query`); throws on an error answer (a bad expression among them). */
  query(expression: string): Promise<PrometheusSample[]>;
  /** The active scrape targets (`/api/v1/targets`). */
  targets(): Promise<PrometheusTarget[]>;
  /**
   * Polls `query(expression)` until `accept` holds, at most `polls` times (every 200 ms); throws with the last answer
   * when it never does. A bound in polls: how long a scrape takes on a loaded machine is never asserted.
   */
  waitFor(expression: string, accept: (samples: PrometheusSample[]) => boolean, polls?: number): Promise<PrometheusSample[]>;
  /** What the server printed, for a failure's message. */
  log(): string;
  /** Stops the server (SIGTERM, then SIGKILL when it lingers) and removes its storage. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The generated configuration: one job, scraped every second. */
export function prometheusConfig(target: string, metricsPath = "/metrics"): string {
  return [
    "global:",
    "  scrape_interval: 1s",
    "  scrape_timeout: 1s",
    "  evaluation_interval: 1s",
    "scrape_configs:",
    `  - job_name: ${SCRAPE_JOB}`,
    `    metrics_path: ${metricsPath}`,
    "    static_configs:",
    `      - targets: ["${target}"]`,
    "",
  ].join("\n");
}

/**
 * Starts Prometheus scraping `target` (`host:port`, a loopback address) and waits until it is ready.
 *
 * @param target - What to scrape.
 * @param readyPolls - How many times to ask `/-/ready` (every 200 ms) before giving up.
 */
export async function startPrometheus(target: string, readyPolls = 300): Promise<PrometheusServer> {
  // The free port is found, then bound by Prometheus: another process may take it between the two; then try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrometheusOnce(target, readyPolls);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes("address already in use")) throw error;
    }
  }
}

async function startPrometheusOnce(target: string, readyPolls: number): Promise<PrometheusServer> {
  const directory = mkdtempSync(join(tmpdir(), "trustgate-prometheus-"));
  const configFile = join(directory, "prometheus.yml");
  writeFileSync(configFile, prometheusConfig(target));
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [`--config.file=${configFile}`, `--storage.tsdb.path=${join(directory, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => {
    child.on("exit", (code) => {
      exited = code;
      resolve();
    });
    child.on("error", (error) => {
      output += `\n${error.message}`;
      exited = -1;
      resolve();
    });
  });

  const stop = async () => {
    if (exited === undefined) {
      child.kill("SIGTERM");
      const lingering = await Promise.race([exit.then(() => false), sleep(10_000).then(() => true)]);
      if (lingering) {
        child.kill("SIGKILL");
        await exit;
      }
    }
    rmSync(directory, { recursive: true, force: true });
  };

  const api = async (path: string): Promise<unknown> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data?: unknown; error?: string; errorType?: string };
    if (body.status !== "success") throw new Error(`Prometheus ${path}: ${body.errorType ?? ""} ${body.error ?? JSON.stringify(body)}`);
    return body.data;
  };
  const query = async (expression: string): Promise<PrometheusSample[]> => {
    const data = (await api(`/api/v1/query?query=${encodeURIComponent(expression)}`)) as {
      resultType: string;
      result: { metric: Record<string, string>; value: [number, string] }[] | [number, string];
    };
    if (data.resultType === "scalar") {
      const [, value] = data.result as [number, string];
      return [{ metric: {}, value: Number(value) }];
    }
    return (data.result as { metric: Record<string, string>; value: [number, string] }[]).map((entry) => ({
      metric: entry.metric,
      value: entry.value[1] === "+Inf" ? Infinity : entry.value[1] === "-Inf" ? -Infinity : Number(entry.value[1]),
    }));
  };

  for (let poll = 0; ; poll++) {
    if (exited !== undefined) {
      await stop();
      throw new Error(`prometheus exited (${String(exited)}) before it was ready:\n${output}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (poll >= readyPolls) {
      await stop();
      throw new Error(`prometheus was not ready after ${readyPolls} polls:\n${output}`);
    }
    await sleep(200);
  }

  return {
    url,
    query,
    targets: async () => ((await api("/api/v1/targets?state=active")) as { activeTargets: PrometheusTarget[] }).activeTargets,
    waitFor: async (expression, accept, polls = 150) => {
      let last: PrometheusSample[] = [];
      for (let poll = 0; poll < polls; poll++) {
        last = await query(expression);
        if (accept(last)) return last;
        await sleep(200);
      }
      throw new Error(`${expression} never held after ${polls} polls; last answer ${JSON.stringify(last)}\n${output}`);
    },
    log: () => output,
    stop,
  };
}

/** What `promtool check metrics` said of an exposition. */
export interface PromtoolCheck {
  readonly code: number | null;
  /** Its findings, one a line (`<metric> <problem>`). */
  readonly problems: readonly string[];
}

/**
 * Runs `promtool check metrics` on an exposition (its linter: names, suffixes, help texts, types).
 *
 * @param exposition - The text `/metrics` served.
 */
export async function promtoolCheckMetrics(exposition: string): Promise<PromtoolCheck> {
  const child = spawn(PROMTOOL, ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
    child.stdin.end(exposition);
  });
  return {
    code,
    problems: output
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== ""),
  };
}
