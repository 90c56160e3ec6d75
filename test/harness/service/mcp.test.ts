import type { JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPopulation, MCP_TOOL_NAMES, type RunningTrustService, startTrustService } from "../../../src/harness/service/index.js";
import { fetchJwks, getJson, postJson, verifySig } from "./support.js";

let service: RunningTrustService;
let jwks: JSONWebKeySet;
let mcpUrl: string;

beforeAll(async () => {
  service = await startTrustService({ population: createPopulation({ seed: 55, size: 120 }), rateLimit: false });
  jwks = await fetchJwks(service.url);
  mcpUrl = `${service.url}/api/mcp`;
});
afterAll(() => service.close());

const rpc = (method: string, params?: unknown, id: number | string = 1) =>
  postJson(mcpUrl, { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

const callTool = (name: string, args: unknown) => rpc("tools/call", { name, arguments: args });

describe("POST /api/mcp", () => {
  it("initializes with protocol version, server info and the tools capability", async () => {
    const res = await rpc(
      "initialize",
      { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      "init-1",
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jsonrpc: "2.0",
      id: "init-1",
      result: {
        protocolVersion: "2025-03-26",
        serverInfo: { name: expect.any(String), version: expect.any(String) },
        capabilities: { tools: {} },
      },
    });
    const unknownVersion = await rpc("initialize", { protocolVersion: "1999-01-01" });
    expect(unknownVersion.body.result.protocolVersion).toBe("2025-06-18");
  });

  it("lists the tools with input schemas", async () => {
    const res = await rpc("tools/list", {});
    const tools = res.body.result.tools as { name: string; description: string; inputSchema: { type: string; required?: string[] } }[];
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    for (const name of ["trust_check", "network_stats", "reviewer_analysis", "compare_agents", "address_age", "commerce_stats"]) {
      expect(tools.map((t) => t.name)).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description.length).toBeGreaterThan(0);
    }
    expect(tools.find((t) => t.name === "trust_check")!.inputSchema.required).toEqual(["id", "chain"]);
  });

  it("calls trust_check: the text is the trust-check body with a verifiable attestation", async () => {
    const agent = service.population.agents[0]!;
    const res = await callTool("trust_check", { id: agent.agentId, chain: agent.chain, registry: agent.registry });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(false);
    const [content] = res.body.result.content;
    expect(content.type).toBe("text");
    const body = JSON.parse(content.text);
    expect(body).toMatchObject({ agentId: agent.agentId, chain: agent.chain, registry: agent.registry, score: agent.score });
    expect(await verifySig(body.attestation, jwks)).toBe(true);
  });

  it("calls network_stats: the text equals /api/stats", async () => {
    const res = await callTool("network_stats", {});
    const stats = await getJson(`${service.url}/api/stats`);
    expect(JSON.parse(res.body.result.content[0].text)).toEqual(stats.body);
  });

  it("calls the other tools", async () => {
    const [a, b] = service.population.agents.filter((x) => x.registry === "erc8004");
    const analysis = await callTool("reviewer_analysis", { id: String(a!.agentId), chain: a!.chain });
    expect(JSON.parse(analysis.body.result.content[0].text).agentId).toBe(a!.agentId);
    const compare = await callTool("compare_agents", { agents: `${a!.chain}:${a!.agentId},${b!.chain}:${b!.agentId}` });
    expect(JSON.parse(compare.body.result.content[0].text).agents).toHaveLength(2);
    const age = await callTool("address_age", { address: a!.owner, chain: a!.chain });
    expect(JSON.parse(age.body.result.content[0].text).ageDays).toBeGreaterThanOrEqual(a!.ageDays);
    const ageAnyChain = await callTool("address_age", { address: a!.owner });
    expect(JSON.parse(ageAnyChain.body.result.content[0].text).chain).toBeNull();
    const olas = service.population.agents.find((x) => x.registry === "olas")!;
    const byAgent = JSON.parse(
      (await callTool("commerce_stats", { id: olas.agentId, chain: olas.chain, registry: "olas" })).body.result.content[0].text,
    );
    expect(byAgent.commerce_stats[0]).toMatchObject({ agent_id: String(olas.agentId), registry: "olas" });
    const byAddress = JSON.parse((await callTool("commerce_stats", { address: olas.owner })).body.result.content[0].text);
    expect(byAddress.linked_agents).toContainEqual({ agent_id: olas.agentId, chain: olas.chain, registry: "olas" });
    expect((await callTool("commerce_stats", {})).body.error.code).toBe(-32602);
    const risk = JSON.parse((await callTool("risk_terms", { agent_id: a!.agentId, chain: a!.chain })).body.result.content[0].text);
    expect(risk).toMatchObject({ agent_id: a!.agentId, chain: a!.chain });
    expect(risk.risk_tier.level).toBeGreaterThanOrEqual(1);
    const reviewer = await callTool("reviewer_wallet", { address: a!.owner, chain: a!.chain, summary: true });
    expect(typeof JSON.parse(reviewer.body.result.content[0].text).summary).toBe("object");
  });

  it("reports an unknown agent as a tool error (isError), not a protocol error", async () => {
    const res = await callTool("trust_check", { id: 999999, chain: "base" });
    expect(res.status).toBe(200);
    expect(res.body.error).toBeUndefined();
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text).error.code).toBe("not-found");
  });

  it("answers -32602 for an unknown tool or bad arguments", async () => {
    const unknown = await callTool("no_such_tool", {});
    expect(unknown.body.error.code).toBe(-32602);
    const badId = await callTool("trust_check", { id: "abc", chain: "base" });
    expect(badId.body.error.code).toBe(-32602);
    expect(badId.body.error.message).toMatch(/Invalid id/);
    const badChain = await callTool("trust_check", { id: 1, chain: "bas" });
    expect(badChain.body.error.code).toBe(-32602);
    const notObject = await callTool("trust_check", [1, "base"]);
    expect(notObject.body.error.code).toBe(-32602);
  });

  it("answers -32601 for an unknown method and -32600 for an invalid request", async () => {
    const method = await rpc("resources/list", {}, 7);
    expect(method.status).toBe(200);
    expect(method.body).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: expect.stringContaining("resources/list") } });
    const invalid = await postJson(mcpUrl, { jsonrpc: "1.0", id: 3, method: "tools/list" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe(-32600);
    expect(invalid.body.id).toBe(3);
    const noMethod = await postJson(mcpUrl, { jsonrpc: "2.0", id: 4 });
    expect(noMethod.body.error.code).toBe(-32600);
    const scalar = await postJson(mcpUrl, 42);
    expect(scalar.body.error.code).toBe(-32600);
  });

  it("answers -32700 for a body that is not JSON", async () => {
    const res = await getJson(mcpUrl, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it("answers a notification with 202 and no body, and a batch with an array", async () => {
    const res = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
    const batch = await postJson(mcpUrl, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "nope" },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, error: { code: -32601, message: expect.any(String) } },
    ]);
  });

  it("answers GET with 405", async () => {
    const res = await getJson(mcpUrl);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
