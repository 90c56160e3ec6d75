import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJwksResolver, verifyMcpAttestation } from "../../../src/attestation/verify.js";
import { agentKey, createPopulation, type RunningTrustService, startTrustService } from "../../../src/harness/service/index.js";
import { fetchJwks, getJson, type JsonResult, postJson, type ServedAttestation, verifyJws, verifySig } from "./support.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
let service: RunningTrustService;
let jwks: JSONWebKeySet;

beforeAll(async () => {
  service = await startTrustService({ population: createPopulation({ seed: 33, size: 200 }), rateLimit: false, now: () => NOW });
  jwks = await fetchJwks(service.url);
});
afterAll(() => service.close());

const sortedKeys = (): string[] => service.population.sorted().map(agentKey);

async function listAll(query: string, limit: number): Promise<{ keys: string[]; pages: number; totals: number[] }> {
  const keys: string[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: JsonResult = await getJson(`${service.url}/api/agents?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status).toBe(200);
    expect(res.body.agents.length).toBeLessThanOrEqual(limit);
    keys.push(...res.body.agents.map(agentKey));
    totals.push(res.body.total);
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor !== null && pages < 100);
  return { keys, pages, totals };
}

describe("GET /api/agents", () => {
  it("pages through every agent exactly once, in (chain, registry, agentId) order", async () => {
    const { keys, pages, totals } = await listAll("", 37);
    expect(keys).toHaveLength(200);
    expect(new Set(keys).size).toBe(200);
    expect(keys).toEqual(sortedKeys());
    expect(pages).toBe(Math.ceil(200 / 37));
    expect(new Set(totals)).toEqual(new Set([200]));
  });

  it("filters by chain (alias accepted) and registry", async () => {
    const expected = service.population
      .sorted()
      .filter((a) => a.chain === "bnb")
      .map(agentKey);
    const { keys, totals } = await listAll("&chain=bsc", 10);
    expect(keys).toEqual(expected);
    expect(totals[0]).toBe(expected.length);
    const olas = await getJson(`${service.url}/api/agents?registry=olas&limit=1000`);
    expect(olas.body.agents.length).toBe(service.population.agents.filter((a) => a.registry === "olas").length);
    expect(olas.body.agents.every((a: { registry: string }) => a.registry === "olas")).toBe(true);
    expect(olas.body.nextCursor).toBeNull();
  });

  it("serves the documented item shape and the default page size", async () => {
    const res = await getJson(`${service.url}/api/agents`);
    expect(res.body.agents).toHaveLength(100);
    const first = service.population.sorted()[0]!;
    expect(res.body.agents[0]).toEqual({
      agentId: first.agentId,
      chain: first.chain,
      registry: first.registry,
      name: first.name,
      score: first.score,
      tier: first.tier,
      sybilSeverity: first.sybilSeverity === "none" ? null : first.sybilSeverity,
      updatedAt: first.updatedAt.toISOString(),
    });
    expect(typeof res.body.nextCursor).toBe("string");
  });

  it.each(["limit=0", "limit=1001", "limit=ten", "cursor=!!!", `cursor=${Buffer.from("[1,2]").toString("base64url")}`, "chain=atlantis"])(
    "answers 400 for %s",
    async (query) => {
      const res = await getJson(`${service.url}/api/agents?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("bad-request");
    },
  );
});

describe("GET /api/explorer", () => {
  it("filters by chain, minimum score and tier, ranked by score", async () => {
    const res = await getJson(`${service.url}/api/explorer?chain=base&minScore=60&limit=1000`);
    const expected = service.population.agents.filter((a) => a.chain === "base" && a.score >= 60);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(expected.length);
    const scores = res.body.agents.map((a: { score: number }) => a.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.body.agents.every((a: { chain: string; score: number }) => a.chain === "base" && a.score >= 60)).toBe(true);

    const established = await getJson(`${service.url}/api/explorer?tier=established&limit=3`);
    expect(established.body.agents).toHaveLength(3);
    expect(established.body.total).toBe(service.population.agents.filter((a) => a.tier === "established").length);
  });

  it("searches by name and by owner", async () => {
    const agent = service.population.agents[7]!;
    const word = agent.name.split(" ")[0]!.toLowerCase();
    const byName = await getJson(`${service.url}/api/explorer?q=${encodeURIComponent(word)}&limit=1000`);
    expect(byName.body.agents.some((a: { name: string }) => a.name === agent.name)).toBe(true);
    expect(byName.body.agents.every((a: { name: string }) => a.name.toLowerCase().includes(word))).toBe(true);
    const byOwner = await getJson(`${service.url}/api/explorer?q=${agent.owner}&limit=1000`);
    expect(byOwner.body.total).toBe(service.population.byOwner(agent.owner).length);
  });

  it("answers 400 for a bad tier or minScore", async () => {
    expect((await getJson(`${service.url}/api/explorer?tier=gold`)).status).toBe(400);
    expect((await getJson(`${service.url}/api/explorer?minScore=-3`)).status).toBe(400);
  });
});

