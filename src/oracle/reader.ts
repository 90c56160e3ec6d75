/**
 * Reads trust records from the on-chain oracle with viem: one record with one `eth_call`, many records in
 * chunks through Multicall3's `aggregate3` with `allowFailure = true`, all chunks at the same block. On a chain
 * without Multicall3 the batch reader sends the same chunks as deployless calls (Multicall3's creation code in
 * an `eth_call`, nothing deployed), or, where the node refuses those, one `eth_call` per record: see
 * `reader-mode.ts`.
 *
 * Nothing is thrown once the inputs are valid: a sub-call that reverts, returns nothing or returns garbage
 * becomes that record's error; a chunk whose request fails (RPC error, timeout, no Multicall3 in a forced
 * `multicall3` mode) becomes an error for each of that chunk's records, and the other chunks are kept.
 *
 * @packageDocumentation
 */
import {
  type Abi,
  type Address,
  BaseError,
  type BlockTag,
  concatHex,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAbiItem,
  type Hex,
  isHex,
  toFunctionSelector,
} from "viem";
import { call, getBlockNumber } from "viem/actions";
import type { AnyClient } from "./client.js";
import { BASE_TRUST_ORACLE_ADDRESS, MULTICALL3_ADDRESS } from "../config/addresses.js";
import { InvalidArgumentError, type UnknownChainError } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { mapConcurrently } from "../util/concurrency.js";
import { trustOracleAbi, trustOracleReadErrorsAbi } from "./abi.js";
import { type BlockParameters, blockParameters } from "./block.js";
import {
  AGGREGATE3_FIXED_BYTES,
  aggregate3CallBytes,
  DEPLOYLESS_AGGREGATE3_MAX_BYTES,
  DEPLOYLESS_MAX_RECORDS,
} from "./deployless-budget.js";
import { multicall3Abi } from "./multicall3-abi.js";
import { MULTICALL3_CREATION_CODE } from "./multicall3-creation-code.js";
import { detectReaderMode, ORACLE_READER_MODES, type OracleReaderMode } from "./reader-mode.js";
import { parseTrustRecordKey, type TrustRecordKey, type TrustRecordKeyInput } from "./record-key.js";
import { type RecordContext, resultFromAnswer, resultFromRequestFailure, resultFromRevert, type TrustRecordResult } from "./records.js";

/**
 * Records per `aggregate3` call by default: about 3.5 M gas, 176 KB of calldata and 128 KB of answer per call,
 * well inside the `eth_call` limits of public RPC nodes (geth's default gas cap is 50 M), and few round trips:
 * behind a simulated 40 ms round trip, chunks of 500 read faster than chunks of 250 (`scripts/bench/reader.ts`
 * measures both; docs/benchmarks.md).
 */
export const DEFAULT_CHUNK_SIZE = 500;
/** `aggregate3` calls (or, in `eth-call` mode, `eth_call`s) in flight at once by default. */
export const DEFAULT_CONCURRENCY = 4;
/** Largest accepted `chunkSize`: beyond it an `eth_call` risks the node's gas cap and response size limits. */
const MAX_CHUNK_SIZE = 5_000;
/** Largest accepted `concurrency`. */
const MAX_CONCURRENCY = 64;

/** Options shared by the single and batch readers. */
export interface ReadOptionsBase {
  /** Oracle address; default the Base oracle, {@link BASE_TRUST_ORACLE_ADDRESS}. */
  readonly oracle?: string | undefined;
  /** Extra errors to name in revert reasons (besides `Error`, `Panic` and the kit's known oracle errors). */
  readonly errorsAbi?: Abi | undefined;
  /** Block to read at. Default: the latest block, whose number is fetched once so that every chunk reads the same state. */
  readonly blockNumber?: bigint | undefined;
  /** Read at a block tag instead, without pinning a number (chunks may then see different blocks). */
  readonly blockTag?: BlockTag | undefined;
}

/** Parameters of {@link readTrustRecord}: the record's key plus the shared options. */
export interface ReadTrustRecordParameters extends TrustRecordKeyInput, ReadOptionsBase {}

/** One record to read in a batch: its key, and optionally an oracle other than the batch's. */
export type TrustRecordRequest = TrustRecordKeyInput & {
  /** Oracle to read this record from, instead of the batch's `oracle`. */
  readonly oracle?: string | undefined;
};

