/**
 * Amounts of ether and gas given on a command line: a fee per gas with its unit (`2gwei`, `1500000000wei`) and a
 * budget in ETH or gas (`0.01eth`, `5000000gas`). The unit is required: a bare number could be read as wei or as gwei,
 * a thousand million times apart.
 *
 * @packageDocumentation
 */
import { parseUnits } from "viem";
import { InvalidArgumentError } from "../errors.js";
import { describeInput } from "./describe.js";

const DECIMALS = { wei: 0, gwei: 9, eth: 18 } as const;

/**
 * Parses a fee per gas: a decimal number and `wei` or `gwei` (`2gwei`, `0.5 gwei`, `100wei`).
 *
 * @param value - The text.
 * @param label - The option's name, for the message.
 * @returns Wei per gas, above 0.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseFeePerGas(value: string, label: string): bigint {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(wei|gwei)\s*$/i.exec(value);
  const wei = match ? toWei(match[1]!, match[2]!.toLowerCase() as "wei" | "gwei") : null;
  if (wei === null || wei <= 0n) {
    throw new InvalidArgumentError(
      `${label} must be a fee per gas above 0 with its unit, like 2gwei or 1500000000wei, got ${describeInput(value)}`,
    );
  }
  return wei;
}

/**
 * Parses a budget: a decimal number and `eth`, `gwei` or `wei` (an amount of ether), or a whole number and `gas`.
 *
 * @param value - The text (`0.01eth`, `5000000gas`).
 * @param label - The option's name, for the message.
 * @returns The amount, in wei or in gas, above 0.
 * @throws {@link InvalidArgumentError} otherwise.
 */
export function parseBudget(value: string, label: string): { readonly unit: "wei" | "gas"; readonly amount: bigint } {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(eth|gwei|wei|gas)\s*$/i.exec(value);
  const unit = match?.[2]!.toLowerCase() as "eth" | "gwei" | "wei" | "gas" | undefined;
  const amount = match && unit ? (unit === "gas" ? (/^\d+$/.test(match[1]!) ? BigInt(match[1]!) : null) : toWei(match[1]!, unit)) : null;
  if (amount === null || amount <= 0n) {
    throw new InvalidArgumentError(
      `${label} must be an amount above 0 with its unit: ether (0.01eth, 5gwei, 100wei) or gas (5000000gas), got ${describeInput(value)}`,
    );
  }
  return { unit: unit === "gas" ? "gas" : "wei", amount };
}

/** A decimal in a unit, in wei; `null` when it has more decimals than the unit (less than a wei). */
function toWei(decimal: string, unit: keyof typeof DECIMALS): bigint | null {
  const fraction = decimal.split(".")[1] ?? "";
  if (fraction.length > DECIMALS[unit]) return null;
  return parseUnits(decimal, DECIMALS[unit]);
}
