/**
 * The verdict of a drift report: the exit code `exitCodeOf` gives it, and one sentence saying why.
 *
 * @packageDocumentation
 */
import { exitCodeOf } from "./report.js";
import type { DriftReport } from "./types.js";

/** A report's exit code and the reason for it, in one sentence. */
export interface DriftVerdict {
  readonly exitCode: number;
  readonly reason: string;
}

/**
 * The verdict of a report: its exit code (`exitCodeOf`) and why.
 *
 * @param report - The report (its rows are not read).
 * @returns The exit code and a one-sentence reason.
 */
export function verdictOf(report: Pick<DriftReport, "summary">): DriftVerdict {
  const exitCode = exitCodeOf(report);
  const { flips, byStatus, unverified, partial } = report.summary;
  if (partial) {
    return {
      exitCode,
      reason: `The run stopped at --max-duration before ${partial.notFetched} signed fetches: a partial run is never green.`,
    };
  }
  if (unverified.exceeded) {
    return {
      exitCode,
      reason: `${unverified.count} agents could not be verified, more than --max-errors allows (${unverified.allowed}).`,
    };
  }
  const flipCount = flips.passToFail + flips.failToPass;
  const invalid = byStatus["invalid-attestation"];
  if (flipCount > 0 || invalid > 0) {
    return {
      exitCode,
      reason: `${flipCount} gate decisions flip (${flips.passToFail} pass→fail, ${flips.failToPass} fail→pass) and ${invalid} attestations are invalid.`,
    };
  }
  return { exitCode, reason: "No gate decision flips, no attestation is invalid, and enough agents were verified." };
}
