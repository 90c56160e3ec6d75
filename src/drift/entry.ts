/**
 * The package entry `trustgate/drift`: the drift job as a library. `runDrift(config)` checks the endpoints, scans
 * and returns the report; `exitCodeOf(report)` is the command line's exit-code rule. Its configuration, report
 * and row types, statuses and defaults are listed here by name; the stages behind them stay internal
 * (`./index.ts` gathers them for the command line and the tests).
 *
 * @packageDocumentation
 * @module trustgate/drift
 */

export { type AgentScope, DEFAULT_DECISION_THRESHOLD, DEFAULT_MAX_AGE_SECONDS, type DriftConfig } from "./config.js";
export { DEFAULT_ERROR_LIMIT } from "./error-limit.js";
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
  type DriftNightSummary,
  type DriftStateHistory,
  type DriftStateSummary,
  type DriftStatus,
  type DriftVerdict,
  type EncodingCheck,
  type ErrorLimit,
  type FetchProjection,
  type OnchainSide,
  type PartialRun,
  REFRESH_BLOCKERS,
  type RefreshBlocker,
  type RefreshKeyStatus,
  type RowRefresh,
  type SybilEncodingCheck,
  type TriageSummary,
  type UnverifiedSummary,
} from "./types.js";
