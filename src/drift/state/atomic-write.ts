/**
 * Writes a whole drift state file so that it is always either the old state or the new one: into a temporary file
 * next to it, flushed to disk, then renamed over it.
 *
 * @packageDocumentation
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";

/**
 * Writes a whole state file atomically: into a temporary file next to it, flushed to disk, then renamed over it.
 *
 * @param path - The file.
 * @param lines - Its lines, each with its end of line.
 */
export function writeDriftStateAtomically(path: string, lines: Iterable<string>): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    let chunk = "";
    for (const line of lines) {
      chunk += line;
      if (chunk.length >= 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    if (chunk) writeSync(fd, chunk);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // nothing left to clean up
    }
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
}
