/**
 * The page's section "Since last night", under the verdict: what changed since the previous night (new, persisting,
 * accepted, resolved and unverified problems, each with its status, nights and what to do) and the expired baseline
 * entries, or, without `--state`, that there was no night to compare with; then what to do about each status that
 * has rows. Written as markup when the page is written (no script needed to read it), every value escaped; it stands
 * on its own, so that the page's layout can place it.
 *
 * @packageDocumentation
 */
import type { PageHead } from "./page-data.js";

/** Problems listed, all lists together, before "… more in the JSON report". */
export const PAGE_PROBLEMS_LISTED = 200;

/**
 * The section's markup.
 *
 * @param head - The page's head data (its `sinceLastNight` and `actions`, already made safe by `pageHead`).
 * @returns The `<section id="since-last-night">…</section>` element, then the actions' list.
 */
export function sinceLastNightSection(head: Pick<PageHead, "sinceLastNight" | "actions">): string {
  const since = head.sinceLastNight;
  const parts = ['<section id="since-last-night" aria-label="since last night">', "<h2>Since last night</h2>"];
  if (since === null) {
    parts.push('<p class="muted">Not compared: without --state there is no previous night.</p>');
  } else {
    const against =
      since.previousNight === null
        ? "no previous night in the state: every problem is new"
        : `compared with the night started ${since.previousNight}`;
    parts.push(
      `<p><strong>${since.new.length} new</strong>, ${since.persisting.length} persisting, ${since.resolved.length} resolved, ${since.accepted.length} accepted` +
        `${since.unverified.length > 0 ? `, ${since.unverified.length} unverified tonight` : ""} <span class="muted">(${escapeHtml(against)}; --fail-on ${escapeHtml(since.failOn)})</span></p>`,
    );
    const rows = [
      ...since.new.map((p) => ({ kind: "new", p, note: "" })),
      ...since.persisting.map((p) => ({ kind: "persisting", p, note: `since ${p.since}` })),
      ...since.accepted.map((p) => ({ kind: "accepted", p, note: `${p.reason} (until ${p.until})` })),
      ...since.resolved.map((p) => ({ kind: "resolved", p, note: "" })),
      ...since.unverified.map((p) => ({ kind: "unverified", p, note: "could not be verified tonight" })),
    ];
    if (rows.length > 0) {
      parts.push(
        '<table class="since"><thead><tr><th>since last night</th><th>agent</th><th>problem</th><th>status</th><th>nights</th><th>what to do</th><th>note</th></tr></thead><tbody>',
      );
      for (const { kind, p, note } of rows.slice(0, PAGE_PROBLEMS_LISTED)) {
        parts.push(
          `<tr class="since-${kind}" data-agent="${escapeHtml(p.agent)}"><td>${kind}</td><td><code>${escapeHtml(p.agent)}</code></td><td>${escapeHtml(p.problem)}</td>` +
            `<td>${escapeHtml(p.status ?? "no row")}</td><td class="num">${p.nights}</td><td>${escapeHtml(p.action)}</td><td>${escapeHtml(note)}</td></tr>`,
        );
      }
      parts.push("</tbody></table>");
      if (rows.length > PAGE_PROBLEMS_LISTED) {
        parts.push(`<p class="muted">${rows.length - PAGE_PROBLEMS_LISTED} more in the JSON report (sinceLastNight).</p>`);
      }
    }
    for (const e of since.expired) {
      parts.push(
        `<p class="expired">EXPIRED baseline entry: <code>${escapeHtml(e.agent)}</code> ${escapeHtml(e.problem)} until ${escapeHtml(e.until)} (${escapeHtml(e.reason)}) accepts nothing any more.</p>`,
      );
    }
  }
  const actions = Object.entries(head.actions).filter(([status]) => status !== "in-sync");
  if (actions.length > 0) {
    parts.push('<h2>What to do</h2><dl class="actions" id="actions">');
    for (const [status, action] of actions) parts.push(`<dt>${escapeHtml(status)}</dt><dd>${escapeHtml(action ?? "")}</dd>`);
    parts.push("</dl>");
  }
  parts.push("</section>");
  return parts.join("\n");
}

/**
 * Text as HTML character data or an attribute value: `&`, `<`, `>`, `"` and `'` as entities (the page's sections
 * written as markup use it).
 *
 * @param text - Any text.
 * @returns The escaped text.
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
