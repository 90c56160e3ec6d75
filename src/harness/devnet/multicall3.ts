/**
 * Puts Multicall3 at its canonical address on a local development network (Hardhat or Anvil), so that viem
 * and the kit's batch reader work there as they do on Base. Uses the runtime bytecode of the kit's own
 * `contracts/utils/Multicall3.sol`, embedded in `src/generated/runtime-bytecode.ts`: nothing is compiled or downloaded.
 *
 * @packageDocumentation
 */
import type { Address, Hex } from "viem";
import { MULTICALL3_ADDRESS } from "../../config/addresses.js";
import { TrustgateError } from "../../errors.js";
import { MULTICALL3_RUNTIME_BYTECODE } from "../../generated/runtime-bytecode.js";
import { parseAddress } from "../../inputs/address.js";

/**
 * Anything with an EIP-1193 `request` method: Hardhat's `hre.network.provider`, a viem client (public, test,
 * wallet), an ethers `JsonRpcProvider` wrapped to EIP-1193…
 */
export interface Eip1193Requester {
  /** Sends one JSON-RPC request. */
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

/** Options of {@link installMulticall3}. */
export interface InstallMulticall3Parameters {
  /** Where to put it; default the canonical {@link MULTICALL3_ADDRESS}. */
  readonly address?: string | undefined;
  /** The node's set-code method: `hardhat_setCode` (default) or `anvil_setCode`. */
  readonly setCodeMethod?: "hardhat_setCode" | "anvil_setCode" | undefined;
  /**
   * Replace code already at the address. Default `false`: a network forked from Base already has the real
   * Multicall3 there, and it is left alone.
   */
  readonly overwrite?: boolean | undefined;
}

/** What {@link installMulticall3} did. */
export interface InstallMulticall3Result {
  /** The address that now holds Multicall3. */
  readonly address: Address;
  /** Whether code was written (`false` when the address already held code and `overwrite` was not set). */
  readonly installed: boolean;
}

/**
 * Places Multicall3's runtime code at the canonical address (or `options.address`) with `hardhat_setCode`
 * (or `anvil_setCode`) and checks it is there.
 *
 * @param provider - An EIP-1193 provider or viem client of a development node.
 * @param options - Address, set-code method, overwrite.
 * @returns The address and whether code was written.
 * @throws {@link TrustgateError} (`NETWORK_ERROR`) when the node refuses the set-code request or the code read
 *   back differs; {@link InvalidArgumentError} for a bad address.
 */
export async function installMulticall3(
  provider: Eip1193Requester,
  options: InstallMulticall3Parameters = {},
): Promise<InstallMulticall3Result> {
  const address = parseAddress(options.address ?? MULTICALL3_ADDRESS, "address");
  const method = options.setCodeMethod ?? "hardhat_setCode";
  const existing = await getCode(provider, address);
  if (existing === MULTICALL3_RUNTIME_BYTECODE) return { address, installed: false };
  if (existing !== "0x" && !options.overwrite) return { address, installed: false };
  try {
    await provider.request({ method, params: [address, MULTICALL3_RUNTIME_BYTECODE] });
  } catch (error) {
    throw new TrustgateError("NETWORK_ERROR", `Could not place Multicall3 at ${address}: ${method} failed`, {
      details: "Only development nodes (Hardhat, Anvil) accept set-code requests; pick setCodeMethod for the node.",
      cause: error,
    });
  }
  const written = await getCode(provider, address);
  if (written !== MULTICALL3_RUNTIME_BYTECODE) {
    throw new TrustgateError("NETWORK_ERROR", `Multicall3 code read back from ${address} differs from the code written`);
  }
  return { address, installed: true };
}

async function getCode(provider: Eip1193Requester, address: Address): Promise<Hex> {
  const code = await provider.request({ method: "eth_getCode", params: [address, "latest"] });
  return (typeof code === "string" ? code.toLowerCase() : "0x") as Hex;
}
