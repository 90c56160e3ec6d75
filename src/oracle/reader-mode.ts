/**
 * How the batch reader reaches the oracle on a given chain, and how that is chosen: once, by probing the chain
 * at the block the records are read at.
 *
 * - `multicall3`: Multicall3 is deployed (its address holds code): `aggregate3` calls to it, in chunks.
 * - `deployless-multicall3`: no code there (a plain `hardhat node`, anvil, many testnets): the same `aggregate3`
 *   chunks, each sent as a deployless `eth_call` (viem's `call` with `code`, as viem's own `multicall` does with
 *   `deployless: true`): the call carries Multicall3's creation code, the node runs it inside the call, and
 *   nothing is deployed. Chunks are also kept under the init-code size limit (see `deployless-budget.ts`).
 * - `eth-call`: the node refused even a deployless call: one `eth_call` to `getScore` per record.
 *
 * Every mode reads at the same pinned block, turns each record's failure into that record's error, and keeps
 * the batch's bounded concurrency.
 *
 * @packageDocumentation
 */
import { type Address, BaseError, type BlockTag, decodeFunctionResult, encodeFunctionData, getAbiItem } from "viem";
import { call, getCode } from "viem/actions";
import { MULTICALL3_ADDRESS } from "../config/addresses.js";
import { messageOf } from "../errors.js";
import { parseAddress } from "../inputs/address.js";
import { blockParameters } from "./block.js";
import { multicall3Abi } from "./multicall3-abi.js";
import { MULTICALL3_CREATION_CODE } from "./multicall3-creation-code.js";
import type { AnyClient } from "./client.js";

/** How the batch reader sends its reads (see the module notes). */
export type OracleReaderMode = "multicall3" | "deployless-multicall3" | "eth-call";

/** Every reader mode, from the fewest requests to the most. */
export const ORACLE_READER_MODES: readonly OracleReaderMode[] = ["multicall3", "deployless-multicall3", "eth-call"];

/** What {@link detectReaderMode} found. */
export interface ReaderModeDetection {
  /** The mode to read with. */
  readonly mode: OracleReaderMode;
  /** The Multicall3 address that was probed. */
  readonly multicallAddress: Address;
  /** In `eth-call` mode: why the deployless probe failed, in one line. */
  readonly deploylessFailure?: string;
}

/** Options of {@link detectReaderMode}. */
export interface DetectReaderModeOptions {
  /** Multicall3 address to probe; default the client chain's `multicall3` contract, else {@link MULTICALL3_ADDRESS}. */
  readonly multicallAddress?: string | undefined;
  /** Block to probe at (the block the records will be read at); default the latest. */
  readonly blockNumber?: bigint | undefined;
  /** Block tag to probe at instead of a number. */
  readonly blockTag?: BlockTag | undefined;
}

const aggregate3Abi = [getAbiItem({ abi: multicall3Abi, name: "aggregate3" })] as const;
const EMPTY_AGGREGATE3 = encodeFunctionData({ abi: aggregate3Abi, functionName: "aggregate3", args: [[]] });

/**
 * Chooses how to read records on a chain: `multicall3` when the Multicall3 address holds code at the block;
 * otherwise `deployless-multicall3` when a deployless `aggregate3` with no calls answers as Multicall3 does;
 * otherwise `eth-call`. At most two requests (`eth_getCode`, then one `eth_call`); nothing is deployed.
 *
 * @param client - A viem client of the chain.
 * @param options - The Multicall3 address and the block.
 * @returns The mode, the address probed, and (in `eth-call` mode) why the deployless probe failed.
 * @throws {@link InvalidArgumentError} for a bad `multicallAddress`; the RPC's error when `eth_getCode` fails
 *   (a chain that cannot answer that cannot be read either: the caller decides what that means).
 */
export async function detectReaderMode(client: AnyClient, options: DetectReaderModeOptions = {}): Promise<ReaderModeDetection> {
  const multicallAddress = parseAddress(
    options.multicallAddress ?? client.chain?.contracts?.multicall3?.address ?? MULTICALL3_ADDRESS,
    "multicallAddress",
  );
  const block = blockParameters(options.blockNumber, options.blockTag);
  const code = await getCode(client, { address: multicallAddress, ...block });
  if (code !== undefined && code !== "0x") return { mode: "multicall3", multicallAddress };
  try {
    const { data } = await call(client, { code: MULTICALL3_CREATION_CODE, data: EMPTY_AGGREGATE3, batch: false, ...block });
    const answers = decodeFunctionResult({ abi: aggregate3Abi, functionName: "aggregate3", data: data ?? "0x" });
    if (answers.length !== 0) throw new BaseError(`it answered ${answers.length} results for no call`);
    return { mode: "deployless-multicall3", multicallAddress };
  } catch (error) {
    return { mode: "eth-call", multicallAddress, deploylessFailure: describeFailure(error) };
  }
}

/** One line on a failed call: viem's short message, and the node's own words when viem adds them as details. */
function describeFailure(error: unknown): string {
  const short = messageOf(error);
  const details = error instanceof BaseError ? error.details : undefined;
  return details && !short.includes(details) ? `${short} (${details})` : short;
}
