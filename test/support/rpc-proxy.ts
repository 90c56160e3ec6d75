/**
 * A JSON-RPC proxy on loopback that a test can stop answering (a node that hangs: connections accepted, no answer)
 * and that runs a test's action before forwarding a chosen call (to move the chain under a reader mid-read). It
 * forwards each request's body to a loopback node and its answer back, byte for byte.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A running proxy. */
export interface RpcProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** While true, requests are held unanswered (until the proxy closes). */
  hang: boolean;
  /**
   * Called with each request's parsed JSON-RPC body before it is forwarded; the request waits for it. Set it to move
   * the chain between two calls of a reader.
   */
  beforeForward: ((body: { method?: string; params?: unknown } | unknown[]) => Promise<void>) | undefined;
  /** The JSON-RPC methods received, in order (a batch adds each of its calls). */
  readonly methods: string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy to a loopback node.
 *
 * @param upstream - `http://127.0.0.1:<port>` of the node.
 * @returns The proxy.
 */
export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  const host = new URL(upstream).hostname;
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]")
    throw new Error(`the proxy forwards to loopback only, not ${upstream}`);
  const sockets = new Set<Socket>();
  const proxy: RpcProxy = {
    url: "",
    hang: false,
    beforeForward: undefined,
    methods: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const body = JSON.parse(text) as { method?: string } | { method?: string }[];
        for (const call of Array.isArray(body) ? body : [body]) proxy.methods.push(String(call.method));
        if (proxy.hang) return; // held until the proxy closes
        await proxy.beforeForward?.(body);
        const answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: text });
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  (proxy as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
