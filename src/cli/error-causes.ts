/**
 * The agents a run could not verify (statuses `error` and `missing-attestation`, the ones `--max-errors` counts),
 * grouped by cause for the Markdown summary: a failing service or a dead RPC gives thousands of rows with one cause,
 * which a summary says once, with a count.
 *
 * A row's cause is its reason without what belongs to the row alone: the agent's own reference (`base:7:erc8004`),
 * its id, chain and registry where the reason names them as such (`agent 7`, `on base`, `registry erc8004`), the
 * query string of a URL (it names the agent) and times. What stays is the same for every row that failed the same way.
 * The tally is bounded ({@link MAX_CAUSES} causes); each cause keeps one example row, the first in the report's order,
 * so that the result does not depend on the order rows arrive in.
 *
 * @packageDocumentation
 */
import { formatAgentRef } from "../agent/agent-ref.js";
import { UNVERIFIED_STATUSES } from "../drift/error-limit.js";
import { compareRows } from "../drift/report.js";
import type { DriftRow, DriftStatus } from "../drift/types.js";
import { sanitizeText } from "../security/outside-text.js";

/** Most causes a tally tells apart; the rows of any further cause are counted together ({@link CauseTally.otherRows}). */
export const MAX_CAUSES = 1000;

/** The unverified rows of one status and one cause. */
export interface CauseGroup {
  readonly status: DriftStatus;
  /** The cause: the reason without the row's own identity, query strings and times. */
  readonly cause: string;
  /** Rows with this status and cause. */
  readonly rows: number;
  /** The first of them in the report's order. */
  readonly example: DriftRow;
}

/** The unverified rows grouped by cause, as rows arrive. */
export interface CauseTally {
  /** Takes a row (rows of other statuses are ignored). */
  add(row: DriftRow): void;
  /** The groups, the largest first (then by status, worst first, then by cause). */
  groups(): CauseGroup[];
  /** Rows whose cause came after {@link MAX_CAUSES} others: counted, not told apart. */
  readonly otherRows: number;
}

const UNVERIFIED: ReadonlySet<DriftStatus> = new Set(UNVERIFIED_STATUSES);

/** An ISO-8601 time, with or without fractions and offset. */
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
/** The query string and fragment of a URL. */
const URL_QUERY = /\b(https?:\/\/[^\s?#]*)[?#][^\s)\]]*/g;

/**
 * The cause of a row: its reason (sanitised, on one line) without the agent's own reference, id, chain and registry
 * (written `{chain}:{id}:{registry}`, `{id}`, `{chain}`, `{registry}`; the bare id, chain and registry where the
 * reason names them as such: `agent 7`, `id 7`, `on base`, `chain base`, `registry olas`), the query strings of URLs
 * (`?…`) and times (`{time}`).
 *
 * @param row - The row.
 * @returns The cause; `no reason given` for a row without a reason.
 */
export function causeOf(row: DriftRow): string {
  const reason = sanitizeText(row.reason ?? "")
    .replace(/\s+/g, " ")
    .trim();
  if (reason === "") return "no reason given";
  // The bare id, chain and registry only where a message names them as such: a number or a word elsewhere (an
  // HTTP status, a count) is part of the cause.
  const after = (lead: string, text: string) => new RegExp(`(${lead})${escapeRegExp(text)}(?![\\w-])`, "gi");
  return reason
    .replace(URL_QUERY, "$1?…")
    .replace(ISO_TIME, "{time}")
    .replaceAll(formatAgentRef(row), "{chain}:{id}:{registry}")
    .replaceAll(formatAgentRef(row, { omitDefaultRegistry: true }), "{chain}:{id}")
    .replace(after("\\bagent(?: ?id)?[ #:=]+|\\bid[ #:=]+", row.agentId), "$1{id}")
    .replace(after("\\bon |\\bchain[ :=]+", row.chain), "$1{chain}")
    .replace(after("\\bregistry[ :=]+", row.registry), "$1{registry}");
}

/**
 * Starts a {@link CauseTally}.
 *
 * @returns An empty tally.
 */
export function createCauseTally(): CauseTally {
  const groups = new Map<string, { status: DriftStatus; cause: string; rows: number; example: DriftRow }>();
  let otherRows = 0;
  return {
    add(row) {
      if (!UNVERIFIED.has(row.status)) return;
      const cause = causeOf(row);
      const key = `${row.status}\n${cause}`;
      const group = groups.get(key);
      if (group !== undefined) {
        group.rows++;
        if (compareRows(row, group.example) < 0) group.example = row;
      } else if (groups.size < MAX_CAUSES) groups.set(key, { status: row.status, cause, rows: 1, example: row });
      else otherRows++;
    },
    groups: () =>
      [...groups.values()].sort(
        (a, b) =>
          b.rows - a.rows ||
          UNVERIFIED_STATUSES.indexOf(a.status) - UNVERIFIED_STATUSES.indexOf(b.status) ||
          (a.cause < b.cause ? -1 : a.cause > b.cause ? 1 : 0),
      ),
    get otherRows() {
      return otherRows;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
