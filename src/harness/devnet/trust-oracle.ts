/**
 * Puts the kit's reference oracle (`TrustScoreOracle`) at an address of a development node, by code: the Base
 * oracle's address by default, so that everything that reads "the oracle on Base" reads it unchanged. The
 * constructor does not run; the roles it would grant are written into `AccessControl`'s storage instead.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { BASE_TRUST_ORACLE_ADDRESS } from "../../config/addresses.js";
import { TRUST_SCORE_ORACLE_RUNTIME_BYTECODE } from "../../generated/runtime-bytecode.js";
import { parseAddress } from "../../inputs/address.js";
import type { Eip1193Requester } from "./multicall3.js";
import { type DevNodeKind, placeContract } from "./place-contract.js";
import { DEFAULT_ADMIN_ROLE, PUBLISHER_ROLE, roleGrantWrites } from "./storage-layout.js";

/** Options of {@link placeTrustScoreOracle}. */
export interface PlaceTrustScoreOracleOptions {
  /** Where to put it; default the Base oracle address {@link BASE_TRUST_ORACLE_ADDRESS}. */
  readonly address?: string | undefined;
  /** Gets `DEFAULT_ADMIN_ROLE` and `PUBLISHER_ROLE`, as the constructor's `admin` would. */
  readonly admin: string;
  /** Further accounts that get `PUBLISHER_ROLE`. Default none. */
  readonly publishers?: readonly string[] | undefined;
  /** The node's method prefix; default `hardhat`. */
  readonly node?: DevNodeKind | undefined;
}

/**
 * Places `TrustScoreOracle`'s runtime code (embedded, see `src/generated/runtime-bytecode.ts`) at the address,
 * with no records, and grants the roles by storage writes. Replaces any code already there.
 *
 * @param provider - An EIP-1193 provider or viem client of a development node.
 * @param options - Address, admin, extra publishers, node kind.
 * @returns The checksummed oracle address.
 * @throws {@link TrustgateError} (`NETWORK_ERROR`) when the node refuses; {@link InvalidArgumentError} for a bad
 *   address.
 */
export async function placeTrustScoreOracle(provider: Eip1193Requester, options: PlaceTrustScoreOracleOptions): Promise<Address> {
  const admin = parseAddress(options.admin, "admin");
  const publishers = (options.publishers ?? []).map((p, i) => parseAddress(p, `publishers[${i}]`));
  return placeContract(provider, {
    address: options.address ?? BASE_TRUST_ORACLE_ADDRESS,
    code: TRUST_SCORE_ORACLE_RUNTIME_BYTECODE,
    storage: roleGrantWrites([
      [DEFAULT_ADMIN_ROLE, admin],
      [PUBLISHER_ROLE, admin],
      ...publishers.map((p) => [PUBLISHER_ROLE, p] as const),
    ]),
    node: options.node,
    label: "TrustScoreOracle",
  });
}
