/**
 * trustgate: integration kit for the on-chain AI-agent trust-score oracle on Base. This entry holds what a
 * TypeScript developer calls, each name listed here (nothing reaches the package by `export *`):
 *
 * - `readTrustRecord` / `readTrustRecords` / `readGatePolicy` and the ABIs: the oracle and gates, through viem;
 * - `createTrustApiClient` / `createTrustMcpClient`: the service's HTTP API and MCP endpoint, with the response
 *   types they return;
 * - `verifyTrustAttestation` and the other `verify*Attestation` functions, with their verdict types;
 * - `toAttestationCall`, `submitTrustAttestation` and the signing-key helpers: attestations on chain;
 * - `evaluateTrustPolicy`: the gate's decision in TypeScript;
 * - the agent reference (`parseAgentRef`, `formatAgentRef`, `agentKey`, …);
 * - the errors, and the addresses, chains and encodings a caller passes or compares with.
 *
 * The drift job is `trustgate/drift`, the deploy functions `trustgate/deploy`; the stand-ins for the outside
 * world (the local signing service, the local Base simulation, the fork context, the signing helpers) are the
 * harness: `trustgate/service`, `trustgate/testing` and `trustgate/harness`.
 *
 * @packageDocumentation
 * @module trustgate
 */

export {
  agentKey,
  type AgentKeyParts,
  type AgentRef,
  compareAgentRefs,
  type EvmAgentRef,
  formatAgentRef,
  type FormatAgentRefParameters,
  isEvmAgent,
  parseAgentRef,
  parseAgentRefList,
} from "./agent/agent-ref.js";
export {
  type AddressAgeParameters,
  type AgentParameters,
  type AgentsParameters,
  createTrustApiClient,
  type ExplorerParameters,
  isWalletNotFound,
  type ReviewerParameters,
  type RiskTermsParameters,
  type TrustApiClient,
  type TrustCheckParameters,
} from "./api/client.js";
export {
  createTrustMcpClient,
  type McpCommerceStatsParameters,
  type McpRiskTermsParameters,
  type McpToolOutput,
  type McpTrustCheckParameters,
  type TrustMcpClient,
} from "./api/mcp.js";
export type { TransportOption, TrustApiClientParameters } from "./api/options.js";
export type { ExpectedSubject } from "./attestation/expected-subject.js";
export {
  createJwksResolver,
  type JwksKeyLookup,
  type JwksResolver,
  type JwksResolverParameters,
  type JwksResolverStats,
  type JwksSource,
} from "./attestation/jwks.js";
export {
  type AttestationCall,
  type AttestationCallParameters,
  type AttestationCallVerdict,
  toAttestationCall,
  type ToAttestationCallErrorType,
} from "./attestation/onchain-call.js";
export { type SigningKeyArgs, signingKeyArgsOf, signingKeyArgsOfJwks } from "./attestation/onchain-keys.js";
export type { SignaturePolicy, VerifyAttestationParameters } from "./attestation/options.js";
export {
  assertAttestationValid,
  type AssertAttestationValidErrorType,
  ATTESTATION_FAILURE_REASONS,
  type AttestationFailureReason,
  type AttestationInvalid,
  type AttestationValid,
  type FieldMismatch,
  type McpAttestationVerification,
  type SignaturesChecked,
  type SignatureStatus,
  type SignaturesVerified,
  type SignedAttestationVerification,
  type TrustAttestationVerification,
  type WalletScoreVerification,
} from "./attestation/result.js";
export {
  verifyTrustAttestation,
  type VerifyTrustAttestationErrorType,
  type VerifyTrustAttestationParameters,
} from "./attestation/verify.js";
export { type OnchainStorability, type UnstorableReason } from "./attestation/storability.js";
export { verifyMcpAttestation, type VerifyMcpAttestationParameters } from "./attestation/verify-mcp.js";
export { verifySignedAttestation } from "./attestation/verify-signed.js";
export { verifyWalletScoreAttestation, type VerifyWalletScoreParameters } from "./attestation/verify-wallet-score.js";
export { BASE_TRUST_ORACLE_ADDRESS, TRUST_ORACLE_ADDRESSES } from "./config/addresses.js";
export { ORACLE_CHAIN_SLUGS, TRUST_CHAINS, type TrustChain } from "./config/chains.js";
export {
  createTrustEncoding,
  type SybilSeverityName,
  sybilSeverityName,
  type TierName,
  type TrustEncoding,
  tierForScore,
  tierName,
} from "./config/encodings.js";
export { DEFAULT_API_URL, type RegistryName } from "./config/service.js";
export {
  type AnyTrustgateError,
  AttestationVerificationError,
  ConfigurationError,
  GateReadError,
  HttpRequestError,
  type HttpRequestErrorParameters,
  InvalidArgumentError,
  InvalidResponseError,
  JwksUnavailableError,
  McpError,
  NetworkError,
  OracleReadError,
  type OracleReadFailure,
  OracleWriteError,
  RateLimitedError,
  RedirectRefusedError,
  ResponseTooLargeError,
  TimeoutError,
  type TrustApiRequestErrorType,
  TrustgateError,
  type TrustgateErrorCode,
  type TrustgateErrorParameters,
  UnknownChainError,
  UnstorableAttestationError,
} from "./errors.js";
export type {
  AddressAge,
  AgentListItem,
  AgentsPage,
  Attestation,
  CompareResult,
  EntityProfile,
  ExplorerProfile,
  ExplorerResult,
  JsonObject,
  McpContent,
  McpInitializeResult,
  McpServerAttestation,
  McpTool,
  McpToolCallResult,
  NetworkStats,
  ReviewerAnalysis,
  ReviewerProfile,
  RiskTerms,
  TrustCheck,
  TrustSignedV1,
  TrustSignedV2,
  WalletNotFound,
  WalletScore,
} from "./generated/published-types.js";
export {
  type AttestedOracleClients,
  revokeTrustSigningKeys,
  setTrustSigningKeys,
  submitTrustAttestation,
} from "./oracle/attested-oracle.js";
export { attestedTrustOracleAbi, trustOracleAbi } from "./oracle/abi.js";
export type { AnyClient } from "./oracle/client.js";
export { type GatePolicy, readGatePolicy, type ReadGatePolicyErrorType, type ReadGatePolicyParameters } from "./oracle/gate.js";
export { trustGatedAbi } from "./oracle/gate-abi.js";
export {
  readTrustRecord,
  type ReadTrustRecordErrorType,
  type ReadTrustRecordParameters,
  readTrustRecords,
  type ReadTrustRecordsErrorType,
  type ReadTrustRecordsParameters,
  type TrustRecordRequest,
} from "./oracle/reader.js";
export type { TrustRecordKey, TrustRecordKeyInput } from "./oracle/record-key.js";
export type { TrustRecordRead, TrustRecordReadFailure, TrustRecordResult } from "./oracle/records.js";
export {
  type ControllerStatus,
  evaluateTrustPolicy,
  type EvaluateTrustPolicyErrorType,
  TIER_MIN_SCORE,
  TRUST_REFUSALS,
  type TrustPolicy,
  type TrustRefusal,
} from "./policy.js";
export { type TrustRecord, updatedAtDate } from "./trust-record.js";
export type { HttpRequest, HttpResponse, HttpTransport, QueryValue, RetryParameters } from "./api/http.js";
export type { Clock, RateInForce, RateLimiter, RateLimiterState, RateLimitSource, Sleep } from "./api/rate-limiter.js";
export type { RateLimitAnnouncement } from "./api/rate-limit-headers.js";
export type { AgentIdInput } from "./inputs/agent-id.js";
export type { ChainInput } from "./inputs/chain.js";
export type { CompareAgentInput } from "./api/arguments.js";
export type { VerificationKey } from "./attestation/public-key.js";
