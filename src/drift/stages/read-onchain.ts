/**
 * Stage 2, read on-chain: every candidate's oracle record, in bulk (Multicall3, or deployless Multicall3 or
 * one `eth_call` per record on a chain without it), at the run's pinned block.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import type { EvmAgentRef } from "../../agent/agent-ref.js";
import type { AnyClient } from "../../oracle/client.js";
import { readTrustRecords } from "../../oracle/reader.js";
import type { OracleReaderMode } from "../../oracle/reader-mode.js";
import { recordKeyOf } from "../../oracle/record-key.js";
import type { TrustRecordResult } from "../../oracle/records.js";

/** What {@link readOnchain} needs. */
export interface ReadOnchainOptions {
  /** Client of the chain that hosts the oracle. */
  readonly chain: AnyClient;
  readonly oracle: Address;
  /** Block to read at; default the latest. */
  readonly blockNumber?: bigint;
  /** How to read the oracle (`runDrift` detects it once before the scan); default: the reader probes the chain. */
  readonly readerMode?: OracleReaderMode;
  /** Records per `eth_call`; default the reader's `DEFAULT_CHUNK_SIZE`. */
  readonly readChunkSize?: number | undefined;
}

/**
 * Reads the oracle records of `agents`.
 *
 * @param agents - The agents (on EVM chains).
 * @param options - Chain client, oracle, block, reader mode, records per call.
 * @returns One result per agent, in order; a failed read is a result with `ok: false`, never a throw.
 */
export async function readOnchain(agents: readonly EvmAgentRef[], options: ReadOnchainOptions): Promise<TrustRecordResult[]> {
  if (agents.length === 0) return [];
  return readTrustRecords(options.chain, {
    oracle: options.oracle,
    blockNumber: options.blockNumber,
    mode: options.readerMode,
    chunkSize: options.readChunkSize,
    keys: agents.map(recordKeyOf),
  });
}
