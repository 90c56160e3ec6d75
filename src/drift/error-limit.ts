/**
 * How many agents a drift run may fail to verify before the run itself fails (`--max-errors`).
 *
 * A row in status `error` (the record or the attestation could not be read) or `missing-attestation` (the
 * service answered 404) was not verified: nothing was compared. A run in which most rows are like that — a
 * wrong `--oracle`, a service answering 500 or HTML, a shape the kit does not read — must not look green to
 * cron or CI. The limit is an absolute count (`10`) or a percentage of the scanned agents (`2.5%`); the
 * default fails a run in which more than 1 % of the scanned agents were not verified. A run that scanned no
 * agent at all verified nothing and fails whatever the limit says.
 *
 * Percentages are compared exactly (in integer millionths of a percent), so that a count exactly at the
 * limit passes and one above it fails, whatever binary floating point would round `2.3 × 1000` to.
 *
 * The exit code that follows from this is decided in one place: `exitCodeOf` in `report.ts`.
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import type { DriftStatus, ErrorLimit, UnverifiedSummary } from "./types.js";

export type { ErrorLimit, UnverifiedSummary } from "./types.js";

/** Statuses of rows that were not verified, counted against the {@link ErrorLimit}. */
export const UNVERIFIED_STATUSES: readonly DriftStatus[] = ["error", "missing-attestation"];

/**
 * Default limit: more than 1 % of the scanned agents unverified fails the run.
 *
 * @example
 * ```ts
 * import { DEFAULT_ERROR_LIMIT } from "trustgate/drift";
 *
 * // a run exits 4 when more agents than this (1 % of those scanned) end in error or missing-attestation
 * console.log(DEFAULT_ERROR_LIMIT.kind, DEFAULT_ERROR_LIMIT.value); // "percent" 1
 * const strict = { kind: "count", value: 0 } as const; // maxErrors of a run that tolerates none
 * ```
 */
export const DEFAULT_ERROR_LIMIT: ErrorLimit = { kind: "percent", value: 1 };

/** Decimals a percentage may have (it is compared in integer millionths of a percent). */
const PERCENT_DECIMALS = 6;
const PERCENT_SCALE = 10n ** BigInt(PERCENT_DECIMALS);

/**
 * Checks a limit built by a program (the command line builds it with {@link parseErrorLimit}).
 *
 * @param limit - The limit.
 * @returns The same limit.
 * @throws {@link InvalidArgumentError} for a count that is not a non-negative safe integer, or a percentage
 *   outside 0–100 or with more than six decimals.
 */
export function checkErrorLimit(limit: ErrorLimit): ErrorLimit {
  if (limit.kind === "count") {
    if (!Number.isSafeInteger(limit.value) || limit.value < 0) {
      throw new InvalidArgumentError(`An error limit count must be an integer >= 0, got ${String(limit.value)}`);
    }
    return limit;
  }
  if (limit.kind === "percent") {
    const scaled = limit.value * Number(PERCENT_SCALE);
    if (!(Number.isFinite(limit.value) && limit.value >= 0 && limit.value <= 100) || Math.abs(scaled - Math.round(scaled)) > 1e-6) {
      throw new InvalidArgumentError(
        `An error limit percentage must be from 0 to 100 with at most ${PERCENT_DECIMALS} decimals, got ${String(limit.value)}`,
      );
    }
    return limit;
  }
  throw new InvalidArgumentError(`Unknown error limit kind "${String((limit as { kind?: unknown }).kind)}"`);
}

/**
 * Parses the text of `--max-errors`: an integer count (`10`) or a percentage of the scanned agents (`2.5%`,
 * from `0%` to `100%`, at most six decimals; a space before `%` is allowed).
 *
 * @param text - The value.
 * @param name - What to call the value in messages (default `--max-errors`).
 * @returns The limit.
 * @throws {@link InvalidArgumentError} for anything else (negative, above 100 %, a fractional count, too
 *   many decimals, garbage), with a one-line message that says what is expected.
 */
export function parseErrorLimit(text: string, name = "--max-errors"): ErrorLimit {
  const trimmed = text.trim();
  const expected = `${name} must be a count (an integer >= 0, e.g. 10) or a percentage of the scanned agents from 0% to 100% (e.g. 2.5%)`;
  if (/^\d+$/.test(trimmed)) {
    const value = Number(trimmed);
    if (!Number.isSafeInteger(value)) throw new InvalidArgumentError(`${expected}, got "${text}" (too large)`);
    return { kind: "count", value };
  }
  const percent = /^(\d+)(?:\.(\d+))?\s*%$/.exec(trimmed);
  if (!percent) {
    const hint = /^\d+\.\d+$/.test(trimmed) ? ` (a count is a whole number; for a percentage write ${trimmed}%)` : "";
    throw new InvalidArgumentError(`${expected}, got "${text}"${hint}`);
  }
  const decimals = percent[2] ?? "";
  if (decimals.length > PERCENT_DECIMALS) {
    throw new InvalidArgumentError(`${expected}, got "${text}" (at most ${PERCENT_DECIMALS} decimals)`);
  }
  const value = Number(`${percent[1]}.${decimals || "0"}`);
  if (!(value <= 100)) throw new InvalidArgumentError(`${expected}, got "${text}" (above 100%)`);
  return { kind: "percent", value };
}

/**
 * The limit as the command line spells it: `10` or `2.5%`.
 *
 * @param limit - The limit.
 * @returns Its text.
 */
export function describeErrorLimit(limit: ErrorLimit): string {
  return limit.kind === "count" ? String(limit.value) : `${limit.value}%`;
}

/**
 * The largest number of unverified agents a limit allows among `agents` scanned agents. A percentage is
 * applied exactly and rounded down: 1 % of 150 agents allows 1, of 200 allows 2, of 99 allows 0.
 *
 * @param limit - The limit.
 * @param agents - Agents scanned.
 * @returns The allowance.
 */
export function allowedUnverified(limit: ErrorLimit, agents: number): number {
  checkErrorLimit(limit);
  if (limit.kind === "count") return limit.value;
  const millionths = BigInt(Math.round(limit.value * Number(PERCENT_SCALE)));
  return Number((millionths * BigInt(agents)) / (100n * PERCENT_SCALE));
}

/**
 * Applies a limit to the counts of a run.
 *
 * @param byStatus - Rows per status.
 * @param agents - Agents scanned (rows).
 * @param limit - The limit (default {@link DEFAULT_ERROR_LIMIT}).
 * @returns The count, its fraction, the allowance and whether the run fails for lack of verification.
 * @throws {@link InvalidArgumentError} for an invalid limit (see {@link checkErrorLimit}).
 */
export function evaluateErrorLimit(
  byStatus: Readonly<Record<DriftStatus, number>>,
  agents: number,
  limit: ErrorLimit = DEFAULT_ERROR_LIMIT,
): UnverifiedSummary {
  const count = UNVERIFIED_STATUSES.reduce((sum, status) => sum + byStatus[status], 0);
  const allowed = allowedUnverified(limit, agents);
  return {
    count,
    fraction: agents > 0 ? count / agents : null,
    limit: { kind: limit.kind, value: limit.value },
    allowed,
    exceeded: agents === 0 || count > allowed,
  };
}
