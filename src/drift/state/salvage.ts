/**
 * What `--full` keeps of a state file it cannot read (a corrupt middle line, a wrong shape, bytes that are not text):
 * `--full` starts the state over whatever the file holds, but the nights' history lives in the header line, and
 * losing 60 nights to one bad line far below it would be a heavy price. So the header is read on its own; when it is
 * a header of this format and version, its history is kept, and the rest (agent entries, a journal) is dropped and
 * counted, so that the run can say what it dropped.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { messageOf } from "../../errors.js";
import { type LoadedDriftState, readDriftState } from "./read.js";
import { DRIFT_STATE_FORMAT, DRIFT_STATE_VERSION, type DriftStateHeader, headerSchema } from "./schema.js";

/** A state file `--full` could not read and starts over: what it kept and what it dropped. */
export interface RecoveredDriftState {
  /** Why the file could not be read (the reader's message: the line and the problem). */
  readonly problem: string;
  /** The header, when its line was readable on its own (its history is kept); `null` when it was not. */
  readonly header: DriftStateHeader | null;
  /** `agent` lines dropped (their answers are fetched again). */
  readonly droppedAgents: number;
  /** Other lines dropped: a journal's lines, and the lines that could not be read. */
  readonly droppedLines: number;
}

/** What a run reads from its state file. */
export interface StateFileRead {
  /** The state, or `null` when there is none (no file, an empty one, or one `--full` could not read). */
  readonly loaded: LoadedDriftState | null;
  /** Present when `--full` could not read the file and starts it over. */
  readonly recovered?: RecoveredDriftState;
}

/**
 * Reads a run's state file: as `readDriftState` does, except that with `full` a file that cannot be read is not an
 * error but a state to start over, keeping the header's history when that line is readable.
 *
 * @param path - The state file.
 * @param full - `--full`.
 * @returns The state, and what was kept and dropped when `--full` started over a file it could not read.
 * @throws `ConfigurationError` (from `readDriftState`) for a malformed file without `full`.
 */
export function readStateFileForRun(path: string, full: boolean): StateFileRead {
  try {
    return { loaded: readDriftState(path) };
  } catch (error) {
    if (!full) throw error;
    return { loaded: null, recovered: salvageDriftState(path, messageOf(error)) };
  }
}

/**
 * Reads what can be kept of a state file that cannot be read whole: its header line, on its own.
 *
 * @param path - The state file.
 * @param problem - Why it cannot be read whole.
 * @returns The header (or `null`) and the lines dropped.
 */
export function salvageDriftState(path: string, problem: string): RecoveredDriftState {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { problem: `${problem}; ${messageOf(error)}`, header: null, droppedAgents: 0, droppedLines: 0 };
  }
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const header = headerOf(lines[0]);
  let droppedAgents = 0;
  for (const line of lines.slice(header ? 1 : 0)) if (/^\s*\{\s*"type"\s*:\s*"agent"/.test(line)) droppedAgents++;
  return { problem, header, droppedAgents, droppedLines: lines.length - (header ? 1 : 0) - droppedAgents };
}

/** The header a line holds, when it is a header of this format and version; else `null`. */
function headerOf(line: string | undefined): DriftStateHeader | null {
  if (line === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success || parsed.data.format !== DRIFT_STATE_FORMAT || parsed.data.version !== DRIFT_STATE_VERSION) return null;
  return parsed.data;
}
