// The faults of a nightly run (issue 32's fault table), each against the real parts on loopback: the embedded drift
// environment (a local Base chain and the local signing service), the command line run in-process (`main`), requests
// counted where they arrive (the service's own counters). A fault must fail fast, say why in one line, and never lose
// the verdict.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type MainDependencies } from "../../src/cli/main";
import type { ScanProgress } from "../../src/drift/progress";
import { runDrift } from "../../src/drift/run";
import type { DriftReport } from "../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { spawnDrift, waitForOutcomes } from "../support/drift-process";
import { unusedPort } from "../support/scripted-server";
import { capturedIo } from "../support/captured-io";

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
  const captured = capturedIo();
  const code = await main(
    [
      "drift",
      "--rpc",
      extra.rpc ?? env.rpcUrl,
      "--api",
      extra.api ?? env.apiUrl,
      "--oracle",
      env.oracle,
      // The service's own issuer and keys, also when --api names a proxy in front of it.
      "--issuer",
      env.issuer,
      ...(extra.api === undefined ? [] : ["--jwks", `${extra.api}/.well-known/jwks.json`]),
      "--all",
      "--events-from",
      "0",
      "--rate",
      "1000000",
      ...args,
    ],
    captured.io,
    extra.deps,
  );
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const requests = () => env.service.stats().requests;

/** A run whose `proxy` dies at the first progress report `when` accepts (the run's own progress still reported). */
function killWhen(when: (progress: ScanProgress) => boolean, proxy: { kill(): void }): MainDependencies {
  return {
    runDrift: (config, hooks) =>
      runDrift(config, {
        ...hooks,
        onProgress: (p) => {
          hooks?.onProgress?.(p);
          if (when(p)) proxy.kill();
        },
      }),
  };
}

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

/**
 * A loopback proxy in front of the service (or the chain) that can die: until `kill()`, it forwards every request;
 * after it, every connection is reset (the client sees a network failure, as from a process that died), and counted
 * with those in flight at the death, so that the test sees how many failures the run met before it stopped asking.
 */
