/**
 * The gas a contract creation would use, for the deployment's dry run, without sending anything: `eth_estimateGas`
 * (with the contracts it depends on placed at their predicted addresses by a state override), and, on a node that
 * refuses a state override in `eth_estimateGas` (Hardhat's node does), the same creation measured inside one
 * `eth_call`, which such nodes accept with a state override.
 *
 * The measurement: the call's state override places a small meter contract at a scratch address; called with the
 * init code as calldata, it copies it to memory, reads the gas left, runs `CREATE`, reads the gas left again and
 * returns the difference with the created address. A transaction that creates the contract pays the same as that
 * `CREATE` (32,000, the init code's word cost, its execution and the code deposit) plus the transaction's base cost
 * and its calldata, or the calldata floor of EIP-7623 when that is higher.
 *
 * @packageDocumentation
 */
import { type Address, type CustomTransport, decodeAbiParameters, type Hex, hexToBytes, type PublicClient, size, zeroAddress } from "viem";
import { messageOf } from "../errors.js";

/** How a dry run's gas figure was obtained. */
export type CreationGasMethod = "eth_estimateGas" | "eth_call";

/** A creation's gas, or why it could not be estimated. */
export type CreationGas =
  | { readonly gas: bigint; readonly method: CreationGasMethod; readonly note: undefined }
  | { readonly gas: undefined; readonly method: undefined; readonly note: string };

/** Code placed at an address for the estimate (a contract the creation depends on, at its predicted address). */
export interface CodeOverride {
  /** Where. */
  readonly address: Address;
  /** Its runtime code. */
  readonly code: Hex;
}

/**
 * Runtime code of the meter: `CALLDATACOPY(0, 0, CALLDATASIZE)`, `GAS`, `CREATE(0, 0, CALLDATASIZE)`, `GAS`, then
 * returns `(gasBefore - gasAfter, createdAddress)` as two words.
 */
const METER_CODE: Hex = "0x365f5f375a365f5ff05a9060205290035f5260405ff3";

/** The scratch address the meter is placed at, only inside the measuring call's state override. */
const METER_ADDRESS: Address = "0x0000000000000000000000000000000000067a55";

/** Gas of the meter's own instructions between its two `GAS` readings, besides `CREATE` (three pushes, one `GAS`). */
const METER_OVERHEAD = 8n;

/** A transaction's base cost. */
const TRANSACTION_BASE_GAS = 21_000n;

/**
 * Estimates the gas of a contract creation sent by `from`, with `overrides` in place.
 *
 * @param publicClient - A client of the node.
 * @param from - The sender.
 * @param data - Init code (creation bytecode and encoded constructor arguments).
 * @param overrides - Contracts the creation depends on, at their predicted addresses.
 * @returns The gas and how it was obtained, or why it could not be.
 */
export async function estimateCreationGas(
  publicClient: PublicClient<CustomTransport>,
  from: Address,
  data: Hex,
  overrides: readonly CodeOverride[],
): Promise<CreationGas> {
  let estimateProblem: string;
  try {
    const gas = await publicClient.estimateGas({ account: from, data, ...(overrides.length ? { stateOverride: [...overrides] } : {}) });
    return { gas, method: "eth_estimateGas", note: undefined };
  } catch (error) {
    estimateProblem = firstLine(error);
  }
  if (overrides.length === 0) return { gas: undefined, method: undefined, note: `estimation failed: ${estimateProblem}` };
  try {
    return { gas: await measureCreationGas(publicClient, from, data, overrides), method: "eth_call", note: undefined };
  } catch (error) {
    return {
      gas: undefined,
      method: undefined,
      note: `not estimable until its dependencies are deployed (eth_estimateGas with a state override: ${estimateProblem}; eth_call with one: ${firstLine(error)})`,
    };
  }
}

/**
 * Measures a creation inside one `eth_call` (see the file's header): the gas a transaction creating the contract
 * would use. Throws when the node refuses the call or the creation reverts.
 */
async function measureCreationGas(
  publicClient: PublicClient<CustomTransport>,
  from: Address,
  data: Hex,
  overrides: readonly CodeOverride[],
): Promise<bigint> {
  const { data: returned } = await publicClient.call({
    account: from,
    to: METER_ADDRESS,
    data,
    stateOverride: [...overrides, { address: METER_ADDRESS, code: METER_CODE }],
  });
  if (!returned || size(returned) !== 64) throw new Error("the node returned no measurement");
  const [used, created] = decodeAbiParameters([{ type: "uint256" }, { type: "address" }], returned);
  if (created === zeroAddress) throw new Error("the creation reverts");
  const bytes = hexToBytes(data);
  const zeros = BigInt(bytes.filter((b) => b === 0).length);
  const nonZeros = BigInt(bytes.length) - zeros;
  const standard = TRANSACTION_BASE_GAS + 4n * zeros + 16n * nonZeros + (used - METER_OVERHEAD);
  const floor = TRANSACTION_BASE_GAS + 10n * (zeros + 4n * nonZeros);
  return standard > floor ? standard : floor;
}

function firstLine(error: unknown): string {
  return messageOf(error).split("\n")[0]!;
}
