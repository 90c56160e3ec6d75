/**
 * The summary of skipped tests that ends `npm test` (and a vitest run on its own): what did not run and why, one line
 * per test, from vitest's results (`test/support/skip-summary-reporter.ts`) and from forge's output (`[SKIP: reason]`
 * lines, or the whole suite when `npm run test:forge` skipped it).
 *
 * @packageDocumentation
 */

/** The variable that names the file vitest's skip-summary reporter writes its skipped tests to, instead of printing them. */
export const SKIPPED_FILE_VARIABLE = "TRUSTGATE_SKIPPED_FILE";

/** A skipped test, as the summary names it. */
export interface SkippedTest {
  /** Its file, relative to the repository's root. */
  readonly file: string;
  /** Its name with those of the suites (or the contract) around it. */
  readonly name: string;
  /** `skip` or `todo`. */
  readonly mode: string;
  /** The reason it was skipped with, when given apart from its name (vitest's `ctx.skip(note)`, forge's `[SKIP: reason]`). */
  readonly note: string | undefined;
}

/**
 * The summary's lines.
 *
 * @param skipped - The skipped tests.
 * @returns A count line, then one line per test.
 */
export function skipSummary(skipped: readonly SkippedTest[]): string[] {
  if (skipped.length === 0) return ["Skipped: none."];
  return [
    `Skipped: ${skipped.length} test${skipped.length === 1 ? "" : "s"} (the reason is in each name, or after it):`,
    ...skipped.map((t) => `  ${t.mode === "todo" ? "todo" : "skip"}  ${t.file} > ${t.name}${t.note ? ` (${t.note})` : ""}`),
  ];
}

/** What `npm run test:forge` prints when it does not run the suite (scripts/test-forge.ts). */
export const FORGE_SUITE_SKIPPED = "test:forge skipped: ";

/** The folder of the forge suite, which names it in the summary when the whole suite was skipped. */
const FORGE_SUITE = "test/foundry";

/**
 * The skipped tests in the output of `npm run test:forge`: each `[SKIP]` or `[SKIP: reason]` line of forge's report,
 * under the `Ran … for <file>:<contract>` line of its suite, or the whole suite when the script skipped it.
 *
 * @param output - What the script printed (stdout).
 * @returns One entry per skipped test, in the order printed.
 */
export function forgeSkippedTests(output: string): SkippedTest[] {
  const skipped: SkippedTest[] = [];
  let file = FORGE_SUITE;
  let contract: string | undefined;
  for (const line of output.split(/\r?\n/)) {
    const suite = /^Ran \d+ tests? for (.+):(\w+)\s*$/.exec(line);
    if (suite) {
      file = suite[1]!;
      contract = suite[2]!;
      continue;
    }
    const skip = /^\[SKIP(?::\s*(.*))?\]\s+(\S.*?)(?:\s+\((?:gas|runs|calls): .*\))?\s*$/.exec(line);
    if (skip) {
      const reason = skip[1]?.replace(/^skipped:\s*/, "").trim();
      skipped.push({ file, name: contract ? `${contract} > ${skip[2]!}` : skip[2]!, mode: "skip", note: reason || undefined });
      continue;
    }
    if (line.startsWith(FORGE_SUITE_SKIPPED)) {
      skipped.push({ file: FORGE_SUITE, name: "the forge suite", mode: "skip", note: line.slice(FORGE_SUITE_SKIPPED.length).trim() });
    }
  }
  return skipped;
}