async function mortalProxy(target: string) {
  let dead = false;
  let answered = 0;
  let afterDeath = 0;
  const server = createServer((req, res) => {
    if (dead) {
      afterDeath++;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      void fetch(`${target}${req.url}`, {
        method: req.method,
        headers: { accept: "application/json", ...(body.length > 0 ? { "content-type": "application/json" } : {}) },
        ...(body.length > 0 ? { body } : {}),
      }).then(async (answer) => {
        const reply = Buffer.from(await answer.arrayBuffer());
        if (dead) {
          // A request in flight when the service died fails too: the run sees it as one more network failure.
          afterDeath++;
          req.socket.destroy();
          return;
        }
        if (req.url?.startsWith("/api/trust-check")) answered++;
        res.writeHead(
          answer.status,
          Object.fromEntries([...answer.headers].filter(([name]) => name !== "content-encoding" && name !== "content-length")),
        );
        res.end(reply);
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered: () => answered,
    afterDeath: () => afterDeath,
    kill: () => void (dead = true),
    revive: () => void (dead = false),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe("a service that dies mid-run", () => {
  it("stops the run after --max-network-failures failures in a row: exit 4, the rest error rows with one cause; the next run continues", async () => {
    const proxy = await mortalProxy(env.apiUrl);
    const state = join(dir, "dead-service.jsonl");
    const json = join(dir, "dead-service.json");
    const failures = 3;
    const concurrency = 2;
    try {
      const run = await drift(
        ["--state", state, "--json", json, "--max-network-failures", String(failures), "--concurrency", String(concurrency)],
        {
          api: proxy.url,
          // The service dies once it has answered a few signed fetches.
          deps: killWhen((p) => p.stage === "attestations" && p.done >= 4, proxy),
        },
      );
      expect(run.code).toBe(4);
      // Bounded by the breaker, not by time: the failures that open it, and the requests already in flight then.
      expect(proxy.afterDeath()).toBeGreaterThanOrEqual(failures);
      expect(proxy.afterDeath()).toBeLessThanOrEqual(failures + concurrency - 1);
      const report = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
      expect(report.summary.partial).toMatchObject({
        reason: "endpoint-stopped",
        stopped: { endpoint: "service", failures },
        resumable: true,
      });
      expect(report.summary.partial!.notFetched).toBeGreaterThan(0);
      const unfetched = report.agents.filter((row) => row.status === "error" && row.reason?.includes("the service stopped answering at"));
      expect(unfetched).toHaveLength(report.summary.partial!.notFetched);
      expect(unfetched[0]!.reason).toMatch(
        /\(3 consecutive network failures; the last: .+\), and the run stopped asking; run it again with the same --state/,
      );
      expect(run.stdout).toMatch(
        /PARTIAL: could not verify: the service stopped answering at \S+ \(.+\); \d+ signed attestations not fetched/,
      );
      // The summary does not claim that the agents it could not fetch were verified.
      expect(run.stdout).not.toMatch(/(\d+) of \d+ listed agents fetched and verified/);
      expect(run.stdout).toMatch(
        /\d+ of \d+ listed agents selected for a signed attestation, \d+ fetched and verified, \d+ not \(error rows\)/,
      );

      // The service is back: the next night continues the stopped run.
      proxy.revive();
      const before = proxy.answered();
      const next = await drift(["--state", state, "--json", json], { api: proxy.url });
      const resumed = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
      expect(next.code).toBe(resumed.verdict.exitCode);
      expect(resumed.summary.partial).toBeUndefined();
      expect(resumed.notes?.join("\n")).toMatch(/Continued the run started \S+ that stopped: the service stopped answering/);
      expect(resumed.runtime?.resumedOutcomes).toBeGreaterThan(0);
      expect(proxy.answered() - before).toBeLessThan(resumed.summary.triage!.signedFetches);
    } finally {
      await proxy.close();
    }
  });
});

describe("a clean interrupt (Ctrl-C)", () => {
  it("records itself in the state file, exits 130, and the next run says the run was interrupted, not killed", async () => {
    const state = join(dir, "interrupted.jsonl");
    env.service.injectFault({ kind: "slow", path: "/api/trust-check", delayMs: 150 }); // slow enough to interrupt mid-run
    const child = spawnDrift([
      ...["--rpc", env.rpcUrl, "--api", env.apiUrl, "--oracle", env.oracle, "--all", "--events-from", "0"],
      ...["--concurrency", "1", "--rate", "1000000", "--state", state, "--quiet"],
    ]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    try {
      await waitForOutcomes(state, 3, child, () => `the run did not get far enough to be interrupted\n${stderr}`);
      child.kill("SIGINT");
      expect(await exited).toBe(130);
    } finally {
      env.service.clearFaults();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    expect(stderr).toContain(`trustgate: interrupted; run the same command again with --state ${state} to continue where it stopped`);
    const last = readFileSync(state, "utf8").trimEnd().split("\n").at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ type: "stop", reason: "interrupted" });

    const json = join(dir, "after-interrupt.json");
    const next = await drift(["--state", state, "--json", json, "--quiet"]);
    const report = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
    expect(next.code).toBe(report.verdict.exitCode);
    const note = report.notes?.find((n) => n.startsWith("Continued the run"));
    expect(note).toMatch(/that was interrupted \(Ctrl-C\)/);
    expect(note).not.toContain("killed");
  });
});

describe("a state file that cannot be rewritten after the scan", () => {
  it("keeps the verdict: the summary and the verdict line are printed, the failure named with them, the exit code kept", async () => {
    const state = join(dir, "unsaved.jsonl");
    const json = join(dir, "unsaved.json");
    await drift(["--state", state, "--quiet"]);
    // The rewrite goes through a temporary file beside the state (this process's): a directory there makes it fail.
    const temporary = `${state}.${process.pid}.tmp`;
    mkdirSync(temporary);
    try {
      const run = await drift(["--state", state, "--json", json]);
      const report = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
      const verdict = report.verdict.exitCode;
      expect(run.code).toBe(verdict === 0 ? 1 : verdict);
      expect(run.stdout).toMatch(new RegExp(`(OK|DRIFT|FAILED): .* \\(exit ${verdict}\\)\\n$`));
      expect(run.stderr).toMatch(new RegExp(`trustgate: the state file \\(--state\\) could not be written to ${state}: .*EISDIR`));
      expect(report.summary.triage?.state?.notSaved).toMatch(/EISDIR/);
      expect(report.notes?.some((note) => note.startsWith(`STATE NOT SAVED: ${state} could not be rewritten`))).toBe(true);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
    // The file kept the journal: the next run continues from it.
    const next = await drift(["--state", state, "--json", json, "--quiet"]);
    const after = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
    expect(next.code).toBe(after.verdict.exitCode);
    expect(after.runtime?.resumedOutcomes).toBeGreaterThan(0);
  });
});

describe("an RPC that dies mid-run", () => {
  it("stops the run once the RPC failed --max-network-failures times in a row: exit 4, partial, the cause named", async () => {
    const proxy = await mortalProxy(env.rpcUrl);
    const json = join(dir, "dead-rpc.json");
    try {
      const run = await drift(["--json", json, "--max-network-failures", "3"], {
        rpc: proxy.url,
        // The chain dies when the scan starts reading the records.
        deps: killWhen((p) => p.stage === "onchain" && p.done === 0, proxy),
      });
      expect(run.code).toBe(4);
      // The breaker's failures and nothing more: once open, no request reaches the dead RPC.
      expect(proxy.afterDeath()).toBe(3);
      const report = JSON.parse(readFileSync(json, "utf8")) as DriftReport;
      expect(report.summary.partial).toMatchObject({ reason: "endpoint-stopped", stopped: { endpoint: "rpc", failures: 3 } });
      expect(
        report.notes?.some((note) => /^PARTIAL: the RPC stopped answering at \S+ \(3 consecutive network failures; the last: /.test(note)),
      ).toBe(true);
      expect(run.stdout).toMatch(/PARTIAL: could not verify: the RPC stopped answering at /);
    } finally {
      await proxy.close();
    }
  });
});