/** Parameters of {@link readTrustRecords}. */
export interface ReadTrustRecordsParameters extends ReadOptionsBase {
  /** The records to read; results come back in the same order. */
  readonly keys: readonly TrustRecordRequest[];
  /**
   * Records per `aggregate3` call; default {@link DEFAULT_CHUNK_SIZE}, at most {@link MAX_CHUNK_SIZE}. In
   * `deployless-multicall3` mode chunks are also held to the size limits of a contract creation (at most 95
   * records, fewer with long registry names: see `deployless-budget.ts`).
   */
  readonly chunkSize?: number | undefined;
  /** `aggregate3` calls (in `eth-call` mode: `eth_call`s) in flight at once; default {@link DEFAULT_CONCURRENCY}. */
  readonly concurrency?: number | undefined;
  /** Multicall3 address; default the client chain's `multicall3` contract, else {@link MULTICALL3_ADDRESS}. */
  readonly multicallAddress?: string | undefined;
  /**
   * How to send the reads. `"auto"` (default): probe the chain once, at the read block, with
   * {@link detectReaderMode} (Multicall3 where its address holds code, else deployless Multicall3, else one
   * `eth_call` per record). Or a mode, used as is: the drift job passes the mode it detected before the scan,
   * and a forced `multicall3` at an address without code gives every record an error that says so.
   */
  readonly mode?: OracleReaderMode | "auto" | undefined;
}

/**
 * What {@link readTrustRecord} throws: only for invalid parameters, before any request (a failed read is a result
 * with `ok: false` and an `OracleReadError`).
 */
export type ReadTrustRecordErrorType = InvalidArgumentError | UnknownChainError;

/** What {@link readTrustRecords} throws: only for invalid parameters, before any request. */
export type ReadTrustRecordsErrorType = InvalidArgumentError | UnknownChainError;

const getScoreItem = getAbiItem({ abi: trustOracleAbi, name: "getScore" });
const GET_SCORE_SELECTOR = toFunctionSelector(getScoreItem);
const aggregate3Abi = [getAbiItem({ abi: multicall3Abi, name: "aggregate3" })] as const;

/**
 * Reads one record with a single `eth_call` to the oracle's `getScore` (no Multicall3 needed).
 *
 * @param client - A viem client.
 * @param parameters - The key (`agentId`, `chainId` or `chain`, `registry`) and options.
 * @returns The record, or `{ ok: false, error }` when the read failed; never throws for a failed read.
 * @throws {@link InvalidArgumentError} (or {@link UnknownChainError}) for invalid parameters.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { readTrustRecord } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const result = await readTrustRecord(client, { agentId: 16907n, chain: "base" }); // the Base oracle by default
 * if (!result.ok) console.log(result.error.shortMessage); // a revert or a failed request, as a value
 * else if (result.hasScore) console.log(result.score, result.tier, result.sybilSeverity, result.updatedAt);
 * ```
 */
export async function readTrustRecord(client: AnyClient, parameters: ReadTrustRecordParameters): Promise<TrustRecordResult> {
  const key = parseTrustRecordKey(parameters, "parameters");
  const oracle = parseAddress(parameters.oracle ?? BASE_TRUST_ORACLE_ADDRESS, "oracle");
  const context = recordContext(parameters, parameters.blockNumber);
  return readOne(client, { key, oracle }, blockParameters(parameters.blockNumber, parameters.blockTag), context, {});
}

/**
 * Reads many records through Multicall3 `aggregate3` (`allowFailure = true`), in chunks of `chunkSize` with
 * at most `concurrency` chunks in flight, all at the same block. On a chain without Multicall3 (`mode` `"auto"`,
 * the default) the chunks go as deployless calls, or the records one `eth_call` each: the results are the same
 * in every mode, record for record.
 *
 * @param client - A viem client.
 * @param parameters - The keys and options.
 * @returns One result per key, in the order of `keys`; never throws for a failed read (a failed probe of the
 *   chain, like a failed block-number request, is an error for every record).
 * @throws {@link InvalidArgumentError} (or {@link UnknownChainError}) for invalid parameters, before any request.
 *
 * @example
 * ```ts
 * import { createPublicClient, http } from "viem";
 * import { base } from "viem/chains";
 * import { readTrustRecords } from "trustgate";
 *
 * const client = createPublicClient({ chain: base, transport: http(process.env.BASE_RPC_URL) });
 * const results = await readTrustRecords(client, {
 *   keys: [{ agentId: 16907, chain: "base" }, { agentId: 7, chainId: 1, registry: "olas" }],
 *   chunkSize: 500, // Multicall3 batches of 500 reads, all at one block
 * });
 * for (const r of results) console.log(r.key, r.ok ? r.score : r.error.shortMessage);
 * ```
 */
