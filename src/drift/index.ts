/**
 * The drift job as a library: `runDrift(config)` checks the endpoints, runs the scan — one pipeline of
 * named stages, enumerate → read on-chain → triage → fetch and verify → compare → report (`pipeline.ts`,
 * `stages/`) — and returns the report; `exitCodeOf(report)` is the exit-code rule. The command line
 * (`src/cli/`) is a thin shell over this module, and the package's main entry re-exports it.
 *
 * @packageDocumentation
 */

export {
  type AuditPlan,
  auditRank,
  auditSampleSize,
  checkAuditPlan,
  DEFAULT_AUDIT_PLAN,
  detectionProbability,
  drawAuditSample,
  liesAtLeast,
  randomAuditSeed,
} from "./audit.js";
export {
  type AgentScope,
  auditPlanOf,
  DEFAULT_AUDIT_CONFIDENCE,
  DEFAULT_AUDIT_LIE_RATE,
  DEFAULT_DECISION_THRESHOLD,
  DEFAULT_MAX_AGE_SECONDS,
  type DriftConfig,
} from "./config.js";
export { type DecisionInput, type DecisionRule, decide, describeRule } from "./decision.js";
export { checkEncodings, checkSybilEncoding, checkTierEncoding, type SybilStatement } from "./encoding-check.js";
export {
  allowedUnverified,
  checkErrorLimit,
  DEFAULT_ERROR_LIMIT,
  describeErrorLimit,
  type ErrorLimit,
  evaluateErrorLimit,
  parseErrorLimit,
  UNVERIFIED_STATUSES,
  type UnverifiedSummary,
} from "./error-limit.js";
export { type DriftScanOptions, runScan, type ScanCheckpoint, type ScanPlan, type ScanResult, type ScanStateSource } from "./pipeline.js";
export type { ScanProgress, ScanStage } from "./progress.js";
export { readerModeNote } from "./reader-mode-note.js";
export { type ProjectFetchesInput, projectFetches, ratePerMinuteOf } from "./projection.js";
export {
  buildReport,
  buildReportHead,
  compareRows,
  countByStatus,
  countFlips,
  countRefreshable,
  createRowTally,
  DRIFT_EXIT_CODES,
  exitCodeOf,
  type ReportContext,
  type RowTally,
  type RowTallyBuilder,
  rowDeltaSize,
  rowRank,
  sortRows,
  tallyRows,
} from "./report.js";
export { type DriftHooks, runDrift } from "./run.js";
export { scanAgents } from "./scan.js";
export { type ScanAllOptions, type ScanAllResult, scanAllAgents } from "./scan-all.js";
export type { AttestationSubmission, ServiceData, ServiceOutcome } from "./service-data.js";
export {
  type CompareContext,
  compareAgent,
  compareCandidates,
  compareEach,
  computedAfterRefresh,
  errorRow,
  rowAgent,
} from "./stages/compare.js";
export {
  type Candidate,
  type EnumerateListingOptions,
  type Enumeration,
  enumerateList,
  enumerateListing,
  type OnchainEventSource,
  type Unscannable,
} from "./stages/enumerate.js";
export {
  type AttestationPolicy,
  computedAtOf,
  type FetchVerifyOptions,
  fetchAndVerify,
  fetchSelected,
  fetchServiceOutcome,
  listingOutcome,
  newServiceStats,
  type ServiceStats,
} from "./stages/fetch-verify.js";
export { type ReadOnchainOptions, readOnchain } from "./stages/read-onchain.js";
export {
  type AttestedKeyCheck,
  type AttestedOracleFacts,
  assessRefresh,
  type ReadAttestedOracleFactsOptions,
  type RefreshInput,
  readAttestedOracleFacts,
  submissionOf,
} from "./stages/refresh.js";
export { type ReportStageContext, reportScan, reportScanHead } from "./stages/report.js";
export {
  type AgentTriage,
  DEFAULT_TRIAGE_MARGIN,
  selectAll,
  summarizeTriage,
  triageAgent,
  type TriageEvidence,
  type TriageOptions,
  type TriageReason,
  type TriageSelection,
  triageCandidates,
  triageReason,
} from "./stages/triage.js";
export {
  DRIFT_STATE_FORMAT,
  DRIFT_STATE_VERSION,
  type DriftStateEntry,
  type DriftStateHeader,
  DriftStateJournal,
  type DriftStateOutcomeLine,
  type DriftStateRunLine,
  type DriftStateScope,
  type DriftStateStopLine,
  inputFingerprint,
  type LoadedDriftState,
  readDriftState,
  stateScopeMismatches,
  type StoredAttestation,
  type StoredOutcome,
  type StoredRecord,
  writeDriftStateAtomically,
} from "./state-file.js";
export { type DriftStateRun, type DriftStateRunOptions, openDriftStateRun } from "./state-run.js";
export {
  type RecordedTrustData,
  type StatedTrustData,
  sameTrustData,
  sybilSeverityCodeOf,
  TRUST_FIELDS,
  type TrustField,
} from "./trust-data.js";
export {
  type AttestedOracleSource,
  type AttestedSide,
  type DecisionFlips,
  type DecisionPair,
  DRIFT_STATUSES,
  type DriftReport,
  type DriftReportHead,
  type DriftRow,
  type DriftRuntime,
  type DriftStateSummary,
  type DriftStatus,
  type EncodingCheck,
  type FetchProjection,
  type OnchainEnumerationSource,
  type PartialRun,
  type TriageAudit,
  type OnchainSide,
  REFRESH_BLOCKERS,
  type RefreshBlocker,
  type RefreshKeyStatus,
  type RowRefresh,
  type SybilEncodingCheck,
  type TriageSummary,
} from "./types.js";
