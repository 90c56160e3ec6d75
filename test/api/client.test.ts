/**
 * The API client's transport and methods over real HTTP, against a scripted server on 127.0.0.1: retries,
 * 429 with Retry-After, time-outs, network failures, malformed and mismatching bodies, the API key, argument
 * checks and the MCP error paths. Waits go through a simulated clock: no assertion depends on wall-clock time.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createTrustApiClient, isWalletNotFound } from "../../src/api/client.js";
import { backoffDelay, DEFAULT_USER_AGENT, parseRetryAfter } from "../../src/api/http.js";
import { createTrustMcpClient } from "../../src/api/mcp.js";
import type { TrustApiClientParameters } from "../../src/api/options.js";
import { createRateLimiter } from "../../src/api/rate-limiter.js";
import {
  HttpRequestError,
  InvalidArgumentError,
  InvalidResponseError,
  McpError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  TrustgateError,
  UnknownChainError,
} from "../../src/errors.js";
import { createFakeClock, FAKE_EPOCH, type FakeClock } from "../support/fake-clock.js";
import { type ScriptedResponse, type ScriptedServer, startScriptedServer, unusedPort } from "../support/scripted-server.js";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: (index: number, request: ScriptedServer["requests"][number]) => ScriptedResponse) {
  const server = await startScriptedServer((req, i) => script(i, req));
  servers.push(server);
  return server;
}

function clientFor(url: string, clock: FakeClock, options: TrustApiClientParameters = {}) {
  return createTrustApiClient({ baseUrl: url, now: clock.now, sleep: clock.sleep, random: () => 0.5, ...options });
}

const STATS = { totalAgents: 12, chains: 2, registrations: 12, byChain: { base: 8, ethereum: 4 }, updatedAt: "2026-11-22T03:00:00.000Z" };
const ERROR = (code: string, message: string) => ({ error: { code, message } });

function attestation(signed: Record<string, unknown>) {
  return {
    issuer: "https://rnwy.com",
    type: "trust-check",
    kid: "rnwy-trust-v2",
    alg: "ES256",
    jwks: "https://rnwy.com/.well-known/jwks.json",
    signed,
    sig: "c2ln",
    jws: "a.b.c",
    expiry: "2026-11-23T10:00:00.000Z",
  };
}

function trustCheckBody(overrides: Record<string, unknown> = {}) {
  return {
    agentId: 1234,
    chain: "base",
    registry: "erc8004",
    name: "Agent 1234",
    score: 72,
    threshold: null,
    pass: null,
    tier: "developing",
    badges: { earned: ["verified-owner"], warnings: [] },
    sybilSeverity: "low",
    sybilSignals: ["shared-funder"],
    attestation: attestation({ agentId: 1234, chain: "base", registry: "erc8004", score: 72 }),
    ...overrides,
  };
}

/** Runs `promise`, expecting it to reject, and returns the error. */
async function failure(promise: Promise<unknown>): Promise<TrustgateError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "expected a rejection").toBeInstanceOf(TrustgateError);
  return outcome as TrustgateError;
}

function textOf(error: TrustgateError): string {
  return [error.message, error.shortMessage, error.details ?? "", ...error.metaMessages].join("\n");
}

