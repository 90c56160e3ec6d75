/**
 * The API client and the MCP client against the kit's local signing service: every endpoint returns
 * validated data consistent with the population served, the listing is walked completely, and the
 * service's injected faults (429, 500, malformed JSON, dropped connection, slowness) come out as the
 * documented behaviour. The service and the client share one simulated clock, so a `Retry-After` wait
 * moves both on at once and no test depends on wall-clock time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrustApiClient, isWalletNotFound } from "../../src/api/client.js";
import { createTrustMcpClient } from "../../src/api/mcp.js";
import type { TrustApiClientParameters } from "../../src/api/options.js";
import { chainIdOf } from "../../src/config/chains.js";
import { MCP_ATTESTATION_KID } from "../../src/config/service.js";
import {
  HttpRequestError,
  InvalidResponseError,
  McpError,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  TrustgateError,
} from "../../src/errors.js";
import { agentKey, createPopulation, type PopulationAgent, startTrustService } from "../../src/harness/service/index.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";

type Service = Awaited<ReturnType<typeof startTrustService>>;

const population = createPopulation({ seed: 7, size: 300 });
let service: Service;

beforeAll(async () => {
  service = await startTrustService({ port: 0, population, rateLimit: false });
});
afterAll(async () => {
  await service?.close();
});

function clientFor(clock: FakeClock = createFakeClock(), options: TrustApiClientParameters = {}) {
  return createTrustApiClient({ baseUrl: service.url, now: clock.now, sleep: clock.sleep, random: () => 0.5, ...options });
}

async function failure(promise: Promise<unknown>): Promise<TrustgateError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "expected a rejection").toBeInstanceOf(TrustgateError);
  return outcome as TrustgateError;
}

/** An agent with the given property, deterministic for the seed. */
function agentWhere(predicate: (a: PopulationAgent) => boolean): PopulationAgent {
  const agent = population.agents.find(predicate);
  if (!agent) throw new Error("no agent in the population matches");
  return agent;
}

/** An owner with several agents. */
function busyOwner(): `0x${string}` {
  const counts = new Map<string, number>();
  for (const a of population.agents) counts.set(a.owner, (counts.get(a.owner) ?? 0) + 1);
  const [owner] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return owner as `0x${string}`;
}

