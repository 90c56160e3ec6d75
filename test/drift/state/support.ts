/**
 * Helpers of the state tests: a population with some agents changed (what the service serves next), the trust-check
 * requests the local service counted, and what "the same report" means for a run continued after a kill.
 */
import { agentKey } from "../../../src/agent/agent-ref";
import { resolveChain } from "../../../src/config/chains";
import { tierForScore } from "../../../src/config/encodings";
import type { DriftReport } from "../../../src/drift/types";
import { compareListingOrder, type PopulationAgent } from "../../../src/harness/service/agent";
import type { Population, RunningTrustService } from "../../../src/harness/service/index";

/**
 * The population with some agents changed (a new score carries its tier). The listing and the signed attestations
 * both serve the change.
 */
export function withChanges(base: Population, changes: ReadonlyMap<string, Partial<PopulationAgent>>): Population {
  const agents = base.agents.map((agent) => {
    const change = changes.get(agentKey(agent));
    if (!change) return agent;
    const score = change.score ?? agent.score;
    return Object.freeze({ ...agent, ...change, score, tier: tierForScore(score) });
  });
  const byKey = new Map(agents.map((agent) => [agentKey(agent), agent]));
  let sorted: readonly PopulationAgent[] | undefined;
  return {
    seed: base.seed,
    at: base.at,
    chains: base.chains,
    registries: base.registries,
    agents,
    size: agents.length,
    get: (chain, agentId, registry = "erc8004") => {
      try {
        return byKey.get(`${resolveChain(chain).slug}:${registry.toLowerCase()}:${BigInt(String(agentId))}`);
      } catch {
        return undefined;
      }
    },
    byOwner: (address) => agents.filter((agent) => agent.owner === address.toLowerCase()),
    sorted: () => (sorted ??= Object.freeze([...agents].sort(compareListingOrder))),
    advance: () => {
      throw new Error("withChanges: advance is not supported");
    },
  };
}

/** Trust-check requests the service has answered so far (each a signed fetch: no faults, no retries). */
export function signedRequests(service: RunningTrustService): number {
  return service.stats().byPath["/api/trust-check"] ?? 0;
}

/**
 * What "the same report" means for a run continued after a kill (or a stop): the rows, the summary and what changed
 * since the previous night equal — everything but `runtime` (timings, requests made, answers reused), `notes` (the
 * continued run says it continued), `source.blockNumber`, the state file's name (`summary.triage.state.file`) and when
 * each problem was first seen. Timestamps are equal because the tests fix the clock; `omit` drops more fields from the
 * summary when a run that cannot share the clock took part (a separate process).
 */
export function sameReportParts(report: DriftReport, omit: (summary: Record<string, unknown>) => void = () => {}) {
  const summary = structuredClone(report.summary) as unknown as Record<string, unknown>;
  // The state file's name differs from run to run (each test run writes its own).
  delete (summary.triage as { state?: { file?: string } } | undefined)?.state?.file;
  omit(summary);
  return {
    generatedAt: report.generatedAt,
    decisionRule: report.decisionRule,
    summary,
    sinceLastNight: sinceLastNightParts(report),
    agents: report.agents,
  };
}

/**
 * What changed since the previous night, without when each problem was first seen (a run in another process started
 * on its own clock).
 */
function sinceLastNightParts(report: DriftReport) {
  const since = report.sinceLastNight;
  if (!since) return since;
  const lists = ["new", "persisting", "resolved", "accepted", "unverified"] as const;
  return Object.fromEntries(lists.map((list) => [list, since[list].map(({ since: _first, ...problem }) => problem)]));
}
