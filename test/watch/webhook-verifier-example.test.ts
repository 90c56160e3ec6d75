// The two receiver examples of the watch page (docs/watch.md, "Verifying the signature"), their code inline: a
// node:http receiver with `verifyWebhookSignature` (the page imports it from "trustgate/watch"), and a verifier in
// plain node:crypto for a receiver without the kit. Each receives real signed deliveries from the watch's sender on
// loopback, accepts them, and refuses what was tampered with or signed with another secret.
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AlertMessage } from "../../src/watch/types";
import { createWebhookSender, signWebhookBody, verifyWebhookSignature, webhookBody } from "../../src/watch/webhook";

// ---- Example 1, as on the page (the port and the secret's source aside): ----
function startExampleReceiver(secret: string, onAlert: (alert: { state: string; kind: string; summary: string }) => void): Server {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks); // the bytes as they came: never a re-serialised copy of the JSON
      const header = request.headers["x-trustgate-signature"];
      if (!verifyWebhookSignature({ rawBody, header: typeof header === "string" ? header : undefined, secret })) {
        response.writeHead(401).end();
        return;
      }
      onAlert(JSON.parse(rawBody.toString("utf8")));
      response.writeHead(204).end();
    });
  });
}

// ---- Example 2, as on the page: plain node:crypto. ----
function verifyTrustgateSignature(rawBody: Buffer | string, header: string | undefined, secret: string, toleranceSeconds = 300): boolean {
  if (typeof header !== "string" || secret === "") return false;
  let t: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(",")) {
    const i = part.indexOf("=");
    const key = part.slice(0, i).trim();
    const value = part.slice(i + 1).trim();
    if (key === "t" && /^\d+$/.test(value)) t = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, "hex"));
  }
  if (t === undefined || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  return signatures.some((signature) => timingSafeEqual(signature, expected));
}
// ---- end of the examples ----

const SECRET = "whsec-example-0c41";

const ALERT: AlertMessage = {
  kind: "oracle-silent",
  id: "oracle-silent:0xd5fdccd492bb5568bc7aeb1f1e888e0bba6276f4",
  agent: null,
  summary: "the oracle has not written since 2026-11-21T03:00:00Z",
  before: null,
  after: null,
  decision: null,
  evidence: { blockNumber: "1300", transactionHash: null, kid: null, issuedAt: null, expiresAt: null, recordUpdatedAt: null, details: [] },
  state: "firing",
  since: "2026-11-22T05:00:00.000Z",
  at: "2026-11-22T05:00:00.000Z",
  report: null,
};

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/trustgate`;
}

function senderTo(url: string, secret: string) {
  return createWebhookSender({
    url,
    format: "json",
    secret,
    retries: 0,
    deadLetter: join(mkdtempSync(join(tmpdir(), "trustgate-verifier-")), "dead.jsonl"),
  });
}

describe("the receiver examples of the watch page", () => {
  it("example 1 (verifyWebhookSignature) accepts the watch's signed delivery and refuses another secret's", async () => {
    const alerts: { state: string; kind: string; summary: string }[] = [];
    const url = await listen(startExampleReceiver(SECRET, (alert) => alerts.push(alert)));
    await expect(senderTo(url, SECRET).send(ALERT)).resolves.toEqual({ delivered: true, attempts: 1 });
    expect(alerts).toEqual([expect.objectContaining({ state: "firing", kind: "oracle-silent", summary: ALERT.summary })]);
    await expect(senderTo(url, "another-secret").send(ALERT)).resolves.toMatchObject({ delivered: false, reason: "HTTP 401" });
    expect(alerts).toHaveLength(1);
  });

  it("example 2 (plain node:crypto) accepts the watch's signed delivery and refuses a tampered one", async () => {
    const verdicts: boolean[] = [];
    const url = await listen(
      createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          const header = request.headers["x-trustgate-signature"];
          const ok = verifyTrustgateSignature(Buffer.concat(chunks), typeof header === "string" ? header : undefined, SECRET);
          verdicts.push(ok);
          response.writeHead(ok ? 204 : 401).end();
        });
      }),
    );
    await expect(senderTo(url, SECRET).send(ALERT)).resolves.toEqual({ delivered: true, attempts: 1 });
    await expect(senderTo(url, "another-secret").send(ALERT)).resolves.toMatchObject({ delivered: false });
    expect(verdicts).toEqual([true, false]);
  });

  it("example 2 agrees with verifyWebhookSignature on genuine, tampered, stale and malformed signatures", () => {
    const body = webhookBody(ALERT, "json");
    const t = Math.floor(Date.now() / 1000);
    const good = signWebhookBody(body, SECRET, t);
    const cases: [string, string | undefined][] = [
      [body, good],
      [body.replace("firing", "resolved"), good],
      [body, signWebhookBody(body, "another-secret", t)],
      [body, signWebhookBody(body, SECRET, t - 3600)],
      [body, `t=${t}`],
      [body, undefined],
    ];
    const plain = cases.map(([raw, header]) => verifyTrustgateSignature(raw, header, SECRET));
    const kit = cases.map(([raw, header]) => verifyWebhookSignature({ rawBody: raw, header, secret: SECRET }));
    expect(plain).toEqual([true, false, false, false, false, false]);
    expect(kit).toEqual(plain);
  });
});