describe("local service: every endpoint, validated and consistent with the population", () => {
  it("trustCheck returns the agent's data with a v2 attestation from the service's issuer", async () => {
    const api = clientFor();
    const agent = agentWhere((a) => a.chain === "bnb" && a.score >= 51);
    const body = await api.trustCheck({ id: agent.agentId, chain: "bsc", registry: agent.registry, threshold: agent.score });
    expect(body).toMatchObject({
      agentId: agent.agentId,
      chain: "bnb",
      registry: agent.registry,
      score: agent.score,
      tier: agent.tier,
      sybilSeverity: agent.sybilSeverity === "none" ? null : agent.sybilSeverity,
      owner: agent.owner,
      threshold: agent.score,
      pass: true,
    });
    expect(body.attestation).toMatchObject({ issuer: service.issuer, kid: "rnwy-trust-v2", alg: "ES256", type: "behavioral_trust" });
    expect(body.attestation!.signed).toMatchObject({ agentId: String(agent.agentId), score: agent.score, tier: agent.tier });
    expect(body.attestation!.jws?.split(".")).toHaveLength(3);
    expect(Buffer.from(body.attestation!.sig!, "base64")).toHaveLength(64);

    const byChainId = await api.trustCheck({
      id: agent.agentId,
      chain: chainIdOf("bnb"),
      registry: agent.registry,
      threshold: agent.score + 1,
    });
    expect(byChainId.pass).toBe(false);
  });

  it("trustCheck of an unknown agent is an HttpRequestError 404 with the service's error code", async () => {
    const error = await failure(clientFor().trustCheck({ id: 9_999_999, chain: "base" }));
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(error).toMatchObject({ status: 404, errorCode: "not-found", attempts: 1 });
  });

  it("trustCheckByWallet returns the owner's best agent, and the signed found:false envelope for a stranger", async () => {
    const api = clientFor();
    const owner = busyOwner();
    const best = Math.max(...population.byOwner(owner).map((a) => a.score));
    const found = await api.trustCheckByWallet(owner.toUpperCase().replace("0X", "0x"));
    expect(isWalletNotFound(found)).toBe(false);
    expect(found).toMatchObject({ owner, score: best });

    const stranger = `0x${"00".repeat(19)}01`;
    const none = await api.trustCheckByWallet(stranger);
    expect(isWalletNotFound(none)).toBe(true);
    expect(none).toMatchObject({ found: false, wallet: stranger, attestation: { signed: { found: false, wallet: stranger } } });
  });

  it("agents returns a page in listing order with the total", async () => {
    const page = await clientFor().agents({ limit: 10 });
    const expected = population.sorted().slice(0, 10);
    expect(page.agents.map((a) => [a.chain, a.registry, a.agentId, a.score, a.tier])).toEqual(
      expected.map((a) => [a.chain, a.registry, a.agentId, a.score, a.tier]),
    );
    expect(page.total).toBe(population.size);
    expect(typeof page.nextCursor).toBe("string");
  });

  it("iterateAgents walks the whole listing, every agent exactly once, in order", async () => {
    const api = clientFor();
    const before = service.stats().byPath["/api/agents"] ?? 0;
    const keys: string[] = [];
    for await (const agent of api.iterateAgents({ limit: 37 })) {
      keys.push(agentKey({ chain: agent.chain, registry: agent.registry!, agentId: Number(agent.agentId) }));
    }
    expect(keys).toHaveLength(population.size);
    expect(new Set(keys).size).toBe(population.size);
    expect(keys).toEqual(population.sorted().map(agentKey));
    expect((service.stats().byPath["/api/agents"] ?? 0) - before).toBe(Math.ceil(population.size / 37));

    const onBase: unknown[] = [];
    for await (const agent of api.iterateAgents({ chain: "base", registry: "erc8004", limit: 1000 })) onBase.push(agent.agentId);
    expect(onBase).toEqual(
      population
        .sorted()
        .filter((a) => a.chain === "base" && a.registry === "erc8004")
        .map((a) => a.agentId),
    );
  });

  it("explorer filters by minimum score and tier", async () => {
    const api = clientFor();
    const strong = await api.explorer({ minScore: 75, limit: 1000 });
    const expected = population.agents.filter((a) => a.score >= 75);
    expect(strong.total).toBe(expected.length);
    expect(strong.agents).toHaveLength(expected.length);
    expect(strong.agents.every((a) => a.score >= 75)).toBe(true);
    const limited = await api.explorer({ chain: "base", tier: "limited", limit: 5 });
    expect(limited.agents.length).toBeGreaterThan(0);
    expect(limited.agents.every((a) => a.chain === "base" && a.tier === "limited")).toBe(true);
  });

  it("stats counts the population", async () => {
    const stats = await clientFor().stats();
    expect(stats.totalAgents).toBe(population.size);
    expect(Object.values(stats.byChain ?? {}).reduce((s, n) => s + n, 0)).toBe(population.size);
    expect(stats.chains).toBe(new Set(population.agents.map((a) => a.chain)).size);
  });

  it("reviewerAnalysis describes the agent's reviewers", async () => {
    const agent = agentWhere((a) => a.registry === "erc8004" && a.feedbackCount >= 5);
    const analysis = await clientFor().reviewerAnalysis({ id: agent.agentId, chain: agent.chain });
    expect(analysis).toMatchObject({ agentId: agent.agentId, chain: agent.chain });
    const reviewers = analysis.reviewers ?? [];
    expect(reviewers.length).toBeGreaterThan(0);
    expect(reviewers.length).toBeLessThanOrEqual(agent.feedbackCount);
    expect(analysis.uniqueReviewers).toBe(reviewers.length);
    expect(analysis.totalReviews).toBe(agent.feedbackCount);
  });

  it("compare ranks the agents by score with pass against the threshold", async () => {
    const picks = population.agents.filter((a) => a.registry === "erc8004").slice(0, 4);
    const result = await clientFor().compare(
      picks.map((a) => ({ id: a.agentId, chain: a.chain })),
      50,
    );
    expect(result.threshold).toBe(50);
    expect(result.agents.map((a) => a.score)).toEqual(picks.map((a) => a.score).sort((x, y) => y - x));
    for (const row of result.agents) {
      const agent = picks.find((a) => a.agentId === row.agentId && a.chain === row.chain)!;
      expect(row).toMatchObject({ score: agent.score, tier: agent.tier, pass: agent.score >= 50 });
    }
  });

  it("reviewer, entity, addressAge and walletScore answer for a wallet", async () => {
    const api = clientFor();
    const owner = busyOwner();
    const reviewer = await api.reviewer({ address: owner, chain: "base" });
    expect(reviewer).toMatchObject({ address: owner, chain: "base", chain_id: 8453 });

    const entity = await api.entity(owner);
    expect(entity.wallet).toBe(owner);
    expect(
      entity.agents.map((a) => agentKey({ chain: String(a.chain), registry: String(a.registry), agentId: Number(a.agentId) })).sort(),
    ).toEqual(population.byOwner(owner).map(agentKey).sort());

    const age = await api.addressAge({ address: owner, chain: population.byOwner(owner)[0]!.chain });
    expect(age.ageDays).toBeGreaterThanOrEqual(0);

    const score = await api.walletScore(owner);
    expect(score.attestation).toMatchObject({ kid: "rnwy-wallet-v1", type: "wallet_intelligence", signed: null });
    const claims = JSON.parse(Buffer.from(score.attestation.sig!.split(".")[1]!, "base64url").toString("utf8"));
    expect(claims).toMatchObject({ wallet: owner, signalDepth: score.signalDepth, riskIntensity: score.riskIntensity });
  });

  it("mcpAttestation is signed with the MCP key", async () => {
    const body = await clientFor().mcpAttestation("acme/trade-tools");
    expect(body.canonical_id).toBe("acme/trade-tools");
    expect(body.mcp_risk_score).toBeGreaterThanOrEqual(0);
    expect(body.attestation).toMatchObject({
      kid: MCP_ATTESTATION_KID,
      signed: { canonical_id: "acme/trade-tools", mcp_risk_score: body.mcp_risk_score },
    });
    const server = await clientFor().mcpServerAttestation("acme/trade-tools");
    expect(server).toMatchObject({ server: "acme/trade-tools", riskScore: body.mcp_risk_score });
  });

  it("riskTerms POSTs and returns the agent's risk tier and signals", async () => {
    const agent = agentWhere((a) => a.registry === "olas");
    const terms = await clientFor().riskTerms({ agentId: agent.agentId, chain: agent.chain, registry: "olas" });
    expect(terms).toMatchObject({ agent_id: agent.agentId, chain: agent.chain, registry: "olas" });
    expect(["low", "moderate", "elevated", "high", "severe", "critical"]).toContain(terms.risk_tier.label);
    expect(terms.signals).toMatchObject({ trust_score: agent.feedbackCount === 0 && agent.ageDays === 0 ? null : agent.score });
  });
});

