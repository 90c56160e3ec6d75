// Contract tests, one describe per endpoint: the kit's API client drives the local signing service over
// loopback HTTP and every field the published sources declare as required (published-fields.ts, encoded from
// rnwy-sdk 0.3.0 types.ts, the vocabulary crosswalks, the insumer spec and SKILL.md) is present with its type,
// and signed blocks carry their fields in the published order. Signatures are checked independently of the
// kit's verifier (jose / WebCrypto), which is being rewritten elsewhere.
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrustApiClient, type TrustApiClient } from "../../../src/api/client.js";
import { HttpRequestError } from "../../../src/errors.js";
import { mcpServerSignedSchema } from "../../../src/published/index.js";
import { createPopulation, type PopulationAgent, type RunningTrustService, startTrustService } from "../../../src/harness/service/index.js";
import { fetchJwks, type ServedAttestation, verifyJws, verifySig } from "../../harness/service/support.js";
import * as F from "./published-fields.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const population = createPopulation({ seed: 91, size: 400, registries: ["erc8004", "olas", "virtuals"], solanaAgents: 8 });
let service: RunningTrustService;
let jwks: JSONWebKeySet;
let api: TrustApiClient;

beforeAll(async () => {
  service = await startTrustService({ population, rateLimit: false, now: () => NOW });
  jwks = await fetchJwks(service.url);
  api = createTrustApiClient({ baseUrl: service.url, rateLimit: false, retries: 0 });
});
afterAll(() => service.close());

function agentWhere(predicate: (a: PopulationAgent) => boolean): PopulationAgent {
  const agent = population.agents.find(predicate);
  if (!agent) throw new Error("no agent matches");
  return agent;
}

function expectFields(value: unknown, spec: F.FieldSpec, where: string): void {
  expect(F.fieldProblems(value, spec, where)).toEqual([]);
}

async function jwtPayload(jwt: string): Promise<{ claims: Record<string, unknown>; text: string }> {
  const { payload } = await compactVerify(jwt, createLocalJWKSet(jwks), { algorithms: ["ES256"] });
  const text = new TextDecoder().decode(payload);
  return { claims: JSON.parse(text) as Record<string, unknown>, text };
}

describe("GET /.well-known/jwks.json", () => {
  it("publishes the four kids of the crosswalks, public P-256 keys only", async () => {
    expect(jwks.keys.map((k) => k.kid)).toEqual(["rnwy-trust-v2", "rnwy-trust-v1", "rnwy-wallet-v1", "rnwy-mcp-v1"]);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
      expect("d" in key).toBe(false);
    }
  });
});

