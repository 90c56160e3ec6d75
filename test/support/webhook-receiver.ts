/**
 * A webhook receiver for the watch's tests: a real HTTP server on loopback that keeps each request's raw body and
 * headers, and answers with the status the test sets (200, or a failure for the next few requests).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got. */
export interface ReceivedWebhook {
  readonly rawBody: string;
  readonly headers: IncomingHttpHeaders;
  /** The status it was answered with. */
  readonly status: number;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  /** Every request, in arrival order (failed ones included). */
  readonly requests: ReceivedWebhook[];
  /** The bodies answered 2xx, parsed. */
  delivered(): Record<string, unknown>[];
  /** Answers the next `count` requests with `status` (and `Retry-After`, when given). */
  failNext(count: number, status: number, retryAfterSeconds?: number): void;
  /** Drops the failures not yet used: every request from now on is answered 200. */
  recover(): void;
  /** Waits until a delivered body satisfies `match`, polling every 20 ms; rejects after `timeoutMs`. */
  waitFor(match: (body: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on a free loopback port.
 *
 * @returns The receiver.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const failures: { status: number; retryAfter?: number }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const failure = failures.shift();
      const status = failure?.status ?? 200;
      requests.push({ rawBody: Buffer.concat(chunks).toString("utf8"), headers: request.headers, status });
      if (failure?.retryAfter !== undefined) response.setHeader("retry-after", String(failure.retryAfter));
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "failing on purpose");
    });
  });
  await new Promise<void>((resolvePromise) => server.listen(0, "127.0.0.1", resolvePromise));
  const { port } = server.address() as AddressInfo;
  const delivered = () =>
    requests.filter((request) => request.status < 300).map((request) => JSON.parse(request.rawBody) as Record<string, unknown>);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    delivered,
    failNext(count, status, retryAfterSeconds) {
      for (let i = 0; i < count; i++)
        failures.push({ status, ...(retryAfterSeconds !== undefined ? { retryAfter: retryAfterSeconds } : {}) });
    },
    recover() {
      failures.length = 0;
    },
    async waitFor(match, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = delivered().find(match);
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `no delivered webhook matched within ${timeoutMs} ms; delivered: ${JSON.stringify(delivered().map((body) => [body.state, body.kind, body.id]))}`,
          );
        }
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
      }
    },
    close: () => new Promise<void>((resolvePromise) => server.close(() => resolvePromise())),
  };
}