describe("transport: 429 and Retry-After", () => {
  it("waits Retry-After seconds (simulated clock), then retries and succeeds", async () => {
    const server = await serve((i) =>
      i === 0 ? { status: 429, headers: { "retry-after": "7" }, json: ERROR("rate-limited", "slow down") } : { json: STATS },
    );
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    expect(await api.stats()).toMatchObject({ totalAgents: 12 });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([7_000]);
    expect(clock.now() - FAKE_EPOCH).toBe(7_000);
  });

  it("accepts an HTTP-date Retry-After, measured by the injected clock", async () => {
    const retryAt = new Date(FAKE_EPOCH + 12_000).toUTCString();
    const server = await serve((i) => (i === 0 ? { status: 429, headers: { "retry-after": retryAt } } : { json: STATS }));
    const clock = createFakeClock();
    await clientFor(server.url, clock).stats();
    expect(clock.sleeps).toEqual([12_000]);
    expect(parseRetryAfter(retryAt, FAKE_EPOCH)).toBe(12_000);
    expect(parseRetryAfter(new Date(FAKE_EPOCH - 5_000).toUTCString(), FAKE_EPOCH)).toBe(0);
    expect(parseRetryAfter("1.5", 0)).toBe(1_500);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });

  it("pauses the shared limiter for Retry-After, so other requests of the client hold back too", async () => {
    let first = true;
    const server = await serve(() => {
      if (first) {
        first = false;
        return { status: 429, headers: { "retry-after": "30" } };
      }
      return { json: STATS };
    });
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 30, now: clock.now, sleep: clock.sleep });
    const pauses: number[] = [];
    const pause = limiter.pauseUntil.bind(limiter);
    limiter.pauseUntil = (time) => {
      pauses.push(time);
      pause(time);
    };
    // A sleep that records but does not move the clock: the retry finds the pause still in force.
    const sleeps: number[] = [];
    const api = createTrustApiClient({
      baseUrl: server.url,
      rateLimit: limiter,
      now: clock.now,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await api.stats();
    expect(pauses).toEqual([FAKE_EPOCH + 30_000]);
    expect(sleeps).toEqual([30_000]); // the transport's own wait (which here does not move the clock)…
    expect(clock.sleeps).toEqual([30_000]); // …so the limiter's pause held the retry back
    expect(clock.now()).toBe(FAKE_EPOCH + 30_000);
    expect(server.requests).toHaveLength(2);
  });

  it("falls back to exponential backoff when Retry-After is absent", async () => {
    const server = await serve((i) => (i < 2 ? { status: 429, json: ERROR("rate-limited", "later") } : { json: STATS }));
    const clock = createFakeClock();
    await clientFor(server.url, clock, { retries: { baseDelayMs: 400 } }).stats();
    expect(server.requests).toHaveLength(3);
    // random() = 0.5: half of 400 × 2^0, then half of 400 × 2^1.
    expect(clock.sleeps).toEqual([200, 400]);
  });

  it("gives up with RateLimitedError after the allowed 429 retries", async () => {
    const server = await serve(() => ({ status: 429, headers: { "retry-after": "1" }, json: ERROR("rate-limited", "too many") }));
    const clock = createFakeClock();
    const error = await failure(clientFor(server.url, clock, { retries: { rateLimitRetries: 2 } }).stats());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(error).toMatchObject({ code: "RATE_LIMITED", status: 429, errorCode: "rate-limited", retryAfterMs: 1_000, attempts: 3 });
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([1_000, 1_000]);
  });

  it("fails at once when Retry-After is longer than the longest wait allowed", async () => {
    const server = await serve(() => ({ status: 429, headers: { "retry-after": "3600" } }));
    const clock = createFakeClock();
    const error = await failure(clientFor(server.url, clock, { retries: { maxRetryAfterMs: 60_000 } }).stats());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("transport: 503 and Retry-After", () => {
  it("waits a 503's Retry-After (seconds or HTTP date) instead of the backoff, pausing the limiter too", async () => {
    const retryAt = new Date(FAKE_EPOCH + 9_000).toUTCString();
    const server = await serve((i) =>
      i === 0
        ? { status: 503, headers: { "retry-after": "4" }, json: ERROR("unavailable", "maintenance") }
        : i === 1
          ? { status: 503, headers: { "retry-after": retryAt } }
          : { json: STATS },
    );
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    expect(await api.stats()).toMatchObject({ totalAgents: 12 });
    expect(server.requests).toHaveLength(3);
    // 4 s, then the date 9 s after the start, i.e. 5 s after the second answer.
    expect(clock.sleeps).toEqual([4_000, 5_000]);
    expect(api.transport.rateLimiter!.state().pausedUntil).toBeUndefined();
  });

  it("a 503 without Retry-After, or with an unreadable one, backs off as before", async () => {
    const server = await serve((i) =>
      i === 0 ? { status: 503 } : i === 1 ? { status: 503, headers: { "retry-after": "later" } } : { json: STATS },
    );
    const clock = createFakeClock();
    await clientFor(server.url, clock).stats();
    expect(clock.sleeps).toEqual([125, 250]);
  });

  it("a 503 asking for longer than the longest wait allowed fails at once with HttpRequestError", async () => {
    const server = await serve(() => ({ status: 503, headers: { "retry-after": "3600" }, json: ERROR("unavailable", "down") }));
    const clock = createFakeClock();
    const error = await failure(clientFor(server.url, clock, { retries: { maxRetryAfterMs: 60_000 } }).stats());
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(error).not.toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 503, errorCode: "unavailable", attempts: 1 });
    expect(error.details).toContain("Retry-After");
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("transport: the limit the service announces", () => {
  it("follows an announced lower limit: the third request of an announced 2/min waits a window", async () => {
    const server = await serve(() => ({ headers: { "x-ratelimit-limit": "2" }, json: STATS }));
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 30, source: "default" });
    for (let i = 0; i < 3; i++) await api.stats();
    expect(clock.sleeps).toEqual([60_000]);
    expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 2, perMinute: 2, source: "announced" });
  });

  it("follows an announced higher limit: 45 requests in a minute where 30 were assumed, and says so once", async () => {
    const server = await serve(() => ({ headers: { "X-RateLimit-Limit": "45", "RateLimit-Policy": '"default";q=45;w=60' }, json: STATS }));
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    const changes: number[] = [];
    api.transport.rateLimiter!.onChange((rate) => changes.push(rate.perMinute));
    for (let i = 0; i < 45; i++) await api.stats();
    expect(clock.sleeps).toEqual([]);
    await api.stats();
    expect(clock.sleeps).toEqual([60_000]);
    expect(changes).toEqual([45]);
  });

  it("never above the configured rateLimit, which still follows a lower announcement", async () => {
    let announced = "300";
    const server = await serve(() => ({ headers: { "x-ratelimit-limit": announced }, json: STATS }));
    const clock = createFakeClock();
    const api = clientFor(server.url, clock, { rateLimit: 5 });
    for (let i = 0; i < 6; i++) await api.stats();
    expect(clock.sleeps).toEqual([60_000]);
    expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 5, source: "configured", cap: 5, announced: { limit: 300 } });
    announced = "2";
    await api.stats();
    expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 2, source: "announced" });
  });

  it("remaining 0 with a reset holds the next request until the reset (delta seconds or a Unix time)", async () => {
    const resets = ["5", String(FAKE_EPOCH / 1000 + 5 + 8)];
    const server = await serve((i) =>
      i < 2
        ? { headers: { "x-ratelimit-limit": "10", "x-ratelimit-remaining": "0", "x-ratelimit-reset": resets[i]! }, json: STATS }
        : { json: STATS },
    );
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    for (let i = 0; i < 3; i++) await api.stats();
    expect(clock.sleeps).toEqual([5_000, 8_000]);
  });

  it("garbage rate-limit headers are ignored: no crash, the limit stays as it was", async () => {
    const server = await serve((i) => ({
      headers: {
        "x-ratelimit-limit": ["banana", "-5", "0", "1e3", "", "99999999999999999999"][i % 6]!,
        "x-ratelimit-remaining": "-1",
        "x-ratelimit-reset": "tomorrow-ish",
        "ratelimit-policy": ';;;,,"q=, =;w',
        ratelimit: '"default";r=;t=x',
      },
      json: STATS,
    }));
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    for (let i = 0; i < 6; i++) {
      const response = await api.transport.request({ path: "/api/stats" });
      expect(response.rateLimit).toEqual({});
    }
    expect(api.transport.rateLimiter!.state()).toMatchObject({ limit: 30, source: "default", used: 6, available: 24 });
    expect(clock.sleeps).toEqual([]);
  });

  it("a 429's own announcement is taken in as well as its Retry-After", async () => {
    const server = await serve((i) =>
      i === 0 ? { status: 429, headers: { "retry-after": "3", "x-ratelimit-limit": "4", "x-ratelimit-remaining": "0" } } : { json: STATS },
    );
    const clock = createFakeClock();
    const api = clientFor(server.url, clock);
    await api.stats();
    expect(clock.sleeps).toEqual([3_000]);
    expect(api.transport.rateLimiter!.limit).toBe(4);
  });

  it("the announcements of /api/risk-terms update its own limiter, not the shared one", async () => {
    const server = await serve((_, req) =>
      req.url.startsWith("/api/risk-terms")
        ? { status: 400, headers: { "x-ratelimit-limit": "2" }, json: ERROR("bad-request", "no") }
        : { headers: { "x-ratelimit-limit": "50" }, json: STATS },
    );
    const clock = createFakeClock();
    const api = clientFor(server.url, clock, { apiKey: "k" });
    expect(api.transport.rateLimiterFor("/api/risk-terms")!.rate()).toMatchObject({ limit: 60, source: "default" });
    await api.stats();
    await failure(api.riskTerms({ agentId: 1, chain: "base" }));
    expect(api.transport.rateLimiter!.limit).toBe(50);
    expect(api.transport.rateLimiterFor("/api/risk-terms")!.limit).toBe(2);
    expect(api.transport.rateLimiterFor("/api/risk-terms/")).toBe(api.transport.rateLimiterFor("/api/risk-terms"));
    expect(api.transport.rateLimiterFor("/api/stats")).toBe(api.transport.rateLimiter);
  });
});