describe("GET /api/trust-check?id=&chain=", () => {
  it("serves every SDK TrustCheckResponse field, the insumer envelope and the v2 block in order", async () => {
    const agent = agentWhere((a) => a.chain === "base" && a.registry === "erc8004" && a.sybilSeverity !== "none");
    const body = await api.trustCheck({ id: agent.agentId, chain: "base" });
    expectFields(body, F.SDK_TRUST_CHECK, "body");
    expectFields(body.badges, { earned: "array", warnings: "array" }, "body.badges");
    expect(body).toMatchObject({ threshold: 50, pass: agent.score >= 50 });
    const attestation = body.attestation as unknown as ServedAttestation;
    expectFields(attestation, { ...F.ENVELOPE, jws: "string" }, "attestation");
    expect(attestation).toMatchObject({
      type: "behavioral_trust",
      kid: "rnwy-trust-v2",
      alg: "ES256",
      jwks: `${service.url}/.well-known/jwks.json`,
    });
    const signed = attestation.signed;
    expect(Object.keys(signed)).toEqual(F.V2_SIGNED_ORDER);
    expectFields(signed, F.V2_SIGNED, "signed");
    // The service's sample form (a2aproject/A2A#1628): milliseconds and +00:00 beside verifiedAt and expiry in Z.
    expect(signed.issuedAt).toBe(agent.updatedAt.toISOString().replace("Z", "+00:00"));
    expect(signed.verifiedAt).toBe(NOW.toISOString());
    expect(Date.parse(signed.expiry as string) - Date.parse(signed.verifiedAt as string)).toBe(86_400_000);
    expect(attestation.expiry).toBe(signed.expiry);
    expect(signed.badges).toEqual([...(body.badges as { earned: string[] }).earned, ...(body.badges as { warnings: string[] }).warnings]);
    for (const id of signed.badges as string[]) expect(F.SDK_BADGE_IDS).toContain(id);
    for (const id of signed.sybilSignals as string[]) expect(F.SYBIL_SIGNAL_IDS).toContain(id);
    expect(await verifySig(attestation, jwks)).toBe(true);
    expect((await verifyJws(attestation, jwks)).payload).toBe(JSON.stringify(signed));
  });

  it("signs null, not none, for an agent without sybil signal; pass is a boolean below the threshold too", async () => {
    const agent = agentWhere((a) => a.sybilSeverity === "none" && a.score < 90);
    const body = await api.trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry, threshold: agent.score + 1 });
    expect(body.sybilSeverity).toBeNull();
    expect(body.attestation!.signed!.sybilSeverity).toBeNull();
    expect(body.attestation!.signed!.sybilSignals).toEqual([]);
    expect(body.pass).toBe(false);
  });

  it("serves Solana SATI agents with base58 owners", async () => {
    const agent = agentWhere((a) => a.registry === "sati");
    const body = await api.trustCheck({ id: agent.agentId, chain: "solana", registry: "sati" });
    expect(body).toMatchObject({ chain: "solana", registry: "sati", owner: agent.owner });
    expect(body.attestation!.signed).toMatchObject({
      agentId: String(agent.agentId),
      chain: "solana",
      registry: "sati",
      owner: agent.owner,
    });
    expect(await verifySig(body.attestation as unknown as ServedAttestation, jwks)).toBe(true);
  });

  it("answers an unknown agent with 404 (a clear error, never a body)", async () => {
    await expect(api.trustCheck({ id: 9_999_999, chain: "base" })).rejects.toBeInstanceOf(HttpRequestError);
  });
});

describe("GET /api/trust-check with the legacy v1 key", () => {
  it("signs the v1 block (agentId a number, none for no signal, attestedAt) with rnwy-trust-v1", async () => {
    const v1 = await startTrustService({ population, rateLimit: false, now: () => NOW, trustAttestationVersion: "v1" });
    try {
      const client = createTrustApiClient({ baseUrl: v1.url, rateLimit: false, retries: 0 });
      const agent = agentWhere((a) => a.sybilSeverity === "none");
      const body = await client.trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
      const attestation = body.attestation as unknown as ServedAttestation;
      expect(attestation.kid).toBe("rnwy-trust-v1");
      expect(Object.keys(attestation.signed)).toEqual(F.V1_SIGNED_ORDER);
      expect(attestation.signed).toMatchObject({ agentId: agent.agentId, sybilSeverity: "none", attestedAt: NOW.toISOString() });
      expect(await verifySig(attestation, await fetchJwks(v1.url))).toBe(true);
    } finally {
      await v1.close();
    }
  });
});

