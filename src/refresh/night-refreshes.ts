/**
 * Reads the JSON report `trustgate refresh --json` writes back as the night's refreshes, for the drift job's page
 * (`trustgate drift --html page.html --refresh-report refresh.json`): what was due and why, what was skipped and why,
 * what each sent attestation became (an error for one refused), and what the transactions cost. Only those fields are
 * read, each checked; the rest is ignored, so a newer report with more fields reads the same. Read generously, trust
 * strictly: the file is outside input, so a field of the wrong type is a clear error naming it, and every text is
 * bounded (the page escapes it where it writes it).
 *
 * @packageDocumentation
 */
import { z } from "zod";
import { parseJsonReport } from "./json-report.js";
import { REFRESH_REASONS, type RefreshReason } from "./plan.js";
import type { RefreshAttestationOutcome } from "./send.js";

/** The outcomes of a sent attestation, in the order the page lists them (the ones that need a look first). */
export const NIGHT_REFRESH_OUTCOMES: readonly RefreshAttestationOutcome[] = [
  "refused",
  "not-fetched",
  "no-op",
  "stored",
  "already-current",
];

/** One due agent of the night's refresh and what became of it. */
export interface NightRefreshDue {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The push rules it met. */
  readonly reasons: readonly RefreshReason[];
  /** What became of its attestation; `null` for a dry run (nothing sent). */
  readonly outcome: RefreshAttestationOutcome | null;
  /** The contract's decoded error, or why no attestation was fetched. */
  readonly error: string | null;
  /** The transaction that carried it. */
  readonly transaction: string | null;
}

/** One agent the night's refresh did not push, and why. */
export interface NightRefreshSkip {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** Why it was not pushed (`not-due`, `no-attestation`, a refresh blocker). */
  readonly skip: string;
  /** One sentence saying why. */
  readonly detail: string;
}

/** The night's refreshes, as the page shows them. */
export interface NightRefreshes {
  /** `dry-run` (nothing sent) or `sent`. */
  readonly mode: "dry-run" | "sent";
  /** When the refresh was planned (ISO 8601). */
  readonly plannedAt: string;
  /** The refresh run's exit code. */
  readonly exitCode: number;
  /** The due agents, with their outcomes. */
  readonly due: readonly NightRefreshDue[];
  /** The agents not pushed. */
  readonly skipped: readonly NightRefreshSkip[];
  /** Transactions sent, their gas and their cost in wei (decimal strings); zeros for a dry run. */
  readonly cost: { readonly transactions: number; readonly gasUsed: string; readonly costWei: string };
}

/** A text the page shows: bounded, so that one hostile field cannot make the page huge. */
const text = z.string().max(2_000);
const decimal = z.string().regex(/^\d{1,78}$/, "a decimal integer");
const outcome = z.enum(NIGHT_REFRESH_OUTCOMES as [RefreshAttestationOutcome, ...RefreshAttestationOutcome[]]);

const schema = z.object({
  version: z.literal(1),
  mode: z.enum(["dry-run", "sent"]),
  exitCode: z.number().int(),
  plan: z.object({
    plannedAt: text,
    due: z.array(z.object({ agent: text, reasons: z.array(z.enum(REFRESH_REASONS as [RefreshReason, ...RefreshReason[]])) })),
    skipped: z.array(z.object({ agent: text, skip: text, detail: text })),
  }),
  sent: z
    .object({
      attestations: z.array(z.object({ agent: text, outcome, error: text.optional(), transaction: text.optional() })),
      totals: z.object({ transactions: z.number().int().nonnegative(), gasUsed: decimal, costWei: decimal }),
    })
    .optional(),
});

/**
 * Reads a refresh report's text into the night's refreshes.
 *
 * @param json - The text of the file `trustgate refresh --json` wrote.
 * @param source - Where it came from, for the messages (`--refresh-report refresh.json`).
 * @returns The night's refreshes.
 * @throws `InvalidArgumentError` when the text is not JSON or not a refresh report of version 1: the message
 *   names the field.
 */
export function readNightRefreshes(json: string, source: string): NightRefreshes {
  const report = parseJsonReport(json, source, schema, { what: "a refresh report", writer: "trustgate refresh --json" });
  const sentByAgent = new Map((report.sent?.attestations ?? []).map((a) => [a.agent, a]));
  return {
    mode: report.mode,
    plannedAt: report.plan.plannedAt,
    exitCode: report.exitCode,
    due: report.plan.due.map((entry) => {
      const sent = sentByAgent.get(entry.agent);
      return {
        agent: entry.agent,
        reasons: entry.reasons,
        outcome: sent?.outcome ?? null,
        error: sent?.error ?? null,
        transaction: sent?.transaction ?? null,
      };
    }),
    skipped: report.plan.skipped.map(({ agent, skip, detail }) => ({ agent, skip, detail })),
    cost: report.sent?.totals ?? { transactions: 0, gasUsed: "0", costWei: "0" },
  };
}
