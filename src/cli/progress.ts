/**
 * The progress bar of a scan, on stderr: stage, done/total and percent, redrawn in place with `\r` at most
 * about ten times a second, and cleared at the end. Drawn only for a person at a terminal: not under CI,
 * not with `--json -` or `--quiet`, not when stderr is a pipe or a file; a no-op otherwise.
 *
 * @packageDocumentation
 */
import type { ScanProgress, ScanStage } from "../drift/index.js";
import type { CliStream } from "./io.js";

/** Receives scan progress. */
export interface ProgressBar {
  /** Records progress; redraws when the stage changed or enough time has passed. */
  update(progress: ScanProgress): void;
  /** Clears the bar (safe to call more than once). */
  finish(): void;
}

/** When a bar is wanted. */
export interface ProgressConditions {
  /** stderr is a terminal. */
  readonly isTTY: boolean;
  /** `CI` is set. */
  readonly ci: boolean;
  /** The JSON report goes to stdout (`--json -`). */
  readonly jsonToStdout: boolean;
  /** `--quiet`. */
  readonly quiet: boolean;
}

/** Options of {@link createProgressBar}. */
export interface ProgressBarOptions {
  /** Where to draw (stderr). */
  readonly stream: CliStream;
  /** False for a bar that draws nothing. */
  readonly enabled: boolean;
  /** Milliseconds clock (default `performance.now`). */
  readonly clock?: () => number;
  /** Shortest time between two redraws of the same stage, ms (default 100). */
  readonly minIntervalMs?: number;
  /** Width of the bar itself, in characters (default 24). */
  readonly barWidth?: number;
}

const STAGE_LABELS: Record<ScanStage, string> = {
  onchain: "reading the oracle",
  listing: "listing agents",
  attestations: "fetching attestations",
};

/**
 * Whether a progress bar should be drawn.
 *
 * @param conditions - Terminal, CI, JSON on stdout, quiet.
 * @returns True only for a terminal, outside CI, without `--json -` or `--quiet`.
 */
export function shouldShowProgress(conditions: ProgressConditions): boolean {
  return conditions.isTTY && !conditions.ci && !conditions.jsonToStdout && !conditions.quiet;
}

/**
 * One line of the bar, e.g. `fetching attestations [██████░░░░░░] 412/1000  41%`.
 *
 * @param progress - The progress.
 * @param barWidth - Width of the bar in characters.
 * @returns The line.
 */
export function renderProgress(progress: ScanProgress, barWidth = 24): string {
  const ratio = progress.total > 0 ? Math.min(1, Math.max(0, progress.done / progress.total)) : 1;
  const filled = Math.round(ratio * barWidth);
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  const label = STAGE_LABELS[progress.stage] ?? progress.stage;
  return `${label} [${"█".repeat(filled)}${"░".repeat(barWidth - filled)}] ${progress.done}/${progress.total} ${percent}`;
}

/**
 * Creates a progress bar.
 *
 * @param options - Stream, whether enabled, clock and sizes.
 * @returns The bar; when disabled, it never writes.
 */
export function createProgressBar(options: ProgressBarOptions): ProgressBar {
  if (!options.enabled) return { update() {}, finish() {} };
  const clock = options.clock ?? (() => performance.now());
  const minInterval = options.minIntervalMs ?? 100;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastStage: ScanStage | undefined;
  let drawn = false;
  return {
    update(progress) {
      const time = clock();
      if (progress.stage === lastStage && time - lastDraw < minInterval) return;
      lastStage = progress.stage;
      lastDraw = time;
      drawn = true;
      options.stream.write(`\r${renderProgress(progress, options.barWidth)}\x1b[K`);
    },
    finish() {
      if (!drawn) return;
      drawn = false;
      options.stream.write("\r\x1b[K");
    },
  };
}
