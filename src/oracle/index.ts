/**
 * The on-chain side of the SDK: oracle and gate ABIs, the record reader (single `eth_call`, or batches through
 * Multicall3, deployless Multicall3 where it is not deployed, or one `eth_call` per record) and the gate
 * configuration reader.
 *
 * @packageDocumentation
 */
export { trustOracleAbi, trustScoreOracleAbi, trustOracleReadErrorsAbi } from "./abi.js";
export { trustGatedAbi } from "./gate-abi.js";
export { multicall3Abi } from "./multicall3-abi.js";
export { parseTrustRecordKey, recordKeyOf, type TrustRecordKey, type TrustRecordKeyInput } from "./record-key.js";
export { decodeScoreAnswer, describeRevert, type MalformedAnswer, type ScoreAnswer } from "./decode.js";
export type { TrustRecordRead, TrustRecordReadFailure, TrustRecordResult, TrustRecordResultBase } from "./records.js";
export {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_CONCURRENCY,
  MAX_CHUNK_SIZE,
  MAX_CONCURRENCY,
  getScoreCallData,
  readTrustRecord,
  readTrustRecords,
  type AnyClient,
  type ReadOptionsBase,
  type ReadTrustRecordParameters,
  type ReadTrustRecordsParameters,
  type TrustRecordRequest,
} from "./reader.js";
export {
  ORACLE_READER_MODES,
  detectReaderMode,
  type DetectReaderModeOptions,
  type OracleReaderMode,
  type ReaderModeDetection,
} from "./reader-mode.js";
export { readGatePolicy, type GatePolicy, type ReadGatePolicyOptions } from "./gate.js";