describe("GET /api/trust-check?wallet=", () => {
  const owner = (): string => population.agents.find((a) => a.chain !== "solana")!.owner;

  it("answers with the best owned agent, and during the kid-migration window with attestationV1 too", async () => {
    const plain = await api.trustCheckByWallet(owner());
    expect("attestationV1" in plain).toBe(false);
    const migrating = await startTrustService({
      population,
      rateLimit: false,
      now: () => NOW,
      kidMigration: { from: new Date("2026-11-01T00:00:00Z"), until: new Date("2026-12-01T00:00:00Z") },
    });
    const closed = await startTrustService({ population, rateLimit: false, now: () => NOW, kidMigration: { until: NOW } });
    try {
      const client = createTrustApiClient({ baseUrl: migrating.url, rateLimit: false, retries: 0 });
      const body = await client.trustCheckByWallet(owner());
      expect("found" in body).toBe(false);
      const both = body as { attestation: ServedAttestation; attestationV1: ServedAttestation };
      expect(both.attestation.kid).toBe("rnwy-trust-v2");
      expect(both.attestationV1.kid).toBe("rnwy-trust-v1");
      expect(Object.keys(both.attestationV1.signed)).toEqual(F.V1_SIGNED_ORDER);
      const keys = await fetchJwks(migrating.url);
      expect(await verifySig(both.attestation, keys)).toBe(true);
      expect(await verifySig(both.attestationV1, keys)).toBe(true);
      const after = await createTrustApiClient({ baseUrl: closed.url, rateLimit: false, retries: 0 }).trustCheckByWallet(owner());
      expect("attestationV1" in after).toBe(false);
    } finally {
      await migrating.close();
      await closed.close();
    }
  });

  it("answers an unknown wallet with {found: false, wallet, attestation} signing {found, wallet, issuedAt}", async () => {
    const wallet = `0x${"9a".repeat(20)}`;
    const body = await api.trustCheckByWallet(wallet);
    expectFields(body, { found: "boolean", wallet: "string", attestation: "object" }, "body");
    const attestation = body.attestation as unknown as ServedAttestation;
    expect(Object.keys(attestation.signed)).toEqual(F.NOT_FOUND_SIGNED_ORDER);
    expect(attestation.signed).toEqual({ found: false, wallet, issuedAt: NOW.toISOString() });
    expect(await verifySig(attestation, jwks)).toBe(true);
  });

  it("takes a base58 Solana wallet", async () => {
    const agent = agentWhere((a) => a.registry === "sati");
    const body = await api.trustCheckByWallet(agent.owner);
    expect(body).toMatchObject({ owner: agent.owner, chain: "solana" });
  });
});

describe("GET /api/wallet-score?address=", () => {
  it("answers with a JWT in sig (header alg/kid/typ), signed null, and the claims in order, repeated at the top", async () => {
    const wallet = population.agents[0]!.owner;
    const body = await api.walletScore(wallet);
    const attestation = body.attestation;
    expectFields(attestation, { ...F.ENVELOPE, signed: "null" }, "attestation");
    expect(attestation).toMatchObject({ type: "wallet_intelligence", kid: "rnwy-wallet-v1", alg: "ES256" });
    expect(decodeProtectedHeader(attestation.sig!)).toEqual({ alg: "ES256", kid: "rnwy-wallet-v1", typ: "JWT" });
    const { claims } = await jwtPayload(attestation.sig!);
    expect(Object.keys(claims)).toEqual(F.WALLET_CLAIMS_ORDER);
    expect(claims).toMatchObject({ iss: service.issuer, sub: wallet, wallet, verifiedAt: NOW.toISOString() });
    expect(claims.signalDepth as number).toBeLessThanOrEqual(95);
    expect(claims.riskIntensity as number).toBeLessThanOrEqual(100);
    for (const claim of F.WALLET_CLAIMS_ORDER.slice(2)) expect((body as Record<string, unknown>)[claim]).toEqual(claims[claim]);
    expect(attestation.expiry).toBe(claims.expiry);
  });

  it("answers an unscored wallet with a signed {found: false, wallet, issuedAt} JWT", async () => {
    const wallet = `0x${"5c".repeat(20)}`;
    const body = await api.walletScore(wallet);
    expect(body).toMatchObject({ found: false, wallet });
    const { claims } = await jwtPayload(body.attestation.sig!);
    expect(Object.keys(claims)).toEqual(F.NOT_FOUND_SIGNED_ORDER);
  });
});

