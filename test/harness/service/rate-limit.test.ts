import { afterEach, describe, expect, it } from "vitest";
import { createPopulation, type RunningTrustService, startTrustService } from "../../../src/harness/service/index.js";
import { parseRateLimitHeaders } from "../../../src/api/rate-limit-headers.js";
import { SlidingWindowRateLimiter } from "../../../src/harness/service/rate-limit.js";
import { getJson, postJson } from "./support.js";

const population = createPopulation({ seed: 2, size: 50 });
let service: RunningTrustService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A clock the test moves by hand. */
function manualClock(start = "2026-11-22T10:00:00.000Z"): { now: () => Date; advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

describe("rate limit", () => {
  it("answers the 31st anonymous request in a minute with 429, Retry-After and the error body", async () => {
    const clock = manualClock();
    service = await startTrustService({ population, now: clock.now });
    for (let i = 1; i <= 30; i++) {
      const res = await getJson(`${service.url}/api/stats`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("30");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(30 - i));
      clock.advance(1000);
    }
    const refused = await getJson(`${service.url}/api/agents`);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate-limited");
    const retryAfter = refused.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    // The first request was at t=0 and the clock is at t=30 s: it leaves the window 30 s from now.
    expect(Number(retryAfter)).toBe(30);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(service.stats().rateLimited).toBe(1);
  });

  it("resets as the window slides on the injected clock", async () => {
    const clock = manualClock();
    service = await startTrustService({ population, now: clock.now, rateLimit: { anonymousPerMinute: 3, keyedPerMinute: 10 } });
    for (let i = 0; i < 3; i++) expect((await getJson(`${service.url}/api/stats`)).status).toBe(200);
    const refused = await getJson(`${service.url}/api/stats`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    clock.advance(59_000);
    expect((await getJson(`${service.url}/api/stats`)).status).toBe(429);
    clock.advance(1_000);
    const again = await getJson(`${service.url}/api/stats`);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it("gives a Bearer key its own, higher limit", async () => {
    service = await startTrustService({ population, rateLimit: { anonymousPerMinute: 2, keyedPerMinute: 5 } });
    for (let i = 0; i < 2; i++) await getJson(`${service.url}/api/stats`);
    expect((await getJson(`${service.url}/api/stats`)).status).toBe(429);
    const auth = { headers: { Authorization: "Bearer key-one" } };
    for (let i = 1; i <= 5; i++) {
      const res = await getJson(`${service.url}/api/stats`, auth);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("5");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(5 - i));
    }
    expect((await getJson(`${service.url}/api/stats`, auth)).status).toBe(429);
    // Another key has its own window.
    expect((await getJson(`${service.url}/api/stats`, { headers: { Authorization: "Bearer key-two" } })).status).toBe(200);
  });

  it("uses the default 300/minute for keys", async () => {
    service = await startTrustService({ population });
    const res = await getJson(`${service.url}/api/stats`, { headers: { Authorization: "Bearer anything" } });
    expect(res.headers.get("x-ratelimit-limit")).toBe("300");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("299");
  });

  it("treats a key outside apiKeys as anonymous", async () => {
    service = await startTrustService({ population, rateLimit: { anonymousPerMinute: 4, keyedPerMinute: 40, apiKeys: ["good"] } });
    const unknown = await getJson(`${service.url}/api/stats`, { headers: { Authorization: "Bearer bad" } });
    expect(unknown.headers.get("x-ratelimit-limit")).toBe("4");
    const known = await getJson(`${service.url}/api/stats`, { headers: { Authorization: "Bearer good" } });
    expect(known.headers.get("x-ratelimit-limit")).toBe("40");
  });

  it("carries the headers on error answers and on the JWKS without counting the JWKS", async () => {
    service = await startTrustService({ population, rateLimit: { anonymousPerMinute: 5, keyedPerMinute: 50 } });
    const missing = await getJson(`${service.url}/api/trust-check?id=x&chain=base`);
    expect(missing.status).toBe(400);
    expect(missing.headers.get("x-ratelimit-remaining")).toBe("4");
    const jwks = await getJson(`${service.url}/.well-known/jwks.json`);
    expect(jwks.headers.get("x-ratelimit-limit")).toBe("5");
    expect(jwks.headers.get("x-ratelimit-remaining")).toBe("4");
    expect((await getJson(`${service.url}/api/stats`)).headers.get("x-ratelimit-remaining")).toBe("3");
  });

  it("announces its configured limits on every answer: each path's own, anonymous and keyed, in every header form", async () => {
    const clock = manualClock();
    service = await startTrustService({
      population,
      now: clock.now,
      rateLimit: { anonymousPerMinute: 7, keyedPerMinute: 70, riskTerms: { anonymousPerMinute: 2, keyedPerMinute: 20 } },
    });
    const key = { Authorization: "Bearer some-key" };
    const announced = (res: { headers: Headers }) => parseRateLimitHeaders(res.headers, { now: clock.now().getTime() });

    const anonymous = await getJson(`${service.url}/api/stats`);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBe("7");
    expect(anonymous.headers.get("x-ratelimit-remaining")).toBe("6");
    expect(anonymous.headers.get("x-ratelimit-reset")).toBe("60");
    expect(anonymous.headers.get("ratelimit-policy")).toBe('"default";q=7;w=60');
    expect(anonymous.headers.get("ratelimit")).toBe('"default";r=6;t=60');
    expect(announced(anonymous)).toEqual({ limit: 7, windowMs: 60_000, remaining: 6, resetMs: 60_000 });

    clock.advance(20_000);
    const keyed = await getJson(`${service.url}/api/agents?limit=1`, { headers: key });
    expect(announced(keyed)).toEqual({ limit: 70, windowMs: 60_000, remaining: 69, resetMs: 60_000 });
    // The anonymous window's oldest request leaves it 40 s from now.
    const again = await getJson(`${service.url}/api/stats`);
    expect(announced(again)).toEqual({ limit: 7, windowMs: 60_000, remaining: 5, resetMs: 40_000 });

    const agent = population.agents.find((a) => a.registry === "erc8004")!;
    const terms = await postJson(`${service.url}/api/risk-terms`, { agent_id: agent.agentId, chain: agent.chain });
    expect(terms.status).toBe(200);
    expect(terms.headers.get("ratelimit-policy")).toBe('"risk-terms";q=2;w=60');
    expect(announced(terms)).toEqual({ limit: 2, windowMs: 60_000, remaining: 1, resetMs: 60_000 });
    expect(terms.body.auth).toEqual({ status: "anonymous", limit: "2/min" });
    const keyedTerms = await postJson(`${service.url}/api/risk-terms`, { agent_id: agent.agentId, chain: agent.chain }, key);
    expect(announced(keyedTerms)).toMatchObject({ limit: 20, remaining: 19 });
    expect(keyedTerms.body.auth).toEqual({ status: "authenticated", limit: "20/min" });

    // A refusal announces the same limit, nothing remaining, and a reset equal to its Retry-After.
    await postJson(`${service.url}/api/risk-terms`, { agent_id: agent.agentId, chain: agent.chain });
    const refused = await postJson(`${service.url}/api/risk-terms`, { agent_id: agent.agentId, chain: agent.chain });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(announced(refused)).toEqual({ limit: 2, windowMs: 60_000, remaining: 0, resetMs: 60_000 });
    // Paths outside /api/ are not counted, but still announce (the JWKS), with nothing used: no reset pending.
    const fresh = await getJson(`${service.url}/.well-known/jwks.json`, { headers: { Authorization: "Bearer other-key" } });
    expect(announced(fresh)).toEqual({ limit: 70, windowMs: 60_000, remaining: 70, resetMs: 0 });
  });

  it("can be disabled", async () => {
    service = await startTrustService({ population, rateLimit: false });
    for (let i = 0; i < 40; i++) expect((await getJson(`${service.url}/api/stats`)).status).toBe(200);
    expect((await getJson(`${service.url}/api/stats`)).headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("rejects a non-positive limit", () => {
    expect(() => new SlidingWindowRateLimiter({ anonymousPerMinute: 0, keyedPerMinute: 1 })).toThrow(/anonymousPerMinute/);
  });
});
