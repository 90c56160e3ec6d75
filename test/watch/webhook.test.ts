// Delivery of alerts to a webhook: a real HTTP receiver on loopback (node:http) that verifies each request's
// signature as a user's receiver would, answers as each test scripts it, and keeps the raw bytes. Waits between
// attempts go through an injected sleep that records them and returns at once; the clock is injected.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors";
import type { AlertMessage } from "../../src/watch/types";
import {
  createWebhookSender,
  type DeadLetter,
  parseDeadLetterLine,
  redeliverDeadLetters,
  signWebhookBody,
  verifyWebhookSignature,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  webhookBody,
  type WebhookOptions,
} from "../../src/watch/webhook";
import { FAKE_EPOCH } from "../support/fake-clock";

const SECRET = "whsec-test-3f1c9a7e";
const NOW = new Date(FAKE_EPOCH);

const FIRING: AlertMessage = {
  kind: "pass-to-fail",
  id: "pass-to-fail:8453:erc8004:7",
  agent: "base:7",
  summary: "base:7 passes on-chain (score 80) but fails on its signed attestation (score 40)",
  before: { score: 80, tier: "established", sybilSeverity: "none", updatedAt: "2026-11-21T03:01:00.000Z" },
  after: { score: 40, tier: "limited", sybilSeverity: "moderate", attestedAt: "2026-11-22T09:59:00.000Z", kid: "rnwy-trust-v2" },
  decision: { onchain: true, attested: false },
  evidence: {
    blockNumber: "1234",
    transactionHash: `0x${"ab".repeat(32)}`,
    kid: "rnwy-trust-v2",
    issuedAt: "2026-11-22T03:00:00.000Z",
    expiresAt: "2026-11-23T09:59:00.000Z",
    recordUpdatedAt: "2026-11-21T03:01:00.000Z",
    details: ["checked after RecordUpdated in block 1234"],
  },
  state: "firing",
  since: "2026-11-22T10:00:00.000Z",
  at: "2026-11-22T10:00:00.000Z",
  report: "https://ops.example/drift/2026-11-22.html",
};

const RESOLVED: AlertMessage = { ...FIRING, state: "resolved", at: "2026-11-22T11:00:00.000Z" };

const SILENT: AlertMessage = {
  kind: "oracle-silent",
  id: "oracle-silent:0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f4",
  agent: null,
  summary: "the oracle has not written since 2026-11-21T03:00:00Z <!channel> & due by 05:00",
  before: null,
  after: null,
  decision: null,
  evidence: {
    blockNumber: "1300",
    transactionHash: null,
    kid: null,
    issuedAt: null,
    expiresAt: null,
    recordUpdatedAt: "2026-11-21T03:00:00.000Z",
    details: ["cadence: daily at 03:00 UTC, grace 2 h", "deadline 2026-11-22T05:00:00Z"],
  },
  state: "firing",
  since: "2026-11-22T05:00:00.000Z",
  at: "2026-11-22T05:00:00.000Z",
  report: null,
};

interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  /** What the receiver's own check said of the signature. */
  readonly verified: boolean;
}

type Answer = { status: number; headers?: Record<string, string>; body?: string } | "hang";

