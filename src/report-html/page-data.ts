/**
 * What the HTML report page carries as data: the report's head reduced to what the page shows, and each row as a
 * compact tuple of its columns ({@link PAGE_COLUMNS}), so that 150,000 rows are a few megabytes of JSON the page's
 * script reads once, not 150,000 table rows of markup.
 *
 * Every string that came from the service or the chain goes through the kit's outside-text rules here
 * (`sanitizeText`: no control or bidirectional characters) and through `redactUrlsIn` (no credential in a URL);
 * the page then shows it with `textContent` only.
 *
 * @packageDocumentation
 */
import { DEFAULT_TRUST_ENCODING } from "../config/encodings.js";
import {
  DRIFT_STATUS_MEANINGS,
  DRIFT_STATUSES,
  type DriftNightSummary,
  type DriftReportHead,
  type DriftRow,
  type DriftStatus,
  type SinceLastNight,
} from "../drift/types.js";
import { actionsOf } from "../drift/report.js";
import { verdictOf } from "../drift/verdict.js";
import { sanitizeText } from "../security/outside-text.js";
import { redactUrlsIn } from "../security/redact-url.js";
import { NEUTRAL_COLOUR, STATUS_COLOURS } from "./status-colours.js";

/** The columns of a page row, in tuple order. Times are Unix seconds; `status` indexes `DRIFT_STATUSES`. */
export const PAGE_COLUMNS = [
  "chain",
  "agentId",
  "registry",
  "status",
  "onchainScore",
  "onchainTier",
  "onchainUpdatedAt",
  "attestedScore",
  "attestedTier",
  "attestedIssuedAt",
  "scoreDelta",
  "flip",
  "reason",
] as const;

/** A row's decision flip on the page: 0 none, 1 pass→fail, 2 fail→pass. */
export type PageFlip = 0 | 1 | 2;

/** One row as the page carries it, in {@link PAGE_COLUMNS} order. */
export type PageRow = readonly [
  chain: string,
  agentId: string,
  registry: string,
  status: number,
  onchainScore: number | null,
  onchainTier: string | null,
  onchainUpdatedAt: number | null,
  attestedScore: number | null,
  attestedTier: string | null,
  attestedIssuedAt: number | null,
  scoreDelta: number | null,
  flip: PageFlip,
  reason: string | null,
];

/** The head of the page's data: what the page shows besides the rows. */
export interface PageHead {
  readonly columns: readonly string[];
  readonly statuses: readonly DriftStatus[];
  /** What each status means, shown beside its count (the same definitions as `--help` and the Markdown). */
  readonly statusMeanings: Readonly<Record<DriftStatus, string>>;
  /** Each status's colour ({@link STATUS_COLOURS}): the cards, the rows and the nights' chart draw with it. */
  readonly statusColours: Readonly<Record<DriftStatus, string>>;
  /** The colour of what carries no status (a zero count), never a status's colour. */
  readonly neutralColour: string;
  /**
   * The kit's tiers, lowest first (`flagged` … `established`): the order of the tier matrix and the tier filter.
   * A tier outside them (`code:<n>`) comes after them.
   */
  readonly tiers: readonly string[];
  readonly generatedAt: string;
  readonly source: { readonly oracle: string; readonly chainId: number; readonly blockNumber: string | null; readonly api: string };
  readonly decisionRule: string;
  /** The score threshold of the decision rule, when it has one (drawn on the score chart). */
  readonly threshold: number | null;
  readonly maxAgeSeconds: number;
  readonly verdict: { readonly exitCode: number; readonly reason: string };
  readonly agents: number;
  readonly byStatus: Readonly<Record<DriftStatus, number>>;
  readonly flips: { readonly passToFail: number; readonly failToPass: number };
  readonly unverified: { readonly count: number; readonly allowed: number; readonly exceeded: boolean; readonly limit: string };
  readonly notes: readonly string[];
  readonly history: readonly DriftNightSummary[];
  /** What changed since the previous night, its outside text made safe; `null` without a state file. */
  readonly sinceLastNight: SinceLastNight | null;
  /** What to do about each status that has rows. */
  readonly actions: Readonly<Partial<Record<DriftStatus, string>>>;
}