describe("transport: retries on 5xx and network failures", () => {
  it("retries a 500 and returns the later success", async () => {
    const server = await serve((i) => (i === 0 ? { status: 500, json: ERROR("internal", "boom") } : { json: STATS }));
    const clock = createFakeClock();
    expect(await clientFor(server.url, clock).stats()).toMatchObject({ totalAgents: 12 });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([125]); // full jitter: 0.5 × 250
  });

  it("500 forever: HttpRequestError after retries + 1 attempts, backoff doubling up to its cap", async () => {
    const server = await serve(() => ({ status: 500, json: ERROR("internal", "boom") }));
    const clock = createFakeClock();
    const api = clientFor(server.url, clock, { retries: { retries: 4, baseDelayMs: 100, maxDelayMs: 300 }, random: () => 0.999 });
    const error = await failure(api.stats());
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(error).not.toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "HTTP_ERROR", status: 500, errorCode: "internal", errorMessage: "boom", attempts: 5 });
    expect(server.requests).toHaveLength(5);
    expect(clock.sleeps).toEqual([99, 199, 299, 299]);
    expect(backoffDelay(10, { baseDelayMs: 100, maxDelayMs: 300 }, () => 0)).toBe(0);
  });

  it("does not retry other 4xx, and carries the service's error body", async () => {
    const server = await serve(() => ({ status: 404, json: ERROR("not-found", "No agent 9 on base") }));
    const clock = createFakeClock();
    const error = await failure(clientFor(server.url, clock).trustCheck({ id: 9, chain: "base" }));
    expect(error).toMatchObject({ status: 404, errorCode: "not-found", errorMessage: "No agent 9 on base", attempts: 1 });
    expect((error as HttpRequestError).body).toEqual(ERROR("not-found", "No agent 9 on base"));
    expect((error as HttpRequestError).url).toBe(`${server.url}/api/trust-check?id=9&chain=base`);
    expect(error.shortMessage).toContain("HTTP 404 (not-found: No agent 9 on base)");
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("a server that never answers: TimeoutError after every attempt timed out", async () => {
    const server = await serve(() => ({ hang: true }));
    const clock = createFakeClock();
    const error = await failure(clientFor(server.url, clock, { timeoutMs: 150, retries: 1 }).stats());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: "TIMEOUT", timeoutMs: 150, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it("connection refused: NetworkError after retries", async () => {
    const port = await unusedPort();
    const clock = createFakeClock();
    const error = await failure(clientFor(`http://127.0.0.1:${port}`, clock, { retries: 2 }).stats());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "NETWORK_ERROR", attempts: 3 });
    expect(error.details).toContain("ECONNREFUSED");
    expect(clock.sleeps).toHaveLength(2);
  });

  it("a dropped connection is a NetworkError, and is retried", async () => {
    const server = await serve((i) => (i === 0 ? { destroy: true } : { json: STATS }));
    const clock = createFakeClock();
    expect(await clientFor(server.url, clock).stats()).toMatchObject({ totalAgents: 12 });
    const dropping = await serve(() => ({ destroy: true }));
    const error = await failure(clientFor(dropping.url, clock, { retries: 0 }).stats());
    expect(error).toBeInstanceOf(NetworkError);
    expect(dropping.requests).toHaveLength(1);
  });
});

