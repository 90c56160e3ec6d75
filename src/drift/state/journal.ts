/**
 * The journal of the drift run in progress: lines appended to the state file as the run goes, each written at once,
 * after cutting off a last line a crash left cut short.
 *
 * @packageDocumentation
 */
import { closeSync, fsyncSync, openSync, truncateSync, writeSync } from "node:fs";

/** Appends lines to a state file as a run goes, each written to the file at once (synchronously). */
export class DriftStateJournal {
  #fd: number | undefined;

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /**
   * Opens a state file for appending, first cutting off anything after `validLength` (a last line cut short).
   *
   * @param path - The file.
   * @param validLength - Bytes to keep.
   * @returns The journal.
   */
  static open(path: string, validLength: number): DriftStateJournal {
    truncateSync(path, validLength);
    return new DriftStateJournal(openSync(path, "a"));
  }

  /** Whether lines are still written. */
  get open(): boolean {
    return this.#fd !== undefined;
  }

  /**
   * Appends a line (ignored once closed).
   *
   * @param line - The line, with its end of line.
   */
  append(line: string): void {
    if (this.#fd !== undefined) writeSync(this.#fd, line);
  }

  /** Flushes to disk and closes; later appends are ignored. */
  close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
