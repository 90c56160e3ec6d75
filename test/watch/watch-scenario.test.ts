/**
 * The watch's loopback scenario, with real parts: the embedded local Base chain over HTTP with the reference oracle and
 * an `AttestedTrustOracle` over it, the local signing service, a webhook receiver (a real HTTP server) and, where
 * Debian's package is installed, a real Prometheus scraping the watch's `/metrics`.
 *
 * In order, on one watch: the oracle silent past `maxSilence` raises exactly one alert; a record written that
 * disagrees with the service is alerted, signed, within the confirmation depth (and the write resolves the silence);
 * a reorg that drops such a record resolves its alert; a receiver failing for a while gets the alert after retries, and
 * one that is down gets it in the dead-letter file; Prometheus reads back what the watch counted. Then, as a real
 * process: SIGTERM mid-check drains and exits 0, and a restart alerts what was written meanwhile and nothing twice.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { type Address, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentKey, formatAgentRef } from "../../src/agent/agent-ref";
import { snapshotRecords } from "../../src/harness/devnet/nightly-snapshot";
import { publishTrustRecords } from "../../src/harness/devnet/publish-records";
import type { PopulationAgent } from "../../src/harness/service/agent";
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import { createWatchMetrics } from "../../src/watch/metrics";
import { startWatchServer, type WatchServer } from "../../src/watch/server";
import { readWatchState } from "../../src/watch/state";
import type { AlertMessage } from "../../src/watch/types";
import { runWatch, type WatchConfig, type WatchTick } from "../../src/watch/watch";
import { createWebhookSender, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "../../src/watch/webhook";
import { HAS_PROMETHEUS, type PrometheusServer, startPrometheus } from "../support/prometheus";
import { type RefreshDevnet, startRefreshDevnet } from "../support/refresh-devnet";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const ROOT = resolve(__dirname, "../..");
const SECRET = "scenario-hmac-key";
const CONFIRMATIONS = 2;
const SILENCE_SECONDS = 3600;

let devnet: RefreshDevnet;
let attested: Address;
let receiver: WebhookReceiver;
let dir: string;
let base: readonly PopulationAgent[];

/** A JSON-RPC call to the devnet. */
async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  return devnet.clients.public.request({ method: method as "eth_chainId", params: params as never });
}

/** Mines `count` empty blocks. */
async function mine(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await rpc("evm_mine");
}

/** Writes a record for `agent` whose score is on the other side of the threshold from the service's. */
async function writeFlip(agent: PopulationAgent): Promise<{ readonly block: bigint; readonly transaction: Hex }> {
  const [record] = snapshotRecords([agent]);
  const moved = agent.score >= 51 ? { score: 20, tier: 1 } : { score: 90, tier: 3 };
  const head = (await devnet.clients.public.getBlock()).timestamp;
  const result = await publishTrustRecords(devnet.env.simulation.provider, {
    oracle: devnet.env.oracle,
    publisher: devnet.env.simulation.publisher,
    records: [{ ...record!, ...moved, updatedAt: Number(head) }],
  });
  return { block: result.blockNumber!, transaction: result.transactions[0]! };
}

/** The watch's configuration on the devnet. */
function watchConfig(state: string): WatchConfig {
  return {
    rpcUrl: devnet.env.rpcUrl,
    oracle: devnet.env.oracle,
    attestedOracle: attested,
    apiUrl: devnet.env.apiUrl,
    issuer: devnet.env.issuer,
    jwks: devnet.env.jwksUrl,
    maxAgeSeconds: 36 * 3600,
    encoding: DEFAULT_TRUST_ENCODING,
    ratePerMinute: 60_000,
    readChunkSize: devnet.env.readChunkSize,
    confirmations: CONFIRMATIONS,
    pollIntervalMs: 100,
    state,
    cadence: { kind: "max-silence", seconds: SILENCE_SECONDS },
    auditShare: 0,
    reminderIntervalSeconds: 0,
    // The snapshot's RecordAdded events name the agents of the records the scenario updates.
    keysFromBlock: 0n,
  };
}

beforeAll(async () => {
  // The snapshot two hours old: past the one hour of silence the watch is given, so that it starts silent.
  devnet = await startRefreshDevnet({ snapshotAt: new Date(Date.now() - 2 * 3600_000) });
  attested = await devnet.deployAttestedOracle();
  await devnet.installServiceKey(attested);
  receiver = await startWebhookReceiver();
  dir = mkdtempSync(join(tmpdir(), "watch-scenario-"));
  const changed = new Set([...devnet.env.expectations.changedKeys, ...devnet.env.expectations.staleKeys]);
  base = devnet.env.served.agents.filter(
    (agent) => agent.chain === "base" && !changed.has(`${agent.chain}:${agent.registry}:${agent.agentId}`),
  );
  expect(base.length).toBeGreaterThanOrEqual(6);
}, 240_000);

