/**
 * Storage layouts of the contracts that the kit's local networks place by code (`hardhat_setCode`) instead of
 * deploying them: the reference oracle and the ERC-8004-shaped identity registry. Placing runtime code skips the
 * constructor, so the state the constructor would have written (roles, token name, first agent id) is written
 * slot by slot from these layouts. `test/harness/devnet/bytecode.test.ts` checks them against the compiler's storage
 * layout and against contracts deployed with their constructors.
 *
 * @packageDocumentation
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, numberToHex, toHex } from "viem";

/**
 * Storage slots of `TrustScoreOracle`: `TrustScoreOracleBase`'s `_records` (0) and `_recordCount` (1), then
 * OpenZeppelin `AccessControl`'s `_roles` (2), a `mapping(bytes32 role => RoleData { mapping(address => bool)
 * hasRole; bytes32 adminRole; })`.
 */
export const TRUST_SCORE_ORACLE_SLOTS = { records: 0n, recordCount: 1n, roles: 2n } as const;

/**
 * Storage slots of `MockIdentityRegistry`: OpenZeppelin `ERC721`'s `_name` (0), `_symbol` (1), `_owners` (2),
 * `_balances` (3), `_tokenApprovals` (4), `_operatorApprovals` (5), then the registry's `_nextAgentId` (6) and
 * `_agentWallets` (7).
 */
export const MOCK_IDENTITY_REGISTRY_SLOTS = {
  name: 0n,
  symbol: 1n,
  owners: 2n,
  balances: 3n,
  tokenApprovals: 4n,
  operatorApprovals: 5n,
  nextAgentId: 6n,
  agentWallets: 7n,
} as const;

/** OpenZeppelin `AccessControl.DEFAULT_ADMIN_ROLE`. */
export const DEFAULT_ADMIN_ROLE: Hex = `0x${"00".repeat(32)}`;

/** `TrustScoreOracle.PUBLISHER_ROLE`, `keccak256("PUBLISHER_ROLE")`. */
export const PUBLISHER_ROLE: Hex = keccak256(toHex("PUBLISHER_ROLE"));

/** One storage write: slot and 32-byte value. */
export interface StorageWrite {
  /** The slot, as a 32-byte hex word. */
  readonly slot: Hex;
  /** The value, as a 32-byte hex word. */
  readonly value: Hex;
}

/**
 * The slot of `mapping[key]` for a mapping stored at `slot` whose key is a value type:
 * `keccak256(abi.encode(key, slot))`.
 *
 * @param key - The key, ABI-encodable as `keyType`.
 * @param keyType - The key's Solidity type (`bytes32`, `address`, `uint256`).
 * @param slot - The mapping's own slot.
 * @returns The value's slot.
 */
export function mappingValueSlot(key: Hex | bigint, keyType: "bytes32" | "address" | "uint256", slot: bigint | Hex): Hex {
  return keccak256(
    encodeAbiParameters([{ type: keyType }, { type: "uint256" }], [key, typeof slot === "bigint" ? slot : BigInt(slot)] as never),
  );
}

/**
 * The slot of `_roles[role].hasRole[account]` of an OpenZeppelin 5 `AccessControl` whose `_roles` mapping is
 * at `rolesSlot`.
 *
 * @param role - The role.
 * @param account - The account.
 * @param rolesSlot - Slot of `_roles`; default the oracle's ({@link TRUST_SCORE_ORACLE_SLOTS}).
 * @returns The slot holding the membership flag.
 */
export function roleMemberSlot(role: Hex, account: Address, rolesSlot: bigint = TRUST_SCORE_ORACLE_SLOTS.roles): Hex {
  const roleData = mappingValueSlot(role, "bytes32", rolesSlot); // RoleData.hasRole is its first member
  return mappingValueSlot(account, "address", roleData);
}

/**
 * A 32-byte word holding a uint256.
 *
 * @param value - The number.
 * @returns The word.
 */
export function uintWord(value: bigint | number): Hex {
  return numberToHex(BigInt(value), { size: 32 });
}

/**
 * The storage word of a Solidity `string` shorter than 32 bytes, kept in its own slot: the UTF-8 bytes
 * left-aligned and `length * 2` in the lowest byte.
 *
 * @param value - The string (at most 31 bytes of UTF-8).
 * @returns The word.
 * @throws RangeError when the string is 32 bytes or longer (it would need the long-string layout).
 */
export function shortStringWord(value: string): Hex {
  const bytes = new TextEncoder().encode(value);
  if (bytes.length > 31) throw new RangeError(`"${value}" is ${bytes.length} bytes; a short string holds at most 31`);
  const word = new Uint8Array(32);
  word.set(bytes, 0);
  word[31] = bytes.length * 2;
  return toHex(word);
}

/**
 * The writes that give `account` each of `roles` in an `AccessControl` contract (the `hasRole` flags; the
 * admin role of every role stays `DEFAULT_ADMIN_ROLE`, the zero word, as after construction).
 *
 * @param grants - `[role, account]` pairs.
 * @param rolesSlot - Slot of `_roles`; default the oracle's.
 * @returns One write per pair.
 */
export function roleGrantWrites(
  grants: readonly (readonly [role: Hex, account: Address])[],
  rolesSlot: bigint = TRUST_SCORE_ORACLE_SLOTS.roles,
): StorageWrite[] {
  return grants.map(([role, account]) => ({ slot: roleMemberSlot(role, account, rolesSlot), value: uintWord(1) }));
}
