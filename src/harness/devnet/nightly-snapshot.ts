/**
 * The nightly snapshot the service publishes on-chain: its population's records turned into oracle records
 * (tier and sybil names mapped to codes with the kit's encoding), and the time of the nightly run.
 *
 * @packageDocumentation
 */
import { chainIdOf } from "../../config/chains.js";
import {
  DEFAULT_TRUST_ENCODING,
  type SybilSeverityName,
  sybilSeverityCode,
  type TierName,
  type TrustEncoding,
  tierCode,
} from "../../config/encodings.js";
import { InvalidArgumentError } from "../../errors.js";
import type { OracleRecordInput } from "./publish-records.js";

/** Hour (UTC) of the service's nightly scoring and publishing run. */
export const NIGHTLY_RUN_HOUR_UTC = 3;

/** The part of an agent an oracle record carries. */
export interface SnapshotAgent {
  /** Token id. */
  readonly agentId: number | bigint;
  /** Chain slug (EVM chains only). */
  readonly chain: string;
  /** Registry name. */
  readonly registry: string;
  /** Score. */
  readonly score: number;
  /** Tier name. */
  readonly tier: TierName;
  /** Sybil severity name. */
  readonly sybilSeverity: SybilSeverityName;
  /** Time of its scoring. */
  readonly updatedAt: Date;
}

/** Options of {@link snapshotRecords}. */
export interface SnapshotRecordsParameters {
  /** Code tables; default the kit's assumed encoding. */
  readonly encoding?: TrustEncoding | undefined;
  /**
   * Dates every record of these chains (slugs) at most `staleAt`, as if publishing for them had stopped then.
   * Default none.
   */
  readonly staleChains?: readonly string[] | undefined;
  /** Time the stale chains' records are dated (at latest). Required with `staleChains`. */
  readonly staleAt?: Date | undefined;
}

/**
 * The latest nightly run (03:00 UTC) at or before `now`.
 *
 * @param now - The time.
 * @returns 03:00 UTC of `now`'s day, or of the day before when `now` is earlier than 03:00 UTC.
 */
export function latestNightlyRun(now: Date): Date {
  const run = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), NIGHTLY_RUN_HOUR_UTC));
  if (run.getTime() > now.getTime()) run.setUTCDate(run.getUTCDate() - 1);
  return run;
}

/**
 * Oracle records of agents, in the same order: chain slug → chain id, tier and sybil names → codes.
 *
 * @param agents - The agents (for example a population's `agents`).
 * @param options - Encoding and stale chains.
 * @returns One record per agent.
 * @throws {@link InvalidArgumentError} for `staleChains` without `staleAt`, or a non-EVM chain;
 *   `UnknownChainError` for an unknown chain.
 */
export function snapshotRecords(agents: readonly SnapshotAgent[], options: SnapshotRecordsParameters = {}): OracleRecordInput[] {
  const encoding = options.encoding ?? DEFAULT_TRUST_ENCODING;
  const stale = new Set(options.staleChains ?? []);
  const { staleAt } = options;
  if (stale.size > 0 && !(staleAt instanceof Date && !Number.isNaN(staleAt.getTime()))) {
    throw new InvalidArgumentError("snapshotRecords: staleChains needs a valid staleAt date");
  }
  const chainIds = new Map<string, number>();
  return agents.map((agent) => {
    let chainId = chainIds.get(agent.chain);
    if (chainId === undefined) {
      chainId = chainIdOf(agent.chain);
      chainIds.set(agent.chain, chainId);
    }
    const updatedAt = stale.has(agent.chain) && agent.updatedAt.getTime() > staleAt!.getTime() ? staleAt! : agent.updatedAt;
    return {
      agentId: BigInt(agent.agentId),
      chainId,
      registry: agent.registry,
      score: agent.score,
      tier: tierCode(agent.tier, encoding),
      sybilSeverity: sybilSeverityCode(agent.sybilSeverity, encoding),
      updatedAt,
    };
  });
}
