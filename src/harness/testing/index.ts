/**
 * Test support for suites that run against Base: `startBaseContext` gives a fork of Base at a pinned block when
 * `BASE_RPC_URL` is set, else the kit's local Base simulation, with helpers that set, clear and backdate single
 * oracle records, make the oracle revert, impersonate accounts and name agent controllers — on a fork without
 * losing the real records (the oracle override, `contracts/testing/TrustOracleOverride.sol`).
 *
 * Needs the `hardhat` package (an optional peer dependency of the kit). Exported as `trustgate/testing`; part of
 * the harness (`src/harness/`), never imported by the kit.
 *
 * @packageDocumentation
 * @module trustgate/testing
 */

export { TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE } from "../../generated/runtime-bytecode.js";
export { type ForkableBase, type ForkableBaseParameters, startForkableBase } from "../devnet/forkable-base.js";
export type { SeededRecord } from "../devnet/seeded-population.js";
export { describeContractError, type Eip1193Provider, revertDecodingTransport } from "../devnet/revert-transport.js";
export {
  type BaseContext,
  type BaseContextParameters,
  DEFAULT_FORK_PROBE,
  DEFAULT_IMPERSONATION_BALANCE,
  DEFAULT_SIMULATED_AGENTS,
  startBaseContext,
  type TrustRecordPatch,
} from "./base-context.js";
export { baseForkBlockFromEnv, DEFAULT_BASE_FORK_BLOCK } from "./fork-block.js";
export {
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
  setOracleReverting,
  type TestRecordKey,
  uninstallOracleOverride,
  writeOverride,
} from "./oracle-override.js";
export type { SybilSeverityName, TierName, TrustEncoding } from "../../config/encodings.js";
export type { BaseSimulation } from "../devnet/base-simulation.js";
export type { OracleRecordInput, PublishTrustRecordsResult } from "../devnet/publish-records.js";
export type { Eip1193Requester } from "../devnet/multicall3.js";
