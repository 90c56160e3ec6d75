/**
 * The watch's checker: agents checked at a block with the drift job's own pipeline (`scanAgents`: every agent's
 * signed attestation fetched and verified, compared with the record read at that block under the drift rule), so
 * that the watch's statuses and decisions are the drift job's; and the conditions a check raises and clears, with the
 * same identity and the same rule as the drift report's "since last night":
 *
 * - a problem (`problemOf`: `pass-to-fail`, `fail-to-pass`, `invalid-attestation`) raises its condition, and a row
 *   that verified clears the agent's other problems;
 * - a row that could not be verified (`error`, `missing-attestation`) neither raises nor clears: what was known stays
 *   known until the agent is verified again ("since last night"'s `unverified`);
 * - a `stale-onchain` row raises `record-stale`, a row that shows the record fresh (or gone) clears it.
 *
 * @packageDocumentation
 */
import { type AgentRef, agentKey, formatAgentRef } from "../agent/agent-ref.js";
import type { TrustApiClient } from "../api/client.js";
import { DEFAULT_REGISTRY } from "../config/service.js";
import type { ServiceOutcome } from "../drift/service-data.js";
import { scanAgents } from "../drift/scan.js";
import { problemOf } from "../drift/since-last-night.js";
import type { DriftProblem, DriftRow, DriftStatus } from "../drift/types.js";
import type { WatchConnection } from "./connect.js";
import type { AgentCheck, AlertEvidence, AlertKind, CheckTrigger, Condition } from "./types.js";

/** Checks agents against fresh signed attestations. */
export interface AgentChecker {
  /**
   * Checks agents at a block with the drift pipeline (`scanAgents`, a list: every agent's signed attestation fetched).
   *
   * @param agents - The agents (an agent named twice is checked once).
   * @param trigger - Why they are checked (a change, a reorg, the audit).
   * @param blockNumber - The block to read the records at (a confirmed block).
   * @param signal - Abandons the check: no more signed fetches start, and the promise rejects with its reason.
   * @returns One check per distinct agent, in the order given. A failure on one agent is its row's status (`error`),
   *   never a throw: the promise rejects only when `signal` aborts, with its reason.
   */
  check(agents: readonly AgentRef[], trigger: CheckTrigger, blockNumber: bigint, signal?: AbortSignal): Promise<AgentCheck[]>;
}

/**
 * Why an agent's check could not verify it (its row is `error`), as a metric's label: `rpc` (the record could not be
 * read), `service` (the signed fetch failed: the network, a 5xx, the rate limit, a time-out, a malformed body) or
 * `not-evm` (the agent is on a chain the oracle holds no records for).
 */
export type CheckFailureCause = "rpc" | "service" | "not-evm";

/** What an agent's check took of the service, and why it failed, for the metrics. */
export interface CheckLatency {
  /**
   * Seconds the agent's signed fetch took (the `/api/trust-check` call: its request, retries and any wait on the
   * rate limiter); absent when no fetch was made (an agent the oracle cannot hold a record for).
   */
  readonly apiSeconds?: number;
  /** Why the check could not verify the agent (its row is `error`); absent otherwise. */
  readonly failure?: CheckFailureCause;
}

/** Options of {@link createAgentChecker}. */
export interface AgentCheckerOptions {
  /** Receives each check as it is made, with what it took of the service and why it failed, if it did. */
  readonly onCheck?: (check: AgentCheck, latency: CheckLatency) => void;
  /** Monotonic clock in milliseconds, for {@link CheckLatency}; default `performance.now`. */
  readonly clock?: () => number;
}

/**
 * Makes the checker.
 *
 * @param connection - The watch's scan options (its one service client, key resolver and rule).
 * @param options - A hook receiving each check with its latency and failure cause, and the clock that times it.
 * @returns The checker.
 */
export function createAgentChecker(connection: Pick<WatchConnection, "scan">, options: AgentCheckerOptions = {}): AgentChecker {
  const clock = options.clock ?? (() => performance.now());
  return {
    async check(agents, trigger, blockNumber, signal) {
      const distinct = distinctAgents(agents);
      if (distinct.length === 0) return [];
      // Each agent's signed fetch timed by its key; the map lives for this check only.
      const apiSeconds = new Map<string, number>();
      const api = timedTrustChecks(connection.scan.api, clock, apiSeconds);
      const result = await scanAgents(distinct, { ...connection.scan, api, blockNumber, keepRows: true, ...(signal ? { signal } : {}) });
      const rows = new Map(result.rows.map((row) => [agentKey(row), row]));
      // What the scan knew of each candidate: its record read, and the service's answer.
      const scanned = new Map<string, { readonly readOk: boolean; readonly outcome: ServiceOutcome | undefined }>();
      result.scanned?.candidates.forEach((candidate, i) => {
        scanned.set(agentKey(candidate.agent), { readOk: result.records[i]?.ok === true, outcome: result.scanned!.outcomes[i] });
      });
      return distinct.map((agent) => {
        const key = agentKey(agent);
        const row = rows.get(key)!;
        const facts = scanned.get(key);
        const outcome = facts?.outcome;
        const check: AgentCheck = {
          agent,
          row,
          problem: problemOf(row),
          trigger,
          blockNumber,
          ...(outcome?.kind === "verified" ? { attestationExpiresAt: outcome.expiresAt ? outcome.expiresAt.toISOString() : null } : {}),
        };
        const seconds = apiSeconds.get(key);
        const failure: CheckFailureCause | undefined =
          row.status !== "error" ? undefined : facts === undefined ? "not-evm" : facts.readOk ? "service" : "rpc";
        options.onCheck?.(check, { ...(seconds === undefined ? {} : { apiSeconds: seconds }), ...(failure ? { failure } : {}) });
        return check;
      });
    },
  };
}

