// The slow audit's population, listed from the kit's local signing service over loopback HTTP: every EVM agent the
// service lists, once, sorted so that a kept cursor points at the same agent after a restart; non-EVM agents left out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentRef, agentKey, compareAgentRefs, formatAgentRef } from "../../src/agent/agent-ref";
import { createTrustApiClient } from "../../src/api/client";
import { type RunningTrustService, startTrustService } from "../../src/harness/service/index";
import { createPopulation } from "../../src/harness/service/population";
import { listAuditPopulation } from "../../src/watch/audit-walk";

let service: RunningTrustService;
const population = createPopulation({ seed: 5, size: 1200, chains: ["base", "polygon"], registries: ["erc8004", "olas"], solanaAgents: 7 });

beforeAll(async () => {
  service = await startTrustService({ population, rateLimit: false });
});
afterAll(async () => service?.close());

const api = () => createTrustApiClient({ baseUrl: service.url, rateLimit: false });
const keys = (agents: readonly AgentRef[]) => agents.map(agentKey);

describe("listAuditPopulation", () => {
  it("lists every EVM agent of the service once, across pages, sorted by chain, id and registry", async () => {
    const listed = await listAuditPopulation({ api: api() });
    const evm = population.agents.filter((a) => a.chain !== "solana");
    expect(evm.length).toBe(1200);
    expect(listed).toHaveLength(evm.length);
    expect(new Set(keys(listed))).toEqual(new Set(evm.map((a) => agentKey({ ...a, agentId: BigInt(a.agentId) }))));
    expect(keys(listed)).toEqual(keys([...listed].sort(compareAgentRefs)));
    expect(listed.every((a) => a.chainId === (a.chain === "base" ? 8453 : 137))).toBe(true);
    expect(listed.some((a) => formatAgentRef(a).startsWith("solana"))).toBe(false);
  });

  it("lists one chain alone when asked", async () => {
    const listed = await listAuditPopulation({ api: api() }, { chain: "polygon" });
    expect(listed.length).toBe(population.agents.filter((a) => a.chain === "polygon").length);
    expect(listed.every((a) => a.chain === "polygon")).toBe(true);
  });

  it("the same listing gives the same order: a cursor kept across a restart names the same agent", async () => {
    const [first, second] = [await listAuditPopulation({ api: api() }), await listAuditPopulation({ api: api() })];
    expect(keys(second)).toEqual(keys(first));
  });

  it("stops with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopping"));
    await expect(listAuditPopulation({ api: api() }, { signal: controller.signal })).rejects.toThrow("stopping");
  });
});