describe("transport: bodies", () => {
  it("malformed JSON is an InvalidResponseError, not retried", async () => {
    const server = await serve(() => ({ status: 200, headers: { "content-type": "application/json" }, text: '{"totalAgents": 12,' }));
    const error = await failure(clientFor(server.url, createFakeClock()).stats());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.code).toBe("INVALID_RESPONSE");
    expect((error as InvalidResponseError).issues[0]).toContain('{\\"totalAgents\\": 12,');
    expect(server.requests).toHaveLength(1);
  });

  it("a body that does not match the schema is an InvalidResponseError listing the issues", async () => {
    const server = await serve((_, req) =>
      req.url.startsWith("/api/stats")
        ? { json: { totalAgents: "many" } }
        : { json: trustCheckBody({ score: "high", attestation: { ...attestation({}), kid: undefined } }) },
    );
    const api = clientFor(server.url, createFakeClock());
    const stats = (await failure(api.stats())) as InvalidResponseError;
    expect(stats).toBeInstanceOf(InvalidResponseError);
    expect(stats.issues).toEqual(["totalAgents: Invalid input: expected number, received string"]);
    expect(stats.url).toBe(`${server.url}/api/stats`);

    const check = (await failure(api.trustCheck({ id: 1234, chain: "base" }))) as InvalidResponseError;
    expect(check.issues.map((i) => i.split(":")[0])).toEqual(["score", "attestation.kid"]);
    expect(check.message).toContain("- attestation.kid:");
  });

  it("an attestation with neither sig nor jws is rejected", async () => {
    const { sig: _sig, jws: _jws, ...unsigned } = attestation({});
    const server = await serve(() => ({ json: trustCheckBody({ attestation: unsigned }) }));
    const error = (await failure(clientFor(server.url, createFakeClock()).trustCheck({ id: 1, chain: "base" }))) as InvalidResponseError;
    expect(error.issues).toEqual(["attestation: attestation has neither sig nor jws"]);
  });

  it("keeps fields the schema does not name, and accepts a decimal-string agentId and Unix-second times", async () => {
    const server = await serve(() => ({
      json: trustCheckBody({ agentId: "1234", checkedAt: 1_795_000_000, futureField: { nested: [1, 2] } }),
    }));
    const body = await clientFor(server.url, createFakeClock()).trustCheck({ id: 1234, chain: "base" });
    expect(body.agentId).toBe("1234");
    expect(body.checkedAt).toBe(1_795_000_000);
    expect(body.futureField).toEqual({ nested: [1, 2] });
    expect(body.attestation!.signed).toEqual({ agentId: 1234, chain: "base", registry: "erc8004", score: 72 });
  });
});

