/**
 * The population of the benchmarks that measure a report's outputs (the page, the Markdown summary): a report of
 * `size` rows built here, with statuses, tiers, scores and ages spread as a night's scan spreads them, since what an
 * output costs does not depend on how its rows were found. Seeded: the same size gives the same rows.
 *
 * @packageDocumentation
 */
import { DEFAULT_TRUST_ENCODING, tierForScore } from "../../src/config/encodings";
import { checkEncodings } from "../../src/drift/encoding-check";
import { buildReport } from "../../src/drift/report";
import type { DriftReport, DriftRow, DriftStatus, RowRefresh } from "../../src/drift/types";

const GENERATED_AT = new Date("2026-11-22T03:00:00Z");

/** Options of {@link syntheticReport}. */
export interface SyntheticReportOptions {
  /**
   * Whether the stale, missing and drifted rows carry a refresh assessment, as a run gives them (its sentence about 300
   * characters long); default false.
   */
  readonly refresh?: boolean;
}

/**
 * A report of `size` rows: mostly in sync, some drifted (a few flipping), some stale, missing or failed.
 *
 * @param size - Rows in the report.
 * @param options - Whether rows carry refresh assessments.
 * @returns The report, built as a run builds it.
 */
export function syntheticReport(size: number, options: SyntheticReportOptions = {}): DriftReport {
  const rows: DriftRow[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const ago = (hours: number) => new Date(GENERATED_AT.getTime() - hours * 3_600_000).toISOString();
  for (let i = 0; i < size; i++) {
    const onScore = Math.round(random() * 100);
    const roll = random();
    const status: DriftStatus =
      roll < 0.8 ? "in-sync" : roll < 0.9 ? "drifted" : roll < 0.95 ? "stale-onchain" : roll < 0.98 ? "missing-onchain" : "error";
    const atScore = status === "drifted" ? Math.max(0, Math.min(100, onScore + Math.round((random() - 0.5) * 40))) : onScore;
    const onchain =
      status === "missing-onchain" || status === "error"
        ? null
        : {
            score: onScore,
            tier: tierForScore(onScore),
            sybilSeverity: "none",
            updatedAt: ago(status === "stale-onchain" ? 40 + random() * 60 : random() * 30),
          };
    const attested =
      status === "error"
        ? null
        : {
            score: atScore,
            tier: tierForScore(atScore),
            sybilSeverity: "none",
            attestedAt: ago(random() * 2),
            kid: random() < 0.1 ? "rnwy-trust-v2" : null,
          };
    const onPass = onchain ? onchain.score >= 51 : null;
    const atPass = attested ? attested.score >= 51 : null;
    rows.push({
      chain: random() < 0.7 ? "base" : "polygon",
      chainId: null,
      agentId: String(i + 1),
      registry: "erc8004",
      status,
      onchain,
      attested,
      attestedComputedAt: attested ? ago(random() * 20) : null,
      computedAfterRefresh: null,
      scoreDelta: onchain && attested ? attested.score - onchain.score : null,
      decision: { onchain: onPass, attested: atPass, flipped: onPass !== null && atPass !== null && onPass !== atPass },
      refresh:
        options.refresh === true && attested !== null && status !== "in-sync" ? refreshOf(attested.attestedAt, onchain?.updatedAt) : null,
      ...(status === "error" ? { reason: "service request failed: GET /api/trust-check failed with HTTP 503" } : {}),
    });
  }
  return buildReport(rows, {
    source: {
      rpc: "http://127.0.0.1:8545",
      oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
      api: "http://127.0.0.1:8787",
      issuer: "http://127.0.0.1:8787",
      chainId: 8453,
      blockNumber: "1",
    },
    decisionRule: "score >= 51",
    maxAgeSeconds: 36 * 3600,
    // No records read: the page does not show the encoding check.
    encoding: checkEncodings([], [], DEFAULT_TRUST_ENCODING),
    generatedAt: GENERATED_AT,
  });
}

/** A refresh assessment as a run without `--attested-oracle` writes it: possible, kid not checked. */
function refreshOf(attestedAt: string, updatedAt: string | undefined): RowRefresh {
  const expiresAt = new Date(Date.parse(attestedAt) + 24 * 3_600_000).toISOString();
  return {
    possible: true,
    reason:
      `submitJwsAttestation can refresh it before ${expiresAt}: issuedAt ${attestedAt}, newer than the on-chain record's ` +
      `${updatedAt ?? "(none)"}; kid "rnwy-trust-v2" not checked: no attested oracle named (--attested-oracle)`,
    kid: "rnwy-trust-v2",
    keyStatus: "unchecked",
    expiresAt,
    call: { function: "submitJwsAttestation", form: "jws" },
  };
}
