// The service's health against the kit's local signing service on loopback (its JWKS and API over real HTTP), with a
// kid it does not hold, with its API failing, and against a loopback port that accepts connections and never answers.
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrustApiClient } from "../../src/api/client";
import { createJwksResolver } from "../../src/attestation/jwks";
import { TRUST_ATTESTATION_KIDS } from "../../src/config/service";
import { type RunningTrustService, startTrustService } from "../../src/harness/service/index";
import { createPopulation } from "../../src/harness/service/population";
import { checkServiceHealth, serviceCondition } from "../../src/watch/service-health";

let service: RunningTrustService;
let silent: Server;
let silentUrl: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  service = await startTrustService({ population: createPopulation({ seed: 3, size: 20 }), rateLimit: false });
  // A port that accepts the connection and never answers a byte.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  silentUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await service?.close();
});

function clients(baseUrl: string) {
  return {
    api: createTrustApiClient({ baseUrl, rateLimit: false, retries: 0, timeoutMs: 300 }),
    jwks: createJwksResolver({ url: `${baseUrl}/.well-known/jwks.json`, timeoutMs: 300 }),
  };
}

describe("checkServiceHealth", () => {
  it("is healthy when the JWKS holds an accepted kid with a usable key and the API answers: no condition", async () => {
    const listingsBefore = service.stats().byPath["/api/agents"] ?? 0;
    const health = await checkServiceHealth({ ...clients(service.url), acceptedKids: TRUST_ATTESTATION_KIDS });
    expect(health).toMatchObject({ healthy: true, problems: [] });
    expect(health.kids).toEqual(expect.arrayContaining(["rnwy-trust-v2", "rnwy-trust-v1"]));
    expect(serviceCondition(health, service.url)).toBeNull();
    // one cheap API request: one listing entry
    expect((service.stats().byPath["/api/agents"] ?? 0) - listingsBefore).toBe(1);
  });

  it("is unhealthy when the JWKS holds none of the accepted kids, naming what it holds", async () => {
    const health = await checkServiceHealth({ ...clients(service.url), acceptedKids: ["rnwy-trust-v9"] });
    expect(health.healthy).toBe(false);
    expect(health.problems).toHaveLength(1);
    expect(health.problems[0]).toMatch(/holds none of the accepted kids \(rnwy-trust-v9\); it holds .*rnwy-trust-v2/);
    const condition = serviceCondition(health, `${service.url}/some/path`);
    expect(condition).toMatchObject({ kind: "service-unhealthy", id: `service-unhealthy:${service.url}`, agent: null, decision: null });
    expect(condition!.evidence.details).toEqual(expect.arrayContaining([health.problems[0]]));
  });

  it("is unhealthy when the API answers 500, with the JWKS still fine", async () => {
    service.injectFault({ kind: "status-500", path: "/api/agents", times: 1 });
    const health = await checkServiceHealth({ ...clients(service.url), acceptedKids: TRUST_ATTESTATION_KIDS });
    expect(health.healthy).toBe(false);
    expect(health.problems).toEqual([
      expect.stringMatching(/^the API does not answer \(GET \/api\/agents\?limit=1 at http:\/\/127\.0\.0\.1:\d+\): .*500/),
    ]);
    expect(health.kids).toContain("rnwy-trust-v2");
  });

  it("against a loopback port that never answers: both the JWKS and the API are named as problems, no kids", async () => {
    const health = await checkServiceHealth({ ...clients(silentUrl), acceptedKids: TRUST_ATTESTATION_KIDS });
    expect(health.healthy).toBe(false);
    expect(health.kids).toEqual([]);
    expect(health.problems).toHaveLength(2);
    expect(health.problems[0]).toMatch(/^the JWKS does not answer: /);
    expect(health.problems[1]).toMatch(/^the API does not answer \(GET \/api\/agents\?limit=1 at /);
    expect(serviceCondition(health, silentUrl)!.summary).toMatch(
      new RegExp(`^the service at ${silentUrl} is unhealthy: the JWKS does not answer`),
    );
  });

  it("an aborted check is a problem, not a throw", async () => {
    const controller = new AbortController();
    controller.abort(new Error("watch stopping"));
    const health = await checkServiceHealth({ ...clients(service.url), acceptedKids: TRUST_ATTESTATION_KIDS, signal: controller.signal });
    expect(health.healthy).toBe(false);
    expect(health.problems).toEqual([expect.stringContaining("watch stopping")]);
  });
});
