/**
 * A failed contract call or write in one line: the contract's custom error with its values when viem decoded the
 * revert (`RevokedSigningKey("rnwy-trust-v1")`), else the error's own short message. Shared by the writers of the
 * attested oracle (the signing-keys command, the refresh's pre-check and batches).
 *
 * @packageDocumentation
 */
import { BaseError, ContractFunctionRevertedError } from "viem";
import { messageOf } from "../errors.js";

/**
 * Describes a failed call in one line.
 *
 * @param error - What viem threw.
 * @returns `ErrorName(arg, …)` (string arguments JSON-quoted) for a decoded custom error, else the message.
 */
export function describeContractError(error: unknown): string {
  const reverted = revertOf(error);
  if (reverted?.data) {
    const args = (reverted.data.args ?? []).map((a) => (typeof a === "string" ? JSON.stringify(a) : String(a)));
    return `${reverted.data.errorName}(${args.join(", ")})`;
  }
  return messageOf(error);
}

/**
 * The name of the custom error a failed call reverted with, when viem decoded one.
 *
 * @param error - What viem threw.
 * @returns The error's name (`AttestationDatesOutOfOrder`), or `undefined`.
 */
export function contractErrorName(error: unknown): string | undefined {
  return revertOf(error)?.data?.errorName;
}

function revertOf(error: unknown): ContractFunctionRevertedError | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted : undefined;
}