/** The agents once each, in the order first given. */
function distinctAgents(agents: readonly AgentRef[]): AgentRef[] {
  const seen = new Set<string>();
  return agents.filter((agent) => {
    const key = agentKey(agent);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The client, with each `trustCheck` call's duration recorded under its agent's key. */
function timedTrustChecks(api: TrustApiClient, clock: () => number, into: Map<string, number>): TrustApiClient {
  return {
    ...api,
    async trustCheck(params) {
      const started = clock();
      try {
        return await api.trustCheck(params);
      } finally {
        const key = agentKey({ chain: String(params.chain), registry: params.registry ?? DEFAULT_REGISTRY, agentId: BigInt(params.id) });
        into.set(key, (clock() - started) / 1000);
      }
    },
  };
}

/**
 * The id of an agent's condition: `<kind>:<agentKey>`, as "since last night" identifies an agent's problem.
 *
 * @param kind - The alert's kind.
 * @param agent - The agent.
 * @returns The id, e.g. `pass-to-fail:base:erc8004:16907`.
 */
export function agentConditionId(kind: AlertKind, agent: AgentRef): string {
  return `${kind}:${agentKey(agent)}`;
}

/** The problems an agent's row can show, each one condition. */
const PROBLEMS: readonly DriftProblem[] = ["pass-to-fail", "fail-to-pass", "invalid-attestation"];

/** Statuses of rows that were not verified: they say nothing new about the agent's problems. */
const UNVERIFIED: ReadonlySet<DriftStatus> = new Set<DriftStatus>(["error", "missing-attestation"]);

/** Statuses that show the record fresh (or no record held): `record-stale` is over. */
const NOT_STALE: ReadonlySet<DriftStatus> = new Set<DriftStatus>(["in-sync", "drifted", "missing-onchain"]);

/**
 * The conditions an agent's check raises (its problem, a stale record) and the ids of those it clears.
 *
 * @param check - The check.
 * @param context - The staleness limit the row was judged with (`--max-age`), for the alert's text.
 * @returns What to raise, and the ids to clear.
 */
export function conditionsOfCheck(
  check: AgentCheck,
  context: { readonly maxAgeSeconds: number },
): { readonly raise: Condition[]; readonly clear: string[] } {
  const { row, agent } = check;
  if (UNVERIFIED.has(row.status)) return { raise: [], clear: [] };
  const raise: Condition[] = [];
  const clear: string[] = [];
  const problem = check.problem ?? problemOf(row);
  if (problem !== null) raise.push(agentCondition(problem, check, problemSummary(problem, row)));
  for (const other of PROBLEMS) if (other !== problem) clear.push(agentConditionId(other, agent));
  if (row.status === "stale-onchain") raise.push(agentCondition("record-stale", check, staleSummary(row, context.maxAgeSeconds)));
  else if (NOT_STALE.has(row.status)) clear.push(agentConditionId("record-stale", agent));
  return { raise, clear };
}

/** An agent's condition: the row's two sides, the decisions and the evidence. */
function agentCondition(kind: AlertKind, check: AgentCheck, summary: string): Condition {
  const { row } = check;
  return {
    kind,
    id: agentConditionId(kind, check.agent),
    agent: formatAgentRef(check.agent),
    summary,
    before: row.onchain,
    after: row.attested,
    decision: { onchain: row.decision.onchain, attested: row.decision.attested },
    evidence: evidenceOf(check),
  };
}

/** Where the facts of an agent's check come from. */
function evidenceOf(check: AgentCheck): AlertEvidence {
  const { row, trigger } = check;
  return {
    blockNumber: check.blockNumber.toString(),
    transactionHash: trigger.kind === "change" ? trigger.change.transactionHash : null,
    kid: row.attested?.kid ?? null,
    issuedAt: row.attested?.kid ? row.attestedComputedAt : null,
    expiresAt: check.attestationExpiresAt ?? row.refresh?.expiresAt ?? null,
    recordUpdatedAt: row.onchain?.updatedAt ?? null,
    details: [
      `status: ${row.status}`,
      ...(row.reason ? [`reason: ${row.reason}`] : []),
      `checked because of ${describeTrigger(trigger)}`,
      ...(row.attested?.kid ? [`signed at ${row.attested.attestedAt}`] : []),
    ],
  };
}

/** Why an agent was checked, in a few words. */
function describeTrigger(trigger: CheckTrigger): string {
  if (trigger.kind === "audit") return "the slow audit";
  if (trigger.kind === "reorg") return `a reorg of depth ${trigger.reorg.depth} above block ${trigger.reorg.commonAncestor}`;
  return `${trigger.change.kind} in block ${trigger.change.block.number} (transaction ${trigger.change.transactionHash})`;
}

/** One line of a problem: which agent, which way the gate's decision turns, on which scores. */
function problemSummary(problem: DriftProblem, row: DriftRow): string {
  const agent = formatAgentRef(row);
  if (problem === "invalid-attestation")
    return `${agent}: the service's signed attestation does not verify (${row.reason ?? "no reason given"})`;
  const scores = `on-chain score ${row.onchain?.score ?? "none"}, signed score ${row.attested?.score ?? "none"}`;
  return problem === "pass-to-fail"
    ? `${agent}: the gate admits it on its on-chain record but would refuse it on the service's signed data (${scores})`
    : `${agent}: the gate refuses it on its on-chain record but would admit it on the service's signed data (${scores})`;
}

/** One line of a stale record. */
function staleSummary(row: DriftRow, maxAgeSeconds: number): string {
  return `${formatAgentRef(row)}: its on-chain record (updated ${row.onchain?.updatedAt ?? "at an unknown time"}) is older than the ${maxAgeSeconds} s the watch allows (--max-age)`;
}
