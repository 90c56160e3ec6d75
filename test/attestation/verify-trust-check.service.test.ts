import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createJwksResolver,
  type JwksResolver,
  verifyMcpAttestation,
  verifyTrustAttestation,
  verifyWalletScoreAttestation,
} from "../../src/attestation/verify.js";
import { createPopulation, type RunningTrustService, startTrustService } from "../../src/harness/service/index.js";

// Interoperability: the verifier against the kit's local signing service, over real HTTP, with the JWKS it
// publishes. Whatever the service signs must verify; whatever its faults break must not.

let service: RunningTrustService;
let resolver: JwksResolver;

async function get(path: string): Promise<unknown> {
  const response = await fetch(`${service.url}${path}`);
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  service = await startTrustService({ population: createPopulation({ seed: 11, size: 60 }), rateLimit: false });
  resolver = createJwksResolver({ url: `${service.url}/.well-known/jwks.json` });
});

afterEach(() => service.clearFaults());

afterAll(async () => {
  await service.close();
});

describe("verifier ↔ local signing service", () => {
  it("verifies trust-check responses for every agent of a small population, in both signatures", async () => {
    const agents = service.population.agents.slice(0, 25);
    for (const agent of agents) {
      const body = await get(`/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
      const options = {
        jwks: resolver,
        issuer: service.issuer,
        expected: { agentId: agent.agentId, chain: agent.chain, registry: agent.registry },
      };
      const result = await verifyTrustAttestation(body, { ...options, verify: "both" });
      expect(result.message).toMatch(/^valid/);
      expect(result).toMatchObject({ valid: true, version: "v2", verified: { jws: true, sig: true }, checked: "both" });
      expect(result.signed?.score).toBe(agent.score);
      const one = await verifyTrustAttestation(body, options);
      expect(one).toMatchObject({ valid: true, version: "v2", verified: { jws: true, sig: "not-checked" }, checked: "jws" });
    }
    expect(resolver.stats.fetches).toBe(1);
  });

  it("verifies the default issuer JWKS path when only the issuer is configured", async () => {
    const agent = service.population.agents[0]!;
    const body = await get(`/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
    expect((await verifyTrustAttestation(body, { issuer: service.issuer })).valid).toBe(true);
  });

  it("verifies the signed unknown-wallet envelope", async () => {
    const wallet = "0x000000000000000000000000000000000000dEaD";
    const body = await get(`/api/trust-check?wallet=${wallet}`);
    const result = await verifyTrustAttestation(body, { jwks: resolver, issuer: service.issuer, expected: { wallet } });
    expect(result).toMatchObject({ valid: true, version: "wallet-not-found" });
  });

  it("verifies wallet-score and MCP attestations", async () => {
    const owner = service.population.agents[0]!.owner;
    const walletScore = await verifyWalletScoreAttestation(await get(`/api/wallet-score?address=${owner}`), {
      jwks: resolver,
      issuer: service.issuer,
    });
    expect(walletScore).toMatchObject({ valid: true, kid: "rnwy-wallet-v1", version: "scored", verified: { sig: true } });
    expect(walletScore.signed?.wallet).toBe(owner);
    const mcp = await verifyMcpAttestation(await get("/api/mcp-attestation?canonical_id=acme/weather"), {
      jwks: resolver,
      issuer: service.issuer,
    });
    expect(mcp).toMatchObject({ valid: true, kid: "rnwy-mcp-v1", version: "canonical-id" });
    expect(mcp.signed).toMatchObject({ canonical_id: "acme/weather" });
  });

  it("refuses the service's tampered-signature and unknown-kid faults", async () => {
    const agent = service.population.agents[1]!;
    const path = `/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`;
    service.injectFault({ kind: "tampered-signature", path: "/api/trust-check", times: 1 });
    const tampered = await verifyTrustAttestation(await get(path), { jwks: resolver, issuer: service.issuer });
    expect(tampered).toMatchObject({ valid: false, reason: "bad-jws-signature", verified: { jws: false, sig: false } });

    service.injectFault({ kind: "unknown-kid", path: "/api/trust-check", times: 1 });
    const unknownKid = await verifyTrustAttestation(await get(path), {
      jwks: resolver,
      issuer: service.issuer,
      acceptedKids: ["rnwy-trust-v2", "rnwy-trust-v3"],
    });
    expect(unknownKid).toMatchObject({ valid: false, reason: "key-not-found", kid: "rnwy-trust-v3" });
    const defaultKids = await verifyTrustAttestation(await get(path), { jwks: resolver, issuer: service.issuer });
    expect(defaultKids.valid).toBe(true); // the fault applied once
  });

  it("refuses a service response when the verifier expects the real issuer", async () => {
    const agent = service.population.agents[2]!;
    const body = await get(`/api/trust-check?id=${agent.agentId}&chain=${agent.chain}&registry=${agent.registry}`);
    expect(await verifyTrustAttestation(body, { jwks: resolver })).toMatchObject({ valid: false, reason: "issuer-mismatch" });
  });
});
