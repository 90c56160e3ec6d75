/**
 * The harness: what stands in for the outside world, for tests, demos and local development. Exported as
 * `trustgate/harness` (`trustgate/service` and `trustgate/testing` are its two best-known parts):
 *
 * - the local signing service (`startTrustService`, synthetic populations), `./service/`;
 * - the local Base simulation and the drift job's embedded environment, `./devnet/`;
 * - the Base test context and the oracle override for forks, `./testing/`;
 * - signing helpers (`generateSigningKey`, `createAttestation`, …), `./signing.ts`;
 * - the seeded generator (`createRng`, `hashSeed`), `./prng.ts`;
 * - the environment of `trustgate drift --demo`, `./demo.ts`.
 *
 * The kit (the rest of `src/`) never imports from here. The parts that run a chain need the optional peer
 * dependency `hardhat`.
 *
 * @packageDocumentation
 * @module trustgate/harness
 */

export { type DemoDriftParameters, startDemoDriftEnvironment } from "./demo.js";
export {
  BASE_SIMULATION_CHAIN_ID,
  type BaseSimulation,
  type BaseSimulationParameters,
  DEFAULT_DELISTED,
  DEFAULT_EMBEDDED_ADVANCE,
  DEFAULT_EMBEDDED_FAULTS,
  DEFAULT_EMBEDDED_REGISTRIES,
  DEFAULT_EMBEDDED_SIZE,
  DEFAULT_PUBLISH_BATCH,
  DEFAULT_STALE_AGE_SECONDS,
  DEFAULT_STALE_CHAIN,
  type Eip1193Requester,
  type EmbeddedDriftEnvironment,
  type EmbeddedDriftExpectations,
  type EmbeddedDriftParameters,
  HARDHAT_INSTALL_COMMAND,
  HARDHAT_PEER_VERSION,
  type HardhatConfigSource,
  installMulticall3,
  type InstallMulticall3Parameters,
  type InstallMulticall3Result,
  latestNightlyRun,
  type LocalChain,
  type LocalChainParameters,
  MAX_PUBLISH_BATCH,
  NIGHTLY_RUN_HOUR_UTC,
  type OracleRecordInput,
  publishTrustRecords,
  type PublishTrustRecordsParameters,
  type PublishTrustRecordsResult,
  type SnapshotAgent,
  snapshotRecords,
  type SnapshotRecordsParameters,
  STANDALONE_BLOCK_GAS_LIMIT,
  startBaseSimulation,
  startEmbeddedDriftEnvironment,
  startLocalChain,
  startSubmissionSimulator,
  type StartSubmissionSimulatorParameters,
} from "./devnet/index.js";
export { createRng, hashSeed, type Rng, syntheticAddress } from "./prng.js";
export {
  type AdvancedPopulation,
  type AdvanceParameters,
  type AgentBadges,
  type AgentChange,
  agentKey,
  type AgentRecordState,
  createPopulation,
  decodeCursor,
  DEFAULT_MCP_KID,
  DEFAULT_POPULATION_AT,
  DEFAULT_POPULATION_CHAINS,
  DEFAULT_POPULATION_REGISTRIES,
  DEFAULT_TRUST_KID,
  DEFAULT_TRUST_V1_KID,
  DEFAULT_WALLET_KID,
  encodeCursor,
  FAULT_KINDS,
  type FaultKind,
  type FaultSpec,
  type KeyFileContent,
  loadOrCreateKeyFile,
  MCP_PROTOCOL_VERSIONS,
  MCP_TOOL_NAMES,
  type Population,
  type PopulationAgent,
  type PopulationChanges,
  type PopulationKey,
  type PopulationParameters,
  type RateLimitParameters,
  type RequestStats,
  type RunningTrustService,
  saveKeyFile,
  type ServiceDeviations,
  type ServiceKeys,
  type SignedTrustVersion,
  startTrustService,
  TIER_BOUNDARIES,
  type TrustServiceParameters,
  UNPUBLISHED_KIDS,
} from "./service/index.js";
export {
  type AttestationSignatureForm,
  type AttestationSigningKey,
  createAttestation,
  type CreateAttestationParameters,
  createJwtAttestation,
  exportSigningKey,
  generateSigningKey,
  importSigningKey,
  type PayloadSignatures,
  serializeSigned,
  signBytes,
  signCompactJws,
  type SignedSerialization,
  type SigningParameters,
  signJwt,
  signPayload,
} from "./signing.js";
export {
  type BaseContext,
  type BaseContextParameters,
  baseForkBlockFromEnv,
  DEFAULT_BASE_FORK_BLOCK,
  DEFAULT_FORK_PROBE,
  DEFAULT_IMPERSONATION_BALANCE,
  DEFAULT_SIMULATED_AGENTS,
  describeContractError,
  type Eip1193Provider,
  type ForkableBase,
  type ForkableBaseParameters,
  type InstalledOracleOverride,
  installOracleOverride,
  type InstallOracleOverrideParameters,
  ORACLE_ORIGINAL_CODE_ADDRESS,
  ORACLE_OVERRIDE_NAMESPACE,
  ORACLE_OVERRIDE_SLOTS,
  ORACLE_OVERRIDE_STORAGE_LOCATION,
  type OracleRecordValue,
  overrideRecordKey,
  overrideRecordSlot,
  overrideWord,
  type ResolvedTestRecordKey,
  resolveRecordKey,
  revertDecodingTransport,
  type SeededRecord,
  setOracleReverting,
  startBaseContext,
  startForkableBase,
  type TestRecordKey,
  TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE,
  type TrustRecordPatch,
  uninstallOracleOverride,
  writeOverride,
} from "./testing/index.js";
export type { SybilSeverityName, TierName, TrustEncoding } from "../config/encodings.js";
export type { LocalChainFork } from "./devnet/local-chain-types.js";
export type { OracleSubmission, SimulatedRecord, SubmissionOutcome, SubmissionSimulator } from "../doctor/submission-simulator.js";
export type { AgentKeyParts } from "../agent/agent-ref.js";
export type { Attestation } from "../published/attestation.js";