export async function readTrustRecords(client: AnyClient, parameters: ReadTrustRecordsParameters): Promise<TrustRecordResult[]> {
  const requests = parseRequests(parameters);
  const chunkSize = checkChunkSize(parameters.chunkSize, "chunkSize");
  const concurrency = integerOption(parameters.concurrency, "concurrency", DEFAULT_CONCURRENCY, MAX_CONCURRENCY);
  const multicall = parseAddress(
    parameters.multicallAddress ?? client.chain?.contracts?.multicall3?.address ?? MULTICALL3_ADDRESS,
    "multicallAddress",
  );
  const requestedMode = parseMode(parameters.mode);
  if (requests.length === 0) return [];

  let blockNumber = parameters.blockNumber;
  if (blockNumber === undefined && parameters.blockTag === undefined) {
    try {
      blockNumber = await getBlockNumber(client, { cacheTime: 0 });
    } catch (error) {
      const context = recordContext(parameters, undefined);
      return requests.map(({ key, oracle }) => resultFromRequestFailure(key, oracle, "Fetching the latest block number", error, context));
    }
  }
  const context = recordContext(parameters, blockNumber);
  const block = blockParameters(blockNumber, parameters.blockTag);

  let mode: OracleReaderMode;
  if (requestedMode !== "auto") mode = requestedMode;
  else {
    try {
      mode = (await detectReaderMode(client, { multicallAddress: multicall, blockNumber, blockTag: parameters.blockTag })).mode;
    } catch (error) {
      return requests.map(({ key, oracle }) =>
        resultFromRequestFailure(key, oracle, `Probing the code at the Multicall3 address ${multicall}`, error, context),
      );
    }
  }
  if (mode === "eth-call") {
    return mapConcurrently(requests, concurrency, (request) => readOne(client, request, block, context, { batch: false }));
  }

  const deployless = mode === "deployless-multicall3";
  const label = deployless ? "Deployless Multicall3" : "Multicall3";
  const target = deployless ? { code: MULTICALL3_CREATION_CODE } : { to: multicall };
  const chunks = deployless
    ? chunkCalls(requests, Math.min(chunkSize, DEPLOYLESS_MAX_RECORDS), DEPLOYLESS_AGGREGATE3_MAX_BYTES)
    : chunkCalls(requests, chunkSize, Infinity);

  const readChunk = async (chunk: Request[], index: number): Promise<TrustRecordResult[]> => {
    try {
      const calls = chunk.map(({ key, oracle }) => ({ target: oracle, allowFailure: true, callData: getScoreCallData(key) }));
      const { data } = await call(client, {
        ...target,
        data: encodeFunctionData({ abi: aggregate3Abi, functionName: "aggregate3", args: [calls] }),
        batch: false,
        ...block,
      });
      if (data === undefined) {
        throw new BaseError(
          deployless ? "The deployless Multicall3 call returned no data" : `No Multicall3 at ${multicall}: the call returned no data`,
          {
            details: deployless
              ? "The node ran Multicall3's creation code in an eth_call and answered nothing."
              : 'Deploy Multicall3 there (installMulticall3 on a local network), pass multicallAddress, or leave mode "auto".',
          },
        );
      }
      const answers = decodeFunctionResult({ abi: aggregate3Abi, functionName: "aggregate3", data });
      if (answers.length !== chunk.length) {
        throw new BaseError(`${label} answered ${answers.length} results for ${chunk.length} calls`);
      }
      return chunk.map(({ key, oracle }, j) => {
        const { success, returnData } = answers[j]!;
        return success ? resultFromAnswer(key, oracle, returnData, context) : resultFromRevert(key, oracle, returnData, context);
      });
    } catch (error) {
      const what = `${label} aggregate3 call ${index + 1} of ${chunks.length} (${chunk.length} records)`;
      return chunk.map(({ key, oracle }) => resultFromRequestFailure(key, oracle, what, error, context));
    }
  };
  return (await mapConcurrently(chunks, concurrency, readChunk)).flat();
}

/**
 * The calldata of `getScore(agentId, chainId, registry)` for a key.
 *
 * @param key - The record's key.
 * @returns The calldata.
 */
export function getScoreCallData(key: TrustRecordKey): Hex {
  return concatHex([GET_SCORE_SELECTOR, encodeAbiParameters(getScoreItem.inputs, [key.agentId, BigInt(key.chainId), key.registry])]);
}

/** A validated request of a batch. */
interface Request {
  readonly key: TrustRecordKey;
  readonly oracle: Address;
}