/**
 * Outside text made safe to carry: printable, on one line, with any URL in it redacted.
 *
 * @param text - Text from the service, the chain or an error.
 * @returns The text as the page carries it.
 */
export function pageText(text: string): string {
  return sanitizeText(redactUrlsIn(text));
}

/**
 * A row as the page carries it.
 *
 * @param row - A report row.
 * @returns Its tuple ({@link PAGE_COLUMNS}).
 */
export function pageRow(row: DriftRow): PageRow {
  const { onchain, attested, decision } = row;
  const flip: PageFlip = !decision.flipped ? 0 : decision.onchain === true ? 1 : 2;
  return [
    pageText(row.chain),
    pageText(row.agentId),
    pageText(row.registry),
    DRIFT_STATUSES.indexOf(row.status),
    onchain?.score ?? null,
    onchain ? pageText(onchain.tier) : null,
    onchain ? unixSeconds(onchain.updatedAt) : null,
    attested?.score ?? null,
    attested ? pageText(attested.tier) : null,
    row.attestedComputedAt === null ? null : unixSeconds(row.attestedComputedAt),
    row.scoreDelta,
    flip,
    row.reason === undefined ? null : pageText(row.reason),
  ];
}

/**
 * The head of the page's data.
 *
 * @param head - The report without its rows; `state.history`, when the report carries it, becomes the nights' charts.
 * @returns What the page shows besides the rows.
 */
export function pageHead(head: DriftReportHead): PageHead {
  const { summary } = head;
  const verdict = verdictOf(head);
  const { limit } = summary.unverified;
  return {
    columns: PAGE_COLUMNS,
    statuses: DRIFT_STATUSES,
    statusMeanings: DRIFT_STATUS_MEANINGS,
    statusColours: STATUS_COLOURS,
    neutralColour: NEUTRAL_COLOUR,
    tiers: DEFAULT_TRUST_ENCODING.tiers,
    generatedAt: head.generatedAt,
    source: {
      oracle: pageText(head.source.oracle),
      chainId: head.source.chainId,
      blockNumber: head.source.blockNumber,
      api: pageText(head.source.api),
    },
    decisionRule: pageText(head.decisionRule),
    threshold: thresholdOf(head.decisionRule),
    maxAgeSeconds: head.maxAgeSeconds,
    verdict,
    agents: summary.agents,
    byStatus: summary.byStatus,
    flips: summary.flips,
    unverified: {
      count: summary.unverified.count,
      allowed: summary.unverified.allowed,
      exceeded: summary.unverified.exceeded,
      limit: limit.kind === "percent" ? `${limit.value}% of the agents` : `${limit.value} agents`,
    },
    notes: (head.notes ?? []).map(pageText),
    history: historyOf(head),
    sinceLastNight: safeSinceLastNight(head.sinceLastNight ?? null),
    actions: head.actions ?? actionsOf(summary.byStatus),
  };
}

/** `sinceLastNight` with every agent name and baseline reason through {@link pageText}. */
function safeSinceLastNight(since: SinceLastNight | null): SinceLastNight | null {
  if (since === null) return null;
  const safe = <T extends { readonly agent: string }>(p: T): T => ({
    ...p,
    agent: pageText(p.agent),
    ...("reason" in p && typeof p.reason === "string" ? { reason: pageText(p.reason) } : {}),
  });
  return {
    ...since,
    new: since.new.map(safe),
    persisting: since.persisting.map(safe),
    resolved: since.resolved.map(safe),
    accepted: since.accepted.map(safe),
    unverified: since.unverified.map(safe),
    expired: since.expired.map(safe),
  };
}

/** The score threshold in a decision rule (`score >= 51`, `gate … (minScore 51, …)`), if any. */
function thresholdOf(rule: string): number | null {
  const match = /(?:score >=|minScore) (\d+(?:\.\d+)?)/.exec(rule);
  return match ? Number(match[1]) : null;
}

/** The night summaries of the state file, when the report carries them (`state.history`, oldest first). */
function historyOf(head: DriftReportHead): readonly DriftNightSummary[] {
  return head.state?.history ?? [];
}

function unixSeconds(iso: string): number | null {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.round(ms / 1000) : null;
}