describe("GET /api/explorer?id=&chain=", () => {
  it("serves every field of the SDK's ExplorerResponse and Agent", async () => {
    const agent = agentWhere((a) => a.registry === "olas" && a.sybilSeverity !== "none" && a.feedbackCount > 2);
    const body = await api.explorerProfile({ id: agent.agentId, chain: agent.chain, registry: "olas" });
    expectFields(body, F.SDK_EXPLORER_RESPONSE, "body");
    const a = body.agent as Record<string, unknown>;
    expectFields(a, F.SDK_AGENT, "agent");
    expect(a).toMatchObject({ id: agent.agentId, owner: agent.owner, chain: agent.chain, registry: "olas" });
    expectFields(a.metadata, F.SDK_AGENT_METADATA, "agent.metadata");
    expectFields(a.reputation, F.SDK_REPUTATION, "agent.reputation");
    expectFields(a.ownership, F.SDK_OWNERSHIP, "agent.ownership");
    expectFields(a.scores, F.SDK_SCORES, "agent.scores");
    expectFields(a.addressAgeDetails, F.SDK_ADDRESS_AGE_DETAILS, "agent.addressAgeDetails");
    expectFields(a.scoreBreakdown, F.SDK_SCORE_BREAKDOWN, "agent.scoreBreakdown");
    expectFields(a.reviewerSybil, F.SDK_REVIEWER_SYBIL, "agent.reviewerSybil");
    expectFields((a.reviewerSybil as { signals: unknown }).signals, F.SDK_REVIEWER_SYBIL_SIGNALS, "agent.reviewerSybil.signals");
    for (const item of a.feedback as unknown[]) expectFields(item, F.SDK_FEEDBACK_ITEM, "agent.feedback[]");
    for (const badge of a.badges as unknown[]) expectFields(badge, F.SDK_BADGE, "agent.badges[]");
    expect((a.commerceStats as unknown[]).length).toBe(1);
    for (const stats of a.commerceStats as unknown[]) expectFields(stats, F.SDK_COMMERCE_STATS, "agent.commerceStats[]");
    for (const similar of body.similarAgents as unknown[]) expectFields(similar, F.SDK_SIMILAR_AGENT, "similarAgents[]");
    expectFields(body.qualityTrajectory, F.SDK_QUALITY_TRAJECTORY, "qualityTrajectory");
  });

  it("without id keeps the listing; sort=recent orders by registration, latest first", async () => {
    const listing = await api.explorer({ chain: "base", sort: "recent", limit: 20 });
    const times = listing.agents.map((item) =>
      population.get(item.chain, item.agentId, item.registry ?? undefined)!.registeredAt.getTime(),
    );
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });
});

describe("GET /api/agents (the kit's own page shape)", () => {
  it("pages with agents, nextCursor and total; sybilSeverity null for no signal", async () => {
    const page = await api.agents({ limit: 50 });
    expectFields(page, { agents: "array", nextCursor: "string|null", total: "number" }, "page");
    for (const item of page.agents) {
      expectFields(
        item,
        {
          agentId: "number",
          chain: "string",
          registry: "string",
          name: "string",
          score: "number",
          tier: "string",
          sybilSeverity: "string|null",
          updatedAt: "string",
        },
        "item",
      );
      expect(item.sybilSeverity).not.toBe("none");
    }
  });
});

