// `trustgate doctor` against a service that redirects every request to another origin (another port on loopback):
// the doctor follows none of them, so the other origin receives nothing, not even the API key, and each check that
// needed an answer could not be made, naming the redirect's target.
import { afterEach, describe, expect, it } from "vitest";
import { runDoctor } from "../../src/doctor/run";
import { type ScriptedServer, startScriptedServer } from "../support/scripted-server";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("trustgate doctor and redirects", () => {
  it("follows no redirect to another origin: the other origin receives nothing, and the checks say where it pointed", async () => {
    const elsewhere = await startScriptedServer(() => ({ json: { agents: [] } }));
    servers.push(elsewhere);
    const service = await startScriptedServer((req) => ({ status: 302, headers: { location: `${elsewhere.url}${req.url}` } }));
    servers.push(service);
    const report = await runDoctor({ apiUrl: service.url, apiKey: "doctor-key-123", timeoutMs: 5_000 });
    expect(elsewhere.requests).toEqual([]);
    expect(service.requests.length).toBeGreaterThan(0);
    expect(service.requests.every((r) => r.method === "GET" || r.method === "POST")).toBe(true);
    const listing = report.checks.find((c) => c.id === "fields:agents")!;
    expect(listing.status).toBe("could-not-check");
    expect(listing.summary).toContain(`was redirected (HTTP 302) to ${elsewhere.url}/api/agents`);
    expect(listing.summary).toContain("not followed");
    const keys = report.checks.find((c) => c.id === "jwks-kids")!;
    expect(keys.status).toBe("could-not-check");
    expect(keys.summary).toMatch(/redirect/);
    expect(JSON.stringify(report)).not.toContain("doctor-key-123");
  });
});
