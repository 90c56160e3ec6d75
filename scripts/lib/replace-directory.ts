/**
 * Puts a freshly built directory in the place of the one in use by renames only, so that a reader of the old one (a
 * project depending on the kit by path, mid-build) never sees it half written: it sees the old tree whole, then the
 * new one whole. Between the two renames, a few microseconds, the path is absent.
 *
 * @packageDocumentation
 */
import { existsSync, renameSync, rmSync } from "node:fs";

/**
 * Replaces `target` with `next` (both in the same folder, so that each step is one rename), then removes the old
 * tree.
 *
 * @param next - The complete new directory.
 * @param target - The directory in use; need not exist.
 */
export function replaceDirectory(next: string, target: string): void {
  const previous = `${next}-previous`;
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(target)) renameSync(target, previous);
  renameSync(next, target);
  rmSync(previous, { recursive: true, force: true });
}
