import type { JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tierForScore } from "../../../src/config/encodings.js";
import { createPopulation, type PopulationAgent, type RunningTrustService, startTrustService } from "../../../src/harness/service/index.js";
import { fetchJwks, getJson, type ServedAttestation, verifyJws, verifySig } from "./support.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const V2_ORDER = [
  "agentId",
  "chain",
  "registry",
  "owner",
  "score",
  "tier",
  "badges",
  "sybilSeverity",
  "sybilSignals",
  "issuedAt",
  "verifiedAt",
  "expiry",
];

let service: RunningTrustService;
let jwks: JSONWebKeySet;

beforeAll(async () => {
  service = await startTrustService({ population: createPopulation({ seed: 21, size: 200 }), rateLimit: false, now: () => NOW });
  jwks = await fetchJwks(service.url);
});
afterAll(() => service.close());

function pick(predicate: (a: PopulationAgent) => boolean): PopulationAgent {
  const agent = service.population.agents.find(predicate);
  if (!agent) throw new Error("no agent matches");
  return agent;
}

describe("GET /.well-known/jwks.json", () => {
  it("publishes the four published kids' public keys, and no private part", async () => {
    const res = await getJson(`${service.url}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body.keys.map((k: { kid: string }) => k.kid)).toEqual(["rnwy-trust-v2", "rnwy-trust-v1", "rnwy-wallet-v1", "rnwy-mcp-v1"]);
    for (const key of res.body.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
      expect(typeof key.x).toBe("string");
      expect(typeof key.y).toBe("string");
      expect(key.d).toBeUndefined();
    }
  });
});

describe("GET /api/trust-check by id and chain", () => {
  it("serves the documented shape with a v2 attestation whose sig and jws verify", async () => {
    const agent = pick((a) => a.chain === "base" && a.registry === "erc8004" && a.sybilSeverity !== "none");
    const res = await getJson(`${service.url}/api/trust-check?id=${agent.agentId}&chain=base&threshold=50`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body)).toEqual([
      "agentId",
      "chain",
      "registry",
      "name",
      "score",
      "threshold",
      "pass",
      "tier",
      "badges",
      "reason",
      "owner",
      "isOriginalOwner",
      "feedbackCount",
      "ageDays",
      "checkedAt",
      "sybilSeverity",
      "sybilSignals",
      "attestation",
    ]);
    expect(body).toMatchObject({
      agentId: agent.agentId,
      chain: "base",
      registry: "erc8004",
      name: agent.name,
      score: agent.score,
      threshold: 50,
      pass: agent.score >= 50,
      tier: tierForScore(agent.score),
      owner: agent.owner,
      feedbackCount: agent.feedbackCount,
      ageDays: agent.ageDays,
      checkedAt: NOW.toISOString(),
      sybilSeverity: agent.sybilSeverity === "none" ? null : agent.sybilSeverity,
      sybilSignals: [...agent.sybilSignals],
      badges: { earned: [...agent.badges.earned], warnings: [...agent.badges.warnings] },
    });
    expect(body.reason).toContain(`threshold 50`);

    const attestation = body.attestation as ServedAttestation;
    expect(attestation).toMatchObject({
      issuer: service.issuer,
      type: "behavioral_trust",
      kid: "rnwy-trust-v2",
      alg: "ES256",
      jwks: `${service.url}/.well-known/jwks.json`,
      expiry: "2026-11-23T10:00:00.000Z",
    });
    const signed = attestation.signed;
    expect(Object.keys(signed)).toEqual(V2_ORDER);
    expect(signed).toEqual({
      agentId: String(body.agentId),
      chain: body.chain,
      registry: body.registry,
      owner: body.owner,
      score: body.score,
      tier: body.tier,
      badges: [...body.badges.earned, ...body.badges.warnings],
      sybilSeverity: body.sybilSeverity,
      sybilSignals: body.sybilSignals,
      // issuedAt: when the score was computed, in the service's sample form (milliseconds, +00:00); verifiedAt: when
      // it was signed (request time), in the Z form.
      issuedAt: agent.updatedAt.toISOString().replace("Z", "+00:00"),
      verifiedAt: NOW.toISOString(),
      expiry: "2026-11-23T10:00:00.000Z",
    });

    expect(await verifySig(attestation, jwks)).toBe(true);
    const jws = await verifyJws(attestation, jwks);
    expect(jws.payload).toBe(JSON.stringify(signed));
    expect(jws.kid).toBe("rnwy-trust-v2");
    expect(jws.alg).toBe("ES256");
  });

  it("detects a changed signed value (the verification helpers are not vacuous)", async () => {
    const agent = pick((a) => a.chain === "ethereum");
    const { body } = await getJson(`${service.url}/api/trust-check?id=${agent.agentId}&chain=ethereum`);
    const attestation = body.attestation as ServedAttestation;
    const forged = { ...attestation, signed: { ...attestation.signed, score: (attestation.signed.score as number) + 1 } };
    expect(await verifySig(forged, jwks)).toBe(false);
  });

  it("accepts chain aliases and numeric chain ids, the registry parameter, and no threshold (default 50, pass a boolean)", async () => {
    const olas = pick((a) => a.registry === "olas" && a.chain === "bnb");
    const viaAlias = await getJson(`${service.url}/api/trust-check?id=${olas.agentId}&chain=bsc&registry=olas`);
    expect(viaAlias.status).toBe(200);
    expect(viaAlias.body).toMatchObject({ chain: "bnb", registry: "olas", agentId: olas.agentId, threshold: 50, pass: olas.score >= 50 });
    const viaId = await getJson(`${service.url}/api/trust-check?id=${olas.agentId}&chain=56&registry=OLAS`);
    expect(viaId.body.score).toBe(olas.score);
  });

  it("computes pass as score >= threshold at the boundary", async () => {
    const agent = pick((a) => a.score > 0 && a.score < 100);
    const at = await getJson(
      `${service.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}&threshold=${agent.score}`,
    );
    const above = await getJson(
      `${service.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}&threshold=${agent.score + 1}`,
    );
    expect(at.body.pass).toBe(true);
    expect(above.body.pass).toBe(false);
    expect(above.body.reason).toMatch(new RegExp(`^Score ${agent.score} is below threshold ${agent.score + 1}\\.`));
    expect(at.body.reason).toMatch(new RegExp(`^Score ${agent.score} meets threshold ${agent.score}\\.`));
  });

  it.each([
    ["id=abc&chain=base", /Invalid id/],
    ["id=-1&chain=base", /Invalid id/],
    ["id=1.5&chain=base", /Invalid id/],
    ["chain=base", /Missing required parameter "id"/],
    ["id=1", /Missing required parameter "chain"/],
    ["id=1&chain=bas", /Did you mean "base"/],
    ["id=1&chain=base&registry=nope", /Unknown registry/],
    ["id=1&chain=base&threshold=101", /Invalid threshold/],
    ["id=1&chain=base&threshold=x", /Invalid threshold/],
    ["wallet=0x1234", /Invalid wallet/],
  ])("answers 400 with the error body for %s", async (query, message) => {
    const res = await getJson(`${service.url}/api/trust-check?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad-request");
    expect(res.body.error.message).toMatch(message);
  });

  it("answers 404 for an unknown agent", async () => {
    const res = await getJson(`${service.url}/api/trust-check?id=987654&chain=base`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: "not-found", message: expect.stringContaining("987654") } });
  });
});