describe("GET /api/stats", () => {
  it("counts agents by chain and registry", async () => {
    const res = await getJson(`${service.url}/api/stats`);
    expect(res.status).toBe(200);
    const byChain: Record<string, number> = {};
    for (const a of service.population.agents) byChain[a.chain] = (byChain[a.chain] ?? 0) + 1;
    expect(res.body).toMatchObject({
      totalAgents: 200,
      chains: Object.keys(byChain).length,
      registrations: 200,
      byChain,
      updatedAt: service.population.at.toISOString(),
    });
    expect(res.body.byRegistry.erc8004 + res.body.byRegistry.olas).toBe(200);
  });
});

describe("GET /api/reviewer-analysis", () => {
  it("lists the agent's reviewers most suspicious first, with age buckets, flags and funder clusters", async () => {
    const agent = [...service.population.agents].sort((a, b) => b.feedbackCount - a.feedbackCount)[0]!;
    const res = await getJson(`${service.url}/api/reviewer-analysis?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agentId: agent.agentId, chain: agent.chain, totalReviews: agent.feedbackCount });
    const reviewers = res.body.reviewers as {
      address: string;
      ageAtReviewDays: number;
      currentAgeDays: number;
      classification: string;
      sybilFlags: string[];
      funder: string;
      suspicion: number;
    }[];
    expect(reviewers.length).toBeGreaterThan(0);
    expect(reviewers.length).toBeLessThanOrEqual(agent.feedbackCount);
    expect(res.body.uniqueReviewers).toBe(reviewers.length);
    const suspicion = reviewers.map((r) => r.suspicion);
    expect(suspicion).toEqual([...suspicion].sort((a, b) => b - a));
    for (const r of reviewers) {
      expect(r.address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(r.ageAtReviewDays).toBeLessThanOrEqual(r.currentAgeDays);
      expect(r.classification).toMatch(/^[a-z_]+$/);
    }
    const { noHistory, ...buckets } = res.body.distribution as Record<string, number>;
    expect(Object.values(buckets).reduce((s, n) => s + n, 0)).toBe(reviewers.length);
    expect(noHistory).toBeLessThanOrEqual(buckets.sameDay!);
    expect(res.body.summary.lowHistoryCount + res.body.summary.establishedCount).toBe(reviewers.length);
    for (const cluster of res.body.clustering?.funder_clusters ?? []) {
      expect(cluster.reviewers.length).toBeGreaterThanOrEqual(3);
      for (const address of cluster.reviewers) expect(reviewers.find((r) => r.address === address)!.funder).toBe(cluster.funder);
    }
    const again = await getJson(`${service.url}/api/reviewer-analysis?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
    expect(again.body).toEqual(res.body);
  });

  it("answers 404 for an unknown agent and 400 without a chain", async () => {
    expect((await getJson(`${service.url}/api/reviewer-analysis?id=999999&chain=base`)).status).toBe(404);
    expect((await getJson(`${service.url}/api/reviewer-analysis?id=1`)).status).toBe(400);
  });
});

describe("GET /api/compare", () => {
  it("ranks 2–10 agents by score with pass (threshold default 50) and reviewer quality", async () => {
    const agents = service.population.agents.filter((a) => a.registry === "erc8004").slice(0, 4);
    const list = agents.map((a) => `${a.chain}:${a.agentId}`).join(",");
    const res = await getJson(`${service.url}/api/compare?agents=${list}`);
    expect(res.status).toBe(200);
    expect(res.body.threshold).toBe(50);
    expect(res.body.agents).toHaveLength(4);
    const scores = res.body.agents.map((a: { score: number }) => a.score);
    expect(scores).toEqual(agents.map((a) => a.score).sort((a, b) => b - a));
    for (const item of res.body.agents) {
      expect(item.pass).toBe(item.score >= 50);
      expect(item.reviewerQuality === null || (item.reviewerQuality >= 0 && item.reviewerQuality <= 100)).toBe(true);
    }
  });

  it("answers 400 for fewer than 2 or more than 10 agents or a malformed entry, 404 for an unknown agent", async () => {
    const a = service.population.agents.find((x) => x.registry === "erc8004")!;
    expect((await getJson(`${service.url}/api/compare?agents=${a.chain}:${a.agentId}`)).status).toBe(400);
    const eleven = Array.from({ length: 11 }, () => `${a.chain}:${a.agentId}`).join(",");
    expect((await getJson(`${service.url}/api/compare?agents=${eleven}`)).status).toBe(400);
    expect((await getJson(`${service.url}/api/compare?agents=${a.chain}:${a.agentId},base-1`)).status).toBe(400);
    expect((await getJson(`${service.url}/api/compare?agents=${a.chain}:${a.agentId},base:999999`)).status).toBe(404);
  });
});

describe("GET /api/reviewer, /api/entity, /api/address-ages", () => {
  it("profiles a reviewer wallet deterministically; without summary=true the individual reviews come too", async () => {
    const address = `0x${"12".repeat(20)}`;
    const res = await getJson(`${service.url}/api/reviewer?address=${address}&chain=base&summary=true`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ address, chain: "base", chain_id: 8453 });
    expect(res.body.reviews).toBeUndefined();
    expect(typeof res.body.summary).toBe("object");
    const dist = res.body.summary.score_distribution as Record<string, number>;
    expect(Object.values(dist).reduce((s, n) => s + n, 0)).toBe(res.body.total_reviews);
    const plain = await getJson(`${service.url}/api/reviewer?address=${address}&chain=base`);
    expect(plain.body.summary).toEqual(res.body.summary);
    expect(plain.body.reviews).toHaveLength(Math.min(100, res.body.total_reviews));
    expect((await getJson(`${service.url}/api/reviewer?address=nope&chain=base`)).status).toBe(400);
    expect((await getJson(`${service.url}/api/reviewer?address=${address}`)).status).toBe(400);
  });

  it("reports an operator's agents, wallet score and MCP servers, and an empty footprint for an unknown wallet", async () => {
    const owner = service.population.agents[0]!.owner;
    const res = await getJson(`${service.url}/api/entity?wallet=${owner}`);
    expect(res.status).toBe(200);
    expect(res.body.wallet).toBe(owner);
    expect(res.body.agents.map(agentKey).sort()).toEqual(service.population.byOwner(owner).map(agentKey).sort());
    expect(res.body.wallet_score.signalDepth).toBeGreaterThanOrEqual(0);
    expect(Array.isArray(res.body.mcp_servers)).toBe(true);
    const empty = await getJson(`${service.url}/api/entity?wallet=0x${"cd".repeat(20)}`);
    expect(empty.body.agents).toEqual([]);
    expect(empty.body.mcp_servers).toEqual([]);
    expect(empty.body.wallet_score).toBeNull();
    expect((await getJson(`${service.url}/api/entity`)).status).toBe(400);
  });

  it("gives an owner's wallet an age at least that of its agents on the chain", async () => {
    const agent = service.population.agents[3]!;
    const res = await getJson(`${service.url}/api/address-ages?address=${agent.owner}&chain=${agent.chain}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ address: agent.owner, chain: agent.chain });
    expect(res.body.ageDays).toBeGreaterThanOrEqual(agent.ageDays);
    expect((await getJson(`${service.url}/api/address-ages?address=${agent.owner}&chain=mars`)).status).toBe(400);
    const anyChain = await getJson(`${service.url}/api/address-ages?address=${agent.owner}`);
    expect(anyChain.body).toMatchObject({ address: agent.owner, chain: null });
    expect(anyChain.body.ageDays).toBeGreaterThanOrEqual(res.body.ageDays);
  });
});

describe("POST /api/risk-terms", () => {
  it("returns the risk tier of the score band and the raw signals", async () => {
    const agent = service.population.agents.find((a) => a.registry === "olas" && a.sybilSeverity !== "heavy" && a.feedbackCount > 0)!;
    const res = await postJson(`${service.url}/api/risk-terms`, { agent_id: agent.agentId, chain: agent.chain, registry: "olas" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recommendation: "terms", agent_id: agent.agentId, chain: agent.chain, registry: "olas" });
    const band = agent.score >= 75 ? 1 : agent.score >= 60 ? 2 : agent.score >= 45 ? 3 : agent.score >= 25 ? 4 : 5;
    expect(res.body.risk_tier.level).toBe(band);
    expect(res.body.risk_tier.label).toBe(["low", "moderate", "elevated", "high", "severe"][band - 1]);
    expect(res.body.signals).toMatchObject({
      trust_score: agent.score,
      sybil_severity: agent.sybilSeverity === "none" ? null : agent.sybilSeverity,
    });
    expect(res.body.methodology.url).toMatch(/^http/);
    expect(res.body.decline_reasons).toBeUndefined();
  });

  it("declines heavy sybil severity with tier 6 critical and the reasons", async () => {
    const agent = service.population.agents.find((a) => a.sybilSeverity === "heavy")!;
    const res = await postJson(`${service.url}/api/risk-terms`, {
      agent_id: String(agent.agentId),
      chain: agent.chain,
      registry: agent.registry,
    });
    expect(res.body.recommendation).toBe("decline");
    expect(res.body.risk_tier).toMatchObject({ level: 6, label: "critical" });
    expect(res.body.decline_reasons[0]).toMatchObject({ signal: "sybil_severity", value: "heavy" });
  });

  it("answers 400 for malformed JSON, a missing agent_id or a non-JSON content type, 404 for an unknown agent", async () => {
    const bad = await getJson(`${service.url}/api/risk-terms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("bad-request");
    expect((await postJson(`${service.url}/api/risk-terms`, { chain: "base" })).status).toBe(400);
    expect((await postJson(`${service.url}/api/risk-terms`, [1, 2])).status).toBe(400);
    const text = await getJson(`${service.url}/api/risk-terms`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: '{"agent_id":1,"chain":"base"}',
    });
    expect(text.status).toBe(400);
    expect((await postJson(`${service.url}/api/risk-terms`, { agent_id: 999999, chain: "base" })).status).toBe(404);
  });
});

