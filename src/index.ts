/**
 * trustgate: integration kit for the on-chain AI-agent trust-score oracle on Base.
 *
 * - `readTrustRecord` / `readTrustRecords` / `readGatePolicy`: the oracle and gates, through viem.
 * - `createTrustApiClient` / `createTrustMcpClient`: the service's HTTP API and MCP endpoint.
 * - `verifyTrustAttestation` and friends: signed attestations, verified against the issuer's JWKS.
 * - `evaluateTrustPolicy`: the gate's decision in TypeScript.
 * - configuration: chains, addresses, tier and sybil encodings, service defaults.
 * - `runDrift`: the drift job as a library (its configuration, report and exit-code rule, `exitCodeOf`).
 *
 * Only the kit is exported here. The stand-ins for the outside world (the local signing service, the local
 * Base simulation, the fork context, the signing helpers) are the harness: `trustgate/service`,
 * `trustgate/testing` and `trustgate/harness`.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./agent-key.js";
export * from "./config/index.js";
export * from "./policy.js";
export * from "./oracle/index.js";
export * from "./api/index.js";
export * from "./attestation/index.js";
export { runDrift, type DriftHooks } from "./drift/run.js";
export type { AgentScope, DriftConfig } from "./drift/config.js";
export type { ErrorLimit } from "./drift/error-limit.js";
export { DRIFT_EXIT_CODES, exitCodeOf } from "./drift/report.js";
export type { DriftReport, DriftRow, DriftStatus } from "./drift/types.js";
