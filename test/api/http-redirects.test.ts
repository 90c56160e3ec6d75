/**
 * The transport's redirects, over real HTTP on 127.0.0.1: two servers on different ports are different origins. A
 * redirect within the request's origin is followed (a bounded number of times, a `POST` kept as one through a
 * `307`/`308`); one to another origin is refused with {@link RedirectRefusedError} naming its redacted target, and the
 * other origin never receives the request.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createTrustApiClient } from "../../src/api/client.js";
import { createHttpTransport, MAX_REDIRECTS } from "../../src/api/http.js";
import { RedirectRefusedError } from "../../src/errors.js";
import { type ScriptedResponse, type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: (index: number, request: ScriptedServer["requests"][number]) => ScriptedResponse) {
  const server = await startScriptedServer((req, i) => script(i, req));
  servers.push(server);
  return server;
}

const STATS = { totalAgents: 12, chains: 2, registrations: 12, byChain: { base: 8, ethereum: 4 }, updatedAt: "2026-11-22T03:00:00.000Z" };

function transportFor(url: string, apiKey?: string) {
  return createHttpTransport({ baseUrl: url, apiKey, retries: 2, sleep: async () => {}, random: () => 0 });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("transport: redirects", () => {
  it("refuses a redirect to another origin, naming its redacted target; the other origin receives nothing", async () => {
    const elsewhere = await serve(() => ({ json: STATS }));
    const service = await serve(() => ({ status: 302, headers: { location: `${elsewhere.url}/internal/admin?token=s3cret&chain=base` } }));
    const error = await rejection(transportFor(service.url, "key-123").request({ path: "/api/stats" }));
    expect(error).toBeInstanceOf(RedirectRefusedError);
    const refused = error as RedirectRefusedError;
    expect(refused.status).toBe(302);
    expect(refused.url).toBe(`${service.url}/api/stats`);
    expect(refused.location).toBe(`${elsewhere.url}/internal/admin?token=***&chain=base`);
    expect(refused.message).toContain(`was redirected (HTTP 302) to ${elsewhere.url}/internal/admin?token=***&chain=base, not followed`);
    expect(refused.message).toContain(`another origin than ${service.url}`);
    expect(refused.message).not.toContain("s3cret");
    expect(elsewhere.requests).toHaveLength(0);
    expect(service.requests).toHaveLength(1); // not retried
  });

  it("refuses a redirect to the same host on another port, and one to a scheme other than http(s)", async () => {
    const other = await serve(() => ({ json: STATS }));
    const port = new URL(other.url).port;
    const service = await serve((i) => ({
      status: 301,
      headers: { location: i === 0 ? `http://localhost:${port}/api/stats` : "file:///etc/passwd" },
    }));
    const toLocalhost = (await rejection(transportFor(service.url).request({ path: "/api/stats" }))) as RedirectRefusedError;
    expect(toLocalhost).toBeInstanceOf(RedirectRefusedError);
    expect(toLocalhost.location).toBe(`http://localhost:${port}/api/stats`);
    const toFile = (await rejection(transportFor(service.url).request({ path: "/api/stats" }))) as RedirectRefusedError;
    expect(toFile).toBeInstanceOf(RedirectRefusedError);
    expect(toFile.message).toContain("not an http(s) URL");
    expect(other.requests).toHaveLength(0);
  });

  it("follows a redirect within the origin, with the key, and answers from its target", async () => {
    const service = await serve((_, req) =>
      req.url === "/api/stats" ? { status: 307, headers: { location: "/v2/api/stats" } } : { json: STATS },
    );
    const response = await transportFor(service.url, "key-123").request({ path: "/api/stats" });
    expect(response.body).toMatchObject({ totalAgents: 12 });
    expect(service.requests.map((r) => r.url)).toEqual(["/api/stats", "/v2/api/stats"]);
    expect(service.requests.map((r) => r.headers.authorization)).toEqual(["Bearer key-123", "Bearer key-123"]);
  });

  it("keeps a POST and its body through a 307, and continues a 303 as a GET without the body", async () => {
    const terms = { recommendation: "terms" };
    const service = await serve((_, req) => {
      if (req.url === "/api/risk-terms") return { status: 307, headers: { location: "/api/risk-terms/v2" } };
      if (req.url === "/api/risk-terms/v2") return { status: 303, headers: { location: "/api/risk-terms/result" } };
      return { json: terms };
    });
    const response = await transportFor(service.url).request({ method: "POST", path: "/api/risk-terms", body: { agent_id: "1" } });
    expect(response.body).toEqual(terms);
    expect(service.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ["POST", "/api/risk-terms", '{"agent_id":"1"}'],
      ["POST", "/api/risk-terms/v2", '{"agent_id":"1"}'],
      ["GET", "/api/risk-terms/result", ""],
    ]);
    expect(service.requests[2]!.headers["content-type"]).toBeUndefined();
  });

  it(`follows at most ${MAX_REDIRECTS} redirects within the origin, then refuses`, async () => {
    const service = await serve((i) => ({ status: 302, headers: { location: `/hop/${i + 1}` } }));
    const error = (await rejection(transportFor(service.url).request({ path: "/api/stats" }))) as RedirectRefusedError;
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect(error.message).toContain(`more than ${MAX_REDIRECTS} redirects`);
    expect(service.requests).toHaveLength(MAX_REDIRECTS + 1);
  });

  it("the client's methods go through the same rule", async () => {
    const elsewhere = await serve(() => ({ json: STATS }));
    const service = await serve(() => ({ status: 308, headers: { location: `${elsewhere.url}/api/stats` } }));
    const api = createTrustApiClient({ baseUrl: service.url, rateLimit: false, retries: 0 });
    expect(await rejection(api.stats())).toBeInstanceOf(RedirectRefusedError);
    expect(elsewhere.requests).toHaveLength(0);
  });
});
