/**
 * A drift state file's header: built for a run's scope, and compared with the scope of the run that reads it (a state
 * written for another oracle, chain, service, rule or encoding does not apply).
 *
 * @packageDocumentation
 */
import { redactUrl } from "../../security/redact-url.js";
import type { DriftNightSummary } from "../types.js";
import {
  DRIFT_STATE_FORMAT,
  DRIFT_STATE_HISTORY_NIGHTS,
  DRIFT_STATE_VERSION,
  type DriftStateHeader,
  type DriftStateScope,
  type StoredProblem,
} from "./schema.js";

/**
 * What differs between the scope a state was written for and a run's.
 *
 * @param header - The state's header.
 * @param scope - The run's.
 * @returns One phrase per difference (`oracle 0xA… in the state, 0xB… in this run`); empty when the state applies.
 */
export function stateScopeMismatches(header: DriftStateHeader, scope: DriftStateScope): string[] {
  const lower = (s: string | null) => (s === null ? "none" : s.toLowerCase());
  // Compared, and named, redacted: a state written with the URL whole and one written redacted agree.
  const api = (s: string) => redactUrl(s.replace(/\/+$/, ""));
  const encoding = (e: DriftStateScope["encoding"]) => `tiers ${e.tiers.join(",")}; sybil ${e.sybilSeverities.join(",")}`;
  const checks: [string, string, string][] = [
    ["oracle", lower(header.oracle), lower(scope.oracle)],
    ["attested oracle", lower(header.attestedOracle), lower(scope.attestedOracle)],
    ["chain id", String(header.chainId), String(scope.chainId)],
    ["API", api(header.api), api(scope.api)],
    ["issuer", header.issuer, scope.issuer],
    ["decision rule", header.rule, scope.rule],
    ["encoding", encoding(header.encoding), encoding(scope.encoding)],
  ];
  return checks.filter(([, a, b]) => a !== b).map(([what, a, b]) => `${what} ${a} in the state, ${b} in this run`);
}

/**
 * The header line of a state.
 *
 * @param scope - What it is valid for.
 * @param writtenAt - When.
 * @param lastRun - The last run that completed, if any.
 * @param history - The completed runs' summaries, oldest first; only the last {@link DRIFT_STATE_HISTORY_NIGHTS} are kept.
 * @param problems - The last completed night's problems, when known.
 * @returns The header.
 */
export function stateHeader(
  scope: DriftStateScope,
  writtenAt: Date,
  lastRun: DriftStateHeader["lastRun"],
  history: readonly DriftNightSummary[] = [],
  problems?: readonly StoredProblem[],
): DriftStateHeader {
  return {
    type: "header",
    format: DRIFT_STATE_FORMAT,
    version: DRIFT_STATE_VERSION,
    ...scope,
    writtenAt: writtenAt.toISOString(),
    lastRun,
    history: history.slice(-DRIFT_STATE_HISTORY_NIGHTS),
    ...(problems !== undefined ? { problems: [...problems] } : {}),
  };
}
