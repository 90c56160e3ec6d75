/**
 * A vitest reporter that ends a run with every test it skipped: its file and full name (which carries the reason
 * where a test skips itself, as the forge-backed tests do on a platform without forge) and the note it skipped with.
 * Listed beside the default reporter in vitest.config.mts, so that a run says what did not run and why. Under
 * `npm test` (scripts/test.ts), which names a file in `TRUSTGATE_SKIPPED_FILE`, the list goes to that file (JSON)
 * instead, and `npm test` prints it last, with forge's skips.
 */
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { SKIPPED_FILE_VARIABLE, skipSummary, type SkippedTest } from "../../scripts/lib/skip-summary";

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
 * Prints {@link skipSummary} when the run ends (or writes the list to the file {@link SKIPPED_FILE_VARIABLE} names);
 * under a name filter (`-t`), which skips every other test, only how many were skipped.
 */
export default class SkipSummaryReporter implements Reporter {
  private nameFilter: RegExp | undefined;

  onInit(vitest: Vitest): void {
    this.nameFilter = vitest.config.testNamePattern;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = skippedTests(testModules);
    const file = process.env[SKIPPED_FILE_VARIABLE];
    if (file && !this.nameFilter) {
      writeFileSync(file, JSON.stringify(skipped));
      console.log(`\nSkipped: ${skipped.length} (listed at the end of the run).`);
      return;
    }
    const lines = this.nameFilter
      ? [`Skipped: ${skipped.length} (the name filter ${String(this.nameFilter)} left them out).`]
      : skipSummary(skipped);
    console.log(`\n${lines.join("\n")}`);
  }
}
