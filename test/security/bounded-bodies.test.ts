/**
 * A service that sends too much costs the kit at most its limit: the API client and the JWKS resolver read every
 * body through the bounded reader (Content-Length checked first, a byte cap while streaming), fail with a typed
 * error naming the limit, and never retry. Real loopback servers.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createJwksResolver, createTrustApiClient } from "../../src/index.js";
import { MAX_API_RESPONSE_BYTES, MAX_JWKS_RESPONSE_BYTES } from "../../src/security/index.js";
import { announcedBody, endlessBody, type HostileServer, startHostileServer } from "./hostile-service.js";

const servers: HostileServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handler: Parameters<typeof startHostileServer>[0]): Promise<HostileServer> {
  const server = await startHostileServer(handler);
  servers.push(server);
  return server;
}

/** A client with retries that cost nothing to wait for, so that a retry would show in the request count. */
function client(url: string) {
  return createTrustApiClient({ baseUrl: url, timeoutMs: 2_000, retries: { retries: 2, baseDelayMs: 0 }, rateLimit: false });
}

describe("the API client", () => {
  test("a body announced at 600 MB is refused from its Content-Length, once, without reading it", async () => {
    const server = await serve(announcedBody(600_000_000));
    const failure = client(server.url).trustCheck({ id: 1, chain: "base" });
    await expect(failure).rejects.toMatchObject({
      name: "ResponseTooLargeError",
      code: "RESPONSE_TOO_LARGE",
      limitBytes: MAX_API_RESPONSE_BYTES,
      declaredBytes: 600_000_000,
    });
    await expect(failure).rejects.toThrow(`the limit is ${8 * 1024 * 1024} bytes`);
    expect(server.requests).toHaveLength(1);
  });

  test("a body that never ends is cut at the limit, once, not buffered until the time limit", async () => {
    const server = await serve(endlessBody());
    const failure = client(server.url).trustCheck({ id: 1, chain: "base" });
    await expect(failure).rejects.toMatchObject({
      code: "RESPONSE_TOO_LARGE",
      limitBytes: MAX_API_RESPONSE_BYTES,
      declaredBytes: undefined,
    });
    expect(server.requests).toHaveLength(1);
    // What was sent before the client stopped reading: the limit plus what the sockets' buffers hold.
    expect(server.bytesSent()).toBeLessThan(2 * MAX_API_RESPONSE_BYTES);
  });

  test("an error status with an endless body is cut too, and not retried as a 5xx would be", async () => {
    const server = await serve(endlessBody(500));
    await expect(client(server.url).trustCheck({ id: 1, chain: "base" })).rejects.toMatchObject({ code: "RESPONSE_TOO_LARGE" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("the JWKS resolver", () => {
  test("a key set announced over 1 MiB is not read: the fetch fails, naming the limit", async () => {
    const server = await serve(announcedBody(50_000_000));
    const resolver = createJwksResolver({ url: `${server.url}/.well-known/jwks.json`, timeoutMs: 2_000 });
    await expect(resolver.reload()).rejects.toThrow(`larger than ${MAX_JWKS_RESPONSE_BYTES} bytes (Content-Length 50000000)`);
    expect(server.requests).toHaveLength(1);
  });

  test("a key set that never ends is cut at 1 MiB", async () => {
    const server = await serve(endlessBody());
    const resolver = createJwksResolver({ url: `${server.url}/.well-known/jwks.json`, timeoutMs: 2_000 });
    await expect(resolver.reload()).rejects.toThrow(`larger than ${1024 * 1024} bytes; it was not read`);
    const lookup = await resolver.getKey("rnwy-trust-v2");
    expect(lookup).toMatchObject({ ok: false, reason: "jwks-unavailable" });
    expect(server.requests).toHaveLength(1);
    expect(server.bytesSent()).toBeLessThan(8 * MAX_JWKS_RESPONSE_BYTES);
  });
});