interface Receiver {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

const servers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A receiver as a user writes one: it verifies the signature over the raw bytes and refuses a bad one with 401. */
async function startReceiver(script: (index: number) => Answer = () => ({ status: 204 })): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const header = req.headers[WEBHOOK_SIGNATURE_HEADER];
      const verified = verifyWebhookSignature({
        rawBody: raw,
        header: typeof header === "string" ? header : undefined,
        secret: SECRET,
        now: NOW,
      });
      received.push({ url: req.url ?? "", headers: req.headers, raw, verified });
      if (!verified) {
        res.writeHead(401).end("bad signature");
        return;
      }
      const answer = script(received.length - 1);
      if (answer === "hang") return;
      res.writeHead(answer.status, answer.headers).end(answer.body ?? "");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks/trustgate`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(receiver);
  return receiver;
}

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function tempFile(name = "dead-letters.jsonl"): string {
  return join(mkdtempSync(join(tmpdir(), "trustgate-webhook-")), name);
}

function deadLetters(path: string): DeadLetter[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const parsed = parseDeadLetterLine(line);
      if ("error" in parsed) throw new Error(parsed.error);
      return parsed.letter;
    });
}

function sender(url: string, extra: Partial<WebhookOptions> = {}) {
  const sleeps: number[] = [];
  const deadLetter = extra.deadLetter ?? tempFile();
  const webhook = createWebhookSender({
    url,
    format: "json",
    secret: SECRET,
    deadLetter,
    now: () => NOW,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { webhook, sleeps, deadLetter };
}

describe("the signature", () => {
  const body = webhookBody(FIRING, "json");
  const t = Math.floor(FAKE_EPOCH / 1000);
  const header = signWebhookBody(body, SECRET, t);

  it("is t=<seconds>,v1=<hex HMAC-SHA256 of '<t>.<body>'>, and verifies over the text or the bytes", () => {
    expect(header).toMatch(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
    expect(verifyWebhookSignature({ rawBody: body, header, secret: SECRET, now: NOW })).toBe(true);
    expect(verifyWebhookSignature({ rawBody: new TextEncoder().encode(body), header, secret: SECRET, now: NOW })).toBe(true);
  });

  it("refuses a tampered body, a wrong secret, a stale or future timestamp, and headers it cannot read", () => {
    const check = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ rawBody: body, header, secret: SECRET, now: NOW, ...overrides });
    expect(check({ rawBody: body.replace('"score":40', '"score":90') })).toBe(false);
    expect(check({ rawBody: `${body} ` })).toBe(false);
    expect(check({ secret: `${SECRET}x` })).toBe(false);
    expect(check({ secret: "" })).toBe(false);
    expect(check({ now: new Date(FAKE_EPOCH + 301_000) })).toBe(false);
    expect(check({ now: new Date(FAKE_EPOCH - 301_000) })).toBe(false);
    expect(check({ now: new Date(FAKE_EPOCH + 300_000) })).toBe(true);
    expect(check({ now: new Date(FAKE_EPOCH + 301_000), toleranceSeconds: 600 })).toBe(true);
    expect(check({ toleranceSeconds: Number.NaN })).toBe(false);
    // The timestamp is signed: moving it to look fresh breaks the signature.
    const old = signWebhookBody(body, SECRET, t - 3600);
    expect(check({ header: old })).toBe(false);
    expect(check({ header: old.replace(`t=${t - 3600}`, `t=${t}`) })).toBe(false);
    for (const bad of [
      null,
      undefined,
      "",
      "v1=00",
      `t=${t}`,
      `t=${t},t=${t},${header.split(",")[1]}`,
      `t=-${t},${header.split(",")[1]}`,
      "x".repeat(5000),
    ]) {
      expect(check({ header: bad })).toBe(false);
    }
  });

  it("accepts any of several v1 values (a secret being rotated)", () => {
    const other = signWebhookBody(body, "the-old-secret", t).split(",")[1];
    expect(verifyWebhookSignature({ rawBody: body, header: `${header},${other}`, secret: SECRET, now: NOW })).toBe(true);
    expect(verifyWebhookSignature({ rawBody: body, header: `t=${t},${other}`, secret: SECRET, now: NOW })).toBe(false);
  });

  it("refuses to sign with an empty secret or a timestamp that is not whole seconds", () => {
    expect(() => signWebhookBody(body, "", t)).toThrow(InvalidArgumentError);
    expect(() => signWebhookBody(body, SECRET, 1.5)).toThrow(InvalidArgumentError);
    expect(() => signWebhookBody(body, SECRET, -1)).toThrow(InvalidArgumentError);
  });
});

describe("webhookBody", () => {
  it("json: every fact of the alert, in the documented fields", () => {
    expect(JSON.parse(webhookBody(FIRING, "json"))).toEqual({
      version: 1,
      kind: "pass-to-fail",
      state: "firing",
      id: FIRING.id,
      agent: "base:7",
      summary: FIRING.summary,
      before: FIRING.before,
      after: FIRING.after,
      decision: { onchain: true, attested: false, flipped: true },
      evidence: FIRING.evidence,
      since: FIRING.since,
      at: FIRING.at,
      report: FIRING.report,
    });
    const silent = JSON.parse(webhookBody(SILENT, "json"));
    expect(Object.keys(silent)).toEqual([
      "version",
      "kind",
      "state",
      "id",
      "agent",
      "summary",
      "before",
      "after",
      "decision",
      "evidence",
      "since",
      "at",
      "report",
    ]);
    expect(silent).toMatchObject({
      agent: null,
      before: null,
      after: null,
      report: null,
      decision: { onchain: null, attested: null, flipped: false },
    });
  });

  it("slack: a header, the summary, the facts as fields, the details and a context line, outside text kept as text", () => {
    const slack = JSON.parse(webhookBody(FIRING, "slack"));
    expect(slack.text).toBe(`[FIRING] pass-to-fail · base:7: ${FIRING.summary}`);
    expect(slack.blocks.map((b: { type: string }) => b.type)).toEqual(["header", "section", "section", "section", "context"]);
    expect(slack.blocks[0]).toEqual({ type: "header", text: { type: "plain_text", text: "FIRING: pass-to-fail · base:7" } });
    expect(slack.blocks[1].text).toEqual({ type: "mrkdwn", text: FIRING.summary });
    const fields: string[] = slack.blocks[2].fields.map((f: { type: string; text: string }) => {
      expect(f.type).toBe("mrkdwn");
      return f.text;
    });
    expect(fields.length).toBeLessThanOrEqual(10);
    expect(fields).toContain("*Decision*\non-chain passes, attested fails (decision flips)");
    expect(fields).toContain("*Before (on-chain)*\nscore 80, established, sybil none, updated 2026-11-21T03:01:00.000Z");
    expect(fields).toContain(
      "*After (attested)*\nscore 40, limited, sybil moderate, attested 2026-11-22T09:59:00.000Z (kid rnwy-trust-v2)",
    );
    expect(fields).toContain(`*Transaction*\n${FIRING.evidence.transactionHash}`);
    expect(fields).toContain("*Attestation*\nkid rnwy-trust-v2, issued 2026-11-22T03:00:00.000Z, expires 2026-11-23T09:59:00.000Z");
    expect(slack.blocks[3].text.text).toBe("• checked after RecordUpdated in block 1234");
    expect(slack.blocks[4].elements[0].text).toBe(
      `id ${FIRING.id} · at ${FIRING.at} · <https://ops.example/drift/2026-11-22.html|drift report>`,
    );

    const silent = JSON.parse(webhookBody(SILENT, "slack"));
    expect(silent.blocks[0].text.text).toBe("FIRING: oracle-silent");
    // No mention, no link from outside text: `<`, `>` and `&` arrive as entities.
    expect(silent.blocks[1].text.text).toBe("the oracle has not written since 2026-11-21T03:00:00Z &lt;!channel&gt; &amp; due by 05:00");
    expect(silent.text).not.toContain("<!channel>");
    const silentFields: string[] = silent.blocks[2].fields.map((f: { text: string }) => f.text);
    expect(silentFields.some((f) => /Agent|Decision|Before|After/.test(f))).toBe(false);
    expect(silentFields).toContain("*Record time*\n2026-11-21T03:00:00.000Z");
  });
});

