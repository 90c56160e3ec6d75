/**
 * Places a contract on a development node without deploying it: writes its runtime code with `hardhat_setCode`
 * (or `anvil_setCode`) and the storage its constructor would have written with `hardhat_setStorageAt` (or
 * `anvil_setStorageAt`), then reads the code back.
 *
 * @packageDocumentation
 */
import { type Address, type Hex, numberToHex } from "viem";
import { TrustgateError } from "../../errors.js";
import { parseAddress } from "../../inputs/address.js";
import type { Eip1193Requester } from "./multicall3.js";
import type { StorageWrite } from "./storage-layout.js";

/** The kind of development node: its JSON-RPC methods are `<kind>_setCode`, `<kind>_setStorageAt`. */
export type DevNodeKind = "hardhat" | "anvil";

/** Options of {@link placeContract}. */
export interface PlaceContractOptions {
  /** Where to put the contract. */
  readonly address: string;
  /** Its runtime (deployed) bytecode. */
  readonly code: Hex;
  /** Storage to write after the code (what the constructor would have written). Default none. */
  readonly storage?: readonly StorageWrite[] | undefined;
  /** The node's method prefix; default `hardhat`. */
  readonly node?: DevNodeKind | undefined;
  /** The contract's name, for error messages. */
  readonly label: string;
}

/**
 * Writes a contract's runtime code and storage at an address of a development node, replacing whatever was
 * there, and checks the code read back.
 *
 * @param provider - An EIP-1193 provider or viem client of a development node.
 * @param options - Address, code, storage, node kind and label.
 * @returns The checksummed address.
 * @throws {@link TrustgateError} (`NETWORK_ERROR`) when the node refuses a request or the code read back differs;
 *   {@link InvalidArgumentError} for a bad address.
 */
export async function placeContract(provider: Eip1193Requester, options: PlaceContractOptions): Promise<Address> {
  const address = parseAddress(options.address, "address");
  const node = options.node ?? "hardhat";
  const send = async (method: string, params: readonly unknown[]): Promise<unknown> => {
    try {
      return await provider.request({ method, params });
    } catch (error) {
      throw new TrustgateError("NETWORK_ERROR", `Could not place ${options.label} at ${address}: ${method} failed`, {
        details: "Only development nodes (Hardhat, Anvil) accept set-code and set-storage requests; pick the node kind.",
        cause: error,
      });
    }
  };
  await send(`${node}_setCode`, [address, options.code]);
  for (const { slot, value } of options.storage ?? []) {
    await send(`${node}_setStorageAt`, [address, numberToHex(BigInt(slot)), value]);
  }
  const written = await send("eth_getCode", [address, "latest"]);
  if (typeof written !== "string" || written.toLowerCase() !== options.code.toLowerCase()) {
    throw new TrustgateError("NETWORK_ERROR", `${options.label} code read back from ${address} differs from the code written`);
  }
  return address;
}
