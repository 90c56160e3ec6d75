/**
 * The package entry `trustgate/refresh`: the pusher as a library. `refreshAttestedOracle(report, options)` plans
 * which records of an `AttestedTrustOracle` a drift report says are due (missing, stale, across a gate's decision
 * edge, or moved past `minChange`) and pushes fresh signed attestations for them in batches; `readRefreshInputReport`
 * reads the JSON `trustgate drift --json` writes into what it takes. The options and result types, and the clients it
 * is given, are listed here by name; the planner and the sender behind it stay internal.
 *
 * @packageDocumentation
 * @module trustgate/refresh
 */

export { refreshAttestedOracle, type RefreshAttestedOracleOptions, type RefreshAttestedOracleResult } from "./refresh.js";
export { readRefreshInputReport, type RefreshInputReport, type RefreshInputRow } from "./report-input.js";
export type {
  RefreshPlan,
  RefreshPlanBatch,
  RefreshPlanEntry,
  RefreshPlanOptions,
  RefreshPlanSkip,
  RefreshReason,
  RefreshSkip,
} from "./plan.js";
export type {
  RefreshAttestationOutcome,
  RefreshAttestationResult,
  RefreshSendOutcome,
  RefreshAttestationSource,
  RefreshStopReason,
  RefreshTransaction,
  SendRefreshOptions,
} from "./send.js";
export type { AttestedOracleClients } from "../oracle/attested-oracle.js";
export type { RefreshDriftRunner, RefreshDriftSetup, RefreshSource } from "./source.js";
export type { RefreshBudget } from "./budget.js";
export type { SentAttempt } from "./transaction.js";
// The drift job's types a source's fresh drift run (`runDrift`, its config, hooks and report) reaches; the same as
// `trustgate/drift` exports.
export type {
  AcceptedProblem,
  AttestedOracleSource,
  AttestedSide,
  DecisionFlips,
  DecisionPair,
  DriftNightSummary,
  DriftProblem,
  DriftReport,
  DriftRuntime,
  DriftRow,
  DriftStateHistory,
  DriftStateSummary,
  DriftStatus,
  DriftVerdict,
  EncodingCheck,
  ErrorLimit,
  ExpiredAcceptance,
  FetchProjection,
  OnchainEnumerationSource,
  OnchainSide,
  PartialRun,
  PersistingProblem,
  RefreshKeyStatus,
  RowRefresh,
  SinceLastNight,
  SybilEncodingCheck,
  TriageAudit,
  TriageSummary,
  UnverifiedSummary,
} from "../drift/types.js";
export type { AgentScope, DriftConfig } from "../drift/config.js";
export type { DriftHooks } from "../drift/run.js";
export type { ScanProgress, ScanStage } from "../drift/progress.js";
export type { BaselineEntry, DriftBaseline } from "../drift/baseline.js";
export type { AgentRef } from "../agent/agent-ref.js";
export type { SybilSeverityName, TierName, TrustEncoding } from "../config/encodings.js";
export type { TrustCheckParameters } from "../api/client.js";
export type { AgentIdInput } from "../inputs/agent-id.js";
export type { ChainInput } from "../inputs/chain.js";
export type { JwksKeyLookup, JwksResolver, JwksResolverStats } from "../attestation/jwks.js";
export type { VerificationKey } from "../attestation/public-key.js";
export type { ConfigurationError, InvalidArgumentError, TrustgateErrorParameters } from "../errors.js";
