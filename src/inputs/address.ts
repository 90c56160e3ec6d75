/**
 * Addresses, as every entry point accepts them: `0x` and 40 hex digits, all lower case, all upper case, or
 * mixed case with a valid EIP-55 checksum (a mixed-case address with a wrong checksum is a typo, refused).
 * Wallets are EVM addresses (same rule) or Solana addresses.
 *
 * @packageDocumentation
 */
import { type Address, getAddress } from "viem";
import { InvalidArgumentError } from "../errors.js";
import { describeInput } from "./describe.js";

/**
 * Parses a contract or account address.
 *
 * @param value - A `0x` address: 40 hex digits, all lower case, all upper case, or with a valid EIP-55 checksum.
 * @param label - The argument's name, for the error message.
 * @returns The checksummed address.
 * @throws {@link InvalidArgumentError} for anything else, including a mixed-case address with a wrong checksum.
 */
export function parseAddress(value: unknown, label = "address"): Address {
  if (typeof value === "string") {
    const text = value.trim();
    const checked = checkEvmAddress(text);
    if (checked === "ok") return getAddress(text);
    if (checked === "bad-checksum") throw checksumError(value, label);
  }
  throw new InvalidArgumentError(`Invalid ${label} ${describeInput(value)}: expected 0x followed by 40 hex digits`);
}

/** Solana's base58 address: 32 to 44 characters of the base58 alphabet. */
const SOLANA_ADDRESS_SHAPE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * Whether a text has a Solana address's shape: 32 to 44 characters of the base58 alphabet (no `0`, `O`, `I`, `l`),
 * with nothing around them.
 *
 * @param text - The text, as it is (not trimmed).
 * @returns `true` when it is base58 of the length of 32 bytes.
 */
export function hasSolanaAddressShape(text: string): boolean {
  return SOLANA_ADDRESS_SHAPE.test(text);
}

/**
 * Parses a wallet: an EVM address (checked as {@link parseAddress} checks it) or a Solana address (base58,
 * 32–44 characters).
 *
 * @param value - The wallet.
 * @param label - The argument's name, for the error message.
 * @returns The wallet, trimmed; an EVM address keeps the case it was given in.
 * @throws {@link InvalidArgumentError} when it is neither, or is a mixed-case EVM address with a wrong checksum.
 */
export function parseWallet(value: unknown, label = "wallet"): string {
  const text = typeof value === "string" ? value.trim() : "";
  const checked = checkEvmAddress(text);
  if (checked === "ok" || (checked === "not-an-address" && hasSolanaAddressShape(text))) return text;
  if (checked === "bad-checksum") throw checksumError(value, label);
  throw new InvalidArgumentError(
    `Invalid ${label} ${describeInput(value)}: expected an EVM address (0x + 40 hex digits) or a base58 Solana address`,
  );
}

/** An EVM address's shape: `0x` and 40 hex digits, in any case. */
const EVM_ADDRESS_SHAPE = /^0x[0-9a-fA-F]{40}$/;

/**
 * Whether a text has an EVM address's shape: `0x` and 40 hex digits, in any case, with nothing around them. The
 * checksum is not checked: this is the test for text read from the service or a file the kit wrote (an owner, a
 * recorded address), where the case carries no meaning; an address a user gives goes through {@link parseAddress}.
 *
 * @param text - The text, as it is (not trimmed).
 * @returns `true` when it is `0x` followed by exactly 40 hex digits.
 */
export function hasAddressShape(text: string): boolean {
  return EVM_ADDRESS_SHAPE.test(text);
}

/**
 * Whether a text is the zero address: `0x` and 40 zeros, the value of an address a contract leaves unset (an attested
 * oracle without an upstream).
 *
 * @param text - The text.
 * @returns `true` for the zero address (`0x` + 40 zeros), `false` for anything else.
 */
export function isZeroAddress(text: string): boolean {
  return hasAddressShape(text) && /^0x0+$/.test(text);
}

/**
 * The one address rule: `0x` + 40 hex digits; the digits all lower case or all upper case (no checksum), or
 * mixed case with a valid EIP-55 checksum.
 */
function checkEvmAddress(text: string): "ok" | "bad-checksum" | "not-an-address" {
  if (!hasAddressShape(text)) return "not-an-address";
  const digits = text.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return "ok";
  return getAddress(text.toLowerCase()) === text ? "ok" : "bad-checksum";
}

function checksumError(value: unknown, label: string): InvalidArgumentError {
  return new InvalidArgumentError(`Invalid ${label} ${describeInput(value)}: the EIP-55 checksum does not match`, {
    details: "A mixed-case address must carry a valid checksum; check for a typo, or give it in lower case.",
  });
}