describe("createWebhookSender", () => {
  it("delivers a signed JSON body that the receiver verifies, with a stable delivery id", async () => {
    const receiver = await startReceiver();
    const { webhook, sleeps, deadLetter } = sender(receiver.url);
    await expect(webhook.send(FIRING)).resolves.toEqual({ delivered: true, attempts: 1 });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.verified).toBe(true);
    expect(request!.url).toBe("/hooks/trustgate");
    expect(request!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(request!.headers[WEBHOOK_SIGNATURE_HEADER]).toMatch(new RegExp(`^t=${FAKE_EPOCH / 1000},v1=[0-9a-f]{64}$`));
    expect(request!.raw.toString("utf8")).toBe(webhookBody(FIRING, "json"));
    expect(JSON.parse(request!.raw.toString("utf8")).decision.flipped).toBe(true);
    expect(request!.headers[WEBHOOK_DELIVERY_HEADER]).toMatch(/^[0-9a-f]{32}$/);
    expect(sleeps).toEqual([]);
    expect(existsSync(deadLetter)).toBe(false);

    // A receiver with another secret refuses it (401): final, not retried.
    const wrong = sender(receiver.url, { secret: "not-the-receivers" });
    const refused = await wrong.webhook.send(FIRING);
    expect(refused).toMatchObject({ delivered: false, attempts: 1, deadLettered: true, reason: "HTTP 401: bad signature" });
    expect(receiver.received.at(-1)!.verified).toBe(false);
  });

  it("delivers the Slack form, signed too", async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: "ok" }));
    const { webhook } = sender(receiver.url, { format: "slack" });
    await expect(webhook.send(SILENT)).resolves.toEqual({ delivered: true, attempts: 1 });
    const body = JSON.parse(receiver.received[0]!.raw.toString("utf8"));
    expect(Object.keys(body)).toEqual(["text", "blocks"]);
    expect(receiver.received[0]!.verified).toBe(true);
  });

  it("retries 503 with exponential backoff and full jitter, then delivers; each attempt signed afresh, same delivery id", async () => {
    const receiver = await startReceiver((i) => (i < 3 ? { status: 503, body: "busy" } : { status: 202 }));
    const { webhook, sleeps, deadLetter } = sender(receiver.url);
    await expect(webhook.send(FIRING)).resolves.toEqual({ delivered: true, attempts: 4 });
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers[WEBHOOK_DELIVERY_HEADER])).size).toBe(1);
    // random() = 0.5 of 1 s, 2 s, 4 s: the default backoff from 1 s.
    expect(sleeps).toEqual([500, 1000, 2000]);
    expect(existsSync(deadLetter)).toBe(false);
  });

  it("caps the backoff at maxMs", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    const { webhook, sleeps } = sender(receiver.url, { retries: 5, backoff: { initialMs: 100, maxMs: 400 }, random: () => 0.999 });
    await webhook.send(FIRING);
    expect(sleeps).toEqual([99, 199, 399, 399, 399]);
  });

  it("honours Retry-After in seconds and as an HTTP date, on 429, 503 and 408", async () => {
    const answers: Answer[] = [
      { status: 429, headers: { "retry-after": "7" } },
      { status: 503, headers: { "retry-after": new Date(FAKE_EPOCH + 42_000).toUTCString() } },
      { status: 408 },
      { status: 425, headers: { "retry-after": "0" } },
      { status: 200 },
    ];
    const receiver = await startReceiver((i) => answers[i]!);
    const { webhook, sleeps } = sender(receiver.url);
    await expect(webhook.send(FIRING)).resolves.toEqual({ delivered: true, attempts: 5 });
    expect(sleeps).toEqual([7000, 42_000, 2000, 0]);
  });

  it("dead-letters at once a Retry-After longer than it waits", async () => {
    const receiver = await startReceiver(() => ({ status: 429, headers: { "retry-after": "3600" } }));
    const { webhook, sleeps, deadLetter } = sender(receiver.url);
    const result = await webhook.send(FIRING);
    expect(result).toMatchObject({ delivered: false, attempts: 1, deadLettered: true });
    expect(!result.delivered && result.reason).toBe("HTTP 429, Retry-After 3600 s is longer than the longest wait (300 s)");
    expect(sleeps).toEqual([]);
    expect(deadLetters(deadLetter)).toHaveLength(1);
  });

  it("dead-letters a 400 at once, with the status and the start of the body, the message whole", async () => {
    const receiver = await startReceiver(() => ({ status: 400, body: `invalid_payload\u001b[31m ${"x".repeat(500)}` }));
    const { webhook, sleeps, deadLetter } = sender(receiver.url);
    const result = await webhook.send(FIRING);
    expect(result).toMatchObject({ delivered: false, attempts: 1, deadLettered: true });
    const reason = !result.delivered ? result.reason : "";
    expect(reason).toMatch(/^HTTP 400: invalid_payload x{180,}…$/);
    expect(reason.length).toBeLessThan(230);
    expect(sleeps).toEqual([]);
    expect(receiver.received).toHaveLength(1);
    const [letter] = deadLetters(deadLetter);
    expect(letter).toMatchObject({ version: 1, format: "json", attempts: 1, reason, outcomes: [reason] });
    expect(letter!.message).toEqual(FIRING);
    expect(Date.parse(letter!.deadLetteredAt)).toBe(FAKE_EPOCH);
  });

  it("does not follow a redirect: the signed alert goes only to the configured URL", async () => {
    const receiver = await startReceiver((i) => (i === 0 ? { status: 307, headers: { location: "/elsewhere" } } : { status: 200 }));
    const { webhook } = sender(receiver.url);
    const result = await webhook.send(FIRING);
    expect(result).toMatchObject({ delivered: false, attempts: 1, deadLettered: true });
    expect(!result.delivered && result.reason).toMatch(/^HTTP 307 \(a redirect, not followed/);
    expect(receiver.received.map((r) => r.url)).toEqual(["/hooks/trustgate"]);
  });

  it("a receiver that is down: retries, then the dead-letter file; the URL's secret path never written", async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/services/T0AAA/B0BBB/xoxSecretPathToken123456`;
    const { webhook, sleeps, deadLetter } = sender(url, { retries: 3 });
    const result = await webhook.send(FIRING);
    expect(result).toMatchObject({ delivered: false, attempts: 4, deadLettered: true });
    expect(!result.delivered && result.reason).toMatch(/^gave up after 4 attempts; last: network error: .*ECONNREFUSED/);
    expect(sleeps).toHaveLength(3);
    const text = readFileSync(deadLetter, "utf8");
    expect(text).not.toContain("xoxSecretPathToken123456");
    const [letter] = deadLetters(deadLetter);
    expect(letter!.url).toBe(`http://127.0.0.1:${port}/services/…`);
    expect(letter!.outcomes).toHaveLength(4);
    expect(letter!.message).toEqual(FIRING);
  });

  it("a receiver that never answers: each attempt ends at its time limit, then the dead-letter file", async () => {
    const receiver = await startReceiver(() => "hang");
    const { webhook, deadLetter } = sender(receiver.url, { retries: 1, timeoutMs: 100 });
    const result = await webhook.send(FIRING);
    expect(result).toMatchObject({ delivered: false, attempts: 2, deadLettered: true });
    expect(!result.delivered && result.reason).toBe("gave up after 2 attempts; last: timed out after 100 ms");
    expect(receiver.received).toHaveLength(2);
    expect(deadLetters(deadLetter)[0]!.outcomes).toEqual(["timed out after 100 ms", "timed out after 100 ms"]);
  });

  it("an abort while waiting to retry (the drain) stops the retries: the message goes to the dead-letter file", async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    const drain = new AbortController();
    const sleeps: number[] = [];
    const { webhook, deadLetter } = sender(receiver.url, {
      sleep: async (ms) => {
        sleeps.push(ms);
        drain.abort(); // SIGTERM arrives during the first wait
      },
    });
    const result = await webhook.send(FIRING, drain.signal);
    expect(result).toMatchObject({ delivered: false, attempts: 1, deadLettered: true });
    expect(!result.delivered && result.reason).toBe("aborted (the watch is stopping) after 1 attempt; last: HTTP 503");
    expect(sleeps).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(deadLetters(deadLetter).map((l) => l.message)).toEqual([FIRING]);

    // Sent once the drain has begun: one attempt, no wait.
    const late = await webhook.send(RESOLVED, drain.signal);
    expect(late).toMatchObject({ delivered: false, attempts: 1, deadLettered: true });
    expect(sleeps).toHaveLength(1);
    expect(deadLetters(deadLetter).map((l) => l.message.state)).toEqual(["firing", "resolved"]);
  });

  it("keeps the order of one condition's messages, and idle() waits for every send in flight", async () => {
    const receiver = await startReceiver((i) => (i === 0 ? { status: 503 } : { status: 200 }));
    const { webhook } = sender(receiver.url, { sleep: () => new Promise((resolve) => setTimeout(resolve, 20)) });
    const results: unknown[] = [];
    void webhook.send(FIRING).then((r) => results.push(r));
    void webhook.send(RESOLVED).then((r) => results.push(r));
    await webhook.idle();
    expect(results).toEqual([
      { delivered: true, attempts: 2 },
      { delivered: true, attempts: 1 },
    ]);
    expect(receiver.received.map((r) => JSON.parse(r.raw.toString("utf8")).state)).toEqual(["firing", "firing", "resolved"]);
    await webhook.idle(); // nothing in flight: returns
  });

  it("never rejects: a dead-letter file that cannot be written is a result that says so", async () => {
    const receiver = await startReceiver(() => ({ status: 410, body: "channel_is_archived" }));
    const blocker = tempFile("a-file");
    writeFileSync(blocker, "");
    const { webhook } = sender(receiver.url, { deadLetter: join(blocker, "dead.jsonl") });
    const result = await webhook.send(FIRING);
    expect(result).toMatchObject({ delivered: false, attempts: 1, deadLettered: false });
    expect(!result.delivered && result.reason).toMatch(/^HTTP 410: channel_is_archived; and the dead-letter file .* could not be written/);
  });

  it("refuses options it cannot use, never quoting a URL whole", () => {
    const base: WebhookOptions = { url: "http://127.0.0.1:9/hook", format: "json", secret: SECRET, deadLetter: tempFile() };
    const refusals: [Partial<WebhookOptions>, RegExp][] = [
      [{ url: "not a url" }, /not a URL/],
      [{ url: "ftp://127.0.0.1/hook" }, /expected http or https/],
      [{ url: "http://user:pa55word@127.0.0.1/hook" }, /credentials/],
      [{ format: "xml" as never }, /format "xml"/],
      [{ secret: "" }, /secret: it is empty/],
      [{ deadLetter: " " }, /dead-letter/],
      [{ retries: -1 }, /retries/],
      [{ retries: 1.5 }, /retries/],
      [{ backoff: { initialMs: 1000, maxMs: 10 } }, /maxMs 10 is less than initialMs 1000/],
      [{ timeoutMs: 0 }, /timeoutMs/],
    ];
    for (const [change, message] of refusals) {
      expect(() => createWebhookSender({ ...base, ...change })).toThrow(InvalidArgumentError);
      expect(() => createWebhookSender({ ...base, ...change })).toThrow(message);
    }
    expect(() => createWebhookSender({ ...base, url: "ftp://127.0.0.1/T0AAA/xoxSecretPathToken123456" })).toThrow(
      "Invalid webhook URL ftp://127.0.0.1/…: expected http or https",
    );
  });
});

