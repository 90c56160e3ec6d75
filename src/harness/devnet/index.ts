/**
 * The local Base simulation and the drift job's embedded environment: an in-process Hardhat network (chain id
 * 8453) with the reference oracle, Multicall3 and the ERC-8004 registry at their Base addresses, a nightly
 * snapshot published into the oracle, and the local signing service whose data has moved on since.
 *
 * Part of the harness; needs the optional peer dependency `hardhat` when a chain starts.
 *
 * @packageDocumentation
 */
export { BASE_SIMULATION_CHAIN_ID, type BaseSimulation, type BaseSimulationParameters, startBaseSimulation } from "./base-simulation.js";
export {
  DEFAULT_DELISTED,
  DEFAULT_EMBEDDED_ADVANCE,
  DEFAULT_EMBEDDED_FAULTS,
  DEFAULT_EMBEDDED_REGISTRIES,
  DEFAULT_EMBEDDED_SIZE,
  DEFAULT_STALE_AGE_SECONDS,
  DEFAULT_STALE_CHAIN,
  type EmbeddedDriftEnvironment,
  type EmbeddedDriftExpectations,
  type EmbeddedDriftParameters,
  startEmbeddedDriftEnvironment,
} from "./embedded-drift.js";
export { HARDHAT_INSTALL_COMMAND, HARDHAT_PEER_VERSION, type HardhatConfigSource, STANDALONE_BLOCK_GAS_LIMIT } from "./hardhat-network.js";
export { type LocalChain, type LocalChainParameters, startLocalChain } from "./local-chain.js";
export { type Eip1193Requester, type InstallMulticall3Parameters, type InstallMulticall3Result, installMulticall3 } from "./multicall3.js";
export {
  latestNightlyRun,
  NIGHTLY_RUN_HOUR_UTC,
  type SnapshotAgent,
  type SnapshotRecordsParameters,
  snapshotRecords,
} from "./nightly-snapshot.js";
export { type StartSubmissionSimulatorParameters, startSubmissionSimulator } from "./submission-simulator.js";
export {
  DEFAULT_PUBLISH_BATCH,
  MAX_PUBLISH_BATCH,
  type OracleRecordInput,
  type PublishTrustRecordsParameters,
  type PublishTrustRecordsResult,
  publishTrustRecords,
} from "./publish-records.js";
