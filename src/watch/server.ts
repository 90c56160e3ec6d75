/**
 * The watch's HTTP endpoint (`--metrics <host:port>`): `GET /metrics` serves the watch's Prometheus registry,
 * `GET /healthz` says whether the process is live and `GET /readyz` whether it is ready (connected and caught up),
 * each `200` or `503` with a JSON body that gives the reasons. Any other path is `404`, any other method `405`.
 * A failing health callback or registry answers `503`/`500` with its message: the long-running process never
 * crashes on a request.
 *
 * @packageDocumentation
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIPv4, isIPv6, type AddressInfo, type Socket } from "node:net";
import { ConfigurationError, InvalidArgumentError, messageOf } from "../errors.js";
import type { WatchMetrics } from "./metrics.js";

/** What the loop says of itself: live (the process works), ready (connected and caught up), and why not. */
export interface WatchHealth {
  readonly live: boolean;
  readonly ready: boolean;
  /** Why the watch is not live or not ready, one line each (empty when it is both). */
  readonly reasons: readonly string[];
}

/** A running endpoint. */
export interface WatchServer {
  /** `http://<host>:<port>` with the port it listens on (the one picked for port 0); IPv6 hosts in brackets. */
  readonly url: string;
  /** Stops listening and closes every open connection (Prometheus keeps its connections alive). */
  close(): Promise<void>;
}

/** The methods each path answers. */
const ALLOWED_METHODS = "GET, HEAD";

/**
 * Starts the watch's HTTP endpoint.
 *
 * @param options - `host` and `port` to listen on (port 0: a free one), the `metrics` to serve and the `health`
 *   callback, called on each `/healthz` and `/readyz`.
 * @returns The running server; its `url` names the port.
 * @throws {@link ConfigurationError} when it cannot listen there (the port is taken, the host is not this
 *   machine's).
 */
export async function startWatchServer(options: {
  readonly host: string;
  readonly port: number;
  readonly metrics: WatchMetrics;
  readonly health: () => WatchHealth;
}): Promise<WatchServer> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    void answer(request, response, options).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, "text/plain; charset=utf-8", `${messageOf(error)}\n`);
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      reject(
        new ConfigurationError(`Cannot serve the watch's metrics on ${formatHostPort(options.host, options.port)}`, {
          details: messageOf(error),
          cause: error,
        }),
      );
    };
    server.once("error", onError);
    server.listen(options.port, options.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${formatHostPort(options.host, port)}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        for (const socket of sockets) socket.destroy();
      }),
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  options: { readonly metrics: WatchMetrics; readonly health: () => WatchHealth },
): Promise<void> {
  const path = new URL(request.url ?? "/", "http://watch.invalid").pathname;
  const known = path === "/metrics" || path === "/healthz" || path === "/readyz";
  if (!known) return send(response, 404, "text/plain; charset=utf-8", `Not found: ${path} (serves /metrics, /healthz, /readyz)\n`);
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("allow", ALLOWED_METHODS);
    return send(response, 405, "text/plain; charset=utf-8", `Method ${request.method ?? ""} not allowed on ${path} (${ALLOWED_METHODS})\n`);
  }
  if (path === "/metrics") {
    const text = await options.metrics.registry.metrics();
    return send(response, 200, options.metrics.registry.contentType, text);
  }
  let health: WatchHealth;
  try {
    health = options.health();
  } catch (error) {
    health = { live: false, ready: false, reasons: [`the health check failed: ${messageOf(error)}`] };
  }
  const ok = path === "/healthz" ? health.live : health.live && health.ready;
  const body = { status: ok ? "ok" : "unavailable", live: health.live, ready: health.ready, reasons: health.reasons };
  send(response, ok ? 200 : 503, "application/json; charset=utf-8", `${JSON.stringify(body)}\n`);
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  response.end(body);
}

function formatHostPort(host: string, port: number): string {
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** A host name: dot-separated labels of letters, digits and hyphens (`localhost`, `metrics.internal`). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * Reads a listen address, `--metrics <host:port>`: `127.0.0.1:9464`, `localhost:9464`, `[::1]:9464`, or `:9464` for
 * every IPv4 interface (`0.0.0.0`). Port 0 picks a free port.
 *
 * @param text - The address.
 * @returns The host to listen on (an IPv6 address without its brackets) and the port.
 * @throws {@link InvalidArgumentError} naming what is wrong: no port, a port out of 0–65535, an IPv6 address without
 *   brackets, a host that is neither an IP address nor a host name.
 */
export function parseListenAddress(text: string): { host: string; port: number } {
  const fail = (why: string) =>
    new InvalidArgumentError(`Invalid listen address "${text}": ${why} (expected host:port, such as 127.0.0.1:9464, [::1]:9464 or :9464)`);
  const trimmed = text.trim();
  if (trimmed.includes("://")) throw fail("a URL, not an address");
  const bracketed = /^\[([^\]]*)\]:([^:]*)$/.exec(trimmed);
  let host: string;
  let portText: string;
  if (bracketed !== null) {
    host = bracketed[1] ?? "";
    portText = bracketed[2] ?? "";
    if (!isIPv6(host)) throw fail(`"${host}" in brackets is not an IPv6 address`);
  } else {
    const colon = trimmed.lastIndexOf(":");
    if (colon === -1) throw fail("no port");
    host = trimmed.slice(0, colon);
    portText = trimmed.slice(colon + 1);
    if (host.includes(":")) throw fail("an IPv6 address needs brackets");
    if (host === "") host = "0.0.0.0";
    else if (!isIPv4(host) && !(HOST_NAME.test(host) && !/^[0-9.]+$/.test(host)))
      throw fail(`"${host}" is not an IP address or a host name`);
  }
  if (!/^[0-9]{1,5}$/.test(portText)) throw fail(portText === "" ? "no port" : `port "${portText}" is not a number`);
  const port = Number(portText);
  if (port > 65_535) throw fail(`port ${port} is out of range (0-65535)`);
  return { host, port };
}
