/**
 * The progress bar of a scan, on stderr: stage, done/total, percent and, once enough progress was observed, the
 * time left at the rate observed (`ETA 3m 20s`), redrawn in place with `\r` at most about ten times a second, and
 * cleared at the end. Drawn only for a person at a terminal: not under CI,
 * not with `--json -` or `--quiet`, not when stderr is a pipe or a file; a no-op otherwise.
 *
 * @packageDocumentation
 */
import type { ScanProgress, ScanStage } from "../drift/progress.js";
import { formatDuration } from "./duration.js";
import type { CliStream } from "./io.js";

/** Receives scan progress. */
export interface ProgressBar {
  /** Records progress; redraws when the stage changed or enough time has passed. */
  update(progress: ScanProgress): void;
  /** Clears the bar (safe to call more than once); the next update draws it again. */
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
  /** How the time left is estimated (see {@link createEtaEstimator}). */
  readonly eta?: EtaOptions;
}

/** Options of {@link createEtaEstimator}. */
export interface EtaOptions {
  /** Only progress within this many milliseconds counts (default 60,000: the rate limiter's window). */
  readonly windowMs?: number;
  /** Fewest samples in the window before an estimate is given (default 5). */
  readonly minSamples?: number;
  /** Shortest span the samples must cover, ms (default 3,000). */
  readonly minSpanMs?: number;
  /** Shortest time between two samples, ms (default 250): faster progress is sampled, not recorded at each step. */
  readonly sampleIntervalMs?: number;
}

/** Estimates the time left in a stage from the progress observed. */
export interface EtaEstimator {
  /**
   * Records progress and estimates the time left.
   *
   * @param done - Steps done.
   * @param total - Steps in all.
   * @param at - Time, ms (the bar's clock).
   * @returns Seconds left at the rate observed over the window, or `undefined` while there are too few samples,
   *   nothing moved, or nothing is left.
   */
  sample(done: number, total: number, at: number): number | undefined;
}

/**
 * Creates an estimator of the time left: the rate is the progress observed over the last `windowMs` (not the
 * nominal rate of the limiter: the service, retries and verification are in it too), given once at least
 * `minSamples` samples span at least `minSpanMs`.
 *
 * @param options - Window, thresholds and sampling interval.
 * @returns The estimator, for one stage.
 */
export function createEtaEstimator(options: EtaOptions = {}): EtaEstimator {
  const windowMs = options.windowMs ?? 60_000;
  const minSamples = options.minSamples ?? 5;
  const minSpan = options.minSpanMs ?? 3_000;
  const interval = options.sampleIntervalMs ?? 250;
  const times: number[] = [];
  const dones: number[] = [];
  let head = 0;
  return {
    sample(done, total, at) {
      const last = times.length - 1;
      if (last < head || at - times[last]! >= interval) {
        times.push(at);
        dones.push(done);
      }
      while (times.length - head > 2 && times[head]! < at - windowMs) head++;
      if (head > 1024) {
        times.splice(0, head);
        dones.splice(0, head);
        head = 0;
      }
      const samples = times.length - head;
      const span = at - times[head]!;
      const moved = done - dones[head]!;
      if (samples < minSamples || span < minSpan || moved <= 0 || done >= total) return undefined;
      return ((total - done) * span) / moved / 1000;
    },
  };
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
 * The time left, as the bar shows it: `ETA 3m 20s`, `ETA <1s`.
 *
 * @param seconds - Seconds left.
 * @returns The text.
 */
export function formatEta(seconds: number): string {
  return `ETA ${seconds < 1 ? "<1s" : formatDuration(seconds)}`;
}

/**
 * One line of the bar, e.g. `fetching attestations [██████░░░░░░] 412/1000  41%  ETA 3m 20s`.
 *
 * @param progress - The progress.
 * @param barWidth - Width of the bar in characters.
 * @param etaSeconds - Time left, when known (see {@link createEtaEstimator}).
 * @returns The line.
 */
export function renderProgress(progress: ScanProgress, barWidth = 24, etaSeconds?: number): string {
  const ratio = progress.total > 0 ? Math.min(1, Math.max(0, progress.done / progress.total)) : 1;
  const filled = Math.round(ratio * barWidth);
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  const label = STAGE_LABELS[progress.stage] ?? progress.stage;
  const eta = etaSeconds === undefined ? "" : `  ${formatEta(etaSeconds)}`;
  return `${label} [${"█".repeat(filled)}${"░".repeat(barWidth - filled)}] ${progress.done}/${progress.total} ${percent}${eta}`;
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
  let estimator: EtaEstimator | undefined;
  let drawn = false;
  return {
    update(progress) {
      const time = clock();
      if (progress.stage !== lastStage) estimator = createEtaEstimator(options.eta);
      const eta = estimator!.sample(progress.done, progress.total, time);
      if (progress.stage === lastStage && time - lastDraw < minInterval) return;
      lastStage = progress.stage;
      lastDraw = time;
      drawn = true;
      options.stream.write(`\r${renderProgress(progress, options.barWidth, eta)}\x1b[K`);
    },
    finish() {
      if (!drawn) return;
      drawn = false;
      options.stream.write("\r\x1b[K");
    },
  };
}
