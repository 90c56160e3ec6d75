/**
 * A viem transport over an in-process EIP-1193 provider (Hardhat's network) that reports reverts the way a
 * node's JSON-RPC server does, so that viem decodes contracts' custom errors — instead of "An unknown RPC error
 * occurred." — and a one-line description of such an error.
 *
 * @packageDocumentation
 */
import { BaseError, ContractFunctionRevertedError, type CustomTransport, custom, type EIP1193RequestFn } from "viem";

/** What the transport needs of a provider: EIP-1193 `request`. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/**
 * Wraps a provider as a viem transport whose reverts carry JSON-RPC code 3 and the revert data (EIP-1474), which
 * is what viem needs to decode a custom error with its arguments. Other errors pass unchanged.
 *
 * @param provider - Hardhat's `network.provider`, or any EIP-1193 provider.
 * @returns A viem `custom` transport, without retries.
 */
export function revertDecodingTransport(provider: Eip1193Provider): CustomTransport {
  const request = ((args: { method: string; params?: unknown }) =>
    provider.request(args).catch((error: unknown) => Promise.reject(asRpcRevert(error)))) as EIP1193RequestFn;
  return custom({ request }, { retryCount: 0 });
}

/**
 * Hardhat's in-process provider throws a revert with the revert data in `data` (a hex string, or `{ data }`) but
 * no JSON-RPC `code`, which viem cannot recognise; it becomes an execution error (code 3) with that data.
 *
 * @param error - What the provider threw.
 * @returns The error viem can decode, or the error unchanged.
 */
export function asRpcRevert(error: unknown): unknown {
  if (typeof error !== "object" || error === null) return error;
  const { code, data, message } = error as { code?: unknown; data?: unknown; message?: unknown };
  if (typeof code === "number" && code !== -32603) return error;
  const revert =
    typeof data === "string" ? data : typeof data === "object" && data !== null ? (data as { data?: unknown }).data : undefined;
  if (typeof revert !== "string" || !/^0x[0-9a-fA-F]*$/.test(revert)) return error;
  return Object.assign(new Error(typeof message === "string" ? message : "execution reverted", { cause: error }), {
    code: 3,
    data: revert,
  });
}

/**
 * The contract's custom error of a failed viem call, as `Name(arg, …)`, else viem's short message.
 *
 * @param error - What a viem contract call threw.
 * @returns The description.
 */
export function describeContractError(error: unknown): string {
  if (!(error instanceof BaseError)) return error instanceof Error ? error.message : String(error);
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
    const args = (reverted.data.args ?? []).map((a) => (typeof a === "string" ? JSON.stringify(a) : String(a)));
    return `${reverted.data.errorName}(${args.join(", ")})`;
  }
  return error.shortMessage;
}
