import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPopulation, type PopulationAgent, type RunningTrustService, startTrustService } from "../../../src/harness/service/index.js";
import { fetchJwks, getJson, type ServedAttestation, verifyJws, verifySig } from "./support.js";

let service: RunningTrustService;
let jwks: JSONWebKeySet;
let agent: PopulationAgent;
let trustCheckUrl: string;

beforeAll(async () => {
  service = await startTrustService({ population: createPopulation({ seed: 44, size: 100 }), rateLimit: false });
  jwks = await fetchJwks(service.url);
  agent = service.population.agents[0]!;
  trustCheckUrl = `${service.url}/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`;
});
afterEach(() => service.clearFaults());
afterAll(() => service.close());

describe("fault injection", () => {
  it("status-500 answers 500 with the error body, for `times` requests only", async () => {
    service.injectFault({ kind: "status-500", times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await getJson(trustCheckUrl);
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe("internal");
    }
    expect((await getJson(trustCheckUrl)).status).toBe(200);
  });

  it("malformed-json answers 200 with a truncated JSON body", async () => {
    service.injectFault({ kind: "malformed-json", path: "/api/trust-check" });
    const res = await fetch(trustCheckUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.startsWith('{"agentId":')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it("slow delays the answer past a client's timeout, then answers normally", async () => {
    service.injectFault({ kind: "slow", delayMs: 1500, times: 1 });
    await expect(fetch(trustCheckUrl, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    service.clearFaults();
    service.injectFault({ kind: "slow", delayMs: 50, times: 1 });
    const res = await getJson(trustCheckUrl);
    expect(res.status).toBe(200);
    expect(res.body.agentId).toBe(agent.agentId);
  });

  it("tampered-signature changes a signed value after signing, so neither sig nor jws verifies", async () => {
    const clean = await getJson(trustCheckUrl);
    service.injectFault({ kind: "tampered-signature", times: 1 });
    const res = await getJson(trustCheckUrl);
    expect(res.status).toBe(200);
    const attestation = res.body.attestation as ServedAttestation;
    expect(attestation.kid).toBe("rnwy-trust-v2");
    expect(attestation.signed.score).not.toBe(clean.body.attestation.signed.score);
    expect(res.body.score).toBe(attestation.signed.score);
    expect(await verifySig(attestation, jwks)).toBe(false);
    await expect(verifyJws(attestation, jwks)).rejects.toThrow(/signature verification failed/);
    // The JWS payload carries the tampered block too.
    const payload = JSON.parse(Buffer.from(attestation.jws.split(".")[1]!, "base64url").toString("utf8"));
    expect(payload).toEqual(attestation.signed);
    // The next answer is clean again.
    const after = await getJson(trustCheckUrl);
    expect(await verifySig(after.body.attestation, jwks)).toBe(true);
  });

  it("tampered-signature also breaks wallet-score and MCP attestations", async () => {
    service.injectFault({ kind: "tampered-signature" });
    const wallet = await getJson(`${service.url}/api/wallet-score?address=${agent.owner}`);
    // The JWT in sig carries the tampered claims (and the top level repeats them): its signature fails.
    await expect(compactVerify(wallet.body.attestation.sig, createLocalJWKSet(jwks), { algorithms: ["ES256"] })).rejects.toThrow(
      /signature verification failed/,
    );
    const claims = JSON.parse(Buffer.from(wallet.body.attestation.sig.split(".")[1]!, "base64url").toString("utf8"));
    expect(claims.signalDepth).toBe(wallet.body.signalDepth);
    const mcp = await getJson(`${service.url}/api/mcp-attestation?canonical_id=a/b`);
    expect(await verifySig(mcp.body.attestation, jwks)).toBe(false);
    const notFound = await getJson(`${service.url}/api/trust-check?wallet=0x${"ee".repeat(20)}`);
    expect(await verifySig(notFound.body.attestation, jwks)).toBe(false);
  });

  it("unknown-kid signs with a key that is not in the JWKS", async () => {
    service.injectFault({ kind: "unknown-kid" });
    const res = await getJson(trustCheckUrl);
    const attestation = res.body.attestation as ServedAttestation;
    expect(attestation.kid).toBe("rnwy-trust-v3");
    expect(jwks.keys.map((k) => k.kid)).not.toContain("rnwy-trust-v3");
    const header = JSON.parse(Buffer.from(attestation.jws.split(".")[0]!, "base64url").toString("utf8"));
    expect(header).toEqual({ alg: "ES256", kid: "rnwy-trust-v3" });
    expect(await verifySig(attestation, jwks)).toBe(false);
    await expect(verifyJws(attestation, jwks)).rejects.toThrow(/no applicable key/i);
    // Signed with the trust key's kid it would not verify either: it is a different key.
    expect(await verifySig({ ...attestation, kid: "rnwy-trust-v2" }, jwks)).toBe(false);
    const mcp = await getJson(`${service.url}/api/mcp-attestation?canonical_id=a/b`);
    expect(mcp.body.attestation.kid).toBe("rnwy-mcp-v2");
    const wallet = await getJson(`${service.url}/api/wallet-score?address=${agent.owner}`);
    expect(wallet.body.attestation.kid).toBe("rnwy-wallet-v2");
  });

  it("rate-limit answers 429 with Retry-After and the error body", async () => {
    service.injectFault({ kind: "rate-limit", retryAfterSeconds: 7, times: 1 });
    const before = service.stats().rateLimited;
    const res = await getJson(trustCheckUrl);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.body.error.code).toBe("rate-limited");
    expect(service.stats().rateLimited).toBe(before + 1);
    expect((await getJson(trustCheckUrl)).status).toBe(200);
  });

  it("drop-connection destroys the socket without an answer", async () => {
    service.injectFault({ kind: "drop-connection", path: "/api/stats" });
    await expect(fetch(`${service.url}/api/stats`)).rejects.toThrow(TypeError);
    // Other paths are unaffected.
    expect((await getJson(trustCheckUrl)).status).toBe(200);
  });

  it("applies by path prefix, defaults to /api/ paths only, and clears", async () => {
    service.injectFault({ kind: "status-500", path: "/api/agents" });
    expect((await getJson(`${service.url}/api/agents?limit=1`)).status).toBe(500);
    expect((await getJson(`${service.url}/api/stats`)).status).toBe(200);
    service.clearFaults();
    service.injectFault({ kind: "status-500" });
    expect((await getJson(`${service.url}/.well-known/jwks.json`)).status).toBe(200);
    expect((await getJson(`${service.url}/api/stats`)).status).toBe(500);
    service.clearFaults();
    expect((await getJson(`${service.url}/api/stats`)).status).toBe(200);
  });

  it("rejects an invalid fault", () => {
    expect(() => service.injectFault({ kind: "explode" as never })).toThrow(/Unknown fault kind/);
    expect(() => service.injectFault({ kind: "slow", delayMs: -1 })).toThrow(/delayMs/);
    expect(() => service.injectFault({ kind: "status-500", path: "api" })).toThrow(/path/);
  });

  it("counts requests by path", async () => {
    const before = service.stats();
    await getJson(`${service.url}/api/stats`);
    await getJson(`${service.url}/api/stats`);
    const after = service.stats();
    expect(after.requests).toBe(before.requests + 2);
    expect(after.byPath["/api/stats"]).toBe((before.byPath["/api/stats"] ?? 0) + 2);
  });
});
