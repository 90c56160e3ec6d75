/**
 * The kit's version, read from its `package.json` (two levels up from this module, in `src/cli/` as in
 * `dist/cli/`).
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";

/**
 * The version in the kit's `package.json`.
 *
 * @returns For example `0.1.0`, or `unknown` when the file cannot be read.
 */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}
