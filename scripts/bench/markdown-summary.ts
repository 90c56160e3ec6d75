/**
 * The Markdown summary at scale: a report of `size` rows (the benchmarks' population, `synthetic-report.ts`, with the
 * refresh assessments a run gives) written through the command line's writer (`writeOutputs`, the streamed path of a
 * scan's `--markdown` and `--markdown-rows`): the summary's size against its 64 KB limit and GitHub's 1 MiB limit of a
 * step summary, how many decision flips and invalid attestations it lists, and the size of every row as Markdown.
 * Figures, not assertions.
 *
 * @packageDocumentation
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isFlipOrInvalid } from "../../src/drift/verdict";
import { writeOutputs } from "../../src/cli/write-outputs";
import { syntheticReport } from "./synthetic-report";

/** GitHub's limit on a job's step summary (`$GITHUB_STEP_SUMMARY`): 1 MiB. */
export const GITHUB_STEP_SUMMARY_MAX_BYTES = 1024 * 1024;

/** Figures of one summary. */
export interface MarkdownSummaryFigures {
  readonly agents: number;
  /** The summary's size, bytes. */
  readonly summaryBytes: number;
  /** Its text. */
  readonly summary: string;
  /** Decision flips and invalid attestations in the report. */
  readonly problems: number;
  /** Of which the summary lists. */
  readonly listed: number;
  /** The size of every row as Markdown (`--markdown-rows`), bytes. */
  readonly rowsBytes: number;
  /** Time to write both from the rows, milliseconds. */
  readonly writeMs: number;
}

/**
 * Writes the summary and every row of a report of `size` rows, as `--markdown summary.md --markdown-rows rows.md`.
 *
 * @param size - Rows in the report.
 * @returns The figures.
 */
export async function measureMarkdownSummary(size: number): Promise<MarkdownSummaryFigures> {
  const report = syntheticReport(size, { refresh: true });
  const dir = mkdtempSync(join(tmpdir(), "trustgate-bench-markdown-"));
  const markdown = join(dir, "summary.md");
  const markdownRows = join(dir, "rows.md");
  try {
    const quiet = { write: () => true };
    const started = performance.now();
    await writeOutputs(report, {
      output: { markdown, markdownRows, tableRows: 0, wide: false, quiet: true, ci: true },
      stdout: quiet,
      stderr: quiet,
    });
    const writeMs = performance.now() - started;
    const summary = readFileSync(markdown, "utf8");
    const listed = summary.split("\n").filter((line) => /^\| [a-z-]+ \| (▲|▼| \|)/.test(line)).length;
    return {
      agents: size,
      summaryBytes: statSync(markdown).size,
      summary,
      problems: report.agents.filter(isFlipOrInvalid).length,
      listed,
      rowsBytes: statSync(markdownRows).size,
      writeMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
