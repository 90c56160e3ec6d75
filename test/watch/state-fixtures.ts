/** A watch state and an outstanding alert, for the state file's tests. */
import type { WatchState } from "../../src/watch/state";
import type { OutstandingAlert } from "../../src/watch/types";

/** The Base oracle. */
export const ORACLE = "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4";
/** An attested oracle. */
export const ATTESTED = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
/** A 32-byte hash made of a number. */
export const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;

/** An outstanding pass-to-fail alert, every field set. */
export const alert: OutstandingAlert = {
  condition: {
    kind: "pass-to-fail",
    id: "pass-to-fail:base:erc8004:16907",
    agent: "base:16907:erc8004",
    summary: "base:16907 passes on-chain (score 80) but the service's signed score is 40",
    before: { score: 80, tier: "established", sybilSeverity: "none", updatedAt: "2026-11-29T03:00:00.000Z" },
    after: { score: 40, tier: "limited", sybilSeverity: "low", attestedAt: "2026-11-29T09:58:00.000Z", kid: "rnwy-trust-v2" },
    decision: { onchain: true, attested: false },
    evidence: {
      blockNumber: "44000123",
      transactionHash: hash(7),
      kid: "rnwy-trust-v2",
      issuedAt: "2026-11-29T09:00:00.000Z",
      expiresAt: "2026-11-30T09:58:00.000Z",
      recordUpdatedAt: "2026-11-29T03:00:00.000Z",
      details: ["decision flips at threshold 51"],
    },
  },
  since: "2026-11-29T09:58:01.000Z",
  lastSentAt: "2026-11-29T09:58:02.000Z",
};

/** A whole state (a position past 2^53, one alert, a last write), with `overrides`. */
export function state(overrides: Partial<WatchState> = {}): WatchState {
  return {
    version: 1,
    setup: { chainId: 8453, oracle: ORACLE, attestedOracle: ATTESTED },
    position: {
      // Past 2^53: a JSON number would lose it.
      last: { number: 9_007_199_254_740_993n, hash: hash(3), timestamp: 1_764_410_400 },
      recent: [
        { number: 9_007_199_254_740_991n, hash: hash(1) },
        { number: 9_007_199_254_740_992n, hash: hash(2) },
        { number: 9_007_199_254_740_993n, hash: hash(3) },
      ],
    },
    alerts: [alert],
    lastWrite: { at: "2026-11-29T03:00:12.000Z", blockNumber: "44000000" },
    audit: { cursor: 1200 },
    queue: [{ chain: "base", chainId: 8453, agentId: 16907n, registry: "erc8004" }],
    savedAt: "2026-11-29T10:00:00.000Z",
    ...overrides,
  };
}
