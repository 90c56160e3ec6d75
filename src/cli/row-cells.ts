/**
 * The cells of a drift row as people read them, shared by the terminal table and the Markdown report.
 *
 * @packageDocumentation
 */
import type { DriftRow } from "../drift/index.js";
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
 * The agent as `chain:id:registry`.
 *
 * @param row - The row.
 * @returns For example `base:1234:erc8004`.
 */
export function agentCell(row: DriftRow): string {
  return `${row.chain}:${row.agentId}:${row.registry}`;
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
