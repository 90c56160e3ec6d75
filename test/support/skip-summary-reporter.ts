/**
 * A vitest reporter that ends a run with every test it skipped: its file and full name (which carries the reason
 * where a test skips itself, as the forge-backed tests do on a platform without forge) and the note it skipped with.
 * Listed beside the default reporter in vitest.config.mts, so that `npm test` says what did not run and why.
 */
import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/** A skipped test, as the summary names it. */
export interface SkippedTest {
  /** Its file, relative to the working directory. */
  readonly file: string;
  /** Its name with those of the suites around it. */
  readonly name: string;
  /** `skip` or `todo`. */
  readonly mode: string;
  /** The note of `ctx.skip(note)`, if any. */
  readonly note: string | undefined;
}

/**
 * The skipped tests of a run's modules.
 *
 * @param modules - The run's test modules.
 * @param cwd - The directory the files are named from.
 * @returns One entry per skipped test, in run order.
 */
export function skippedTests(modules: ReadonlyArray<TestModule>, cwd = process.cwd()): SkippedTest[] {
  const skipped: SkippedTest[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state !== "skipped") continue;
      skipped.push({ file: relative(cwd, module.moduleId), name: test.fullName, mode: test.options.mode, note: result.note });
    }
  }
  return skipped;
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

/**
 * Prints {@link skipSummary} when the run ends; under a name filter (`-t`), which skips every other test, only how
 * many were skipped.
 */
export default class SkipSummaryReporter implements Reporter {
  private nameFilter: RegExp | undefined;

  onInit(vitest: Vitest): void {
    this.nameFilter = vitest.config.testNamePattern;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = skippedTests(testModules);
    const lines = this.nameFilter
      ? [`Skipped: ${skipped.length} (the name filter ${String(this.nameFilter)} left them out).`]
      : skipSummary(skipped);
    console.log(`\n${lines.join("\n")}`);
  }
}
