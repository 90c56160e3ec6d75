/**
 * The baseline of known problems (`trustgate drift … --accept <file>`): problems someone looked at and accepted for
 * a while, with why and until when. An accepted problem is still reported (`sinceLastNight.accepted`), and with
 * `--fail-on new` it no longer makes the run exit 3; with the default `--fail-on any` nothing passes silently.
 *
 * **Format**: JSON Lines, one entry per line, UTF-8; blank lines and lines starting with `#` (comments) are skipped:
 *
 * ```text
 * # the Base oracle is unwritten since 2026-04-24: these flips are known
 * {"agent":"base:357:erc8004","problem":"pass-to-fail","reason":"oracle unwritten, ticket OPS-12","until":"2026-12-31"}
 * ```
 *
 * Each entry has exactly these members: `agent` (`chain:id[:registry]`, as `--agents` reads it), `problem`
 * (`pass-to-fail`, `fail-to-pass` or `invalid-attestation`), `reason` (not blank) and `until`: a date (`2026-12-31`,
 * accepted through that day, UTC) or an ISO-8601 time with its offset. An entry whose `until` has passed accepts
 * nothing (the report lists it under `sinceLastNight.expired`). Anything else — a line that is not JSON, a missing,
 * unknown or malformed member, the same agent and problem twice — is refused, naming the file, the line and the
 * member. `trustgate accept` writes one from a report.
 *
 * @packageDocumentation
 */
import { agentKey, parseAgentRef } from "../agent/agent-ref.js";
import { InvalidArgumentError, messageOf } from "../errors.js";
import type { DriftProblem } from "./types.js";

/** The problems a baseline entry may name. */
export const DRIFT_PROBLEMS: readonly DriftProblem[] = ["pass-to-fail", "fail-to-pass", "invalid-attestation"];

/** One entry of a baseline, read ({@link parseBaseline}). */
export interface BaselineEntry {
  /** The agent's `agentKey` (`base:erc8004:357`). */
  readonly key: string;
  /** The agent as written in the file. */
  readonly agent: string;
  /** The problem it accepts. */
  readonly problem: DriftProblem;
  /** Why, as written. */
  readonly reason: string;
  /** When the acceptance ends (the end of the day for a date). */
  readonly until: Date;
  /** Its line in the file. */
  readonly line: number;
}

/** A baseline file, read and checked. */
export interface DriftBaseline {
  /** The file, as given. */
  readonly file: string;
  readonly entries: readonly BaselineEntry[];
}

const MEMBERS = ["agent", "problem", "reason", "until"] as const;

/**
 * Reads a baseline's text (see the module notes for the format).
 *
 * @param text - The file's content.
 * @param file - Its name, for messages.
 * @returns The baseline.
 * @throws {@link InvalidArgumentError} naming the file, the line and the member, for anything the format refuses.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { parseBaseline, type DriftConfig } from "trustgate/drift";
 *
 * // the known problems a nightly run accepts (config.baseline), as `trustgate drift --accept baseline.jsonl` reads them
 * const baseline = parseBaseline(readFileSync("baseline.jsonl", "utf8"), "baseline.jsonl");
 * const nightly: Pick<DriftConfig, "state" | "baseline" | "failOn"> = { state: "drift-state.jsonl", baseline, failOn: "new" };
 * ```
 */
export function parseBaseline(text: string, file: string): DriftBaseline {
  const entries: BaselineEntry[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === "" || content.startsWith("#")) return;
    const fail = (what: string): never => {
      throw new InvalidArgumentError(`The baseline ${file}, line ${line}: ${what}`, {
        details: 'Each line: {"agent":"base:357:erc8004","problem":"pass-to-fail","reason":"…","until":"2026-12-31"}',
      });
    };
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      fail(`not JSON (${messageOf(error)})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("not a JSON object");
    const object = value as Record<string, unknown>;
    const unknown = Object.keys(object).find((k) => !(MEMBERS as readonly string[]).includes(k));
    if (unknown !== undefined) fail(`unknown member "${unknown}" (members: ${MEMBERS.join(", ")})`);
    const member = (name: (typeof MEMBERS)[number]): string => {
      const v = object[name];
      if (typeof v !== "string" || v.trim() === "") return fail(`member "${name}" must be a non-empty string`);
      return v;
    };
    const agentText = member("agent");
    let key: string;
    try {
      key = agentKey(parseAgentRef(agentText));
    } catch (error) {
      return fail(`member "agent": ${messageOf(error)}`);
    }
    const problem = member("problem");
    if (!(DRIFT_PROBLEMS as readonly string[]).includes(problem)) {
      fail(`member "problem" must be one of ${DRIFT_PROBLEMS.join(", ")}, got "${problem}"`);
    }
    const reason = member("reason");
    const until = parseUntil(member("until"));
    if (until === null)
      fail(`member "until" must be a date (2026-12-31) or an ISO-8601 time with its offset, got "${String(object.until)}"`);
    const id = `${key} ${problem}`;
    const earlier = seen.get(id);
    if (earlier !== undefined) fail(`${agentText} ${problem} is accepted already on line ${earlier}`);
    seen.set(id, line);
    entries.push({ key, agent: agentText, problem: problem as DriftProblem, reason, until: until!, line });
  });
  return { file, entries };
}

/**
 * `until` as a time: a date is the end of that day (UTC), a time is itself; `null` when it is neither.
 *
 * @param text - `2026-12-31` or `2026-12-31T12:00:00Z` (an offset is required).
 * @returns The end of the acceptance.
 */
export function parseUntil(text: string): Date | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const start = Date.UTC(y, m - 1, d);
    const back = new Date(start);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
    return new Date(start + 86_400_000);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/**
 * The entry of a baseline that accepts a problem now, if any.
 *
 * @param baseline - The baseline.
 * @param key - The agent's `agentKey`.
 * @param problem - The problem.
 * @param now - The time, in milliseconds (an entry whose `until` is not after it accepts nothing).
 * @returns Its reason and end (ISO-8601), or `undefined`.
 */
export function baselineMatch(
  baseline: DriftBaseline,
  key: string,
  problem: DriftProblem,
  now: number,
): { readonly reason: string; readonly until: string } | undefined {
  const entry = baseline.entries.find((e) => e.key === key && e.problem === problem && e.until.getTime() > now);
  return entry ? { reason: entry.reason, until: entry.until.toISOString() } : undefined;
}

/**
 * One baseline line for a problem.
 *
 * @param entry - The agent (`chain:id:registry`), the problem, the reason and `until` as written.
 * @returns The JSON line, without a newline.
 */
export function baselineLine(entry: {
  readonly agent: string;
  readonly problem: DriftProblem;
  readonly reason: string;
  readonly until: string;
}): string {
  return JSON.stringify({ agent: entry.agent, problem: entry.problem, reason: entry.reason, until: entry.until });
}