/** A request with its `getScore` calldata, as an `aggregate3` chunk carries it. */
/**
 * Cuts the requests into `aggregate3` chunks, in order: at most `maxCalls` calls each, and, past its first call,
 * no chunk whose calldata exceeds `maxBytes` (a single call larger than that still goes, alone, and its request
 * fails loudly rather than being dropped).
 */
function chunkCalls(requests: readonly Request[], maxCalls: number, maxBytes: number): Request[][] {
  const chunks: Request[][] = [];
  let chunk: Request[] = [];
  let bytes = AGGREGATE3_FIXED_BYTES;
  for (const request of requests) {
    // The calldata is made again when its chunk is sent: held for every record at once, it would take some 70 MB
    // for 150,000 records while the read lasts. Without a byte limit it is not needed here at all.
    const callBytes = Number.isFinite(maxBytes) ? aggregate3CallBytes(getScoreCallData(request.key)) : 0;
    if (chunk.length > 0 && (chunk.length >= maxCalls || bytes + callBytes > maxBytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = AGGREGATE3_FIXED_BYTES;
    }
    chunk.push(request);
    bytes += callBytes;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** One record with one `eth_call` to `getScore`; `batch: false` keeps a client's own multicall batching out. */
async function readOne(
  client: AnyClient,
  { key, oracle }: Request,
  block: BlockParameters,
  context: RecordContext,
  options: { readonly batch?: false },
): Promise<TrustRecordResult> {
  try {
    const { data } = await call(client, { to: oracle, data: getScoreCallData(key), ...options, ...block });
    return resultFromAnswer(key, oracle, data ?? "0x", context);
  } catch (error) {
    const revertData = revertDataOf(error);
    if (revertData !== undefined) return resultFromRevert(key, oracle, revertData, context);
    return resultFromRequestFailure(key, oracle, "The eth_call to getScore", error, context);
  }
}

function parseMode(value: unknown): OracleReaderMode | "auto" {
  if (value === undefined || value === "auto") return "auto";
  if (typeof value === "string" && (ORACLE_READER_MODES as readonly string[]).includes(value)) return value as OracleReaderMode;
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  throw new InvalidArgumentError(`Invalid mode ${shown}: expected "auto", ${ORACLE_READER_MODES.map((m) => `"${m}"`).join(", ")}`);
}

function parseRequests(parameters: ReadTrustRecordsParameters): Request[] {
  if (typeof parameters !== "object" || parameters === null || !Array.isArray(parameters.keys)) {
    throw new InvalidArgumentError("Invalid keys: expected an array of { agentId, chainId | chain, registry? }");
  }
  const oracle = parseAddress(parameters.oracle ?? BASE_TRUST_ORACLE_ADDRESS, "oracle");
  return parameters.keys.map((input, i) => ({
    key: parseTrustRecordKey(input, `keys[${i}]`),
    oracle: input?.oracle === undefined ? oracle : parseAddress(input.oracle, `keys[${i}].oracle`),
  }));
}

function recordContext(options: ReadOptionsBase, blockNumber: bigint | undefined): RecordContext {
  if (options.blockNumber !== undefined && (typeof options.blockNumber !== "bigint" || options.blockNumber < 0n)) {
    throw new InvalidArgumentError(`Invalid blockNumber ${String(options.blockNumber)}: expected a non-negative bigint`);
  }
  return {
    errorsAbi: [...trustOracleReadErrorsAbi, ...(options.errorsAbi ?? [])],
    blockNumber,
  };
}

/**
 * Checks a records-per-call option of the batch reader.
 *
 * @param value - Records per `aggregate3` call; `undefined` for the default.
 * @param name - The option's name, for the message.
 * @returns The value, or {@link DEFAULT_CHUNK_SIZE}.
 * @throws {@link InvalidArgumentError} unless it is an integer from 1 to {@link MAX_CHUNK_SIZE}.
 */
export function checkChunkSize(value: number | undefined, name: string): number {
  return integerOption(value, name, DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE);
}

function integerOption(value: number | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new InvalidArgumentError(`Invalid ${name} ${String(value)}: expected an integer from 1 to ${max}`);
  }
  return value;
}

/** The revert data carried by a failed `eth_call`, if the failure is a revert. */
function revertDataOf(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const inner = error.walk() as { data?: unknown } | null;
  const data = inner?.data;
  const hex = typeof data === "object" && data !== null ? (data as { data?: unknown }).data : data;
  return typeof hex === "string" && isHex(hex) ? hex : undefined;
}
