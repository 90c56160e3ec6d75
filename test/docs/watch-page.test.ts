/**
 * docs/watch.md against the code it describes: the flag table against the options `trustgate watch` parses
 * (WATCH_OPTIONS), the metric table against the metrics the watch serves (WATCH_METRICS: names, types, labels), the
 * systemd unit's ExecStart and the Dockerfile's CMD through the command's own parser (neither systemd nor docker runs
 * here), and the two webhook verifier examples run as a receiver would run them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseWatchArgs } from "../../src/cli/watch-args.js";
import { WATCH_OPTIONS } from "../../src/cli/watch-options.js";
import { WATCH_METRIC_NAMES, WATCH_METRICS } from "../../src/watch/metrics.js";
import { docBlocks } from "../support/doc-blocks";
import { documentedFlags as flagsOf, parserFlags, tableRows } from "../support/doc-tables";

const ROOT = resolve(__dirname, "../..");
const PAGE = readFileSync(join(ROOT, "docs", "watch.md"), "utf8");
const BLOCKS = docBlocks("docs/watch.md");

/** The flags of the page's flag table. */
const documentedFlags = () => flagsOf(PAGE);

/** The metric table's rows: name, type, labels. */
function documentedMetrics(): { name: string; type: string; labels: string[] }[] {
  return tableRows(PAGE, "## Metrics and health", "| metric | type | labels | meaning |").map((cells) => ({
    name: cells[0]!.replace(/`/g, ""),
    type: cells[1]!,
    labels: [...cells[2]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!),
  }));
}

/** The one block of a language whose code matches. */
function block(lang: string, pattern: RegExp): string {
  const found = BLOCKS.filter((b) => b.lang === lang && pattern.test(b.code));
  expect(found, `one ${lang} block matching ${pattern}`).toHaveLength(1);
  return found[0]!.code;
}

/** An environment with the webhook's key set, as the unit's EnvironmentFile and the container's --env-file give it. */
const ENV = { TRUSTGATE_WEBHOOK_SECRET: "example-key", TRUSTGATE_API_KEY: "example-api-key" };

describe("docs/watch.md: the flag table", () => {
  test("names exactly the flags trustgate watch parses, each once", () => {
    const documented = documentedFlags();
    expect(new Set(documented).size, `a flag is in two rows: ${documented.join(" ")}`).toBe(documented.length);
    expect([...documented].sort()).toEqual(parserFlags(WATCH_OPTIONS).sort());
  });

  test("a flag missing from the table, or one the command does not take, fails the comparison", () => {
    const documented = documentedFlags();
    expect(documented).toContain("--expect-write");
    const without = WATCH_OPTIONS.filter((option) => option.name !== "expect-write");
    expect([...documented].sort()).not.toEqual(parserFlags(without).sort());
    expect([...documented, "--verbose"].sort()).not.toEqual(parserFlags(WATCH_OPTIONS).sort());
  });
});

describe("docs/watch.md: the metric table", () => {
  test("names every metric the watch serves, and none it does not, each once", () => {
    const names = documentedMetrics().map((metric) => metric.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...WATCH_METRIC_NAMES].sort());
  });

  test("gives each metric its type and labels", () => {
    const documented = documentedMetrics().map(({ name, type, labels }) => ({ name, type, labels: [...labels].sort() }));
    const served = WATCH_METRICS.map(({ name, type, labels }) => ({ name, type, labels: [...labels].sort() }));
    expect(documented.sort((a, b) => a.name.localeCompare(b.name))).toEqual(served.sort((a, b) => a.name.localeCompare(b.name)));
  });

  test("a renamed or missing metric fails the comparison", () => {
    const names = documentedMetrics().map((metric) => metric.name);
    expect(names).toContain("trustgate_decision_flips_total");
    expect([...names.filter((name) => name !== "trustgate_decision_flips_total")].sort()).not.toEqual([...WATCH_METRIC_NAMES].sort());
    expect([...names, "trustgate_decision_flip_total"].sort()).not.toEqual([...WATCH_METRIC_NAMES].sort());
  });
});

describe("docs/watch.md: running it as a service", () => {
  test("the systemd unit restarts on failure, stops with SIGTERM within a bound, reads its secrets from a file, and its ExecStart parses", () => {
    const unit = block("ini", /^ExecStart=/m);
    const settings = new Map(
      unit
        .split("\n")
        .filter((line) => /^\w+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
    );
    expect(settings.get("Restart")).toBe("on-failure");
    expect(settings.get("KillSignal")).toBe("SIGTERM");
    expect(Number(settings.get("TimeoutStopSec"))).toBeGreaterThan(0);
    expect(settings.get("EnvironmentFile")).toMatch(/^\/etc\/trustgate\//);
    const stateDirectory = settings.get("StateDirectory")!;
    expect(stateDirectory).toBeTruthy();
    const words = settings.get("ExecStart")!.split(/\s+/);
    const args = words.slice(words.indexOf("watch") + 1);
    expect(words.slice(words.indexOf("watch") - 1, words.indexOf("watch") + 1)).toEqual(["trustgate", "watch"]);
    const parsed = parseWatchArgs(args, { env: ENV });
    if (parsed.kind !== "run") throw new Error("the unit's ExecStart asks for the help");
    expect(parsed.config.state).toBe(`/var/lib/${stateDirectory}/state.json`);
    expect(parsed.webhook?.secret).toBe("example-key");
    expect(parsed.logFormat).toBe("json");
    expect(parsed.metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    // Without the environment file's key, the same line is refused: the key is never an argument.
    expect(() => parseWatchArgs(args, { env: {} })).toThrow(/TRUSTGATE_WEBHOOK_SECRET/);
  });

  test("the Dockerfile runs on node:20-slim, stops with SIGTERM, keeps its state on the volume, and its CMD parses", () => {
    const dockerfile = block("dockerfile", /^CMD /m);
    expect(dockerfile).toMatch(/^FROM node:20-slim$/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
    const entrypoint = JSON.parse(/^ENTRYPOINT (.*)$/m.exec(dockerfile)![1]!) as string[];
    expect(entrypoint.slice(-2)).toEqual(["trustgate", "watch"]);
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(dockerfile)![1]!) as string[];
    const parsed = parseWatchArgs(cmd, { env: ENV });
    if (parsed.kind !== "run") throw new Error("the Dockerfile's CMD asks for the help");
    const volume = /^VOLUME (\S+)$/m.exec(dockerfile)![1]!;
    expect(parsed.config.state!.startsWith(`${volume}/`)).toBe(true);
    expect(parsed.metrics?.port).toBe(Number(/^EXPOSE (\d+)$/m.exec(dockerfile)![1]));
  });
});

describe("docs/watch.md: the webhook verifier examples", () => {
  const work = mkdtempSync(join(tmpdir(), "watch-verifiers-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Runs a block as a receiver's program, its `trustgate/watch` import mapped to this repository's entry. */
  function run(code: string, name: string): { status: number | null; stdout: string; stderr: string } {
    const file = join(work, `${name}.ts`);
    writeFileSync(file, code.replace(/from "trustgate\/watch"/g, `from ${JSON.stringify(join(ROOT, "src/watch/entry.ts"))}`));
    const result = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  test.each([
    ["with verifyWebhookSignature", /verifyWebhookSignature\(/],
    ["with node:crypto alone", /from "node:crypto"/],
  ])(
    "%s: a signed body passes; a tampered body, another key or a stale time does not",
    (name, pattern) => {
      const code = block("ts", pattern);
      const result = run(code, name.replace(/\W+/g, "-"));
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe("verified\n");
      expect(result.status).toBe(0);
    },
    150_000,
  );

  test("the node:crypto example's check agrees with the kit's: it refuses what verifyWebhookSignature refuses", () => {
    const code = block("ts", /from "node:crypto"/);
    // The example with its own checks replaced: its verify() run on a body the kit signed under another key.
    const probe = code.replace(
      /\nconst rawBody[\s\S]*$/,
      '\nconst body = "{}";\nconst t = Math.floor(Date.now() / 1000);\nconsole.log(verify(body, signWebhookBody(body, "k1", t), "k2") ? "accepted" : "refused");\n',
    );
    const result = run(probe, "probe");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("refused\n");
  }, 150_000);
});
