/**
 * Loopback HTTP servers that behave as a hostile or broken service would: a body announced far over any limit, a
 * body that never ends, a body that echoes the API key. Real sockets on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A running hostile server. */
export interface HostileServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests received (method and path), in order. */
  readonly requests: string[];
  /** Bytes of body written so far, over all requests. */
  bytesSent(): number;
  close(): Promise<void>;
}

/** How one request is answered: given the request and the response, and a counter of body bytes to feed. */
export type HostileHandler = (req: IncomingMessage, res: ServerResponse, count: (bytes: number) => void) => void;

/**
 * Starts a server on 127.0.0.1 answering every request with `handler`.
 *
 * @param handler - Writes the answer.
 * @returns The server.
 */
export async function startHostileServer(handler: HostileHandler): Promise<HostileServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let sent = 0;
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    handler(req, res, (bytes) => {
      sent += bytes;
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bytesSent: () => sent,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Answers with a body that never ends: 64 KiB chunks written as fast as the client reads them, until it goes.
 *
 * @param status - HTTP status (default 200).
 */
export const endlessBody =
  (status = 200): HostileHandler =>
  (_req, res, count) => {
    res.writeHead(status, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write("[");
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk)) count(chunk.length);
      if (!res.destroyed) res.once("drain", pump);
    };
    res.on("close", () => res.removeAllListeners("drain"));
    pump();
  };

/**
 * Answers 200 announcing a body of `bytes` in `Content-Length`, then sends a few bytes and holds the connection (it
 * never sends the rest: a client that waits for it waits until its time limit).
 *
 * @param bytes - The size announced.
 */
export function announcedBody(bytes: number): HostileHandler {
  return (_req, res, count) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(bytes) });
    res.write('{"keys":[');
    count(9);
  };
}
