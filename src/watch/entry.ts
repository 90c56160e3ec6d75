/**
 * The package entry `trustgate/watch`: the watch as a library. `runWatch(config, hooks)` follows the chain, checks
 * each record written against a fresh signed attestation under the drift job's rules, watches the oracle's heartbeat
 * and the service's health, and hands alerts to delivery until its signal aborts. The parts a program assembles
 * around it are here by name: the webhook sender and the signature a receiver verifies (`verifyWebhookSignature`),
 * the alert book, the Prometheus metrics and their server, the write cadence, and the connection. The follower, the
 * checker and the audit behind the loop stay internal.
 *
 * @packageDocumentation
 * @module trustgate/watch
 */

export {
  DEFAULT_CHECK_BATCH,
  DEFAULT_HEALTH_INTERVAL_SECONDS,
  DEFAULT_HEARTBEAT_LOOKBACK_BLOCKS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_REMINDER_SECONDS,
  DEFAULT_WATCH_CONFIRMATIONS,
  runWatch,
  type WatchConfig,
  type WatchHooks,
  type WatchLogEvent,
  type WatchStatus,
  type WatchSummary,
  type WatchTick,
} from "./watch.js";
export type {
  AgentCheck,
  AlertEvidence,
  AlertKind,
  AlertMessage,
  AlertState,
  BlockRef,
  CheckTrigger,
  Condition,
  DeliveryResult,
  FollowerPosition,
  FollowStep,
  OracleChange,
  OracleChangeKind,
  OutstandingAlert,
  Reorg,
  WriteCadence,
} from "./types.js";
export {
  createWebhookSender,
  signWebhookBody,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  webhookBody,
  type SlackBlock,
  type SlackWebhookBody,
  type VerifyWebhookSignatureInput,
  type WebhookFormat,
  type WebhookJsonBody,
  type WebhookOptions,
  type WebhookSender,
} from "./webhook.js";
export { type AlertBook, type AlertBookOptions, createAlertBook } from "./alert-book.js";
export { createWatchMetrics, WATCH_METRIC_NAMES, type WatchMetrics } from "./metrics.js";
export { startWatchServer, type WatchHealth, type WatchServer } from "./server.js";
export { DEFAULT_WRITE_CADENCE, parseExpectWrite } from "./heartbeat.js";
export { DEFAULT_AUDIT_SHARE } from "./audit-walk.js";
export { connectWatch, type ConnectWatchOptions, type WatchConnection } from "./connect.js";
export { WATCH_SERVICE_SETTINGS, type WatchServiceConfig } from "./config.js";
// The kit's own types the configuration, the connection (the service's client and its limiter, the drift job's scan
// and decision rule) and the checks reach, so that a caller can name what it passes and gets; each is the same type
// `trustgate` or `trustgate/drift` exports.
export type {
  AttestedOracleSource,
  AttestedSide,
  DecisionPair,
  DriftProblem,
  DriftRow,
  DriftStatus,
  OnchainSide,
  RefreshKeyStatus,
  RowRefresh,
} from "../drift/types.js";
export type { DriftConfig } from "../drift/config.js";
export type { DecisionRule } from "../drift/decision.js";
export type { DriftScanOptions, ScanCheckpoint } from "../drift/pipeline.js";
export type { ScanProgress, ScanStage } from "../drift/progress.js";
export type { ServiceData, ServiceOutcome } from "../drift/service-data.js";
export type { AttestationPolicy, ServiceStats } from "../drift/stages/fetch-verify.js";
export type { TrustPolicy } from "../policy.js";
export type { AgentRef } from "../agent/agent-ref.js";
export type { AgentIdInput } from "../inputs/agent-id.js";
export type { ChainInput } from "../inputs/chain.js";
export type { AnyClient } from "../oracle/client.js";
export type { SybilSeverityName, TierName, TrustEncoding } from "../config/encodings.js";
export type { JwksKeyLookup, JwksResolver, JwksResolverStats } from "../attestation/jwks.js";
export type { VerificationKey } from "../attestation/public-key.js";
export type { CompareAgentInput } from "../api/arguments.js";
export type {
  AddressAgeParameters,
  AgentParameters,
  AgentsParameters,
  ExplorerParameters,
  ReviewerParameters,
  RiskTermsParameters,
  TrustApiClient,
  TrustCheckParameters,
} from "../api/client.js";
export type { HttpRequest, HttpResponse, HttpTransport, QueryValue, RetryParameters } from "../api/http.js";
export type {
  McpCommerceStatsParameters,
  McpRiskTermsParameters,
  McpToolOutput,
  McpTrustCheckParameters,
  TrustMcpClient,
} from "../api/mcp.js";
export type { RateLimitAnnouncement } from "../api/rate-limit-headers.js";
export type { RateInForce, RateLimiter, RateLimiterState, RateLimitSource, Sleep } from "../api/rate-limiter.js";
export type {
  AddressAge,
  AgentListItem,
  AgentsPage,
  CompareResult,
  EntityProfile,
  ExplorerProfile,
  ExplorerResult,
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
  WalletNotFound,
  WalletScore,
} from "../generated/published-types.js";
export type { ConfigurationError, InvalidArgumentError, TrustgateErrorParameters } from "../errors.js";
