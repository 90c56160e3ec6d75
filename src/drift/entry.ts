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
export { type BaselineEntry, type DriftBaseline, parseBaseline } from "./baseline.js";
export { type DriftHooks, runDrift, type RunDriftErrorType } from "./run.js";
export { DRIFT_EXIT_CODES, exitCodeOf, verdictOf } from "./verdict.js";
export {
  type AcceptedProblem,
  type AttestedOracleSource,
  type AttestedSide,
  type DecisionFlips,
  type DecisionPair,
  DRIFT_STATUS_ACTIONS,
  DRIFT_STATUS_MEANINGS,
  DRIFT_STATUSES,
  type DriftNightSummary,
  type DriftProblem,
  type DriftReport,
  type DriftReportHead,
  type DriftRow,
  type DriftRuntime,
  type DriftStateHistory,
  type DriftStateSummary,
  type DriftStatus,
  type DriftVerdict,
  type EncodingCheck,
  type ErrorLimit,
  type ExpiredAcceptance,
  type FetchProjection,
  type OnchainEnumerationSource,
  type OnchainSide,
  type PartialRun,
  type PersistingProblem,
  REFRESH_BLOCKERS,
  type RefreshBlocker,
  type RefreshKeyStatus,
  type RowRefresh,
  type SinceLastNight,
  type SinceLastNightProblem,
  type SybilEncodingCheck,
  type TriageAudit,
  type TriageSummary,
  type UnverifiedSummary,
} from "./types.js";
export type { AgentRef } from "../agent/agent-ref.js";
export { createTrustEncoding, type SybilSeverityName, type TierName, type TrustEncoding } from "../config/encodings.js";
export type { ScanProgress, ScanStage } from "./progress.js";
export type { ConfigurationError, InvalidArgumentError, TrustgateErrorParameters } from "../errors.js";
