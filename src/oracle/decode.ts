/**
 * Decoding of raw oracle bytes: a `getScore` answer, checked word by word as strictly as `TrustGated` checks it
 * on-chain, and revert data, turned into a readable reason.
 *
 * @packageDocumentation
 */
import { type Abi, decodeErrorResult, type Hex, size } from "viem";
import type { TrustRecord } from "../trust-record.js";

/** The four values of a well-formed `getScore` answer: a {@link TrustRecord} (uint8, uint8, uint8, uint40). */
export type ScoreAnswer = TrustRecord;

/** Why a `getScore` answer could not be decoded. */
export interface MalformedAnswer {
  /** One line saying what is wrong. */
  readonly malformed: string;
}

const WORD_HEX = 64;
const WORD_LIMITS = [
  { name: "score", bits: 8 },
  { name: "tier", bits: 8 },
  { name: "sybilSeverity", bits: 8 },
  { name: "updatedAt", bits: 40 },
] as const;

/**
 * Decodes the return data of `getScore(uint256,uint256,string)`.
 *
 * Like `TrustGated`, it requires at least four words and each word to fit its type (uint8, uint8, uint8,
 * uint40); bytes after the fourth word are ignored, as an ABI decoder ignores them. A score above the
 * service's range but within uint8 is returned as it is: judging it is the policy's job.
 *
 * @param data - The raw answer.
 * @returns The values, or why the answer is malformed (including an empty answer).
 */
export function decodeScoreAnswer(data: Hex): ScoreAnswer | MalformedAnswer {
  const hex = data.slice(2);
  if (hex.length < 4 * WORD_HEX) {
    return { malformed: `the answer has ${hex.length / 2} bytes; getScore returns at least 128` };
  }
  const values: number[] = [];
  for (let i = 0; i < WORD_LIMITS.length; i++) {
    const word = BigInt(`0x${hex.slice(i * WORD_HEX, (i + 1) * WORD_HEX)}`);
    const { name, bits } = WORD_LIMITS[i]!;
    if (word >> BigInt(bits) !== 0n) return { malformed: `${name} 0x${word.toString(16)} does not fit uint${bits}` };
    values.push(Number(word));
  }
  const [score, tier, sybilSeverity, updatedAt] = values as [number, number, number, number];
  return { score, tier, sybilSeverity, updatedAt };
}

/**
 * A readable revert reason: `Error("message")`, `Panic(0x11)`, `SomeError(1, "x")` for an error in `abi`,
 * `reverted without data`, or `unknown error 0x12345678 (N bytes)`.
 *
 * @param data - The revert data.
 * @param abi - Errors to recognize beyond `Error(string)` and `Panic(uint256)`.
 * @returns The reason.
 */
export function describeRevert(data: Hex, abi: Abi = []): string {
  if (data === "0x") return "reverted without data";
  try {
    const { errorName, args } = decodeErrorResult({ abi, data });
    const values = (args ?? []).map(formatValue);
    if (errorName === "Error") return `Error(${values.join(", ")})`;
    if (errorName === "Panic" && typeof args?.[0] === "bigint") return `Panic(0x${args[0].toString(16)})`;
    return `${errorName}(${values.join(", ")})`;
  } catch {
    return `unknown error ${data.slice(0, 10)} (${size(data)} bytes)`;
  }
}

function formatValue(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(", ")}]`;
  return String(value);
}