describe("signed look-ups", () => {
  it("signs MCP attestations with the rnwy-mcp-v1 key, by canonical_id and by server", async () => {
    const res = await getJson(`${service.url}/api/mcp-attestation?canonical_id=acme/trade-tools`);
    expect(res.status).toBe(200);
    const attestation = res.body.attestation as ServedAttestation;
    expect(attestation.kid).toBe("rnwy-mcp-v1");
    expect(Object.keys(attestation.signed)).toEqual(["canonical_id", "mcp_risk_score", "findings", "attestedAt"]);
    expect(attestation.signed).toMatchObject({
      canonical_id: "acme/trade-tools",
      mcp_risk_score: res.body.mcp_risk_score,
      findings: res.body.findings,
    });
    expect(res.body.mcp_risk_score).toBeGreaterThanOrEqual(0);
    expect(res.body.mcp_risk_score).toBeLessThanOrEqual(100);
    expect(await verifySig(attestation, jwks)).toBe(true);
    expect((await verifyJws(attestation, jwks)).kid).toBe("rnwy-mcp-v1");
    expect(attestation.type).toBe("mcp_trust");
    const server = await getJson(`${service.url}/api/mcp-attestation?server=acme/trade-tools`);
    expect(Object.keys(server.body.attestation.signed)).toEqual([
      "server",
      "qualityScore",
      "riskScore",
      "quadrant",
      "breakdown",
      "issuedAt",
      "verifiedAt",
      "expiry",
    ]);
    expect(server.body.riskScore).toBe(res.body.mcp_risk_score);
    expect(await verifySig(server.body.attestation, jwks)).toBe(true);
  });

  it("serves the MCP server form as insumer spec v1.2 §3.12 does: mcp_trust, the JWS first, a signed expiry, quality 0-100", async () => {
    const qualities: number[] = [];
    for (const name of ["acme/trade-tools", "acme/market-data", "zeta/search", "omega/files", "kappa/mail", "sigma/maps"]) {
      const { body } = await getJson(`${service.url}/api/mcp-attestation?server=${name}`);
      const attestation = body.attestation;
      expect(Object.keys(attestation)).toEqual(["issuer", "type", "kid", "alg", "jwks", "signed", "jws", "sig", "expiry"]);
      expect(attestation).toMatchObject({ type: "mcp_trust", kid: "rnwy-mcp-v1", alg: "ES256" });
      const { payload, protectedHeader } = await compactVerify(attestation.jws, createLocalJWKSet(jwks), { algorithms: ["ES256"] });
      expect(protectedHeader).toEqual({ alg: "ES256", kid: "rnwy-mcp-v1", typ: "JWT" });
      expect(new TextDecoder().decode(payload)).toBe(JSON.stringify(attestation.signed));
      expect(await verifySig(attestation, jwks)).toBe(true);
      const signed = attestation.signed;
      expect(signed).toMatchObject({ server: name, verifiedAt: NOW.toISOString(), expiry: "2026-11-23T10:00:00.000Z" });
      expect(Object.keys(signed.breakdown)).toEqual(["quality", "risk", "version", "quadrant"]);
      const { tenure, adoption, capability, reliability } = signed.breakdown.quality;
      expect(tenure + adoption + capability + reliability).toBe(signed.qualityScore);
      expect(signed.quadrant).toBe(`${signed.qualityScore >= 50 ? "high" : "low"}_quality_${signed.riskScore >= 30 ? "high" : "low"}_risk`);
      expect(body).toMatchObject({ server: name, qualityScore: signed.qualityScore, breakdown: signed.breakdown });
      const verdict = await verifyMcpAttestation(body, { jwks: createJwksResolver({ keys: jwks }), issuer: service.issuer, now: NOW });
      expect(verdict).toMatchObject({ valid: true, version: "server" });
      expect(verdict.expiresAt?.toISOString()).toBe(signed.expiry);
      qualities.push(signed.qualityScore);
    }
    for (const quality of qualities) {
      expect(quality).toBeGreaterThanOrEqual(0);
      expect(quality).toBeLessThanOrEqual(100);
    }
    expect(new Set(qualities).size).toBeGreaterThan(1);
    expect((await getJson(`${service.url}/api/mcp-attestation?canonical_id=no-slash`)).status).toBe(400);
    expect((await getJson(`${service.url}/api/mcp-attestation?canonical_id=a/b&server=a/b`)).status).toBe(400);
    expect((await getJson(`${service.url}/api/mcp-attestation`)).status).toBe(400);
  });

  it("signs wallet scores as a JWT with the wallet key; unknown wallets get a signed found:false; ?wallet= is refused", async () => {
    const owner = service.population.agents[0]!.owner;
    const res = await getJson(`${service.url}/api/wallet-score?address=${owner}`);
    expect(res.status).toBe(200);
    const attestation = res.body.attestation;
    expect(attestation).toMatchObject({ kid: "rnwy-wallet-v1", type: "wallet_intelligence", signed: null });
    const { payload, protectedHeader } = await compactVerify(attestation.sig, createLocalJWKSet(jwks), { algorithms: ["ES256"] });
    expect(protectedHeader).toEqual({ alg: "ES256", kid: "rnwy-wallet-v1", typ: "JWT" });
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims).toMatchObject({
      sub: owner,
      wallet: owner,
      signalDepth: res.body.signalDepth,
      riskIntensity: res.body.riskIntensity,
      verifiedAt: NOW.toISOString(),
      expiry: "2026-11-23T10:00:00.000Z",
    });
    const latest = Math.max(...service.population.byOwner(owner).map((a) => a.updatedAt.getTime()));
    expect(claims.issuedAt).toBe(new Date(latest).toISOString());
    const unknown = await getJson(`${service.url}/api/wallet-score?address=0x${"ef".repeat(20)}`);
    expect(unknown.body.found).toBe(false);
    const absent = await compactVerify(unknown.body.attestation.sig, createLocalJWKSet(jwks), { algorithms: ["ES256"] });
    expect(JSON.parse(new TextDecoder().decode(absent.payload))).toEqual({
      found: false,
      wallet: `0x${"ef".repeat(20)}`,
      issuedAt: NOW.toISOString(),
    });
    expect((await getJson(`${service.url}/api/wallet-score?address=xyz`)).status).toBe(400);
    const legacy = await getJson(`${service.url}/api/wallet-score?wallet=${owner}`);
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.message).toMatch(/address/);
  });
});
