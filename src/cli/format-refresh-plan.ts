/**
 * The refresh plan as people read it: one line per agent to push (its reasons and batch), the skipped rows counted by
 * why, and the batches with their estimated gas. `trustgate refresh --dry-run` prints it; a run that sends prints it
 * before sending.
 *
 * @packageDocumentation
 */
import type { RefreshPlan } from "../refresh/plan.js";
import { formatDuration } from "./duration.js";

/**
 * Formats a refresh plan.
 *
 * @param plan - The plan.
 * @returns Lines of text, each ending with a newline.
 */
export function formatRefreshPlan(plan: RefreshPlan): string {
  const { from, settings, totals } = plan;
  const oracle = from.attestedOracle ?? "none named (kids not checked by the drift run)";
  let text =
    `Refresh plan from the drift report of ${from.generatedAt} (chain ${from.chainId}, block ${from.blockNumber ?? "unknown"}); attested oracle ${oracle}\n` +
    `Rules: a decision flip, a missing record, a record older than ${formatDuration(settings.maxAgeSeconds)}, a score move of more than ${settings.minChange}\n`;
  if (plan.due.length > 0) {
    const agentWidth = Math.max(5, ...plan.due.map((entry) => entry.agent.length));
    const statusWidth = Math.max(6, ...plan.due.map((entry) => entry.status.length));
    const reasonsOf = (reasons: readonly string[]) => reasons.join(", ");
    const reasonWidth = Math.max(7, ...plan.due.map((entry) => reasonsOf(entry.reasons).length));
    text += `${"AGENT".padEnd(agentWidth)}  ${"STATUS".padEnd(statusWidth)}  ${"REASONS".padEnd(reasonWidth)}  BATCH  EST. GAS\n`;
    for (const entry of plan.due) {
      text += `${entry.agent.padEnd(agentWidth)}  ${entry.status.padEnd(statusWidth)}  ${reasonsOf(entry.reasons).padEnd(reasonWidth)}  ${String(entry.batch).padStart(5)}  ${grouped(entry.estimatedGas).padStart(8)}\n`;
    }
  }
  const bySkip = new Map<string, number>();
  for (const skip of plan.skipped) bySkip.set(skip.skip, (bySkip.get(skip.skip) ?? 0) + 1);
  const skipText = [...bySkip].map(([skip, count]) => `${skip} ${count}`).join(", ");
  text += `Due: ${totals.due}; skipped: ${totals.skipped}${skipText ? ` (${skipText})` : ""}; in sync: ${totals.inSync}\n`;
  text +=
    totals.batches === 0
      ? "Batches: none: nothing to push\n"
      : `Batches: ${totals.batches} (${plan.batches.map((batch) => batch.agents.length).join(" + ")} attestations), estimated gas ${grouped(totals.estimatedGas)} (at most ${grouped(settings.gasLimit)} a batch)\n`;
  return text;
}

function grouped(value: number): string {
  return value.toLocaleString("en-US");
}
