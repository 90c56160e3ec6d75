/**
 * Reads a drift state file (format: `schema.ts`) line by line: a last line cut short by a crash is ignored and
 * reported (the journal cuts it off before appending); any other line that does not parse is an error naming the file
 * and the line.
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import { ConfigurationError } from "../../errors.js";
import {
  DRIFT_STATE_FORMAT,
  DRIFT_STATE_VERSION,
  type DriftStateEntry,
  type DriftStateHeader,
  type DriftStateOutcomeLine,
  type DriftStateRunLine,
  type DriftStateStopLine,
  agentSchema,
  headerSchema,
  outcomeSchema,
  runSchema,
  stopSchema,
} from "./schema.js";

/** A state file, read. */
export interface LoadedDriftState {
  readonly path: string;
  readonly header: DriftStateHeader;
  /** The `agent` lines, by agent key. */
  readonly entries: Map<string, DriftStateEntry>;
  /** The journal of a run that did not complete (empty after a run that completed). */
  readonly journal: {
    readonly runs: readonly DriftStateRunLine[];
    /** The latest answer per agent key. */
    readonly outcomes: ReadonlyMap<string, DriftStateOutcomeLine>;
    readonly stops: readonly DriftStateStopLine[];
  };
  /** The number of the last line, when it was cut short (a crash while writing it) and ignored. */
  readonly truncatedLine?: number;
  /** Bytes of the file up to the end of its last complete line (where appending resumes). */
  readonly validLength: number;
}

/**
 * Reads a state file.
 *
 * @param path - The file.
 * @returns The state, or `null` when the file does not exist or is empty.
 * @throws {@link ConfigurationError} naming the file and the line for a line that is not JSON (other than the last),
 *   an unknown line type, a line of the wrong shape, a first line that is not a header, a header of another format
 *   or version, or `agent` lines after the journal began.
 */
export function readDriftState(path: string): LoadedDriftState | null {
  if (!existsSync(path)) return null;
  const buffer = readFileSync(path);
  if (buffer.length === 0) return null;
  const lines: { text: string; number: number; end: number; complete: boolean }[] = [];
  let start = 0;
  let number = 0;
  while (start < buffer.length) {
    const newline = buffer.indexOf(0x0a, start);
    number++;
    const end = newline < 0 ? buffer.length : newline + 1;
    lines.push({ text: buffer.toString("utf8", start, newline < 0 ? buffer.length : newline), number, end, complete: newline >= 0 });
    start = end;
  }
  const fail = (line: number, problem: string): never => {
    throw new ConfigurationError(`The state file ${path} is malformed at line ${line}: ${problem}`, {
      details:
        "Fix or remove the file, or give --full to start the state over (it keeps the nights' history when the header line is readable)",
    });
  };

  let header: DriftStateHeader | undefined;
  const entries = new Map<string, DriftStateEntry>();
  const runs: DriftStateRunLine[] = [];
  const outcomes = new Map<string, DriftStateOutcomeLine>();
  const stops: DriftStateStopLine[] = [];
  let truncatedLine: number | undefined;
  let validLength = 0;
  for (const [index, line] of lines.entries()) {
    const last = index === lines.length - 1;
    if (line.text.trim() === "") {
      if (line.complete) validLength = line.end;
      continue;
    }
    let value: unknown;
    try {
      if (!line.complete) throw new Error("no end of line");
      value = JSON.parse(line.text);
    } catch (error) {
      // A crash while writing the last line leaves it cut short: ignore it (it is cut off before appending).
      if (last && header !== undefined) {
        truncatedLine = line.number;
        break;
      }
      fail(line.number, line.complete ? `not JSON (${(error as Error).message})` : "cut short (no end of line)");
    }
    validLength = line.end;
    const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
    if (header === undefined) {
      if (type !== "header") fail(line.number, 'the first line must be the header ({"type":"header",…})');
      const parsed = headerSchema.safeParse(value);
      if (!parsed.success) fail(line.number, `header: ${describeIssues(parsed.error)}`);
      const h = parsed.data!;
      if (h.format !== DRIFT_STATE_FORMAT) fail(line.number, `format "${h.format}" is not ${DRIFT_STATE_FORMAT}`);
      if (h.version !== DRIFT_STATE_VERSION)
        fail(line.number, `format version ${h.version} is not ${DRIFT_STATE_VERSION}, the one this kit reads`);
      header = h;
      continue;
    }
    switch (type) {
      case "agent": {
        if (runs.length > 0) fail(line.number, "an agent line after the journal began (a run line)");
        const parsed = agentSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `agent: ${describeIssues(parsed.error)}`);
        const { type: _type, ...entry } = parsed.data!;
        entries.set(entry.agent, entry);
        break;
      }
      case "run": {
        const parsed = runSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `run: ${describeIssues(parsed.error)}`);
        const { type: _type, ...run } = parsed.data!;
        runs.push(run);
        break;
      }
      case "outcome": {
        const parsed = outcomeSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `outcome: ${describeIssues(parsed.error)}`);
        const { type: _type, ...outcome } = parsed.data!;
        if (runs.length === 0) fail(line.number, "an outcome line before any run line");
        outcomes.set(outcome.agent, outcome);
        break;
      }
      case "stop": {
        const parsed = stopSchema.safeParse(value);
        if (!parsed.success) fail(line.number, `stop: ${describeIssues(parsed.error)}`);
        const { type: _type, ...stop } = parsed.data!;
        stops.push(stop);
        break;
      }
      default:
        fail(line.number, `unknown line type ${JSON.stringify(type)} (expected header, agent, run, outcome or stop)`);
    }
  }
  if (header === undefined) fail(1, "no header");
  return {
    path,
    header: header!,
    entries,
    journal: { runs, outcomes, stops },
    ...(truncatedLine !== undefined ? { truncatedLine } : {}),
    validLength,
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(line)"}: ${issue.message}`)
    .join("; ");
}
