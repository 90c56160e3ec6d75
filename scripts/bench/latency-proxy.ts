/**
 * A JSON-RPC proxy on loopback for the reader benchmark: it forwards each HTTP request to a local node
 * (`hardhat node`, or the in-process network served over HTTP) after a fixed delay, so the node looks like a
 * hosted Base endpoint a round trip away, and refuses a JSON-RPC batch of more calls than a provider allows,
 * with the answer geth (and op-geth, which Base nodes run) gives past its batch limit: a one-element batch
 * `[{"jsonrpc":"2.0","id":<first call's id>,"error":{"code":-32600,"message":"batch too large"}}]`, HTTP 200.
 *
 * Requests within the limit reach the node byte for byte, and its answers come back byte for byte with their
 * status and content type. The delay is per HTTP request, not per call: a batch of 100 calls, or one
 * `aggregate3` of 250 reads, pays it once; concurrent requests pay it side by side, as on a real network.
 *
 * Both ends are loopback only: the proxy listens on 127.0.0.1 and refuses an upstream elsewhere.
 *
 * @packageDocumentation
 */
import { Agent, createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Options of {@link startLatencyProxy}. */
export interface LatencyProxyOptions {
  /** The node to forward to: `http://127.0.0.1:<port>` (loopback only). */
  readonly upstream: string;
  /** Delay added to every HTTP request before it is forwarded, in milliseconds (default 0). */
  readonly latencyMs?: number;
  /** Most JSON-RPC calls one HTTP request may carry as a batch (default: no limit). */
  readonly maxBatchSize?: number;
  /** How the delay is waited (default `setTimeout`); tests record it instead of timing it. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What a running proxy has seen. */
export interface LatencyProxyStats {
  /** HTTP requests received. */
  httpRequests: number;
  /** JSON-RPC calls received (a batch counts its members; a body that is not JSON counts one). */
  calls: number;
  /** Batches refused as too large. */
  refusedBatches: number;
  /** The largest batch received, in calls. */
  largestBatch: number;
}

/** A running proxy. */
export interface LatencyProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The delay added to each request, in milliseconds. */
  readonly latencyMs: number;
  /** The batch limit, if any. */
  readonly maxBatchSize: number | undefined;
  /** Counters since the start (or the last {@link LatencyProxy.resetStats}). */
  stats(): LatencyProxyStats;
  /** Sets the counters back to zero. */
  resetStats(): void;
  /** Stops the proxy, ending open connections. */
  close(): Promise<void>;
}

/** The JSON-RPC error code geth answers an over-limit batch with (invalid request). */
export const BATCH_TOO_LARGE_CODE = -32600;
/** The message geth answers an over-limit batch with. */
export const BATCH_TOO_LARGE_MESSAGE = "batch too large";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Starts the proxy on 127.0.0.1 (an ephemeral port).
 *
 * @param options - Upstream node, delay and batch limit.
 * @returns The running proxy.
 * @throws `Error` for an upstream that is not a loopback http URL, or a negative delay or limit below 1.
 */
export async function startLatencyProxy(options: LatencyProxyOptions): Promise<LatencyProxy> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== "http:" || !LOOPBACK_HOSTS.has(upstream.hostname)) {
    throw new Error(`The proxy forwards to a loopback http node only, got ${options.upstream}`);
  }
  const latencyMs = options.latencyMs ?? 0;
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new Error(`latencyMs must be ≥ 0, got ${latencyMs}`);
  const maxBatchSize = options.maxBatchSize;
  if (maxBatchSize !== undefined && !(Number.isSafeInteger(maxBatchSize) && maxBatchSize >= 1)) {
    throw new Error(`maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  }
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  let stats: LatencyProxyStats = { httpRequests: 0, calls: 0, refusedBatches: 0, largestBatch: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readAll(req);
    stats.httpRequests++;
    const batch = batchOf(body);
    const calls = batch?.length ?? 1;
    stats.calls += calls;
    stats.largestBatch = Math.max(stats.largestBatch, batch?.length ?? 0);
    if (latencyMs > 0) await sleep(latencyMs);
    if (batch && maxBatchSize !== undefined && batch.length > maxBatchSize) {
      stats.refusedBatches++;
      const answer = JSON.stringify([
        { jsonrpc: "2.0", id: firstCallId(batch), error: { code: BATCH_TOO_LARGE_CODE, message: BATCH_TOO_LARGE_MESSAGE } },
      ]);
      res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(answer)) });
      res.end(answer);
      return;
    }
    const answer = await forward(upstream, agent, req, body);
    res.writeHead(answer.status, {
      ...(answer.contentType ? { "content-type": answer.contentType } : {}),
      "content-length": String(answer.body.length),
    });
    res.end(answer.body);
  };

  const sockets = new Set<Socket>();
  const server: Server = createServer({ noDelay: true }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`proxy: ${error instanceof Error ? error.message : String(error)}`);
      } else {
        res.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    latencyMs,
    maxBatchSize,
    stats: () => ({ ...stats }),
    resetStats() {
      stats = { httpRequests: 0, calls: 0, refusedBatches: 0, largestBatch: 0 };
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}

/** The members of a JSON-RPC batch, or `undefined` when the body is a single call (or not JSON at all). */
function batchOf(body: Buffer): unknown[] | undefined {
  let first = 0;
  while (first < body.length && (body[first] === 0x20 || body[first] === 0x0a || body[first] === 0x0d || body[first] === 0x09)) first++;
  if (body[first] !== 0x5b /* [ */) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The id of a batch's first call (a member with a method and an id), as geth reports it; else null. */
function firstCallId(batch: readonly unknown[]): unknown {
  for (const member of batch) {
    if (typeof member === "object" && member !== null && "method" in member && "id" in member) {
      const id = (member as { id: unknown }).id;
      if (id !== null && id !== undefined) return id;
    }
  }
  return null;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** An upstream answer, read whole. */
interface UpstreamAnswer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/**
 * Sends the request on unchanged (method, path, content type, body) and reads the whole answer. A kept-alive
 * connection the node closed just as it was reused (`ECONNRESET` on a reused socket) is retried once on a new
 * one, as Node's documentation advises; any other failure is the proxy's 502.
 */
async function forward(upstream: URL, agent: Agent, req: IncomingMessage, body: Buffer): Promise<UpstreamAnswer> {
  try {
    return await forwardOnce(upstream, agent, req, body);
  } catch (error) {
    if ((error as { reusedSocket?: boolean; code?: string }).reusedSocket && (error as { code?: string }).code === "ECONNRESET") {
      return forwardOnce(upstream, agent, req, body);
    }
    throw error;
  }
}

function forwardOnce(upstream: URL, agent: Agent, req: IncomingMessage, body: Buffer): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-length": String(body.length) };
    const contentType = req.headers["content-type"];
    if (contentType) headers["content-type"] = contentType;
    const outgoing = httpRequest(
      {
        host: upstream.hostname.replace(/^\[|\]$/g, ""),
        port: upstream.port,
        path: req.url && req.url !== "/" ? req.url : upstream.pathname,
        method: req.method ?? "POST",
        headers,
        agent,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const type = answer.headers["content-type"];
          resolve({ status: answer.statusCode ?? 502, contentType: Array.isArray(type) ? type[0] : type, body: Buffer.concat(chunks) });
        });
        answer.on("error", reject);
      },
    );
    outgoing.on("socket", (socket) => socket.setNoDelay(true));
    outgoing.on("error", (error) => reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket })));
    outgoing.end(body);
  });
}