describe("GET /api/trust-check?wallet=", () => {
  it("answers with the wallet's best agent", async () => {
    const counts = new Map<string, number>();
    for (const a of service.population.agents) counts.set(a.owner, (counts.get(a.owner) ?? 0) + 1);
    const [owner] = [...counts].find(([, n]) => n >= 2)!;
    const owned = service.population.byOwner(owner);
    const best = Math.max(...owned.map((a) => a.score));
    const res = await getJson(`${service.url}/api/trust-check?wallet=${owner.toUpperCase().replace("0X", "0x")}`);
    expect(res.status).toBe(200);
    expect(res.body.owner).toBe(owner);
    expect(res.body.score).toBe(best);
    expect(owned.some((a) => a.agentId === res.body.agentId && a.chain === res.body.chain)).toBe(true);
    expect(await verifySig(res.body.attestation, jwks)).toBe(true);
  });

  it("answers a wallet without agents with the signed found:false envelope", async () => {
    const wallet = `0x${"ab".repeat(20)}`;
    const res = await getJson(`${service.url}/api/trust-check?wallet=${wallet}`);
    expect(res.status).toBe(200);
    expect(res.body.found).toBe(false);
    expect(res.body.wallet).toBe(wallet);
    const attestation = res.body.attestation as ServedAttestation;
    expect(attestation.kid).toBe("rnwy-trust-v2");
    expect(attestation.signed).toEqual({ found: false, wallet, issuedAt: NOW.toISOString() });
    expect(Object.keys(attestation.signed)).toEqual(["found", "wallet", "issuedAt"]);
    expect(await verifySig(attestation, jwks)).toBe(true);
    expect((await verifyJws(attestation, jwks)).payload).toBe(JSON.stringify(attestation.signed));
  });

  it("refuses a wallet together with an id", async () => {
    const res = await getJson(`${service.url}/api/trust-check?wallet=0x${"ab".repeat(20)}&id=1&chain=base`);
    expect(res.status).toBe(400);
  });
});

describe("routing", () => {
  it("answers 404 for an unknown path and 405 with Allow for a wrong method", async () => {
    const unknown = await getJson(`${service.url}/api/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not-found");
    const root = await getJson(`${service.url}/`);
    expect(root.status).toBe(404);
    const wrong = await getJson(`${service.url}/api/trust-check?id=1&chain=base`, { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    expect(wrong.body.error.code).toBe("method-not-allowed");
    const getRisk = await getJson(`${service.url}/api/risk-terms`);
    expect(getRisk.status).toBe(405);
    expect(getRisk.headers.get("allow")).toBe("POST");
  });

  it("serves an advanced population after setPopulation", async () => {
    const original = service.population;
    const advanced = original.advance({ seed: 4, changedFraction: 0.2, at: new Date("2026-11-22T09:00:00.000Z") });
    const change = advanced.changes.changed.find((c) => c.scoreChanged)!;
    service.setPopulation(advanced);
    try {
      const res = await getJson(`${service.url}/api/trust-check?id=${change.agentId}&chain=${change.chain}&registry=${change.registry}`);
      expect(res.body.score).toBe(change.after.score);
      // issuedAt is the agent's scoring time (the advance), not the request time.
      expect(res.body.attestation.signed.issuedAt).toBe("2026-11-22T09:00:00.000+00:00");
      expect(res.body.attestation.signed.verifiedAt).toBe(NOW.toISOString());
    } finally {
      service.setPopulation(original);
    }
  });
});