describe("POST /api/risk-terms", () => {
  it("serves every SDK RiskTermsResponse field, tiers by SKILL.md's score bands", async () => {
    const agent = agentWhere((a) => a.sybilSeverity !== "heavy" && a.feedbackCount > 0 && a.chain === "base");
    const body = await api.riskTerms({ agentId: agent.agentId, chain: "base", registry: agent.registry });
    expectFields(body, F.SDK_RISK_TERMS, "body");
    expectFields(body.risk_tier, F.SDK_RISK_TIER, "risk_tier");
    expectFields(body.signals, F.SDK_RISK_SIGNALS, "signals");
    expectFields(body.data_coverage, F.SDK_RISK_COVERAGE, "data_coverage");
    expectFields(body.methodology, F.SDK_RISK_METHODOLOGY, "methodology");
    expectFields(body.disclaimer, F.SDK_RISK_DISCLAIMER, "disclaimer");
    const bands: [number, string][] = [
      [75, "low"],
      [60, "moderate"],
      [45, "elevated"],
      [25, "high"],
      [0, "severe"],
    ];
    const band = bands.findIndex(([min]) => agent.score >= min);
    expect(body).toMatchObject({ recommendation: "terms", chain_id: 8453, risk_tier: { level: band + 1, label: bands[band]![1] } });
  });

  it("declines heavy sybil severity with decline_reasons", async () => {
    const agent = agentWhere((a) => a.sybilSeverity === "heavy");
    const body = await api.riskTerms({ agentId: agent.agentId, chain: agent.chain, registry: agent.registry });
    expect(body).toMatchObject({ recommendation: "decline", risk_tier: { level: 6, label: "critical" } });
    for (const reason of body.decline_reasons ?? []) expectFields(reason, F.SDK_RISK_DECLINE_REASON, "decline_reasons[]");
    expect(body.decline_reasons?.length).toBeGreaterThan(0);
  });

  it("has its own limit of 5/min anonymous and 60/min with a key, apart from the 30/300 of the others", async () => {
    const limited = await startTrustService({ population, now: () => NOW });
    try {
      const agent = population.agents[0]!;
      const post = (headers: Record<string, string> = {}) =>
        fetch(`${limited.url}/api/risk-terms`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ agent_id: agent.agentId, chain: agent.chain, registry: agent.registry }),
        });
      for (let i = 0; i < 5; i++) {
        const res = await post();
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-limit")).toBe("5");
        await res.arrayBuffer();
      }
      const refused = await post();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate-limited");
      // The other endpoints are still open for the same caller, under their own limit of 30.
      const stats = await fetch(`${limited.url}/api/stats`);
      expect(stats.status).toBe(200);
      expect(stats.headers.get("x-ratelimit-limit")).toBe("30");
      await stats.arrayBuffer();
      const keyed = await post({ authorization: "Bearer k1" });
      expect(keyed.status).toBe(200);
      expect(keyed.headers.get("x-ratelimit-limit")).toBe("60");
      expect(((await keyed.json()) as { auth: unknown }).auth).toEqual({ status: "authenticated", limit: "60/min" });
    } finally {
      await limited.close();
    }
  });
});

