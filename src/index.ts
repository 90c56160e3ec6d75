/**
 * trustgate: integration kit for the on-chain AI-agent trust-score oracle on Base.
 *
 * - `readTrustRecord` / `readTrustRecords` / `readGatePolicy`: the oracle and gates, through viem.
 * - `createTrustApiClient` / `createTrustMcpClient`: the service's HTTP API and MCP endpoint.
 * - `trustCheckSchema`, `TrustSignedV2`, `Attestation`, …: what the service publishes, its response shapes.
 * - `verifyTrustAttestation` and friends: signed attestations, verified against the issuer's JWKS.
 * - `evaluateTrustPolicy`: the gate's decision in TypeScript.
 * - configuration: chains, addresses, tier and sybil encodings, service defaults.
 * - `AgentRef` (`parseAgentRef`, `formatAgentRef`, `agentKey`) and the input checks every entry point uses.
 * - `runDrift` / `exitCodeOf`: the drift job as a library (its configuration, report and exit-code rule).
 *
 * Only the kit is exported here. The stand-ins for the outside world (the local signing service, the local
 * Base simulation, the fork context, the signing helpers) are the harness: `trustgate/service`,
 * `trustgate/testing` and `trustgate/harness`.
 *
 * @packageDocumentation
 */

export * from "./agent/index.js";
export * from "./api/index.js";
export * from "./attestation/index.js";
export * from "./config/index.js";
// The drift job's public surface, by name (its stages and helpers stay in `src/drift/index.ts`).
export {
  type AgentScope,
  type AttestedOracleSource,
  type AttestedSide,
  DEFAULT_AUDIT_CONFIDENCE,
  DEFAULT_AUDIT_LIE_RATE,
  DEFAULT_DECISION_THRESHOLD,
  DEFAULT_ERROR_LIMIT,
  DEFAULT_MAX_AGE_SECONDS,
  type DecisionFlips,
  type DecisionPair,
  DRIFT_EXIT_CODES,
  DRIFT_STATUSES,
  type DriftConfig,
  type DriftHooks,
  type DriftReport,
  type DriftReportHead,
  type DriftRow,
  type DriftRuntime,
  type DriftStateSummary,
  type DriftStatus,
  type EncodingCheck,
  type ErrorLimit,
  exitCodeOf,
  type FetchProjection,
  type OnchainSide,
  type PartialRun,
  REFRESH_BLOCKERS,
  type RefreshBlocker,
  type RefreshKeyStatus,
  type RowRefresh,
  runDrift,
  type SybilEncodingCheck,
  type TriageAudit,
  type TriageSummary,
  type UnverifiedSummary,
} from "./drift/index.js";
export * from "./errors.js";
export * from "./inputs/index.js";
export * from "./oracle/index.js";
export * from "./policy.js";
export * from "./published/index.js";
export * from "./security/index.js";
