/**
 * The cells of a drift row as people read them, shared by the terminal table and the Markdown rows.
 *
 * @packageDocumentation
 */
import type { DriftRow, RefreshBlocker } from "../drift/types.js";
import { formatDuration } from "./duration.js";

/** Placeholder for a value that is not known. */
export const NONE = "-";

/**
 * The flip marker: `▲ pass→fail` when the gate admits the agent on-chain but would refuse it on the
 * service's data, `▼ fail→pass` the other way, empty when the decision does not flip.
 *
 * @param row - The row.
 * @returns The marker.
 */
export function flipCell(row: DriftRow): string {
  if (!row.decision.flipped) return "";
  return row.decision.onchain ? "▲ pass→fail" : "▼ fail→pass";
}

/**
 * The score change, signed: `+5`, `-14`, `0`, or `-` when unknown.
 *
 * @param row - The row.
 * @returns The delta.
 */
export function deltaCell(row: DriftRow): string {
  if (row.scoreDelta === null) return NONE;
  return row.scoreDelta > 0 ? `+${row.scoreDelta}` : String(row.scoreDelta);
}

/**
 * Whether the attested score was computed after the last on-chain refresh: `after` (a difference is a
 * change since the refresh), `not after` (the chain should carry that computation already), `-` when
 * either time is unknown.
 *
 * @param row - The row.
 * @returns The cell.
 */
export function refreshCell(row: DriftRow): string {
  if (row.computedAfterRefresh === null || row.computedAfterRefresh === undefined) return NONE;
  return row.computedAfterRefresh ? "after" : "not after";
}

/** The short word of each refresh blocker in the table. */
const BLOCKER_WORDS: Readonly<Record<RefreshBlocker, string>> = {
  "not-submittable": "no:form",
  expired: "no:expired",
  "kid-not-installed": "no:kid",
  "kid-revoked": "no:revoked",
  "key-mismatch": "no:key",
  "key-unreadable": "no:key?",
  "chain-not-accepted": "no:chain",
  "not-newer": "no:not-newer",
};

/**
 * Whether the service's signed attestation could refresh the on-chain record through an attested oracle, in a
 * word: `yes`, `no:<what>` (`no:kid` the kid is not installed, `no:expired`, `no:not-newer`, `no:form` it cannot be
 * submitted as it is, `no:revoked`, `no:key` another key, `no:key?` unreadable, `no:chain`), or `-` when not
 * assessed (the row is not stale, missing or drifted, or has no verified signed attestation).
 *
 * @param row - The row.
 * @returns The cell.
 */
export function refreshableCell(row: DriftRow): string {
  const refresh = row.refresh;
  if (refresh === null || refresh === undefined) return NONE;
  if (refresh.possible) return "yes";
  return refresh.blocker ? BLOCKER_WORDS[refresh.blocker] : "no";
}

/**
 * How old a time was at another: `1d 12h`, or `in 5m` for a time after it, or `-` when unknown.
 *
 * @param iso - ISO-8601 time of the record.
 * @param reference - ISO-8601 time of the report.
 * @returns The age.
 */
export function ageCell(iso: string | undefined, reference: string): string {
  if (iso === undefined) return NONE;
  const seconds = (Date.parse(reference) - Date.parse(iso)) / 1000;
  if (!Number.isFinite(seconds)) return NONE;
  return seconds < 0 ? `in ${formatDuration(-seconds)}` : formatDuration(seconds);
}

/**
 * Shortens text to at most `width` characters, ending with `…` when cut.
 *
 * @param text - The text.
 * @param width - Largest length (at least 1).
 * @returns The text, cut if needed.
 */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  return `${text.slice(0, Math.max(0, width - 1))}…`;
}
