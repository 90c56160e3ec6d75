/**
 * Agent ids, as every entry point accepts them: a non-negative integer that fits the oracle's uint256, given
 * as a bigint, a safe-integer number or a decimal string. Hex strings are not agent ids: the service does not
 * accept them, so no entry point does.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { describeInput } from "./describe.js";

/** Largest uint256: the oracle's agent ids are uint256. */
const MAX_AGENT_ID = (1n << 256n) - 1n;

/** An agent id as callers give it: a non-negative integer as a bigint, a safe-integer number or a decimal string. */
export type AgentIdInput = bigint | number | string;

/** The outcome of {@link inspectAgentId}. */
export type AgentIdInspection =
  | { readonly ok: true; readonly id: bigint }
  | {
      readonly ok: false;
      /** What is wrong, phrased after the value: `is not a non-negative integer`. */
      readonly problem: string;
      /** What is wrong, phrased after a colon: `expected a non-negative integer agent id`. */
      readonly expected: string;
      readonly details?: string;
    };

/**
 * The agent id in a value, or why there is none — the one rule, shared by {@link parseAgentId} and the
 * agent-reference parser (which words its own message).
 *
 * @param value - Anything.
 * @returns The id, or a problem phrased to follow the value (`is not a non-negative integer …`).
 */
export function inspectAgentId(value: unknown): AgentIdInspection {
  let id: bigint | undefined;
  if (typeof value === "bigint") id = value;
  else if (typeof value === "number") {
    if (Number.isSafeInteger(value)) id = BigInt(value);
    else if (Number.isInteger(value) && value > 0) {
      return {
        ok: false,
        problem: "is larger than Number.MAX_SAFE_INTEGER",
        expected: "larger than Number.MAX_SAFE_INTEGER",
        details: "Pass large agent ids as a bigint or a decimal string, so that no digit is lost.",
      };
    }
  } else if (typeof value === "string" && /^\d+$/.test(value.trim())) id = BigInt(value.trim());
  if (id === undefined || id < 0n) {
    return { ok: false, problem: "is not a non-negative integer", expected: "expected a non-negative integer agent id" };
  }
  if (id > MAX_AGENT_ID) return { ok: false, problem: "does not fit uint256", expected: "expected an agent id that fits uint256" };
  return { ok: true, id };
}

/**
 * Parses an agent id.
 *
 * @param value - A non-negative integer: bigint, safe-integer number, or decimal string (surrounding white
 *   space and leading zeros allowed).
 * @param label - The argument's name, for the error message.
 * @returns The id.
 * @throws {@link InvalidArgumentError} naming the argument, for anything else (a fraction, a negative number,
 *   an unsafe number, a hex or non-numeric string, an id above uint256).
 */
export function parseAgentId(value: unknown, label = "agentId"): bigint {
  const checked = inspectAgentId(value);
  if (checked.ok) return checked.id;
  throw new InvalidArgumentError(`Invalid ${label} ${describeInput(value)}: ${checked.expected}`, {
    ...(checked.details ? { details: checked.details } : {}),
  });
}