afterAll(async () => {
  await receiver?.close();
  await devnet?.env.close();
});

describe("trustgate watch on the devnet (in process)", () => {
  const ticks: WatchTick[] = [];
  const controller = new AbortController();
  let running: ReturnType<typeof runWatch>;
  let server: WatchServer;
  const metrics = createWatchMetrics();

  beforeAll(async () => {
    const state = join(dir, "in-process.json");
    const sender = createWebhookSender({
      url: receiver.url,
      format: "json",
      secret: SECRET,
      deadLetter: join(dir, "dead-letter.jsonl"),
      retries: 3,
      backoff: { initialMs: 20, maxMs: 100 },
    });
    server = await startWatchServer({ host: "127.0.0.1", port: 0, metrics, health: () => ({ live: true, ready: true, reasons: [] }) });
    let ready!: () => void;
    const started = new Promise<void>((resolvePromise) => (ready = resolvePromise));
    running = runWatch(watchConfig(state), {
      deliver: (message) => sender.send(message),
      metrics,
      signal: controller.signal,
      onReady: () => ready(),
      onTick: (tick) => ticks.push(tick),
    });
    await Promise.race([started, running]);
  }, 120_000);

  afterAll(async () => {
    controller.abort();
    await running?.catch(() => undefined);
    await server?.close();
  });

  /** Waits until a tick that `match` accepts has ended. */
  async function tickWith(match: (tick: WatchTick) => boolean): Promise<WatchTick> {
    for (;;) {
      const found = ticks.find(match);
      if (found) return found;
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
    }
  }

  /** Waits until `count` more ticks have run. */
  async function ticksPass(count: number): Promise<void> {
    const target = ticks.length + count;
    while (ticks.length < target) await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
  }

  it("the oracle silent past maxSilence: exactly one alert, whatever the ticks", async () => {
    const silent = await receiver.waitFor((body) => body.kind === "oracle-silent" && body.state === "firing");
    expect(silent.id).toBe(`oracle-silent:${getAddress(devnet.env.oracle)}`);
    await ticksPass(5);
    expect(receiver.delivered().filter((body) => body.kind === "oracle-silent")).toHaveLength(1);
  });

  it("a record that disagrees with the service: a signed alert within the confirmation depth, and the write ends the silence", async () => {
    const agent = base[0]!;
    const { block, transaction } = await writeFlip(agent);
    await mine(CONFIRMATIONS);
    const head = await devnet.clients.public.getBlockNumber();
    const alert = await receiver.waitFor(firing(agent));
    // Nothing was mined while waiting: the alert came while the head stood at the write plus the confirmation depth.
    expect(await devnet.clients.public.getBlockNumber()).toBe(head);
    expect(head - block).toBe(BigInt(CONFIRMATIONS));
    // The receiver may answer before the tick that delivered the alert has ended: wait for the tick.
    const tick = await tickWith((candidate) => candidate.alerts.some((sent) => sent.message.id === alert.id));
    expect(tick.step?.confirmed?.number).toBe(block);
    expect(alert).toMatchObject({
      kind: agent.score >= 51 ? "fail-to-pass" : "pass-to-fail",
      agent: formatAgentRef({ chain: agent.chain, agentId: BigInt(agent.agentId), registry: agent.registry } as never),
      before: { score: agent.score >= 51 ? 20 : 90 },
      after: { score: agent.score, kid: "rnwy-trust-v2" },
      evidence: { blockNumber: block.toString(), transactionHash: transaction, kid: "rnwy-trust-v2" },
    });
    // The HMAC over the raw bytes verifies; a byte changed does not.
    const request = receiver.requests.find((candidate) => candidate.rawBody.includes(String(alert.id)) && candidate.status === 200)!;
    const header = request.headers[WEBHOOK_SIGNATURE_HEADER] as string;
    expect(verifyWebhookSignature({ rawBody: request.rawBody, header, secret: SECRET })).toBe(true);
    expect(verifyWebhookSignature({ rawBody: request.rawBody.replace("firing", "firinG"), header, secret: SECRET })).toBe(false);
    expect(verifyWebhookSignature({ rawBody: request.rawBody, header, secret: "another key" })).toBe(false);
    // The write is the oracle's heartbeat: the silence resolves.
    await receiver.waitFor((body) => body.kind === "oracle-silent" && body.state === "resolved");
  });

  it("a reorg that drops the record re-reads the new chain: the alert is resolved, none survives", async () => {
    const agent = base[1]!;
    const snapshot = await rpc("evm_snapshot");
    const { block } = await writeFlip(agent);
    await mine(CONFIRMATIONS);
    const alert = await receiver.waitFor(firing(agent));
    await rpc("evm_revert", [snapshot]);
    // A longer chain without the record.
    await mine(CONFIRMATIONS + 4);
    await receiver.waitFor((body) => body.state === "resolved" && body.id === alert.id);
    const reorg = (await tickWith((tick) => tick.step?.reorg !== null && tick.step?.reorg !== undefined)).step?.reorg;
    expect(reorg).toBeDefined();
    expect(reorg!.commonAncestor).toBeLessThan(block);
    expect(reorg!.dropped.some((change) => change.agent !== null && agentKey(change.agent).endsWith(String(agent.agentId)))).toBe(true);
    await ticksPass(2);
    const state = readWatchState(join(dir, "in-process.json"))!;
    expect(state.alerts.map((outstanding) => outstanding.condition.id)).not.toContain(alert.id);
  });

  it("a receiver failing for a while: retried, then delivered; a receiver down: the dead-letter file, nothing lost", async () => {
    const agent = base[2]!;
    receiver.failNext(2, 503);
    await writeFlip(agent);
    await mine(CONFIRMATIONS);
    const alert = await receiver.waitFor(firing(agent));
    const attempts = receiver.requests.filter(
      (request) => request.rawBody.includes(String(alert.id)) && request.rawBody.includes('"firing"'),
    );
    expect(attempts.map((request) => request.status)).toEqual([503, 503, 200]);

    const lost = base[3]!;
    receiver.failNext(10, 500);
    await writeFlip(lost);
    await mine(CONFIRMATIONS);
    const deadLetter = join(dir, "dead-letter.jsonl");
    while (!existsSync(deadLetter) || !readFileSync(deadLetter, "utf8").includes(String(lost.agentId))) {
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
    }
    const lines = readFileSync(deadLetter, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { message: AlertMessage; attempts: number; reason: string });
    const letter = lines.find((line) => line.message.agent?.includes(String(lost.agentId)))!;
    expect(letter.message).toMatchObject({ state: "firing", kind: lost.score >= 51 ? "fail-to-pass" : "pass-to-fail" });
    expect(letter.attempts).toBe(4);
    expect(letter.reason).toContain("500");
    receiver.recover();
  });

  it.skipIf(!HAS_PROMETHEUS)(
    `a real Prometheus scrapes /metrics and reads back what the watch counted${HAS_PROMETHEUS ? "" : " (skipped: /usr/bin/prometheus is absent; apt-get install -y prometheus)"}`,
    async () => {
      const prometheus: PrometheusServer = await startPrometheus(new URL(server.url).host);
      try {
        controller.abort();
        await running;
        const checked = ticks.reduce((total, tick) => total + tick.checks.length, 0);
        const results = ticks.flatMap((tick) => tick.alerts).map((alert) => alert.result);
        const sent = results.filter((result) => result?.delivered).length;
        const failed = results.filter((result) => result && !result.delivered).length;
        expect(failed).toBe(1);
        const value = async (expression: string, expected: number) =>
          (await prometheus.waitFor(expression, (samples) => samples[0]?.value === expected))[0]!.value;
        expect(await value("sum(trustgate_records_checked_total)", checked)).toBe(checked);
        expect(await value("sum(trustgate_alerts_sent_total)", sent)).toBe(sent);
        expect(await value("sum(trustgate_alerts_failed_total)", failed)).toBe(failed);
        expect(await value("sum(trustgate_reorgs_total)", 1)).toBe(1);
        expect(await value("trustgate_alerts_outstanding", 3)).toBe(3);
      } finally {
        await prometheus.stop();
      }
    },
  );
});

