/**
 * A tiny real HTTP server on 127.0.0.1 whose answers a test scripts request by request, recording what it
 * received: for transport tests that need real sockets (status codes, headers, slow or dropped responses).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Raw body text. */
  body: string;
}

/** How the server answers one request. */
export type ScriptedResponse =
  { status?: number; headers?: Record<string, string>; json?: unknown; text?: string } | { hang: true } | { destroy: true };

/** A running scripted server. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a scripted server.
 *
 * @param script - Answers request number `index` (from 0).
 */
export async function startScriptedServer(script: (request: RecordedRequest, index: number) => ScriptedResponse): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const answer = script(recorded, requests.length - 1);
      if ("hang" in answer) return;
      if ("destroy" in answer) {
        req.socket.destroy();
        return;
      }
      const body = answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? "");
      res.writeHead(answer.status ?? 200, {
        ...(answer.json !== undefined ? { "content-type": "application/json" } : {}),
        ...answer.headers,
      });
      res.end(body);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