describe("transport: API key and headers", () => {
  const KEY = "sk-test-SECRET-4242";

  it("sends the key as a Bearer token and a user agent; without a key, no Authorization header", async () => {
    const server = await serve(() => ({ json: STATS }));
    await clientFor(server.url, createFakeClock(), { apiKey: KEY }).stats();
    await clientFor(server.url, createFakeClock()).stats();
    await clientFor(server.url, createFakeClock(), { userAgent: "my-app/2" }).stats();
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(DEFAULT_USER_AGENT).toMatch(/^trustgate\/\d+\.\d+\.\d+$/);
    expect(server.requests[1]!.headers.authorization).toBeUndefined();
    expect(server.requests[2]!.headers["user-agent"]).toBe("my-app/2");
    expect(server.requests.every((r) => !r.url.includes(KEY))).toBe(true);
  });

  it("never puts the key in an error, even when the service echoes it", async () => {
    const server = await serve((_, req) =>
      req.url.startsWith("/api/stats")
        ? { status: 401, json: ERROR("unauthorized", `key ${KEY} is not valid`) }
        : { status: 200, text: `oops ${KEY}` },
    );
    const clock = createFakeClock();
    const api = clientFor(server.url, clock, { apiKey: KEY, retries: 0 });
    const http = await failure(api.stats());
    expect(http).toMatchObject({ status: 401, errorCode: "unauthorized", errorMessage: "key *** is not valid" });
    const invalid = await failure(api.trustCheck({ id: 1, chain: "base" }));
    expect(invalid).toBeInstanceOf(InvalidResponseError);
    const refused = await failure(clientFor(`http://127.0.0.1:${await unusedPort()}`, clock, { apiKey: KEY, retries: 0 }).stats());
    const hanging = await serve(() => ({ hang: true }));
    const timeout = await failure(clientFor(hanging.url, clock, { apiKey: KEY, retries: 0, timeoutMs: 100 }).stats());
    for (const error of [http, invalid, refused, timeout]) {
      expect(textOf(error)).not.toContain(KEY);
      expect(textOf(error)).not.toContain("SECRET");
    }
  });

  it("refuses a base URL carrying credentials or a query, without echoing them", async () => {
    const server = await serve(() => ({ json: STATS }));
    for (const base of [server.url.replace("http://", "http://user:hunter2@"), `${server.url}/?api_key=hunter2`]) {
      let error: unknown;
      try {
        createTrustApiClient({ baseUrl: base });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(textOf(error as TrustgateError)).not.toContain("hunter2");
    }
    // A path prefix is kept; a trailing slash is not doubled.
    await clientFor(`${server.url}/prefix/`, createFakeClock()).stats();
    expect(server.requests[0]!.url).toBe("/prefix/api/stats");
  });
});

describe("transport: client-side rate limit", () => {
  it("holds the third request of a 2-per-minute client for a full window", async () => {
    const server = await serve(() => ({ json: STATS }));
    const clock = createFakeClock();
    const api = clientFor(server.url, clock, { rateLimit: 2 });
    await Promise.all([api.stats(), api.stats(), api.stats()]);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("defaults: 30/min anonymous, 300/min with a key (risk-terms 5 and 60), none with rateLimit: false", () => {
    const clock = createFakeClock();
    const riskTerms = (options: TrustApiClientParameters) =>
      clientFor("http://127.0.0.1:1", clock, options).transport.rateLimiterFor("/api/risk-terms");
    expect(clientFor("http://127.0.0.1:1", clock).transport.rateLimiter?.limit).toBe(30);
    expect(clientFor("http://127.0.0.1:1", clock, { apiKey: "k" }).transport.rateLimiter?.limit).toBe(300);
    expect(clientFor("http://127.0.0.1:1", clock, { rateLimit: false }).transport.rateLimiter).toBeUndefined();
    expect(riskTerms({})?.rate()).toMatchObject({ limit: 5, source: "default" });
    expect(riskTerms({ apiKey: "k" })?.rate()).toMatchObject({ limit: 60, source: "default" });
    expect(riskTerms({ apiKey: "k", rateLimit: 20 })?.rate()).toMatchObject({ limit: 20, cap: 20 });
    expect(riskTerms({ rateLimit: 3 })?.rate()).toMatchObject({ limit: 3, cap: 3 });
    expect(riskTerms({ rateLimit: false })).toBeUndefined();
    // A shared limiter serves every path but /api/risk-terms, which keeps a count of its own.
    const shared = createRateLimiter({ limit: 9 });
    const api = clientFor("http://127.0.0.1:1", clock, { rateLimit: shared });
    expect(api.transport.rateLimiter).toBe(shared);
    expect(api.transport.rateLimiterFor("/api/risk-terms")).not.toBe(shared);
  });

  it("rejects bad options", () => {
    expect(() => createTrustApiClient({ baseUrl: "not a url" })).toThrow(InvalidArgumentError);
    expect(() => createTrustApiClient({ baseUrl: "ftp://x" })).toThrow(InvalidArgumentError);
    expect(() => createTrustApiClient({ timeoutMs: 0 })).toThrow(InvalidArgumentError);
    expect(() => createTrustApiClient({ retries: -1 })).toThrow(InvalidArgumentError);
    expect(() => createTrustApiClient({ rateLimit: 0 })).toThrow(InvalidArgumentError);
  });
});

describe("client: arguments are checked before any request", () => {
  it("rejects bad agent ids, chains, registries, thresholds, addresses, limits and compare lists", async () => {
    const server = await serve(() => ({ json: {} }));
    const api = clientFor(server.url, createFakeClock());
    const address = `0x${"ab".repeat(20)}`;

    const chain = await failure(api.trustCheck({ id: 1, chain: "bsae" }));
    expect(chain).toBeInstanceOf(UnknownChainError);
    expect((chain as UnknownChainError).suggestion).toBe("base");

    const invalid: Array<Promise<unknown>> = [
      api.trustCheck({ id: -1, chain: "base" }),
      api.trustCheck({ id: 1.5, chain: "base" }),
      api.trustCheck({ id: "12a", chain: "base" }),
      api.trustCheck({ id: 1, chain: "base", registry: "nope" }),
      api.trustCheck({ id: 1, chain: "base", threshold: 101 }),
      api.trustCheck({ id: 1, chain: "" }),
      api.trustCheckByWallet("0x1234"),
      api.entity("vitalik.eth"),
      api.addressAge({ address: `${address}0`, chain: "base" }),
      api.reviewer({ address: `0xZZ${"0".repeat(38)}`, chain: "base" }),
      api.walletScore(""),
      api.explorer({ sort: "oldest" as never }),
      api.mcpServerAttestation("not a server"),
      api.agents({ limit: 0 }),
      api.agents({ limit: 1001 }),
      api.explorer({ minScore: 101 }),
      api.explorer({ tier: "stellar" as never }),
      api.compare(["base:1"]),
      api.compare(Array.from({ length: 11 }, (_, i) => `base:${i}`)),
      api.compare(["base:1", "base-1"]),
      api.compare(["base:1", { id: -2, chain: "base" }]),
      api.mcpAttestation("no-slash"),
      api.riskTerms({ agentId: "x", chain: "base" }),
      api.reviewerAnalysis({ id: Number.NaN, chain: "base" }),
    ];
    for (const promise of invalid) expect(await failure(promise)).toBeInstanceOf(InvalidArgumentError);
    await expect(api.iterateAgents({ limit: 0 }).next()).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await failure(api.compare(["base:1", "bnbb:2"]))).toBeInstanceOf(UnknownChainError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("client: requests and responses", () => {
  it("trustCheck sends the slug of an alias or chain id, registry and threshold", async () => {
    const server = await serve(() => ({ json: trustCheckBody({ threshold: 50, pass: true }) }));
    const api = clientFor(server.url, createFakeClock());
    await api.trustCheck({ id: "0042", chain: "bsc", registry: "OLAS", threshold: 50 });
    await api.trustCheck({ id: 7n, chain: 8453 });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/api/trust-check?id=42&chain=bnb&registry=olas&threshold=50",
      "/api/trust-check?id=7&chain=base",
    ]);
  });

  it("trustCheckByWallet tells the found:false envelope from an agent", async () => {
    const wallet = `0x${"cd".repeat(20)}`;
    const server = await serve((i) =>
      i === 0
        ? { json: { found: false, wallet, attestation: attestation({ found: false, wallet, issuedAt: "2026-11-22T10:00:00.000Z" }) } }
        : { json: trustCheckBody({ owner: wallet }) },
    );
    const api = clientFor(server.url, createFakeClock());
    const none = await api.trustCheckByWallet(wallet);
    const some = await api.trustCheckByWallet(wallet);
    expect(isWalletNotFound(none)).toBe(true);
    expect(none).toMatchObject({ found: false, wallet });
    expect(isWalletNotFound(some)).toBe(false);
    expect(some).toMatchObject({ agentId: 1234, owner: wallet });
    expect(server.requests[0]!.url).toBe(`/api/trust-check?wallet=${wallet}`);
  });

  it("trustCheckByWallet reads an answer that carries only attestationV1 (v2 absent), and refuses one with neither", async () => {
    const wallet = `0x${"cd".repeat(20)}`;
    const v1 = { ...attestation({ agentId: 1234, chain: "base", score: 72 }), kid: "rnwy-trust-v1" };
    const { attestation: _v2, ...withoutV2 } = trustCheckBody({ owner: wallet });
    const server = await serve((i) => ({ json: i === 0 ? { ...withoutV2, attestationV1: v1 } : withoutV2 }));
    const api = clientFor(server.url, createFakeClock());
    const onlyV1 = await api.trustCheckByWallet(wallet);
    expect(isWalletNotFound(onlyV1)).toBe(false);
    expect(onlyV1).toMatchObject({ agentId: 1234, attestationV1: { kid: "rnwy-trust-v1" } });
    expect("attestation" in onlyV1).toBe(false);
    const neither = await failure(api.trustCheckByWallet(wallet));
    expect(neither).toBeInstanceOf(InvalidResponseError);
    expect(textOf(neither)).toContain("neither attestation nor attestationV1");
  });

  it("riskTerms POSTs the documented JSON body", async () => {
    const server = await serve(() => ({
      json: {
        recommendation: "terms",
        agent_id: 1234,
        chain: "base",
        registry: "erc8004",
        risk_tier: { level: 1, label: "low", description: "x", computed: true },
        signals: {},
        data_coverage: {},
        methodology: { version: "1.0.0", url: "https://x" },
      },
    }));
    const terms = await clientFor(server.url, createFakeClock()).riskTerms({ agentId: "1234", chain: "base-mainnet" });
    expect(terms.risk_tier.label).toBe("low");
    const [request] = server.requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/api/risk-terms");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request!.body)).toEqual({ agent_id: 1234, chain: "base", registry: "erc8004" });
  });

  it("compare, reviewer, entity, mcpAttestation, addressAge and walletScore send their documented parameters", async () => {
    const address = `0x${"ef".repeat(20)}`;
    const server = await serve((_, req) => {
      const path = req.url.split("?")[0];
      const bodies: Record<string, unknown> = {
        "/api/compare": {
          agents: [
            { agentId: 2, chain: "bnb", score: 80 },
            { agentId: 1, chain: "base", score: 60 },
          ],
          threshold: 70,
        },
        "/api/reviewer": { address, chain: "base", sweepPatterns: [], sybilSignals: [] },
        "/api/entity": { wallet: address, agents: [] },
        "/api/mcp-attestation": {
          canonical_id: "acme/tools",
          mcp_risk_score: 12,
          findings: [],
          attestation: attestation({ canonical_id: "acme/tools" }),
        },
        "/api/address-ages": { address, chain: "base", ageDays: 400 },
        "/api/wallet-score": { attestation: attestation({ wallet: address }) },
      };
      return { json: bodies[path!] };
    });
    const api = clientFor(server.url, createFakeClock());
    expect((await api.compare(["base:1", { id: 2, chain: 56 }], 70)).agents.map((a) => a.score)).toEqual([80, 60]);
    await api.reviewer({ address, chain: "base", summary: true });
    await api.entity(address);
    expect((await api.mcpAttestation("acme/tools")).mcp_risk_score).toBe(12);
    expect((await api.addressAge({ address, chain: "eth" })).ageDays).toBe(400);
    await api.walletScore(address);
    expect(server.requests.map((r) => decodeURIComponent(r.url))).toEqual([
      "/api/compare?agents=base:1,bnb:2&threshold=70",
      `/api/reviewer?address=${address}&chain=base&summary=true`,
      `/api/entity?wallet=${address}`,
      "/api/mcp-attestation?canonical_id=acme/tools",
      `/api/address-ages?address=${address}&chain=ethereum`,
      `/api/wallet-score?address=${address}`,
    ]);
  });

  it("iterateAgents follows nextCursor to the end, and refuses a repeating cursor", async () => {
    const item = (agentId: number) => ({ agentId, chain: "base", registry: "erc8004", score: 50 });
    const pages: Record<string, unknown> = {
      "": { agents: [item(1), item(2)], nextCursor: "c1", total: 5 },
      c1: { agents: [item(3), item(4)], nextCursor: "c2", total: 5 },
      c2: { agents: [item(5)], nextCursor: null, total: 5 },
    };
    const server = await serve((_, req) => ({ json: pages[new URL(req.url, "http://x").searchParams.get("cursor") ?? ""] }));
    const api = clientFor(server.url, createFakeClock());
    const ids: unknown[] = [];
    for await (const agent of api.iterateAgents({ chain: "base", limit: 2 })) ids.push(agent.agentId);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/api/agents?chain=base&limit=2",
      "/api/agents?chain=base&limit=2&cursor=c1",
      "/api/agents?chain=base&limit=2&cursor=c2",
    ]);

    const looping = await serve(() => ({ json: { agents: [item(1)], nextCursor: "same" } }));
    const seen: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const agent of clientFor(looping.url, createFakeClock()).iterateAgents()) seen.push(agent.agentId);
      })(),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(seen).toEqual([1, 1]);
  });
});

