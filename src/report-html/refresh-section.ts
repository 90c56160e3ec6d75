/**
 * The page's section "Refreshes": the night's `trustgate refresh` run, when the drift job is given its report
 * (`--refresh-report refresh.json`): how many attestations were stored, refused, not fetched or skipped, the
 * transactions and what they cost; then one row per agent, the ones that need a look first (refused with the contract's
 * error, not fetched, no-op), then the stored ones with the rules they met, then the skipped ones with why. Bounded like
 * the page's other lists ({@link PAGE_REFRESHES_LISTED}); every value is escaped. Written as markup when the page is
 * written, so no script is needed to read it.
 *
 * @packageDocumentation
 */
import { formatEther } from "viem";
import { NIGHT_REFRESH_OUTCOMES, type NightRefreshes } from "../refresh/night-refreshes.js";
import { escapeHtml } from "./since-last-night-section.js";

/** Rows listed, every kind together, before "… more in the refresh report". */
export const PAGE_REFRESHES_LISTED = 200;

/** One row of the section's table. */
interface RefreshRow {
  readonly kind: string;
  readonly agent: string;
  readonly why: string;
}

/**
 * The section's markup.
 *
 * @param refreshes - The night's refreshes (`readNightRefreshes` of the refresh report).
 * @returns The `<section id="refreshes">…</section>` element.
 */
export function refreshSection(refreshes: NightRefreshes): string {
  const count = (outcome: string) => refreshes.due.filter((d) => d.outcome === outcome).length;
  const parts = [
    '<section id="refreshes" aria-labelledby="refreshes-title">',
    `<h2 id="refreshes-title">Refreshes <span class="muted">trustgate refresh, planned ${escapeHtml(refreshes.plannedAt)}, exit ${refreshes.exitCode}</span></h2>`,
  ];
  if (refreshes.mode === "dry-run") {
    parts.push(`<p><strong>dry run</strong>: ${refreshes.due.length} due, ${refreshes.skipped.length} skipped; nothing sent</p>`);
  } else {
    const notSent = refreshes.due.filter((d) => d.outcome === null).length;
    const { transactions, gasUsed, costWei } = refreshes.cost;
    parts.push(
      `<p><strong>${count("stored")} stored</strong>, ${count("already-current")} already current, ${count("refused")} refused, ${count("not-fetched")} not fetched, ${count("no-op")} no-op` +
        `${notSent > 0 ? `, ${notSent} not sent` : ""}, ${refreshes.skipped.length} skipped; ` +
        `${transactions} transaction${transactions === 1 ? "" : "s"}, gas ${BigInt(gasUsed).toLocaleString("en-US")}, cost ${formatEther(BigInt(costWei))} ETH</p>`,
    );
  }
  const rows: RefreshRow[] = [
    ...[...NIGHT_REFRESH_OUTCOMES, null].flatMap((outcome) =>
      refreshes.due
        .filter((d) => d.outcome === outcome)
        .map((d) => ({
          kind: outcome ?? (refreshes.mode === "dry-run" ? "due" : "not sent"),
          agent: d.agent,
          why: d.error ?? `${d.reasons.join(", ")}${d.transaction ? ` (${d.transaction})` : ""}`,
        })),
    ),
    ...refreshes.skipped.map((s) => ({ kind: `skipped: ${s.skip}`, agent: s.agent, why: s.detail })),
  ];
  if (rows.length > 0) {
    parts.push('<table class="since refreshes"><thead><tr><th>outcome</th><th>agent</th><th>why, or the error</th></tr></thead><tbody>');
    for (const row of rows.slice(0, PAGE_REFRESHES_LISTED)) {
      parts.push(
        `<tr data-agent="${escapeHtml(row.agent)}"><td>${escapeHtml(row.kind)}</td><td><code>${escapeHtml(row.agent)}</code></td><td>${escapeHtml(row.why)}</td></tr>`,
      );
    }
    parts.push("</tbody></table>");
    if (rows.length > PAGE_REFRESHES_LISTED) {
      parts.push(`<p class="muted">${rows.length - PAGE_REFRESHES_LISTED} more in the refresh report.</p>`);
    }
  }
  parts.push("</section>");
  return parts.join("\n");
}
