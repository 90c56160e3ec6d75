/**
 * The drift job as a library: `runDrift(config)` checks the endpoints, runs the scan — one pipeline of
 * named stages, enumerate → read on-chain → triage → fetch and verify → compare → report (`pipeline.ts`,
 * `stages/`) — and returns the report; `exitCodeOf(report)` is the exit-code rule. This module names what the
 * package's entries and the command line (`src/cli/`) use; the stages themselves stay internal.
 *
 * @packageDocumentation
 */

export {
  type AgentScope,
  DEFAULT_AUDIT_CONFIDENCE,
  DEFAULT_AUDIT_LIE_RATE,
  DEFAULT_DECISION_THRESHOLD,
  DEFAULT_MAX_AGE_SECONDS,
  type DriftConfig,
} from "./config.js";
export {
  DEFAULT_ERROR_LIMIT,
  describeErrorLimit,
  type ErrorLimit,
  parseErrorLimit,
  UNVERIFIED_STATUSES,
  type UnverifiedSummary,
} from "./error-limit.js";
export type { ScanProgress, ScanStage } from "./progress.js";
export { createRowTally, type RowTally, rowDeltaSize, rowRank, sortRows, tallyRows } from "./report.js";
export { type DriftHooks, runDrift } from "./run.js";
export { DRIFT_EXIT_CODES, exitCodeOf, verdictOf } from "./verdict.js";
export {
  type AttestedOracleSource,
  type AttestedSide,
  type DecisionFlips,
  type DecisionPair,
  DRIFT_STATUS_MEANINGS,
  DRIFT_STATUSES,
  type DriftReport,
  type DriftReportHead,
  type DriftRow,
  type DriftRuntime,
  type DriftStateSummary,
  type DriftStatus,
  type DriftVerdict,
  type EncodingCheck,
  type FetchProjection,
  type OnchainEnumerationSource,
  type OnchainSide,
  type PartialRun,
  REFRESH_BLOCKERS,
  type RefreshBlocker,
  type RefreshKeyStatus,
  type RowRefresh,
  type SybilEncodingCheck,
  type TriageAudit,
  type TriageSummary,
} from "./types.js";
