/**
 * The runtime exports of the package's main entry, `trustgate` (`src/index.ts`, built to `dist/index.js`): the
 * kit's SDK only. A change to this list is a change to the public surface: make it on purpose.
 */
export const MAIN_ENTRY_EXPORTS: readonly string[] = [
  "AGENT_FIELDS", "ATTESTATION_FAILURE_REASONS", "ATTESTATION_LIFETIME_SECONDS", "ATTESTATION_TYPES",
  "AttestationVerificationError", "BASE_TRUST_ORACLE_ADDRESS", "COMPARE_LIMITS", "ConfigurationError",
  "DEFAULT_API_URL", "DEFAULT_AUDIT_FRACTION", "DEFAULT_CHUNK_SIZE", "DEFAULT_CLOCK_SKEW_SECONDS",
  "DEFAULT_CONCURRENCY", "DEFAULT_DECISION_THRESHOLD", "DEFAULT_ERROR_LIMIT", "DEFAULT_ISSUER",
  "DEFAULT_MAX_AGE_SECONDS", "DEFAULT_REGISTRY", "DEFAULT_THRESHOLD", "DEFAULT_TIMEOUT_MS",
  "DEFAULT_TRUST_ENCODING", "DEFAULT_USER_AGENT", "DRIFT_EXIT_CODES", "DRIFT_STATUSES", "DeploymentError",
  "DevnetError", "ERC8004_IDENTITY_REGISTRY_ADDRESS", "GateReadError", "HttpRequestError",
  "IDENTITY_REGISTRY_ADDRESSES", "InvalidArgumentError", "InvalidResponseError", "JWKS_PATH",
  "JwksUnavailableError", "LEGACY_TRUST_ATTESTATION_KID", "MAX_AGENT_ID", "MAX_CHUNK_SIZE", "MAX_CONCURRENCY",
  "MAX_LISTED_ISSUES", "MAX_PAGE_SIZE", "MAX_SCORE", "MAX_SYBIL_SEVERITY_CODE", "MCP_ATTESTATION_KID", "MCP_PATH",
  "MCP_PROTOCOL_VERSION", "MULTICALL3_ADDRESS", "McpError", "NO_SYBIL_SIGNAL", "NetworkError",
  "ORACLE_READER_MODES", "OracleReadError", "RATE_LIMITS", "REGISTRIES", "REQUIRED_TRUST_FIELDS",
  "RISK_TERMS_RATE_LIMITS", "RateLimitedError", "TIER_MIN_SCORE", "TRUSTGATE_VERSION", "TRUST_ATTESTATION_KIDS",
  "TRUST_CHAINS", "TRUST_ORACLE_ADDRESSES", "TRUST_REFUSALS", "TimeoutError", "TrustgateError",
  "UnknownChainError", "WALLET_ATTESTATION_KID", "addressAgeSchema", "addressAsGiven", "agentIdSchema",
  "agentIdToJson", "agentKey", "agentListItemSchema", "agentsPageSchema", "analysedReviewerSchema",
  "assertAttestationValid", "attestationSchema", "backoffDelay", "badgeIds", "badgesSchema",
  "canonicalSybilSeverity", "chainIdOf", "chainSlugOf", "compareAgentRefs", "compareEntry", "compareSchema",
  "comparedAgentSchema", "createHttpTransport", "createJwksResolver", "createRateLimiter", "createTrustApiClient",
  "createTrustEncoding", "createTrustMcpClient", "decodeScoreAnswer", "describeInput", "describeRevert",
  "detectReaderMode", "entitySchema", "errorBodySchema", "evaluateTrustPolicy", "exitCodeOf",
  "explorerAgentSchema", "explorerProfileSchema", "explorerSchema", "formatAgentRef", "formatIssues",
  "getScoreCallData", "isCompactJws", "isEvmAgent", "isJwksResolver", "isWalletNotFound", "jsonObjectSchema",
  "jsonRpcErrorSchema", "jsonRpcResponseSchema", "jwksUrlOf", "mcpAttestationSchema", "mcpContentSchema",
  "mcpInitializeResultSchema", "mcpToolCallResultSchema", "mcpToolSchema", "mcpToolsListResultSchema", "messageOf",
  "multicall3Abi", "normalizeSybilSeverity", "parseAddress", "parseAgentId", "parseAgentRef", "parseAgentRefList",
  "parseCanonicalId", "parseChain", "parseChainId", "parseEvmChain", "parseIntegerInRange", "parseMcpServer",
  "parseRegistry", "parseResponse", "parseRetryAfter", "parseThreshold", "parseTrustRecordKey", "parseWallet",
  "rateLimiterFromOptions", "readGatePolicy", "readTrustRecord", "readTrustRecords", "recordKeyOf", "resolveChain",
  "resolveJwksSource", "resolveRetryOptions", "reviewerAnalysisSchema", "reviewerSchema", "reviewerSummarySchema",
  "riskTermsSchema", "runDrift", "serviceTimeSchema", "statsSchema", "sybilSeverityCode", "sybilSeverityName",
  "sybilSeveritySchema", "systemClock", "systemSleep", "tierCode", "tierForScore", "tierName", "toAttestationCall",
  "transportFromOptions", "trustCheckSchema", "trustGatedAbi", "trustOracleAbi", "trustOracleReadErrorsAbi",
  "trustScoreOracleAbi", "trustSignedV1Schema", "trustSignedV2Schema", "verifyMcpAttestation",
  "verifySignedAttestation", "verifyTrustAttestation", "verifyWalletScoreAttestation", "walletNotFoundSchema",
  "walletNotFoundSignedSchema", "walletScoreClaimsSchema", "walletScoreSchema",
  // The attested oracle, from TypeScript (issue 11).
  "OracleWriteError", "attestedTrustOracleAbi", "setTrustSigningKeys", "signingKeyArgsOf", "signingKeyArgsOfJwks",
  "submitTrustAttestation",
];

/**
 * Names the harness exports (`trustgate/harness`, `trustgate/service`, `trustgate/testing`) that must never reach
 * the main entry: the stand-ins for the outside world.
 */
export const HARNESS_ONLY_EXPORTS: readonly string[] = [
  "installMulticall3",
  "generateSigningKey",
  "exportSigningKey",
  "importSigningKey",
  "signPayload",
  "createAttestation",
  "signJwt",
  "createJwtAttestation",
  "startTrustService",
  "createPopulation",
  "loadOrCreateKeyFile",
  "startBaseSimulation",
  "startLocalChain",
  "startEmbeddedDriftEnvironment",
  "startDemoDriftEnvironment",
  "publishTrustRecords",
  "startBaseContext",
  "installOracleOverride",
  "baseForkBlockFromEnv",
  "createRng",
  "hashSeed",
];
