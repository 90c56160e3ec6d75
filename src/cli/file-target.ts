/**
 * The check a file named on the command line gets before a run writes it (`--json`, `--markdown`, `--markdown-rows`, `--html`,
 * `--state`): its directory exists, it is not a directory, and the file system accepts its name. A drift scan can
 * take long; a path that cannot be written must be a usage error before it, not an unexpected error after it.
 *
 * @packageDocumentation
 */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InvalidArgumentError } from "../errors.js";

/** Why a path cannot be written, by the file system's error code. */
const UNUSABLE_PATH: Readonly<Record<string, string>> = {
  ENAMETOOLONG: "the name is too long for the file system",
  ENOTDIR: "a part of the path is a file, not a directory",
  EACCES: "permission denied",
  ELOOP: "too many symbolic links",
};

/**
 * Checks that a file the run will write can be written at `path`: its directory exists, the path is not a directory,
 * and the file system accepts the name (not too long, not below a file, permitted).
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
}

/**
 * The file system's entry at `target` (the path or its directory), or `undefined` when there is none; any other
 * failure to look is a usage error naming the option, since the file could not be written there either.
 */
async function statUnlessMissing(flag: string, path: string, target: string): Promise<Stats | undefined> {
  try {
    return await stat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "ENOENT") return undefined;
    throw new InvalidArgumentError(
      `${flag} ${path}: cannot be written there: ${UNUSABLE_PATH[code] ?? (code || "the file system refused it")}`,
    );
  }
}