describe("GET /api/reviewer-analysis", () => {
  it("serves every SDK ReviewerAnalysisResponse field", async () => {
    const agent = [...population.agents].sort((a, b) => b.feedbackCount - a.feedbackCount)[0]!;
    const body = await api.reviewerAnalysis({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
    expectFields(body, F.SDK_REVIEWER_ANALYSIS, "body");
    expectFields(body.distribution, F.SDK_REVIEWER_ANALYSIS_DISTRIBUTION, "distribution");
    expectFields(body.summary, F.SDK_REVIEWER_ANALYSIS_SUMMARY, "summary");
    for (const reviewer of body.reviewers ?? []) expectFields(reviewer, F.SDK_REVIEWER_WALLET, "reviewers[]");
  });
});

describe("GET /api/reviewer", () => {
  it("serves every SDK ReviewerProfileResponse field; summary is an object; reviews only without summary=true", async () => {
    const address = `0x${"7e".repeat(20)}`;
    const summary = await api.reviewer({ address, chain: "base", summary: true });
    expectFields(summary, F.SDK_REVIEWER_PROFILE, "body");
    expectFields(summary.summary, F.SDK_REVIEWER_SUMMARY, "summary");
    expect("reviews" in summary).toBe(false);
    const full = await api.reviewer({ address, chain: "base" });
    expect(Array.isArray(full.reviews)).toBe(true);
  });
});

describe("GET /api/entity?wallet=", () => {
  it("serves agents, wallet_score and mcp_servers", async () => {
    const body = await api.entity(population.agents[0]!.owner);
    expectFields(body, F.SDK_ENTITY, "body");
    expect(body.agents.length).toBeGreaterThan(0);
  });
});

describe("GET /api/mcp-attestation", () => {
  it("?canonical_id= serves canonical_id, mcp_risk_score, findings and an rnwy-mcp-v1 attestation without expiry in signed", async () => {
    const body = await api.mcpAttestation("acme/market-data");
    expectFields(body, { canonical_id: "string", ...F.SDK_MCP_ATTESTATION }, "body");
    const attestation = body.attestation as unknown as ServedAttestation;
    expect(attestation.kid).toBe("rnwy-mcp-v1");
    expect(Object.keys(attestation.signed)).toEqual(["canonical_id", "mcp_risk_score", "findings", "attestedAt"]);
    expect("expiry" in attestation.signed).toBe(false);
    expect(await verifySig(attestation, jwks)).toBe(true);
  });

  it("?server= serves type mcp_trust and the signed block of insumer spec v1.2 §3.12", async () => {
    const body = await api.mcpServerAttestation("acme/market-data");
    const attestation = body.attestation as unknown as ServedAttestation;
    expect(body.attestation.type).toBe(F.SPEC_MCP_ATTESTATION_TYPE);
    expect(Object.keys(attestation.signed)).toEqual(Object.keys(F.SPEC_MCP_SERVER_SIGNED));
    expectFields(attestation.signed, F.SPEC_MCP_SERVER_SIGNED, "signed");
    expect(mcpServerSignedSchema.safeParse(attestation.signed).success).toBe(true);
    expect(typeof body.attestation.jws).toBe("string");
    expect(await verifySig(attestation, jwks)).toBe(true);
  });
});

describe("GET /api/compare", () => {
  it("ranks the agents with pass against the default threshold 50", async () => {
    const picks = population.agents.filter((a) => a.registry === "erc8004").slice(0, 3);
    const body = await api.compare(picks.map((a) => ({ id: a.agentId, chain: a.chain })));
    expect(body.threshold).toBe(50);
    for (const row of body.agents) expect(typeof row.pass).toBe("boolean");
  });
});

describe("GET /api/address-ages", () => {
  it("answers with or without a chain", async () => {
    const agent = population.agents[0]!;
    const onChain = await api.addressAge({ address: agent.owner, chain: agent.chain });
    const anyChain = await api.addressAge({ address: agent.owner });
    expectFields(onChain, { address: "string", chain: "string", ageDays: "number" }, "body");
    expect(anyChain.chain).toBeNull();
    expect(anyChain.ageDays).toBeGreaterThanOrEqual(onChain.ageDays ?? 0);
  });
});

describe("GET /api/stats", () => {
  it("serves totals by registry, chain and tier", async () => {
    const body = await api.stats();
    expectFields(body, { totalAgents: "number", byChain: "object", byRegistry: "object", byTier: "object" }, "body");
    expect(body.totalAgents).toBe(population.size);
  });
});

describe("POST /api/mcp", () => {
  it("lists SKILL.md's eight tools with their inputs, and risk_terms and commerce_stats answer", async () => {
    const tools = await api.mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(F.SKILL_MCP_TOOLS).sort());
    for (const tool of tools) {
      const expected = F.SKILL_MCP_TOOLS[tool.name]!;
      const schema = tool.inputSchema as { required: string[]; properties: Record<string, unknown> };
      expect(schema.required).toEqual(expected.required);
      // Every published input is accepted (the kit also takes `registry` on reviewer_analysis).
      expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining([...expected.required, ...expected.optional]));
    }
    const agent = agentWhere((a) => a.registry === "virtuals");
    const terms = await api.mcp.riskTerms({ agentId: agent.agentId, chain: agent.chain, registry: "virtuals" });
    expectFields(terms, F.SDK_RISK_TERMS, "risk_terms");
    const byAgent = (await api.mcp.commerceStats({ id: agent.agentId, chain: agent.chain, registry: "virtuals" })) as {
      commerce_stats: unknown[];
    };
    for (const stats of byAgent.commerce_stats) expectFields(stats, F.SDK_COMMERCE_STATS, "commerce_stats[]");
    const byAddress = (await api.mcp.commerceStats({ address: agent.owner })) as { linked_agents: unknown[] };
    expect(byAddress.linked_agents.length).toBeGreaterThan(0);
    const check = await api.mcp.trustCheck({ id: agent.agentId, chain: agent.chain, registry: "virtuals" });
    expect(check.attestation!.kid).toBe("rnwy-trust-v2");
  });
});