describe("local service: rate limits", () => {
  it("a 429 from the service's own limit is waited out (Retry-After on the shared clock), then succeeds", async () => {
    const clock = createFakeClock();
    const limited = await startTrustService({
      port: 0,
      population,
      rateLimit: { anonymousPerMinute: 3, keyedPerMinute: 5 },
      now: () => new Date(clock.now()),
    });
    try {
      const api = createTrustApiClient({ baseUrl: limited.url, rateLimit: false, now: clock.now, sleep: clock.sleep });
      for (let i = 0; i < 4; i++) expect((await api.stats()).totalAgents).toBe(population.size);
      expect(limited.stats().rateLimited).toBe(1);
      expect(clock.sleeps).toEqual([60_000]);

      // With a key the service allows 5 and says so in its headers.
      const keyed = createTrustApiClient({
        baseUrl: limited.url,
        apiKey: "test-key",
        rateLimit: false,
        now: clock.now,
        sleep: clock.sleep,
      });
      const response = await keyed.transport.request({ path: "/api/stats" });
      expect(response.rateLimit).toEqual({ limit: 5, windowMs: 60_000, remaining: 4, resetMs: 60_000 });
    } finally {
      await limited.close();
    }
  });

  it("the client-side limiter at the service's limit avoids 429s altogether", async () => {
    const clock = createFakeClock();
    const limited = await startTrustService({
      port: 0,
      population,
      rateLimit: { anonymousPerMinute: 3, keyedPerMinute: 5 },
      now: () => new Date(clock.now()),
    });
    try {
      const api = createTrustApiClient({ baseUrl: limited.url, rateLimit: 3, now: clock.now, sleep: clock.sleep });
      // One after another: with a simulated clock, a wait that jumps the clock while earlier requests are
      // still in flight would make the service date them later than they were sent.
      for (let i = 0; i < 10; i++) await api.stats();
      expect(limited.stats()).toMatchObject({ requests: 10, rateLimited: 0 });
      expect(clock.sleeps).toEqual([60_000, 60_000, 60_000]);
    } finally {
      await limited.close();
    }
  });

  it("a client with the default limiter follows the service's announced lower limit: no 429 at all", async () => {
    const clock = createFakeClock();
    const limited = await startTrustService({
      port: 0,
      population,
      rateLimit: { anonymousPerMinute: 3, keyedPerMinute: 5 },
      now: () => new Date(clock.now()),
    });
    try {
      const api = createTrustApiClient({ baseUrl: limited.url, now: clock.now, sleep: clock.sleep });
      expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 30, source: "default" });
      for (let i = 0; i < 10; i++) await api.stats();
      expect(limited.stats()).toMatchObject({ requests: 10, rateLimited: 0 });
      expect(clock.sleeps).toEqual([60_000, 60_000, 60_000]);
      expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 3, source: "announced", announced: { limit: 3, windowMs: 60_000 } });
    } finally {
      await limited.close();
    }
  });

  it("… and its announced higher limit: 45 requests in the first minute, where 30 were assumed", async () => {
    const clock = createFakeClock();
    const generous = await startTrustService({
      port: 0,
      population,
      rateLimit: { anonymousPerMinute: 45, keyedPerMinute: 450 },
      now: () => new Date(clock.now()),
    });
    try {
      const api = createTrustApiClient({ baseUrl: generous.url, now: clock.now, sleep: clock.sleep });
      for (let i = 0; i < 46; i++) await api.stats();
      expect(clock.sleeps).toEqual([60_000]);
      expect(generous.stats()).toMatchObject({ requests: 46, rateLimited: 0 });
      expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 45, perMinute: 45, source: "announced" });
    } finally {
      await generous.close();
    }
  });

  it("risk-terms' own announced limit paces risk-terms alone; the other paths keep theirs", async () => {
    const clock = createFakeClock();
    const limited = await startTrustService({
      port: 0,
      population,
      rateLimit: { anonymousPerMinute: 30, keyedPerMinute: 40, riskTerms: { anonymousPerMinute: 1, keyedPerMinute: 2 } },
      now: () => new Date(clock.now()),
    });
    try {
      const api = createTrustApiClient({ baseUrl: limited.url, apiKey: "test-key", now: clock.now, sleep: clock.sleep });
      const agent = agentWhere((a) => a.registry === "erc8004");
      for (let i = 0; i < 3; i++) {
        const terms = await api.riskTerms({ agentId: agent.agentId, chain: agent.chain });
        // The body names the caller's actual limit too.
        expect((terms as { auth?: unknown }).auth).toEqual({ status: "authenticated", limit: "2/min" });
      }
      expect(clock.sleeps).toEqual([60_000]);
      for (let i = 0; i < 5; i++) await api.stats();
      expect(clock.sleeps).toEqual([60_000]);
      expect(limited.stats().rateLimited).toBe(0);
      expect(api.transport.rateLimiterFor("/api/risk-terms")!.rate()).toMatchObject({ limit: 2, source: "announced" });
      expect(api.transport.rateLimiter!.rate()).toMatchObject({ limit: 40, source: "announced" });
    } finally {
      await limited.close();
    }
  });

  it("an injected rate-limit fault is retried after its Retry-After", async () => {
    service.injectFault({ kind: "rate-limit", path: "/api/stats", times: 2, retryAfterSeconds: 4 });
    const clock = createFakeClock();
    try {
      expect((await clientFor(clock).stats()).totalAgents).toBe(population.size);
      expect(clock.sleeps).toEqual([4_000, 4_000]);
    } finally {
      service.clearFaults();
    }
  });

  it("a rate-limit fault that persists ends in RateLimitedError", async () => {
    service.injectFault({ kind: "rate-limit", path: "/api/stats" });
    try {
      const error = await failure(clientFor(createFakeClock(), { retries: { rateLimitRetries: 1 } }).stats());
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ status: 429, errorCode: "rate-limited", attempts: 2, retryAfterMs: 1_000 });
    } finally {
      service.clearFaults();
    }
  });
});

