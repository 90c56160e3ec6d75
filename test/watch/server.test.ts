/**
 * The watch's HTTP endpoint on loopback: /metrics serves the registry with its content type, /healthz and /readyz
 * follow the health callback through its transitions (503 with the reasons, then 200), a throwing callback answers
 * 503 rather than crashing, other paths 404 and other methods 405, port 0 picks a free port, close() ends kept-alive
 * connections; and parseListenAddress reads the documented forms and refuses the rest.
 */
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { Agent, request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigurationError, InvalidArgumentError } from "../../src/errors.js";
import { createWatchMetrics } from "../../src/watch/metrics.js";
import { parseListenAddress, startWatchServer, type WatchHealth, type WatchServer } from "../../src/watch/server.js";
import { parseExposition, sampleValue } from "../support/exposition.js";

const servers: WatchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(health: () => WatchHealth, host = "127.0.0.1") {
  const metrics = createWatchMetrics({ defaultMetrics: false });
  const server = await startWatchServer({ host, port: 0, metrics, health });
  servers.push(server);
  return { metrics, server };
}

const HEALTHY: WatchHealth = { live: true, ready: true, reasons: [] };

describe("startWatchServer", () => {
  test("port 0 picks a free port and the url names it", async () => {
    const { server } = await start(() => HEALTHY);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    const port = Number(new URL(server.url).port);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test("GET /metrics serves the registry's exposition with its content type, values as driven", async () => {
    const { metrics, server } = await start(() => HEALTHY);
    metrics.recordChecked("drifted", "change");
    metrics.block(10n, 12n);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(metrics.registry.contentType);
    const samples = parseExposition(await response.text());
    expect(sampleValue(samples, "trustgate_records_checked_total", { status: "drifted", trigger: "change" })).toBe(1);
    expect(sampleValue(samples, "trustgate_block_lag_blocks")).toBe(2);
    metrics.recordChecked("drifted", "change");
    const again = parseExposition(await (await fetch(`${server.url}/metrics?fresh=1`)).text());
    expect(sampleValue(again, "trustgate_records_checked_total", { status: "drifted", trigger: "change" })).toBe(2);
  });

  test("/healthz and /readyz follow the health callback: starting (live, not ready), ready, then not live", async () => {
    let health: WatchHealth = { live: true, ready: false, reasons: ["not caught up: block 90 of 120"] };
    const { server } = await start(() => health);
    const read = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await read("/healthz")).toEqual({
      status: 200,
      body: { status: "ok", live: true, ready: false, reasons: ["not caught up: block 90 of 120"] },
    });
    expect(await read("/readyz")).toEqual({
      status: 503,
      body: { status: "unavailable", live: true, ready: false, reasons: ["not caught up: block 90 of 120"] },
    });

    health = HEALTHY;
    expect((await read("/readyz")).status).toBe(200);
    expect((await read("/healthz")).status).toBe(200);

    health = { live: false, ready: true, reasons: ["the loop has not polled for 5 intervals"] };
    expect(await read("/healthz")).toEqual({
      status: 503,
      body: { status: "unavailable", live: false, ready: true, reasons: ["the loop has not polled for 5 intervals"] },
    });
    expect((await read("/readyz")).status).toBe(503);
  });

  test("a health callback that throws answers 503 with its message, and the server keeps serving", async () => {
    let fail = true;
    const { server } = await start(() => {
      if (fail) throw new Error("state unreadable");
      return HEALTHY;
    });
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { reasons: string[] }).reasons).toEqual(["the health check failed: state unreadable"]);
    fail = false;
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  test("a registry that fails answers 500 with its message, and the server keeps serving", async () => {
    const { metrics, server } = await start(() => HEALTHY);
    let fail = true;
    metrics.registry.registerMetric({
      name: "broken_metric",
      get: () =>
        fail
          ? Promise.reject(new Error("collector broke"))
          : Promise.resolve({ name: "broken_metric", help: "x", type: "gauge", values: [], aggregator: "sum" }),
      reset: () => {},
    } as never);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("collector broke");
    fail = false;
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });

  test("other paths are 404, other methods 405 with Allow; HEAD is answered without a body", async () => {
    const { server } = await start(() => HEALTHY);
    for (const path of ["/", "/metric", "/healthz/x", "/favicon.ico"]) expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const response = await fetch(`${server.url}/metrics`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
    const head = await fetch(`${server.url}/readyz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  test("listens on IPv6 loopback with the host in brackets", async () => {
    const { server } = await start(() => HEALTHY, "::1");
    expect(server.url).toMatch(/^http:\/\/\[::1\]:[0-9]+$/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  test("a taken port is a ConfigurationError naming the address", async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const attempt = startWatchServer({
        host: "127.0.0.1",
        port,
        metrics: createWatchMetrics({ defaultMetrics: false }),
        health: () => HEALTHY,
      });
      await expect(attempt).rejects.toBeInstanceOf(ConfigurationError);
      await expect(attempt).rejects.toThrow(`127.0.0.1:${port}`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test("close() returns while a client holds a kept-alive connection, and the port stops answering", async () => {
    const { server } = await start(() => HEALTHY);
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      request(`${server.url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      })
        .on("error", reject)
        .end();
    });
    expect(status).toBe(200);
    await servers.pop()!.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    agent.destroy();
  });
});

describe("parseListenAddress", () => {
  test.each([
    ["127.0.0.1:9464", { host: "127.0.0.1", port: 9464 }],
    [":9464", { host: "0.0.0.0", port: 9464 }],
    ["[::1]:9464", { host: "::1", port: 9464 }],
    ["localhost:0", { host: "localhost", port: 0 }],
    [" 0.0.0.0:65535 ", { host: "0.0.0.0", port: 65535 }],
    ["metrics.internal:9464", { host: "metrics.internal", port: 9464 }],
  ])("reads %s", (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });

  test.each([
    ["9464", "no port"],
    ["127.0.0.1", "no port"],
    ["127.0.0.1:", "no port"],
    ["127.0.0.1:65536", "out of range"],
    ["127.0.0.1:-1", "is not a number"],
    ["127.0.0.1:94a", "is not a number"],
    ["::1:9464", "needs brackets"],
    ["[127.0.0.1]:9464", "not an IPv6 address"],
    ["http://127.0.0.1:9464", "a URL, not an address"],
    ["256.1.1.1:9464", "is not an IP address or a host name"],
    ["bad host:9464", "is not an IP address or a host name"],
    ["", "no port"],
  ])("refuses %s (%s)", (text, why) => {
    expect(() => parseListenAddress(text)).toThrow(InvalidArgumentError);
    expect(() => parseListenAddress(text)).toThrow(why);
  });
});