/** `trustgate watch` as a real process (node with tsx as a loader, so that a signal reaches the loop's process). */
function spawnWatch(args: readonly string[]): ChildProcessByStdio<null, null, Readable> {
  return spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "watch", ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "1", TRUSTGATE_WEBHOOK_SECRET: SECRET },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** The JSON log lines of a watch process, as they come. */
function logLines(child: ChildProcessByStdio<null, null, Readable>): {
  readonly lines: Record<string, unknown>[];
  waitFor(event: string): Promise<Record<string, unknown>>;
} {
  const lines: Record<string, unknown>[] = [];
  let buffer = "";
  child.stderr.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ event: "unparsed", message: line });
      }
    }
  });
  return {
    lines,
    async waitFor(event) {
      for (;;) {
        const found = lines.find((line) => line.event === event);
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`the watch exited ${child.exitCode} before "${event}": ${JSON.stringify(lines)}`);
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
      }
    },
  };
}

describe("trustgate watch as a process: SIGTERM and a restart", () => {
  it("SIGTERM mid-check drains and exits 0; a restart alerts what was written meanwhile, and nothing twice", async () => {
    const state = join(dir, "process.json");
    const args = [
      "--rpc",
      devnet.env.rpcUrl,
      "--oracle",
      devnet.env.oracle,
      "--attested-oracle",
      attested,
      "--api",
      devnet.env.apiUrl,
      "--jwks",
      devnet.env.jwksUrl,
      "--rate",
      "60000",
      "--confirmations",
      String(CONFIRMATIONS),
      "--poll-interval",
      "100ms",
      "--max-silence",
      "48h",
      "--audit-share",
      "0",
      "--events-from",
      "0",
      "--state",
      state,
      "--webhook",
      receiver.url,
      "--log-format",
      "json",
    ];
    const first = spawnWatch(args);
    const firstLog = logLines(first);
    await firstLog.waitFor("started");
    const before = base[4]!;
    // The check of the record written next is held in flight by a slow service when SIGTERM comes.
    devnet.env.service.injectFault({ kind: "slow", path: "/api/trust-check", delayMs: 1500, times: 1 });
    await writeFlip(before);
    await mine(CONFIRMATIONS);
    await firstLog.waitFor("checking");
    const exited = new Promise<number | null>((resolvePromise) => first.once("exit", (code) => resolvePromise(code)));
    first.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(firstLog.lines.some((line) => line.event === "draining")).toBe(true);
    const saved = readWatchState(state)!;
    expect(saved.position).not.toBeNull();

    // Written while the watch is down.
    const meanwhile = base[5]!;
    await writeFlip(meanwhile);
    await mine(CONFIRMATIONS);

    const second = spawnWatch([...args, "--metrics", "127.0.0.1:0"]);
    const secondLog = logLines(second);
    try {
      await secondLog.waitFor("started");
      await receiver.waitFor(firing(meanwhile));
      await receiver.waitFor(firing(before));
      // Both alerted once in all: the drained check's alert is not sent again, the block written meanwhile not missed.
      for (const agent of [before, meanwhile]) {
        expect(receiver.delivered().filter(firing(agent))).toHaveLength(1);
      }
      // The process serves its health and metrics: ready once caught up, and the check it made counted.
      const base = /(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(String((await secondLog.waitFor("metrics")).message))![1]!;
      let ready: Response | undefined;
      for (let poll = 0; poll < 200 && ready?.status !== 200; poll++) {
        if (poll > 0) await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
        ready = await fetch(`${base}/readyz`);
      }
      expect(ready!.status).toBe(200);
      expect(((await ready!.json()) as { ready: boolean }).ready).toBe(true);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const exposition = await (await fetch(`${base}/metrics`)).text();
      expect(exposition).toMatch(/^trustgate_records_checked_total\{status="drifted",trigger="(change|audit)"\} [1-9]/m);
    } finally {
      const done = new Promise((resolvePromise) => second.once("exit", resolvePromise));
      second.kill("SIGTERM");
      await done;
    }
  }, 180_000);
});

/** Matches the firing alert of an agent's problem. */
function firing(agent: PopulationAgent): (body: Record<string, unknown>) => boolean {
  const key = agentKey({ chain: agent.chain, agentId: BigInt(agent.agentId), registry: agent.registry } as never);
  return (body: Record<string, unknown>) => body.state === "firing" && typeof body.id === "string" && body.id.endsWith(`:${key}`);
}

describe("trustgate watch woken by new heads (--ws)", () => {
  it("with a poll interval of ten minutes, a write is alerted within a few blocks: each head wakes the loop", async () => {
    const controller = new AbortController();
    const sender = createWebhookSender({
      url: receiver.url,
      format: "json",
      secret: SECRET,
      deadLetter: join(dir, "ws-dead-letter.jsonl"),
    });
    let ready!: () => void;
    const started = new Promise<void>((resolvePromise) => (ready = resolvePromise));
    const running = runWatch(
      {
        ...watchConfig(join(dir, "ws.json")),
        pollIntervalMs: 600_000,
        newHeadsUrl: devnet.env.rpcUrl.replace(/^http/, "ws"),
        cadence: { kind: "max-silence", seconds: 48 * 3600 },
      },
      { deliver: (message, signal) => sender.send(message, signal), signal: controller.signal, onReady: () => ready() },
    );
    try {
      await Promise.race([started, running]);
      const agent = base[0]!;
      const before = receiver.delivered().filter(firing(agent)).length;
      await writeFlip(agent);
      // A bound in blocks: without the wake-ups the loop sleeps ten minutes, and none of these blocks would be read.
      let mined = 0;
      while (receiver.delivered().filter(firing(agent)).length === before) {
        expect(mined).toBeLessThan(40);
        await mine(1);
        mined += 1;
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
      }
      expect(mined).toBeGreaterThanOrEqual(CONFIRMATIONS);
    } finally {
      controller.abort();
      await running;
    }
  }, 120_000);
});