describe("local service: faults", () => {
  it("a 500 fault is retried and the request succeeds", async () => {
    const agent = population.agents[0]!;
    service.injectFault({ kind: "status-500", path: "/api/trust-check", times: 2 });
    const before = service.stats().byPath["/api/trust-check"] ?? 0;
    const clock = createFakeClock();
    try {
      const body = await clientFor(clock).trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
      expect(body.score).toBe(agent.score);
      expect((service.stats().byPath["/api/trust-check"] ?? 0) - before).toBe(3);
      expect(clock.sleeps).toEqual([125, 250]);
    } finally {
      service.clearFaults();
    }
  });

  it("a persistent 500 ends in HttpRequestError after the allowed retries", async () => {
    service.injectFault({ kind: "status-500", path: "/api/stats" });
    try {
      const error = await failure(clientFor(createFakeClock(), { retries: 2 }).stats());
      expect(error).toBeInstanceOf(HttpRequestError);
      expect(error).toMatchObject({ status: 500, errorCode: "internal", attempts: 3 });
    } finally {
      service.clearFaults();
    }
  });

  it("a malformed-JSON fault is an InvalidResponseError", async () => {
    service.injectFault({ kind: "malformed-json", path: "/api/stats", times: 1 });
    try {
      const error = await failure(clientFor().stats());
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.shortMessage).toContain("not JSON");
    } finally {
      service.clearFaults();
    }
  });

  it("a dropped connection is retried; when it persists it is a NetworkError", async () => {
    service.injectFault({ kind: "drop-connection", path: "/api/stats", times: 1 });
    try {
      expect((await clientFor().stats()).totalAgents).toBe(population.size);
      service.injectFault({ kind: "drop-connection", path: "/api/stats" });
      const error = await failure(clientFor(createFakeClock(), { retries: 1 }).stats());
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ attempts: 2 });
    } finally {
      service.clearFaults();
    }
  });

  it("a slow answer past the time limit is a TimeoutError", async () => {
    service.injectFault({ kind: "slow", path: "/api/stats", delayMs: 5_000 });
    try {
      const error = await failure(clientFor(createFakeClock(), { timeoutMs: 150, retries: 0 }).stats());
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeoutMs: 150 });
    } finally {
      service.clearFaults();
    }
  });
});

