/**
 * Where a drift report goes: the JSON (pretty-printed) to a file or to stdout, the Markdown summary to a file or to
 * stdout, every row as Markdown to a file, the HTML page to a file, and the table and summary for people. When a machine format takes stdout (`--json -` or
 * `--markdown -`), stdout carries that and nothing else: the summary goes to stderr and the table is left
 * out. The rows reach the documents through a {@link ReportStream} (`report-stream.ts`): a run streams them there as
 * they are produced, and the documents are written from it at the end.
 *
 * @packageDocumentation
 */
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import type { DriftReport, DriftReportHead } from "../drift/types.js";
import { InvalidArgumentError } from "../errors.js";
import { sanitizeText } from "../security/outside-text.js";
import type { DriftOutputOptions } from "./drift-args.js";
import { formatSummary } from "./format-summary.js";
import { formatTable } from "./format-table.js";
import { checkFileTarget } from "./file-target.js";
import type { CliStream } from "./io.js";
import { createReportStream, type FailedDocument, type ReportDocument, type ReportStream } from "./report-stream.js";
import { exitCodeOf } from "../drift/verdict.js";

/** What {@link writeOutputs} writes to. */
export interface WriteOutputsOptions {
  readonly output: DriftOutputOptions;
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** Terminal width of stdout, to fit the table (ignored with `--wide`; absent when stdout is not a terminal: no limit). */
  readonly columns?: number | undefined;
}

/**
 * The JSON report as written: two-space indentation, ending with a newline.
 *
 * @param report - The report.
 * @returns The JSON text.
 */