describe("parseDeadLetterLine", () => {
  it("says why a line is not a dead letter", () => {
    expect(parseDeadLetterLine('{"version":1,"mess')).toEqual({ error: "not JSON (a line cut short?)" });
    expect(parseDeadLetterLine("[1,2]")).toEqual({ error: "not a JSON object" });
    expect(parseDeadLetterLine('{"message":{"id":"a","kind":"oracle-silent"}}')).toEqual({
      error: "no message with an id, a kind and a state",
    });
    const line = JSON.stringify({ version: 1, message: FIRING });
    expect(parseDeadLetterLine(line)).toEqual({ letter: { version: 1, message: FIRING } });
  });
});

describe("redeliverDeadLetters", () => {
  it("sends the dead letters again once the receiver is back; what fails again is dead-lettered again, an unreadable line kept", async () => {
    let up = false;
    const receiver = await startReceiver(() => (up ? { status: 200 } : { status: 503 }));
    const { webhook, deadLetter } = sender(receiver.url, { retries: 0 });
    await webhook.send(FIRING);
    await webhook.send(SILENT);
    writeFileSync(deadLetter, `${readFileSync(deadLetter, "utf8")}{"cut short\n`);

    up = true;
    const before = receiver.received.length;
    await expect(redeliverDeadLetters(deadLetter, webhook)).resolves.toEqual({ delivered: 2, failed: 1 });
    const redelivered = receiver.received.slice(before);
    expect(redelivered.map((r) => r.raw.toString("utf8"))).toEqual([webhookBody(FIRING, "json"), webhookBody(SILENT, "json")]);
    // The same delivery ids as the first attempts: a receiver can tell a redelivery.
    expect(redelivered[0]!.headers[WEBHOOK_DELIVERY_HEADER]).toBe(receiver.received[0]!.headers[WEBHOOK_DELIVERY_HEADER]);
    expect(readFileSync(deadLetter, "utf8")).toBe('{"cut short\n');
    expect(existsSync(`${deadLetter}.redelivering`)).toBe(false);

    // Nothing left but the unreadable line: nothing delivered, the line still kept.
    await expect(redeliverDeadLetters(deadLetter, webhook)).resolves.toEqual({ delivered: 0, failed: 1 });
    expect(readFileSync(deadLetter, "utf8")).toBe('{"cut short\n');
  });

  it("a message that fails again is a dead letter again; a missing file is nothing to do", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    const { webhook, deadLetter } = sender(receiver.url, { retries: 0 });
    await expect(redeliverDeadLetters(deadLetter, webhook)).resolves.toEqual({ delivered: 0, failed: 0 });
    await webhook.send(FIRING);
    await expect(redeliverDeadLetters(deadLetter, webhook)).resolves.toEqual({ delivered: 0, failed: 1 });
    expect(deadLetters(deadLetter).map((l) => l.message)).toEqual([FIRING]);
  });
});
