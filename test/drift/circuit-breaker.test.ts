// The circuit breaker of a drift run's endpoints: it opens after N network failures in a row (every attempt counted,
// retries included), an answer of any status ends a streak, and once open no request reaches the network. Real
// sockets on loopback: a scripted server that resets every connection, and viem's HTTP transport for the RPC.
import { createPublicClient, http } from "viem";
import { getBlockNumber } from "viem/actions";
import { afterEach, describe, expect, it } from "vitest";
import { createCircuitBreaker, describeTrip } from "../../src/drift/circuit-breaker";
import { createEndpointBreakers } from "../../src/drift/endpoint-breakers";
import { InvalidArgumentError } from "../../src/errors";
import { type ScriptedServer, startScriptedServer, unusedPort } from "../support/scripted-server";

const T = new Date("2026-11-29T04:25:03.000Z");
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the circuit breaker", () => {
  it("opens after N failures in a row; then no request is sent, and each fails at once with the last cause", async () => {
    const breaker = createCircuitBreaker({ endpoint: "the service", threshold: 3, now: () => T });
    const guarded = breaker.wrap(globalThis.fetch);
    const url = `http://127.0.0.1:${await unusedPort()}`;
    for (let i = 0; i < 3; i++) await expect(guarded(url)).rejects.toThrow("fetch failed");
    expect(breaker.trip).toEqual({
      endpoint: "the service",
      stoppedAnsweringAt: T,
      failures: 3,
      cause: expect.stringMatching(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
    });
    await expect(guarded(url)).rejects.toThrow(`not sent: ${describeTrip(breaker.trip!)}`);
  });

  it("an answer of any status ends a streak: only failures in a row open it", async () => {
    let fail = true;
    server = await startScriptedServer(() => (fail ? { destroy: true } : { status: 500, json: { error: "down for a moment" } }));
    const breaker = createCircuitBreaker({ endpoint: "the service", threshold: 3 });
    const guarded = breaker.wrap(globalThis.fetch);
    for (let round = 0; round < 3; round++) {
      fail = true;
      for (let i = 0; i < 2; i++) await expect(guarded(server.url)).rejects.toThrow();
      fail = false;
      expect((await guarded(server.url)).status).toBe(500);
    }
    expect(breaker.trip).toBeUndefined();
    expect(server.requests).toHaveLength(9);
  });

  it("0 never opens it", async () => {
    const breaker = createCircuitBreaker({ endpoint: "the RPC", threshold: 0 });
    const guarded = breaker.wrap(globalThis.fetch);
    const url = `http://127.0.0.1:${await unusedPort()}`;
    for (let i = 0; i < 8; i++) await expect(guarded(url)).rejects.toThrow("fetch failed");
    expect(breaker.trip).toBeUndefined();
  });

  it.each([-1, 1.5, Number.NaN])("refuses a threshold of %s", (threshold) => {
    expect(() => createCircuitBreaker({ endpoint: "the service", threshold })).toThrow(InvalidArgumentError);
  });
});

describe("the RPC's breaker in viem's transport", () => {
  it("counts every attempt, retries included, and sends nothing once open", async () => {
    server = await startScriptedServer(() => ({ destroy: true }));
    const breakers = createEndpointBreakers({ maxNetworkFailures: 5, resumable: true, now: () => T });
    const chain = createPublicClient({ transport: http(server.url, { retryCount: 2, retryDelay: 1, fetchFn: breakers.rpcFetch }) });
    // Three attempts per call: the first call fails 3 times, the second twice more and then opens the breaker.
    for (let call = 0; call < 4; call++) await expect(getBlockNumber(chain, { cacheTime: 0 })).rejects.toThrow();
    expect(server.requests).toHaveLength(5);
    expect(breakers.trip()).toMatchObject({ endpoint: "rpc", trip: { failures: 5, endpoint: "the RPC" } });
    expect(breakers.stopReason()).toMatch(
      /^not fetched: the RPC stopped answering at 2026-11-29T04:25:03\.000Z \(5 consecutive network failures; the last: .+\), and the run stopped asking; run it again with the same --state to continue$/,
    );
  });
});
