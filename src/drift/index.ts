/**
 * The drift job as a library: `runDrift(config)` checks the endpoints, runs the scan — one pipeline of
 * named stages, enumerate → read on-chain → triage → fetch and verify → compare → report (`pipeline.ts`,
 * `stages/`) — and returns the report; `exitCodeOf(report)` is the exit-code rule. The command line
 * (`src/cli/`) is a thin shell over this module, and the package's main entry re-exports it.
 *
 * @packageDocumentation
 */
export { runDrift, type DriftHooks } from "./run.js";
export {
  DEFAULT_AUDIT_FRACTION,
  DEFAULT_DECISION_THRESHOLD,
  DEFAULT_MAX_AGE_SECONDS,
  type AgentScope,
  type DriftConfig,
} from "./config.js";
export {
  DRIFT_STATUSES,
  type AttestedSide,
  type DecisionFlips,
  type DecisionPair,
  type DriftReport,
  type DriftRow,
  type DriftRuntime,
  type DriftStatus,
  type EncodingCheck,
  type OnchainSide,
  type TriageSummary,
} from "./types.js";
export {
  DRIFT_EXIT_CODES,
  buildReport,
  countByStatus,
  countFlips,
  exitCodeOf,
  sortRows,
  type ReportContext,
} from "./report.js";
export {
  DEFAULT_ERROR_LIMIT,
  UNVERIFIED_STATUSES,
  allowedUnverified,
  checkErrorLimit,
  describeErrorLimit,
  evaluateErrorLimit,
  parseErrorLimit,
  type ErrorLimit,
  type UnverifiedSummary,
} from "./error-limit.js";
export { decide, describeRule, type DecisionInput, type DecisionRule } from "./decision.js";
export type { ScanProgress, ScanStage } from "./progress.js";
export { TRUST_FIELDS, sameTrustData, sybilSeverityCodeOf, type RecordedTrustData, type StatedTrustData, type TrustField } from "./trust-data.js";
export type { ServiceData, ServiceOutcome } from "./service-data.js";
export { runScan, type DriftScanOptions, type ScanPlan, type ScanResult } from "./pipeline.js";
export { scanAgents } from "./scan.js";
export { scanAllAgents, type ScanAllOptions, type ScanAllResult } from "./scan-all.js";
export { enumerateList, enumerateListing, type Candidate, type EnumerateListingOptions, type Enumeration, type Unscannable } from "./stages/enumerate.js";
export { readOnchain, type ReadOnchainOptions } from "./stages/read-onchain.js";
export {
  DEFAULT_TRIAGE_MARGIN,
  auditPick,
  selectAll,
  summarizeTriage,
  triageCandidates,
  triageReason,
  type TriageOptions,
  type TriageReason,
  type TriageSelection,
} from "./stages/triage.js";
export {
  computedAtOf,
  fetchAndVerify,
  fetchServiceOutcome,
  listingOutcome,
  newServiceStats,
  type AttestationPolicy,
  type FetchVerifyOptions,
  type ServiceStats,
} from "./stages/fetch-verify.js";
export { compareAgent, compareCandidates, computedAfterRefresh, errorRow, rowAgent, type CompareContext } from "./stages/compare.js";
export { reportScan, type ReportStageContext } from "./stages/report.js";
export { checkTierEncoding } from "./encoding-check.js";
export { readerModeNote } from "./reader-mode-note.js";
