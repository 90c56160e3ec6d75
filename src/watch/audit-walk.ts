/**
 * The slow audit: between the oracle's writes, the watch walks the whole population the service lists, a few agents at
 * a time, so that drift nobody wrote (a record that was always wrong, a service that changed its mind) is found too.
 * It spends a fixed share of the service client's rate limit, accrued over time like a token bucket: the rest of the
 * rate stays free for the checks of the records written, which matter within seconds. The walk wraps around at the
 * end of the population; its cursor is what the state file keeps, so a restart continues the walk where it was.
 *
 * Memory: the population list (the agents, sorted, so that a cursor means the same place after a restart) and two
 * numbers.
 *
 * @packageDocumentation
 */
import { type AgentRef, agentKey, compareAgentRefs, isEvmAgent } from "../agent/agent-ref.js";
import { listedAgent, registryProblem } from "../drift/stages/enumerate.js";
import { InvalidArgumentError } from "../errors.js";
import type { WatchConnection } from "./connect.js";

/**
 * The share of the limiter's rate the audit may spend: a third. The other two thirds stay free for the checks of the
 * records written (a night's write of many records is checked as fast as the rate allows, and its first alerts are
 * not queued behind the audit), for the health check's request, and for a drift run or a doctor sharing the key.
 * At the service's 30 requests a minute this walks 600 agents an hour; with a key (300), 6,000.
 */
export const DEFAULT_AUDIT_SHARE = 1 / 3;

/** The slow audit's walk over the population. */
export interface AuditWalk {
  /**
   * The next agents to audit now (0 or more), within its share of the rate since the last call; advances the cursor.
   *
   * @param now - The time now (the same clock as the walk was created with).
   * @returns The agents, at most the whole population once.
   */
  next(now: Date): AgentRef[];
  /** Where the walk is: the index of the next agent to audit (0 to `size - 1`; 0 for an empty population). */
  readonly cursor: number;
  /** Agents in the population. */
  readonly size: number;
}

/** Options of {@link createAuditWalk}. */
export interface AuditWalkOptions {
  /** The service client's rate in force, requests per minute. */
  readonly ratePerMinute: number;
  /** The share of that rate the audit may spend, over 0 and at most 1; default {@link DEFAULT_AUDIT_SHARE}. */
  readonly share?: number;
  /** Where to start (the state file's cursor); a cursor past the end wraps around. Default 0. */
  readonly cursor?: number;
  /** The time the walk starts: its share accrues from then. */
  readonly now: Date;
}

/**
 * Starts a walk over the population. The share accrues from `now`: a call one minute later may audit
 * `ratePerMinute × share` agents. What accrues while nothing is asked is held to one minute's worth, so that a pause
 * (a long change check, a suspended process) is never followed by a burst that would starve the change checks.
 *
 * @param population - The agents, in the order to walk them ({@link listAuditPopulation}'s).
 * @param options - The rate, the share, the cursor and the start time.
 * @returns The walk.
 * @throws {@link InvalidArgumentError} for a rate that is not a positive number, a share out of (0, 1], or a cursor
 *   that is not a non-negative integer.
 */
export function createAuditWalk(population: readonly AgentRef[], options: AuditWalkOptions): AuditWalk {
  const perMinute = auditRatePerMinute(options.ratePerMinute, options.share);
  const start = options.cursor ?? 0;
  if (!Number.isSafeInteger(start) || start < 0) {
    throw new InvalidArgumentError(`The audit cursor must be an integer >= 0, got ${String(options.cursor)}`);
  }
  const size = population.length;
  let cursor = size === 0 ? 0 : start % size;
  let last = options.now.getTime();
  /** Requests accrued and not spent (fractional), at most one minute's worth. */
  let accrued = 0;
  const burst = Math.max(1, perMinute);
  return {
    next(now) {
      const at = now.getTime();
      // A clock that went back (an adjusted system clock) accrues nothing and restarts from the new time.
      accrued = Math.min(burst, accrued + (Math.max(0, at - last) / 60_000) * perMinute);
      last = at;
      if (size === 0) return [];
      // The epsilon keeps sums of fractions (4 s of 10 a minute, fifteen times) from losing a request to rounding.
      const count = Math.min(size, Math.floor(accrued + 1e-9));
      accrued = Math.max(0, accrued - count);
      const agents: AgentRef[] = [];
      for (let i = 0; i < count; i++) {
        agents.push(population[cursor]!);
        cursor = (cursor + 1) % size;
      }
      return agents;
    },
    get cursor() {
      return cursor;
    },
    size,
  };
}

/**
 * The audit's rate, requests per hour: what the audit spends of the service's limit at most.
 *
 * @param ratePerMinute - The limiter's rate, requests per minute (30 anonymous, 300 with a key, unless announced or set).
 * @param share - The audit's share; default {@link DEFAULT_AUDIT_SHARE}.
 * @returns Requests per hour (600 at 30 a minute, 6,000 at 300, with the default share).
 * @throws {@link InvalidArgumentError} for a rate that is not a positive number, or a share out of (0, 1].
 */
export function auditRequestsPerHour(ratePerMinute: number, share: number = DEFAULT_AUDIT_SHARE): number {
  return auditRatePerMinute(ratePerMinute, share) * 60;
}

/** The audit's rate per minute, checked. */
function auditRatePerMinute(ratePerMinute: number, share: number = DEFAULT_AUDIT_SHARE): number {
  if (!(Number.isFinite(ratePerMinute) && ratePerMinute > 0)) {
    throw new InvalidArgumentError(`The rate must be a positive number of requests per minute, got ${String(ratePerMinute)}`);
  }
  if (!(Number.isFinite(share) && share > 0 && share <= 1)) {
    throw new InvalidArgumentError(`The audit's share of the rate must be over 0 and at most 1, got ${String(share)}`);
  }
  return ratePerMinute * share;
}

/**
 * The population to audit: every agent the service lists (the listing the drift job's `--all` enumerates, page
 * after page through the one client and its limiter), EVM agents of a registry the oracle is read for only, each
 * once, sorted (chain, id, registry: `compareAgentRefs`) so that a cursor kept across a restart points at the same place while the
 * population stays the same.
 *
 * @param connection - The watch's service client.
 * @param options - A chain to list alone (slug), and a signal that abandons the listing.
 * @returns The agents.
 * @throws What the listing throws (the service does not answer, a malformed page), and the signal's reason when it
 *   aborts.
 */
export async function listAuditPopulation(
  connection: Pick<WatchConnection, "api">,
  options: { readonly chain?: string; readonly signal?: AbortSignal } = {},
): Promise<AgentRef[]> {
  const agents: AgentRef[] = [];
  const seen = new Set<string>();
  options.signal?.throwIfAborted();
  for await (const item of connection.api.iterateAgents({ chain: options.chain || undefined, limit: 1000 })) {
    options.signal?.throwIfAborted();
    const agent = listedAgent(item);
    if (!isEvmAgent(agent) || registryProblem(agent) !== undefined) continue;
    const key = agentKey(agent);
    if (seen.has(key)) continue;
    seen.add(key);
    agents.push(agent);
  }
  return agents.sort(compareAgentRefs);
}