describe("local service: MCP", () => {
  it("initialize, tools/list, and tools/call trust_check and network_stats", async () => {
    const mcp = createTrustMcpClient({ baseUrl: service.url, rateLimit: false });
    const before = service.stats().byPath["/api/mcp"] ?? 0;
    const init = await mcp.initialize();
    expect(init.protocolVersion).toBe("2025-06-18");
    expect(init.serverInfo.name).toEqual(expect.any(String));
    expect(init.capabilities).toHaveProperty("tools");
    // initialize and the notifications/initialized notification (answered 202 without a body).
    expect((service.stats().byPath["/api/mcp"] ?? 0) - before).toBe(2);

    const tools = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["trust_check", "network_stats", "compare_agents", "address_age"]));

    const agent = agentWhere((a) => a.chain === "ethereum" && a.registry === "erc8004");
    const body = await mcp.trustCheck({ id: agent.agentId, chain: "eth" });
    expect(body).toMatchObject({ agentId: agent.agentId, chain: "ethereum", score: agent.score, tier: agent.tier });
    expect(body.attestation!.kid).toBe("rnwy-trust-v2");

    expect((await mcp.networkStats()).totalAgents).toBe(population.size);
    const raw = await mcp.callTool("network_stats");
    expect(raw.content[0]).toMatchObject({ type: "text" });
    expect(raw.data).toMatchObject({ totalAgents: population.size });
  });

  it("JSON-RPC errors become McpError: unknown method, unknown tool; a failed look-up is a tool error", async () => {
    const api = clientFor();
    const method = (await failure(api.mcp.request("resources/list"))) as McpError;
    expect(method).toBeInstanceOf(McpError);
    expect(method.rpcCode).toBe(-32601);

    const tool = (await failure(api.mcp.callTool("no_such_tool", {}))) as McpError;
    expect(tool).toMatchObject({ rpcCode: -32602 });
    expect(tool.rpcMessage).toContain("no_such_tool");

    const lookup = (await failure(api.mcp.trustCheck({ id: 9_999_999, chain: "base" }))) as McpError;
    expect(lookup).toBeInstanceOf(McpError);
    expect(lookup.rpcCode).toBeUndefined();
    expect(lookup.rpcMessage).toContain("not-found");
  });

  it("an MCP request goes through the same transport: a 500 fault on /api/mcp is retried", async () => {
    service.injectFault({ kind: "status-500", path: "/api/mcp", times: 1 });
    const clock = createFakeClock();
    try {
      const mcp = createTrustMcpClient({ baseUrl: service.url, now: clock.now, sleep: clock.sleep, random: () => 0.5 });
      expect((await mcp.networkStats()).totalAgents).toBe(population.size);
      expect(clock.sleeps).toEqual([125]);
    } finally {
      service.clearFaults();
    }
  });
});
