/**
 * Puts `TrustOracleOverride` (`contracts/testing/TrustOracleOverride.sol`) in front of a trust oracle on a
 * development node, and writes its state. The oracle's original runtime code moves to a side address; the
 * override's code takes its place and DELEGATECALLs every call it does not answer itself to the original code,
 * so the oracle's own storage (every real record on a Base fork) stays readable exactly as it was. The override's
 * state sits in an ERC-7201 namespaced slot of the oracle address and is written with `hardhat_setStorageAt`:
 * no transaction is sent, no block is mined.
 *
 * @packageDocumentation
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, numberToHex, toHex } from "viem";
import { DevnetError, InvalidArgumentError } from "../../errors.js";
import { TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE } from "../../generated/runtime-bytecode.js";
import { parseAddress } from "../../inputs/address.js";
import { recordKeyHash } from "../../oracle/record-key.js";
import type { Eip1193Requester } from "../devnet/multicall3.js";

/** ERC-7201 namespace id of the override's state. */
export const ORACLE_OVERRIDE_NAMESPACE = "trustgate.storage.TrustOracleOverride";

/**
 * Base slot of the override's state: `keccak256(abi.encode(uint256(keccak256(namespace)) - 1)) & ~0xff`
 * (the constant `STORAGE_LOCATION` of the contract; a test checks they agree).
 */
export const ORACLE_OVERRIDE_STORAGE_LOCATION: bigint =
  BigInt(keccak256(encodeAbiParameters([{ type: "uint256" }], [BigInt(keccak256(toHex(ORACLE_OVERRIDE_NAMESPACE))) - 1n]))) & ~0xffn;

/** Slots of the override's struct: original code address, revert switch, records mapping. */
export const ORACLE_OVERRIDE_SLOTS = {
  original: ORACLE_OVERRIDE_STORAGE_LOCATION,
  reverting: ORACLE_OVERRIDE_STORAGE_LOCATION + 1n,
  records: ORACLE_OVERRIDE_STORAGE_LOCATION + 2n,
} as const;

/**
 * Default side address that receives the oracle's original runtime code: the last 20 bytes of
 * `keccak256("trustgate.TrustOracleOverride.original")`, an address with no code or state on any real chain.
 */
export const ORACLE_ORIGINAL_CODE_ADDRESS: Address = parseAddress(
  `0x${keccak256(toHex("trustgate.TrustOracleOverride.original")).slice(-40)}`,
);

/** Bit 255 of an override word: the key is overridden. */
const OVERRIDDEN = 1n << 255n;

/** The key of an oracle record as a test gives it (Base and `erc8004` by default); the SDK reader's own is `TrustRecordKey`. */
export interface TestRecordKey {
  /** Agent id in its registry. */
  readonly agentId: bigint | number;
  /** Chain the agent is registered on; default 8453 (Base). */
  readonly chainId?: bigint | number | undefined;
  /** Registry name; default `erc8004`. */
  readonly registry?: string | undefined;
}

/** A key with its defaults filled in. */
export interface ResolvedTestRecordKey {
  /** Agent id. */
  readonly agentId: bigint;
  /** Chain id. */
  readonly chainId: bigint;
  /** Registry name. */
  readonly registry: string;
}

/** An oracle record, with its codes. */
export interface OracleRecordValue {
  /** Score (uint8). */
  readonly score: number;
  /** Tier code (uint8). */
  readonly tier: number;
  /** Sybil severity code (uint8). */
  readonly sybilSeverity: number;
  /** Record date, Unix seconds (uint40); 0 means "no record". */
  readonly updatedAt: number;
}

/**
 * Fills a key's defaults and checks its fields.
 *
 * @param key - The key.
 * @returns The key with agent id and chain id as bigints and the registry name.
 * @throws {@link InvalidArgumentError} for a negative or non-integer id or an empty registry name.
 */
export function resolveRecordKey(key: TestRecordKey): ResolvedTestRecordKey {
  const agentId = toUint256(key.agentId, "agentId");
  const chainId = toUint256(key.chainId ?? 8453, "chainId");
  const registry = key.registry ?? "erc8004";
  if (typeof registry !== "string" || registry.length === 0) throw new InvalidArgumentError("registry must be a non-empty string");
  return { agentId, chainId, registry };
}