export function reportJson(report: DriftReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * Whether a machine format takes stdout.
 *
 * @param output - Output options.
 * @returns True with `--json -` or `--markdown -`.
 */
export function stdoutIsTaken(output: Pick<DriftOutputOptions, "json" | "markdown">): boolean {
  return output.json === "-" || output.markdown === "-";
}

/**
 * Checks, before a scan, that the report files can be written where asked ({@link checkFileTarget}), and no two of
 * `--json`, `--markdown`, `--markdown-rows` and `--html` are the same file once resolved (`./r.json` and `r.json`, a symbolic link to
 * the other, or a link in the directory path) nor, when both exist, one file under two names (a hard link, another
 * case on a case-insensitive file system), so that one report never overwrites the other. (A scan can take long; a
 * typo in a path should not waste it.)
 *
 * @param output - Output options.
 * @throws {@link InvalidArgumentError} naming the option and the problem.
 */
export async function checkOutputTargets(output: Pick<DriftOutputOptions, "json" | "markdown" | "markdownRows" | "html">): Promise<void> {
  const targets = [
    ["--json", output.json],
    ["--markdown", output.markdown],
    ["--markdown-rows", output.markdownRows],
    ["--html", output.html],
  ] as const;
  for (const [flag, path] of targets) {
    if (path !== undefined && path !== "-") await checkFileTarget(flag, path);
  }
  const files = targets.flatMap(([flag, path]) => (path === undefined || path === "-" ? [] : [[flag, path] as const]));
  for (let i = 0; i < files.length; i++) {
    for (let k = i + 1; k < files.length; k++) await checkDistinct(files[i]!, files[k]!);
  }
}

type OutputFlag = "--json" | "--markdown" | "--markdown-rows" | "--html";

const OUTPUT_NAMES: Readonly<Record<OutputFlag, string>> = {
  "--json": "JSON report",
  "--markdown": "Markdown summary",
  "--markdown-rows": "Markdown rows",
  "--html": "HTML page",
};

/** Refuses two outputs that are one file (see {@link checkOutputTargets}). */
async function checkDistinct([flagA, pathA]: readonly [OutputFlag, string], [flagB, pathB]: readonly [OutputFlag, string]): Promise<void> {
  const [a, b] = await Promise.all([resolvedFile(pathA), resolvedFile(pathB)]);
  // Two existing paths to one file (a hard link, a case-insensitive file system) share device and inode.
  const [statA, statB] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  const sameInode = statA !== undefined && statB !== undefined && statA.dev === statB.dev && statA.ino === statB.ino;
  if (a === b || sameInode) {
    throw new InvalidArgumentError(
      `${flagA} ${pathA} and ${flagB} ${pathB} are the same file (${a}): the ${OUTPUT_NAMES[flagB]} would overwrite the ${OUTPUT_NAMES[flagA]}; give two files`,
    );
  }
}

/**
 * The file a write to `path` lands in: symbolic links followed (also a link to a file not yet there), the directory
 * resolved to its real path, for a file that does not exist yet too.
 */
async function resolvedFile(path: string, depth = 0): Promise<string> {
  const absolute = resolve(path);
  const link = await lstat(absolute).catch(() => undefined);
  if (link?.isSymbolicLink() && depth < 32) {
    const target = await readlink(absolute);
    return resolvedFile(resolve(dirname(absolute), target), depth + 1);
  }
  const directory = await realpath(dirname(absolute)).catch(() => dirname(absolute));
  return resolve(directory, basename(absolute));
}

/**
 * Writes a whole report where the options say (through a {@link ReportStream}, as a streamed run is written).
 *
 * @param report - The report.
 * @param options - Output options and streams.
 * @returns The documents that could not be written (empty when all were).
 */
export async function writeOutputs(
  report: DriftReport,
  options: WriteOutputsOptions,
): Promise<readonly (FailedDocument | StateWriteFailure)[]> {
  const stream = createReportStream({
    json: options.output.json,
    markdown: options.output.markdown,
    markdownRows: options.output.markdownRows,
    html: options.output.html,
    tableRows: options.output.tableRows,
    stdout: options.stdout,
  });
  try {
    for (const row of report.agents) stream.add(row);
    const { agents: _agents, ...head } = report;
    return await writeStreamedOutputs(stream, head, options);
  } finally {
    stream.close();
  }
}

/**
 * Finishes a report whose rows went to `stream` as the scan produced them: writes the JSON, Markdown and HTML
 * documents (head and rows, most severe first), then the table (the rows `stream` kept for it) and the summary, whose last line
 * is the verdict. A document that cannot be written (a full disk, a file made read-only during the scan) stops
 * neither the other documents nor the summary: after the verdict, one line per failure names the document, its path
 * and the cause, with the exit code the run ends with ({@link exitCodeAfterWrites}).
 *
 * @param stream - The stream the rows went to (not closed here).
 * @param head - The report without its rows.
 * @param options - Output options and streams.
 * @returns The documents that could not be written, and the state file when the run could not rewrite it (empty when
 *   all were written).
 */
export async function writeStreamedOutputs(
  stream: ReportStream,
  head: DriftReportHead,
  options: WriteOutputsOptions,
): Promise<readonly (FailedDocument | StateWriteFailure)[]> {
  const { output, stdout, stderr } = options;
  const notice = (text: string) => {
    if (!output.quiet) stderr.write(`trustgate: ${text}\n`);
  };

  const { files, failed } = await stream.finish(head);
  // The paths are the caller's argv, which may hold control characters: the line stays one clear line.
  if (files.json !== undefined) notice(`JSON report written to ${sanitizeText(files.json)}`);
  if (files.markdown !== undefined) notice(`Markdown summary written to ${sanitizeText(files.markdown)}`);
  if (files.markdownRows !== undefined) notice(`Markdown rows written to ${sanitizeText(files.markdownRows)}`);
  if (files.html !== undefined) notice(`HTML page written to ${sanitizeText(files.html)}`);

  const people = stdoutIsTaken(output) ? stderr : stdout;
  if (!output.quiet && !stdoutIsTaken(output)) {
    const width = output.wide ? undefined : options.columns;
    const table = formatTable(
      { agents: stream.top.rows(), generatedAt: head.generatedAt },
      { maxRows: output.tableRows, totalRows: stream.count, ...(width ? { width } : {}) },
    );
    stdout.write(`${table}\n\n`);
  }
  people.write(`${formatSummary(head, stream.tally)}\n`);
  // Not silenced by --quiet: a report that was asked for and is missing is an error, said with the verdict it goes with.
  const verdict = exitCodeOf(head);
  const state = head.summary.triage?.state;
  const all = [
    ...failed,
    ...(state?.notSaved !== undefined ? [{ flag: "--state" as const, target: state.file, error: new Error(state.notSaved) }] : []),
  ];
  for (const failure of all) stderr.write(writeFailureLine(failure, verdict));
  return all;
}

/** The state file, when a completed run could not rewrite it (`summary.triage.state.notSaved`). */
export interface StateWriteFailure {
  /** Always `--state`. */
  readonly flag: "--state";
  /** The state file. */
  readonly target: string;
  /** Why it could not be rewritten. */
  readonly error: unknown;
}

/**
 * The exit code of a run whose report documents were written, or not: a failed write never hides the verdict. The
 * verdict's code stands when it is 3 (drift) or 4 (could not verify), so that cron and CI still see what the scan
 * found; when the verdict is 0, a document that could not be written makes it 1 (the run did not do all it was asked
 * to), so that a missing report is never silent.
 *
 * @param verdict - The verdict's exit code (`exitCodeOf`).
 * @param failed - The documents that could not be written.
 * @returns The exit code.
 */
export function exitCodeAfterWrites(verdict: number, failed: readonly unknown[]): number {
  return failed.length > 0 && verdict === 0 ? 1 : verdict;
}

/** What a document is called in messages. */
const DOCUMENT_NAMES: Readonly<Record<ReportDocument | "--state", string>> = {
  "--state": "the state file",
  "--json": "the JSON report",
  "--markdown": "the Markdown summary",
  "--markdown-rows": "the Markdown rows",
  "--html": "the HTML page",
};

/**
 * The line of a document that could not be written: the document, its path, the cause, and the exit code the run ends
 * with beside the verdict's.
 *
 * @param failure - The document that could not be written.
 * @param verdict - The verdict's exit code.
 * @returns One line, with its `trustgate: ` prefix and newline.
 */
export function writeFailureLine(failure: FailedDocument | StateWriteFailure, verdict: number): string {
  const where = failure.target === "-" ? "stdout" : sanitizeText(failure.target);
  const code = exitCodeAfterWrites(verdict, [failure]);
  const outcome =
    code === verdict
      ? `the verdict above stands (exit ${verdict})`
      : `the verdict above is ${verdict}, the run exits ${code} for the missing report`;
  return `trustgate: ${DOCUMENT_NAMES[failure.flag]} (${failure.flag}) could not be written to ${where}: ${sanitizeText(writeErrorText(failure.error))}; ${outcome}\n`;
}

/** The cause of a failed write in one line: the file system's code and message. */
function writeErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
  return code !== undefined && !message.startsWith(code) ? `${code}: ${message}` : message;
}
