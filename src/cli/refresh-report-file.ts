/**
 * Reading the refresh report of `trustgate drift --html page.html --refresh-report refresh.json` before the scan: a
 * file that cannot be read, or that is not a refresh report (`readNightRefreshes`), is a usage error (exit 2) naming the
 * file and the field, so that a wrong path never costs a night's scan.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { InvalidArgumentError, messageOf } from "../errors.js";
import { type NightRefreshes, readNightRefreshes } from "../refresh/night-refreshes.js";

/**
 * Reads and checks a refresh report.
 *
 * @param file - The path given to `--refresh-report`.
 * @param readFile - Reads it as UTF-8 text (default `fs.readFileSync`).
 * @returns The night's refreshes.
 * @throws {@link InvalidArgumentError} when the file cannot be read or is not a refresh report.
 */
export function readRefreshReportFile(
  file: string,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): NightRefreshes {
  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    throw new InvalidArgumentError(`--refresh-report ${file}: cannot read the refresh report (${messageOf(error)})`);
  }
  return readNightRefreshes(text, `--refresh-report ${file}`);
}