/**
 * The override's hash of a key: `keccak256(abi.encodePacked(agentId, chainId, registry))`.
 *
 * @param key - The key.
 * @returns The hash.
 */
export function overrideRecordKey(key: TestRecordKey): Hex {
  const { agentId, chainId, registry } = resolveRecordKey(key);
  return recordKeyHash({ agentId, chainId, registry });
}

/**
 * The storage slot (of the oracle address) holding a key's override word.
 *
 * @param key - The key.
 * @returns The slot.
 */
export function overrideRecordSlot(key: TestRecordKey): Hex {
  return keccak256(
    encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [overrideRecordKey(key), ORACLE_OVERRIDE_SLOTS.records]),
  );
}

/**
 * The override word of a record: bit 255 set, the record packed in bits 0–63; `null` gives the "cleared" word.
 *
 * @param record - The record, or `null` for "no record".
 * @returns The 32-byte word.
 * @throws {@link InvalidArgumentError} when a field is outside its Solidity type.
 */
export function overrideWord(record: OracleRecordValue | null): Hex {
  if (record === null) return numberToHex(OVERRIDDEN, { size: 32 });
  const score = toUint(record.score, 8, "score");
  const tier = toUint(record.tier, 8, "tier");
  const sybil = toUint(record.sybilSeverity, 8, "sybilSeverity");
  const updatedAt = toUint(record.updatedAt, 40, "updatedAt");
  return numberToHex(OVERRIDDEN | score | (tier << 8n) | (sybil << 16n) | (updatedAt << 24n), { size: 32 });
}

/** Options of {@link installOracleOverride}. */
export interface InstallOracleOverrideParameters {
  /** The oracle to put the override in front of. */
  readonly oracle: string;
  /** Where the original code goes; default {@link ORACLE_ORIGINAL_CODE_ADDRESS}. */
  readonly originalCodeAddress?: string | undefined;
}

/** An installed override: where things are, and the original code (to put back). */
export interface InstalledOracleOverride {
  /** The oracle address (now running the override). */
  readonly oracle: Address;
  /** The side address running the original code. */
  readonly originalCodeAddress: Address;
  /** The oracle's original runtime code. */
  readonly originalCode: Hex;
}

/**
 * Installs the override in front of an oracle: copies the oracle's runtime code to the side address, places
 * the override's code at the oracle address and writes the side address into the override's state. The
 * oracle's storage is not touched otherwise. Installing twice is harmless (the second call finds the override
 * in place and keeps the original code where it is).
 *
 * @param provider - EIP-1193 provider of a Hardhat node (in process or a fork).
 * @param options - Oracle and side address.
 * @returns Where the override and the original code are.
 * @throws {@link DevnetError} when the oracle has no code or the node refuses a request;
 *   {@link InvalidArgumentError} for a bad address.
 */
export async function installOracleOverride(
  provider: Eip1193Requester,
  options: InstallOracleOverrideParameters,
): Promise<InstalledOracleOverride> {
  const oracle = parseAddress(options.oracle, "oracle");
  const side = parseAddress(options.originalCodeAddress ?? ORACLE_ORIGINAL_CODE_ADDRESS, "originalCodeAddress");
  const current = (await send(provider, "eth_getCode", [oracle, "latest"], "Reading the oracle's code")) as Hex;
  if (current.toLowerCase() === TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE.toLowerCase()) {
    const originalCode = (await send(provider, "eth_getCode", [side, "latest"], "Reading the original code")) as Hex;
    if (originalCode === "0x") throw new DevnetError(`The override is at ${oracle} but no original code is at ${side}`);
    await writeSlot(provider, oracle, ORACLE_OVERRIDE_SLOTS.original, numberToHex(BigInt(side), { size: 32 }));
    return { oracle, originalCodeAddress: side, originalCode };
  }
  if (current === "0x") {
    throw new DevnetError(`No contract at the oracle address ${oracle} on this chain (or at the fork block)`, {
      details: "Fork Base at a block after the oracle's deployment, or place an oracle there first.",
    });
  }
  await send(provider, "hardhat_setCode", [side, current], `Copying the oracle's code to ${side}`);
  await send(provider, "hardhat_setCode", [oracle, TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE], `Placing the override at ${oracle}`);
  await writeSlot(provider, oracle, ORACLE_OVERRIDE_SLOTS.original, numberToHex(BigInt(side), { size: 32 }));
  return { oracle, originalCodeAddress: side, originalCode: current };
}