describe("MCP client: JSON-RPC errors and results", () => {
  const rpc = (id: unknown, payload: Record<string, unknown>) => ({ jsonrpc: "2.0", id, ...payload });

  it("a JSON-RPC error in a 200 response is an McpError with code, message and data", async () => {
    const server = await serve((_, req) => {
      const { id } = JSON.parse(req.body) as { id: number };
      return { json: rpc(id, { error: { code: -32601, message: "Method not found", data: { method: "nope" } } }) };
    });
    const mcp = createTrustMcpClient({ baseUrl: server.url, rateLimit: false });
    const error = (await failure(mcp.request("nope"))) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: "MCP_ERROR", rpcCode: -32601, rpcMessage: "Method not found", data: { method: "nope" } });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ jsonrpc: "2.0", id: 1, method: "nope" });
  });

  it("a JSON-RPC error in a 4xx body is an McpError too", async () => {
    const server = await serve(() => ({ status: 400, json: rpc(null, { error: { code: -32700, message: "Parse error" } }) }));
    const error = (await failure(createTrustMcpClient({ baseUrl: server.url, rateLimit: false }).listTools())) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.rpcCode).toBe(-32700);
    expect(error.cause).toBeInstanceOf(HttpRequestError);
  });

  it("a tool result flagged isError is an McpError without a JSON-RPC code", async () => {
    const server = await serve((_, req) => {
      const { id } = JSON.parse(req.body) as { id: number };
      return { json: rpc(id, { result: { content: [{ type: "text", text: "agent not found" }], isError: true } }) };
    });
    const error = (await failure(
      createTrustMcpClient({ baseUrl: server.url, rateLimit: false }).callTool("trust_check", { id: 1 }),
    )) as McpError;
    expect(error).toMatchObject({ rpcCode: undefined, rpcMessage: "agent not found" });
  });

  it("a response to another request id, or without jsonrpc 2.0, is an InvalidResponseError", async () => {
    const server = await serve((i) =>
      i === 0 ? { json: rpc(999, { result: { tools: [] } }) } : { json: { id: 2, result: { tools: [] } } },
    );
    const mcp = createTrustMcpClient({ baseUrl: server.url, rateLimit: false });
    expect(await failure(mcp.listTools())).toBeInstanceOf(InvalidResponseError);
    expect(await failure(mcp.listTools())).toBeInstanceOf(InvalidResponseError);
  });

  it("callTool parses the text content as JSON; trustCheck validates it as a trust-check body", async () => {
    const server = await serve((_, req) => {
      const { id, params } = JSON.parse(req.body) as { id: number; params: { name: string } };
      const text = params.name === "trust_check" ? JSON.stringify(trustCheckBody({ score: 99 })) : "plain words";
      return { json: rpc(id, { result: { content: [{ type: "text", text }] } }) };
    });
    const mcp = createTrustMcpClient({ baseUrl: server.url, rateLimit: false });
    expect((await mcp.callTool("echo")).data).toBe("plain words");
    expect((await mcp.trustCheck({ id: "5", chain: "bsc" })).score).toBe(99);
    expect(JSON.parse(server.requests[1]!.body).params).toEqual({ name: "trust_check", arguments: { id: 5, chain: "bnb" } });
    await expect(mcp.trustCheck({ id: 1, chain: "nowhere" })).rejects.toBeInstanceOf(UnknownChainError);
    expect(server.requests).toHaveLength(2);
  });
});
