/**
 * Puts the kit's ERC-8004-shaped identity registry (`MockIdentityRegistry`) at an address of a development
 * node, by code: the ERC-8004 registry's address by default. The constructor does not run; what it would
 * write (the ERC-721 name and symbol, the first agent id) is written into storage instead.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { ERC8004_IDENTITY_REGISTRY_ADDRESS } from "../../config/addresses.js";
import { MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE } from "../../generated/runtime-bytecode.js";
import type { Eip1193Requester } from "./multicall3.js";
import { type DevNodeKind, placeContract } from "./place-contract.js";
import { MOCK_IDENTITY_REGISTRY_SLOTS, shortStringWord, uintWord } from "./storage-layout.js";

/** ERC-721 name the registry's constructor sets (`MockIdentityRegistry`). */
export const IDENTITY_REGISTRY_NAME = "ERC-8004 Agent Identity (mock)";

/** ERC-721 symbol the registry's constructor sets. */
export const IDENTITY_REGISTRY_SYMBOL = "AGENT";

/** Options of {@link placeIdentityRegistry}. */
export interface PlaceIdentityRegistryOptions {
  /** Where to put it; default {@link ERC8004_IDENTITY_REGISTRY_ADDRESS}. */
  readonly address?: string | undefined;
  /** ERC-721 name, at most 31 bytes; default {@link IDENTITY_REGISTRY_NAME}. */
  readonly name?: string | undefined;
  /** ERC-721 symbol, at most 31 bytes; default {@link IDENTITY_REGISTRY_SYMBOL}. */
  readonly symbol?: string | undefined;
  /** The node's method prefix; default `hardhat`. */
  readonly node?: DevNodeKind | undefined;
}

/**
 * Places `MockIdentityRegistry`'s runtime code (embedded, see `src/generated/runtime-bytecode.ts`) at the
 * address, with no agents: `register()` hands out ids from 1, `registerWithId(owner, id)` mints a chosen id,
 * the owner sets the agent wallet with `setAgentWallet`. Replaces any code already there.
 *
 * @param provider - An EIP-1193 provider or viem client of a development node.
 * @param options - Address, name, symbol, node kind.
 * @returns The checksummed registry address.
 * @throws {@link TrustgateError} (`NETWORK_ERROR`) when the node refuses; {@link InvalidArgumentError} for a bad
 *   address; RangeError for a name or symbol longer than 31 bytes.
 */
export async function placeIdentityRegistry(provider: Eip1193Requester, options: PlaceIdentityRegistryOptions = {}): Promise<Address> {
  return placeContract(provider, {
    address: options.address ?? ERC8004_IDENTITY_REGISTRY_ADDRESS,
    code: MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE,
    storage: [
      { slot: uintWord(MOCK_IDENTITY_REGISTRY_SLOTS.name), value: shortStringWord(options.name ?? IDENTITY_REGISTRY_NAME) },
      { slot: uintWord(MOCK_IDENTITY_REGISTRY_SLOTS.symbol), value: shortStringWord(options.symbol ?? IDENTITY_REGISTRY_SYMBOL) },
      { slot: uintWord(MOCK_IDENTITY_REGISTRY_SLOTS.nextAgentId), value: uintWord(1) },
    ],
    node: options.node,
    label: "MockIdentityRegistry",
  });
}