/**
 * Removes the override: puts the original code back at the oracle address and zeroes the override's state
 * (the given record keys, the revert switch and the side address), so the oracle is as before installation.
 *
 * @param provider - EIP-1193 provider of the node.
 * @param installed - What {@link installOracleOverride} returned.
 * @param keys - The keys overridden since installation (their slots are zeroed).
 * @throws {@link DevnetError} when the node refuses a request.
 */
export async function uninstallOracleOverride(
  provider: Eip1193Requester,
  installed: InstalledOracleOverride,
  keys: readonly TestRecordKey[] = [],
): Promise<void> {
  for (const key of keys) await writeOverride(provider, installed.oracle, key, undefined);
  await setOracleReverting(provider, installed.oracle, false);
  await writeSlot(provider, installed.oracle, ORACLE_OVERRIDE_SLOTS.original, numberToHex(0n, { size: 32 }));
  await send(provider, "hardhat_setCode", [installed.oracle, installed.originalCode], "Restoring the oracle's code");
}

/**
 * Writes one key's override: a record, `null` (the key reads as having no record) or `undefined` (no override:
 * the key reads from the original oracle again).
 *
 * @param provider - EIP-1193 provider of the node.
 * @param oracle - The oracle address (running the override).
 * @param key - The key.
 * @param record - The record, `null` or `undefined`.
 * @throws {@link DevnetError} when the node refuses; {@link InvalidArgumentError} for a bad key or record.
 */
export async function writeOverride(
  provider: Eip1193Requester,
  oracle: Address,
  key: TestRecordKey,
  record: OracleRecordValue | null | undefined,
): Promise<void> {
  const value = record === undefined ? numberToHex(0n, { size: 32 }) : overrideWord(record);
  await writeSlot(provider, oracle, BigInt(overrideRecordSlot(key)), value);
}

/**
 * Switches the override's revert switch: while on, every call to the oracle reverts with
 * `TrustOracleOverrideUnavailable()`.
 *
 * @param provider - EIP-1193 provider of the node.
 * @param oracle - The oracle address (running the override).
 * @param reverting - On or off.
 * @throws {@link DevnetError} when the node refuses.
 */
export async function setOracleReverting(provider: Eip1193Requester, oracle: Address, reverting: boolean): Promise<void> {
  await writeSlot(provider, oracle, ORACLE_OVERRIDE_SLOTS.reverting, numberToHex(reverting ? 1n : 0n, { size: 32 }));
}

async function writeSlot(provider: Eip1193Requester, address: Address, slot: bigint, value: Hex): Promise<void> {
  await send(
    provider,
    "hardhat_setStorageAt",
    [address, numberToHex(slot, { size: 32 }), value],
    `Writing slot ${numberToHex(slot)} of ${address}`,
  );
}

async function send(provider: Eip1193Requester, method: string, params: readonly unknown[], what: string): Promise<unknown> {
  try {
    return await provider.request({ method, params });
  } catch (error) {
    throw new DevnetError(`${what} failed (${method})`, {
      cause: error,
      details: "The oracle override needs a Hardhat node (in process or a fork) that accepts hardhat_* requests.",
    });
  }
}

function toUint256(value: bigint | number, name: string): bigint {
  return toUint(value, 256, name);
}

function toUint(value: bigint | number, bits: number, name: string): bigint {
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new InvalidArgumentError(`${name} must be a whole number, got ${String(value)}`);
  }
  if (typeof value !== "number" && typeof value !== "bigint") throw new InvalidArgumentError(`${name} must be a number or bigint`);
  const big = BigInt(value);
  if (big < 0n || big >= 1n << BigInt(bits)) throw new InvalidArgumentError(`${name} must fit a uint${bits}, got ${big}`);
  return big;
}
