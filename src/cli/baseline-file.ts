/**
 * Reading the baseline file of `trustgate drift --accept <file>` before the scan: a file that cannot be read, or whose
 * content the format refuses (`parseBaseline`), is a usage error (exit 2) naming the file, the line and the member,
 * so that a typo never costs a night's scan.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { type DriftBaseline, parseBaseline } from "../drift/baseline.js";
import { InvalidArgumentError, messageOf } from "../errors.js";

/**
 * Reads and checks a baseline file.
 *
 * @param file - The path given to `--accept`.
 * @param readFile - Reads it as UTF-8 text (default `fs.readFileSync`).
 * @returns The baseline.
 * @throws {@link InvalidArgumentError} when the file cannot be read, or for the first line the format refuses.
 */
export function readBaselineFile(file: string, readFile: (path: string) => string = (path) => readFileSync(path, "utf8")): DriftBaseline {
  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    throw new InvalidArgumentError(`--accept ${file}: cannot read the baseline (${messageOf(error)})`);
  }
  return parseBaseline(text, file);
}
