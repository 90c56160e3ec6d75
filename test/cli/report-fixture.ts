/**
 * Hand-built drift rows and reports for the command-line tests.
 */
import { DEFAULT_TRUST_ENCODING } from "../../src/config/encodings";
import type { ErrorLimit } from "../../src/drift/error-limit";
import { buildReport } from "../../src/drift/report";
import type { DriftReport, DriftRow, EncodingCheck, RowRefresh, TriageSummary } from "../../src/drift/types";

export const GENERATED_AT = "2026-11-22T12:00:00.000Z";

/** A refresh assessment that says yes: a JWS attestation, its kid installed, expiring a day after the report. */
export const REFRESH_POSSIBLE: RowRefresh = {
  possible: true,
  reason: "submitJwsAttestation can refresh it",
  kid: "rnwy-trust-v2",
  keyStatus: "installed",
  expiresAt: "2026-11-23T11:59:00.000Z",
  call: { function: "submitJwsAttestation", form: "jws" },
};

/** A row; by default an in-sync base agent updated 9 h before the report. */
export function row(overrides: Partial<DriftRow> & { agentId: string }): DriftRow {
  return {
    chain: "base",
    chainId: 8453,
    registry: "erc8004",
    status: "in-sync",
    onchain: { score: 60, tier: "developing", sybilSeverity: "none", updatedAt: "2026-11-22T03:00:00.000Z" },
    attested: { score: 60, tier: "developing", sybilSeverity: "none", attestedAt: "2026-11-22T11:59:00.000Z", kid: "rnwy-trust-v2" },
    attestedComputedAt: null,
    computedAfterRefresh: null,
    scoreDelta: 0,
    decision: { onchain: true, attested: true, flipped: false },
    refresh: null,
    ...overrides,
  };
}

/** A row whose decision flips from pass to fail (score 60 → 45 under score >= 51). */
export function passToFail(agentId: string): DriftRow {
  return row({
    agentId,
    status: "drifted",
    attested: { score: 45, tier: "limited", sybilSeverity: "low", attestedAt: "2026-11-22T11:59:00.000Z", kid: "rnwy-trust-v2" },
    scoreDelta: -15,
    decision: { onchain: true, attested: false, flipped: true },
    reason: "score 60 → 45, tier developing → limited, sybil none → low",
  });
}

/** A row whose decision flips from fail to pass (score 40 → 70). */
export function failToPass(agentId: string): DriftRow {
  return row({
    agentId,
    status: "drifted",
    onchain: { score: 40, tier: "limited", sybilSeverity: "none", updatedAt: "2026-11-21T03:00:00.000Z" },
    attested: { score: 70, tier: "developing", sybilSeverity: "none", attestedAt: "2026-11-22T11:59:00.000Z", kid: "rnwy-trust-v2" },
    scoreDelta: 30,
    decision: { onchain: false, attested: true, flipped: true },
    reason: "score 40 → 70, tier limited → developing",
  });
}

/** An invalid-attestation row. */
export function invalid(agentId: string): DriftRow {
  return row({
    agentId,
    status: "invalid-attestation",
    attested: null,
    scoreDelta: null,
    decision: { onchain: true, attested: null, flipped: false },
    reason: "bad-signature: the signature does not verify against the issuer's key rnwy-trust-v2",
  });
}

/** An error row with no data. */
export function errorRow(agentId: string, reason = "service request failed: GET /api/trust-check failed with HTTP 503"): DriftRow {
  return row({
    agentId,
    status: "error",
    onchain: null,
    attested: null,
    scoreDelta: null,
    decision: { onchain: null, attested: null, flipped: false },
    reason,
  });
}

export const CONSISTENT: EncodingCheck = {
  tiers: DEFAULT_TRUST_ENCODING.tiers,
  sybilSeverities: DEFAULT_TRUST_ENCODING.sybilSeverities,
  checked: 3,
  contradictions: 0,
  consistent: true,
  examples: [],
  observed: { developing: [2] },
  sybil: { checked: 3, contradictions: 0, consistent: true, examples: [], observed: { none: [0] } },
};

/** A report over `rows` (rows kept in the given order, summary computed from them; default error limit 1 %). */
export function report(
  rows: DriftRow[],
  extra: { encoding?: EncodingCheck; triage?: TriageSummary; rpc?: string; errorLimit?: ErrorLimit } = {},
): DriftReport {
  const built = buildReport(rows, {
    source: {
      rpc: extra.rpc ?? "http://127.0.0.1:8545",
      oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      api: "https://rnwy.com",
      issuer: "https://rnwy.com",
      chainId: 8453,
      blockNumber: "123456",
    },
    decisionRule: "score >= 51",
    maxAgeSeconds: 36 * 3600,
    encoding: extra.encoding ?? CONSISTENT,
    ...(extra.triage ? { triage: extra.triage } : {}),
    ...(extra.errorLimit ? { errorLimit: extra.errorLimit } : {}),
    generatedAt: new Date(GENERATED_AT),
  });
  return { ...built, agents: rows };
}
