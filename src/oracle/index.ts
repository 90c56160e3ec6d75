/**
 * The on-chain side of the SDK: oracle and gate ABIs, the record reader (single `eth_call`, or batches through
 * Multicall3, deployless Multicall3 where it is not deployed, or one `eth_call` per record) and the gate
 * configuration reader.
 *
 * @packageDocumentation
 */
export { attestedTrustOracleAbi, trustOracleAbi, trustOracleReadErrorsAbi, trustScoreOracleAbi } from "./abi.js";
export { type AttestedOracleClients, revokeTrustSigningKeys, setTrustSigningKeys, submitTrustAttestation } from "./attested-oracle.js";
export { decodeScoreAnswer, describeRevert, type MalformedAnswer, type ScoreAnswer } from "./decode.js";
export { type GatePolicy, type ReadGatePolicyParameters, readGatePolicy } from "./gate.js";
export { trustGatedAbi } from "./gate-abi.js";
export { multicall3Abi } from "./multicall3-abi.js";
export type { AnyClient } from "./client.js";
export {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_CONCURRENCY,
  getScoreCallData,
  type ReadOptionsBase,
  type ReadTrustRecordParameters,
  type ReadTrustRecordsParameters,
  readTrustRecord,
  readTrustRecords,
  type TrustRecordRequest,
} from "./reader.js";
export {
  type DetectReaderModeOptions,
  detectReaderMode,
  ORACLE_READER_MODES,
  type OracleReaderMode,
  type ReaderModeDetection,
} from "./reader-mode.js";
export { listRecordsSignedBy, type RecordsSignedBy, type SignedRecord } from "./records-by-key.js";
export { parseTrustRecordKey, recordKeyOf, type TrustRecordKey, type TrustRecordKeyInput } from "./record-key.js";
export type { TrustRecordRead, TrustRecordReadFailure, TrustRecordResult, TrustRecordResultBase } from "./records.js";
