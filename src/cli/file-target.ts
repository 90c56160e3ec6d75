/**
 * The check a file named on the command line gets before a run writes it (`--json`, `--markdown`, `--markdown-rows`, `--html`,
 * `--state`): its directory exists, it is not a directory, the file system accepts its name, and a file can really be
 * written there: one is created beside it and removed at once (which also proves the spool of rows, written next to
 * the first report file, and the state file's temporary copy, renamed over it, can be made), and an existing file is
 * writable. A drift scan can take long; a path that cannot be written must be a usage error before the first request,
 * not an unexpected error after the scan.
 *
 * @packageDocumentation
 */
import type { Stats } from "node:fs";
import { constants } from "node:fs";
import { access, open, stat, unlink } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { InvalidArgumentError } from "../errors.js";

/** Why a path cannot be written, by the file system's error code. */
const UNUSABLE_PATH: Readonly<Record<string, string>> = {
  ENAMETOOLONG: "the name is too long for the file system",
  ENOTDIR: "a part of the path is a file, not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ELOOP: "too many symbolic links",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exhausted",
  ENOENT: "the directory does not accept new files",
};

/**
 * Checks that a file the run will write can be written at `path`: its directory exists, the path is not a directory,
 * the file system accepts the name, a new file can be created (and is removed) in its directory, and an existing file
 * at `path` is writable.
 *
 * @param flag - The option that named the file, for the message (e.g. `--html`).
 * @param path - The path as given.
 * @throws {@link InvalidArgumentError} naming the option, the path and the problem.
 */
export async function checkFileTarget(flag: string, path: string): Promise<void> {
  const directory = dirname(resolve(path));
  const dirStat = await statUnlessMissing(flag, path, directory);
  if (!dirStat?.isDirectory()) throw new InvalidArgumentError(`${flag} ${path}: directory "${directory}" does not exist`);
  const fileStat = await statUnlessMissing(flag, path, path);
  if (fileStat?.isDirectory()) throw new InvalidArgumentError(`${flag} ${path}: is a directory`);
  await probeDirectory(flag, path, directory);
  if (fileStat) {
    await access(path, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
      throw unusable(flag, path, error, "the file exists and is not writable");
    });
  }
}

/** Creates a file beside `path` and removes it: the run's own files (spool, temporary copies) go there too. */
async function probeDirectory(flag: string, path: string, directory: string): Promise<void> {
  const probe = join(directory, `.trustgate-write-check-${process.pid}-${randomBytes(4).toString("hex")}`);
  let handle;
  try {
    handle = await open(probe, "wx");
  } catch (error) {
    throw unusable(flag, path, error as NodeJS.ErrnoException, `no file can be created in "${directory}"`);
  }
  await handle.close();
  await unlink(probe).catch(() => undefined);
}

/** The usage error for a path the file system refused, naming the option, the path and why. */
function unusable(flag: string, path: string, error: NodeJS.ErrnoException, what?: string): InvalidArgumentError {
  const code = error.code ?? "";
  const why = UNUSABLE_PATH[code] ?? (code || "the file system refused it");
  return new InvalidArgumentError(`${flag} ${path}: cannot be written there: ${what ? `${what} (${why})` : why}`);
}

/**
 * The file system's entry at `target` (the path or its directory), or `undefined` when there is none; any other
 * failure to look is a usage error naming the option, since the file could not be written there either.
 */
async function statUnlessMissing(flag: string, path: string, target: string): Promise<Stats | undefined> {
  try {
    return await stat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw unusable(flag, path, error as NodeJS.ErrnoException);
  }
}
