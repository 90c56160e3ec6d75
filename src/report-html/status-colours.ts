/**
 * The colour of each drift status on the page, declared once: the status cards, the status text in the rows table
 * and the lines of the nights' chart all read this table, so that a status has one colour wherever it is drawn.
 * Each colour keeps at least 4.5:1 contrast on white, since the rows table writes status names in it.
 *
 * @packageDocumentation
 */
import type { DriftStatus } from "../drift/types.js";

/** Each status's colour (a CSS hex colour), the same on the cards, in the rows and on the nights' chart. */
export const STATUS_COLOURS: Readonly<Record<DriftStatus, string>> = {
  "invalid-attestation": "#cf222e",
  error: "#bc4c00",
  drifted: "#8250df",
  "stale-onchain": "#9a6700",
  "missing-onchain": "#0969da",
  "missing-attestation": "#1b7c83",
  "in-sync": "#1a7f37",
};

/** The colour of a count that is zero, or of anything that carries no status: never a status's colour. */
export const NEUTRAL_COLOUR = "#57606a";

/**
 * The stylesheet rules that give each status its colour: `.status-<name>` (a rows table cell, the text) and
 * `.counts li[data-status=<name>]` (a status card, its border and count), except a card whose count is zero
 * (`data-zero`), which stays neutral.
 *
 * @returns The CSS text.
 */
export function statusColourRules(): string {
  return Object.entries(STATUS_COLOURS)
    .map(
      ([status, colour]) =>
        `.status-${status} { color: ${colour}; }\n` +
        `.counts li[data-status="${status}"]:not([data-zero]) { border-left-color: ${colour}; }\n` +
        `.counts li[data-status="${status}"]:not([data-zero]) .count { color: ${colour}; }`,
    )
    .join("\n");
}
