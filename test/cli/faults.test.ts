// The faults of a nightly run (issue 32's fault table), each against the real parts on loopback: the embedded drift
// environment (a local Base chain and the local signing service), the command line run in-process (`main`), requests
// counted where they arrive (the service's own counters). A fault must fail fast, say why in one line, and never lose
// the verdict.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type MainDependencies } from "../../src/cli/main";
import { runDrift } from "../../src/drift/run";
import type { DriftReport } from "../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { unusedPort } from "../support/scripted-server";

let env: EmbeddedDriftEnvironment;
let dir: string;
beforeAll(async () => {
  env = await startEmbeddedDriftEnvironment({ size: 120, seed: 5, faults: false, delisted: 0 });
  dir = mkdtempSync(join(tmpdir(), "trustgate-faults-"));
}, 300_000);
afterAll(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `trustgate drift` against the environment with `args` added; returns the code and what it printed. */
async function drift(
  args: readonly string[],
  extra: { readonly api?: string; readonly rpc?: string; readonly deps?: MainDependencies } = {},
) {
  let stdout = "";
  let stderr = "";
  const code = await main(
    [
      "drift",
      "--rpc",
      extra.rpc ?? env.rpcUrl,
      "--api",
      extra.api ?? env.apiUrl,
      "--oracle",
      env.oracle,
      "--all",
      "--events-from",
      "0",
      "--rate",
      "1000000",
      ...args,
    ],
    { stdout: { write: (c: string) => (stdout += c) }, stderr: { write: (c: string) => (stderr += c) }, env: {}, isTTY: false },
    extra.deps,
  );
  return { code, stdout, stderr };
}

const requests = () => env.service.stats().requests;

describe("an output path that cannot be written", () => {
  it.each([
    ["--html", "/proc/trustgate-report.html"],
    ["--json", "/proc/trustgate-report.json"],
    ["--markdown", "/proc/trustgate-report.md"],
    ["--state", "/proc/trustgate-state.jsonl"],
  ])("%s in a directory that takes no new file exits 2 naming the path, before any request", async (flag, path) => {
    const before = requests();
    const run = await drift([flag, path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^trustgate: ${flag} ${path}: cannot be written there: no file can be created in "/proc" \\(`));
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(requests()).toBe(before);
  });
});

describe("a report that cannot be written after the scan", () => {
  it("still prints the summary and the verdict, writes the other documents, and exits with the verdict's code", async () => {
    const html = join(dir, "night.html");
    const json = join(dir, "night.json");
    // The real scan; then, before the documents are written, the page's path becomes a directory (a disk that filled
    // up, a path removed under the job: the write fails after the check passed).
    const run = await drift(["--html", html, "--json", json], {
      deps: {
        runDrift: async (config, hooks) => {
          const report = await runDrift(config, hooks ?? {});
          mkdirSync(html);
          return report;
        },
      },
    });
    const written = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
    const verdict = written.verdict.exitCode;
    // The environment is built to drift (changed records, a stale chain): the verdict is not 0.
    expect(verdict).not.toBe(0);
    expect(run.code).toBe(verdict);
    expect(run.stdout).toMatch(new RegExp(`(DRIFT|FAILED): .* \\(exit ${verdict}\\)\n$`));
    expect(run.stderr).toContain(`trustgate: the HTML page (--html) could not be written to ${html}: EISDIR`);
    expect(run.stderr).toContain(`the verdict above stands (exit ${verdict})`);
    expect(run.stderr).toContain(`JSON report written to ${json}`);
    expect(existsSync(join(html, "index.html"))).toBe(false);
  });
});

describe("a state file with a corrupt middle line", () => {
  it("is refused without --full; --full starts it over, keeps the nights' history and says what it dropped", async () => {
    const state = join(dir, "corrupt-state.jsonl");
    for (let night = 0; night < 2; night++) expect([0, 3, 4]).toContain((await drift(["--state", state, "--quiet"])).code);
    const lines = readFileSync(state, "utf8").split("\n");
    const agents = lines.filter((line) => line.startsWith('{"type":"agent"')).length;
    expect(agents).toBeGreaterThan(2);
    const middle = Math.floor(lines.length / 2);
    lines[middle] = `${lines[middle]!.slice(0, 20)}garbage`;
    writeFileSync(state, lines.join("\n"));

    const refused = await drift(["--state", state, "--quiet"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`is malformed at line ${middle + 1}`);

    const json = join(dir, "recovered.json");
    const recovered = await drift(["--state", state, "--full", "--quiet", "--json", json]);
    expect([0, 3, 4]).toContain(recovered.code);
    const report = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
    expect(report.state?.history).toHaveLength(3);
    const note = report.notes?.find((n) => n.startsWith("STATE STARTED OVER"));
    expect(note).toContain(`${state} could not be read (The state file ${state} is malformed at line ${middle + 1}`);
    expect(note).toContain("kept the history of 2 nights from its header");
    expect(note).toContain(`dropped ${agents} agent entries`);
    // The file is whole again: the next night reads it without --full, with the history of three nights.
    const next = await drift(["--state", state, "--quiet", "--json", json]);
    expect([0, 3, 4]).toContain(next.code);
    expect((JSON.parse(readFileSync(json, "utf8")) as DriftReport).state?.history).toHaveLength(4);
  });
});

describe("an endpoint that refuses connections", () => {
  it.each([
    [
      "the RPC",
      { rpc: "refused" },
      /^trustgate: Cannot reach the RPC at http:\/\/127\.0\.0\.1:\d+ \(HTTP request failed\. \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\)\n$/,
    ],
    [
      "the service (its JWKS)",
      { api: "refused" },
      /^trustgate: Cannot fetch the service's JWKS at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json \(.*connect ECONNREFUSED 127\.0\.0\.1:\d+.*\)\n$/,
    ],
  ])("%s: exit 2 in one line that names ECONNREFUSED", async (_what, which, line) => {
    const refused = `http://127.0.0.1:${await unusedPort()}`;
    const run = await drift(["--quiet"], {
      ...("rpc" in which ? { rpc: refused } : {}),
      ...("api" in which ? { api: refused } : {}),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(line);
  });
});
