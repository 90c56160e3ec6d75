/**
 * Constructed inputs for the stage tests: oracle reads, listing entries, outcomes and a clock.
 */
import type { EvmAgentRef } from "../../../src/agent/agent-ref";
import { DEFAULT_TRUST_ENCODING } from "../../../src/config/encodings";
import type { ServiceOutcome } from "../../../src/drift/service-data";
import type { CompareContext } from "../../../src/drift/stages/compare";
import { OracleReadError } from "../../../src/errors";
import type { TrustRecordResult } from "../../../src/oracle/records";

export const NOW = new Date("2026-11-22T12:00:00Z");
export const NOW_S = NOW.getTime() / 1000;
export const HOUR = 3600;
export const ORACLE = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4" as const;
export const ENCODING = DEFAULT_TRUST_ENCODING;

export const context: CompareContext = {
  rule: { kind: "threshold", threshold: 51 },
  maxAgeSeconds: 36 * HOUR,
  now: NOW,
  encoding: ENCODING,
};

/** An agent on Base. */
export function agent(id: number | bigint, registry = "erc8004"): EvmAgentRef {
  return { chain: "base", chainId: 8453, agentId: BigInt(id), registry };
}

/** The tier of a score by the service's boundaries. */
export const tierOf = (score: number): string =>
  score >= 75 ? "established" : score >= 51 ? "developing" : score >= 30 ? "limited" : "flagged";

/** An oracle record of `score`, written `ageSeconds` ago. */
export function record(
  score: number,
  options: { ageSeconds?: number; tierCode?: number; sybilCode?: number; id?: bigint } = {},
): TrustRecordResult {
  const tierCode = options.tierCode ?? ENCODING.tiers.indexOf(tierOf(score) as never);
  const sybilCode = options.sybilCode ?? 0;
  const updatedAtSeconds = NOW_S - (options.ageSeconds ?? 9 * HOUR);
  return {
    ok: true,
    key: { agentId: options.id ?? 42n, chainId: 8453, registry: "erc8004" },
    oracle: ORACLE,
    blockNumber: 1n,
    hasScore: true,
    score,
    tier: tierCode,
    sybilSeverity: sybilCode,
    updatedAt: updatedAtSeconds,
  };
}

/** The oracle holds no record. */
export const noRecord: TrustRecordResult = {
  ...(record(0) as object),
  hasScore: false,
  score: 0,
  tier: 0,
  sybilSeverity: 0,
  updatedAt: 0,
} as TrustRecordResult;

/** A read that failed. */
export const readFailure: TrustRecordResult = {
  ok: false,
  key: { agentId: 42n, chainId: 8453, registry: "erc8004" },
  oracle: ORACLE,
  blockNumber: 1n,
  error: new OracleReadError({ oracle: ORACLE, failure: "reverted", reason: "Boom()" }, "getScore reverted: Boom()"),
};

/** What a listing says: score, its tier and a sybil severity. */
export const listed = (score: number, sybilSeverity: string | null = null) => ({ score, tier: tierOf(score), sybilSeverity });

/** A verified attestation of `score`. */
export const verified = (score: number, sybilSeverity: string | null = null): ServiceOutcome => ({
  kind: "verified",
  kid: "rnwy-trust-v2",
  data: { score, tier: tierOf(score), sybilSeverity, at: new Date(NOW.getTime() - HOUR * 1000) },
});
