/**
 * Mutation testing of the readers of signed data (`npm run test:mutation`, the benchmark's `mutation` part): StrykerJS
 * mutates each module of {@link MUTATED_MODULES} one change at a time and runs, for each mutant, the tests that reach
 * it — the unit suites (`vitest.unit.config.mts`) related to the module (the files that import it, directly or
 * not), narrowed to the tests that executed the mutated code (per-test coverage). A mutant no test fails on
 * survives: a reader could be broken that way and the suite would not notice.
 *
 * Figures, not assertions: the scores stand beside their target on the benchmark page, with every survivor listed
 * (file:line, mutator, replacement) for review. Stryker's sandbox (`.stryker-tmp/`) and its HTML and JSON reports
 * (`reports/mutation/`) stay out of git and of the linters.
 *
 * @packageDocumentation
 */
import type { MutantResult, PartialStrykerOptions } from "@stryker-mutator/api/core";

/**
 * The modules mutated, relative to the repository's root: the readers whose reading of signed bytes both verifiers
 * must share. Add a module here to have it mutated, scored and listed.
 */
export const MUTATED_MODULES: readonly string[] = ["src/attestation/time.ts", "src/attestation/strict-json.ts", "src/attestation/jws.ts"];

/** The least mutation score each module is held to, in percent. */
export const MUTATION_SCORE_TARGET = 90;

/** Where Stryker writes its HTML report (every mutant, killed or not, with the tests that ran it). */
export const MUTATION_REPORT_PATH = "reports/mutation/index.html";

/** The same report as JSON (mutation-testing-report-schema), for tools. */
export const MUTATION_JSON_REPORT_PATH = "reports/mutation/mutation.json";

/** The tally of one module's mutants. */
export interface ModuleMutationScore {
  /** The module, relative to the repository's root. */
  readonly module: string;
  /** Mutants tested: killed + survived + timeout + no coverage (a mutant that did not compile or load is not counted). */
  readonly mutants: number;
  /** A test failed on the mutant. */
  readonly killed: number;
  /** Every test that reached the mutant passed. */
  readonly survived: number;
  /** The tests did not end (an endless loop): counted as detected. */
  readonly timeout: number;
  /** No test reached the mutated code. */
  readonly noCoverage: number;
  /** Mutants Stryker could not run (a compile or runtime error): not scored. */
  readonly errors: number;
  /** (killed + timeout) ÷ mutants, in percent; `undefined` when there are none. */
  readonly score: number | undefined;
}

/** A mutant no test detected. */
export interface UndetectedMutant {
  /** The module, relative to the repository's root. */
  readonly module: string;
  /** The mutated line, from 1. */
  readonly line: number;
  /** The mutator (`ConditionalExpression`, `StringLiteral`, …). */
  readonly mutator: string;
  /** The code that replaced the original, on one line. */
  readonly replacement: string;
  /** `Survived` or `NoCoverage`. */
  readonly status: "Survived" | "NoCoverage";
  /**
   * Tests that ran to their end with the mutant active. 0 for a survivor means none did: the mutant broke the
   * module's loading (a static mutant, e.g. an encoding label emptied), which the vitest runner does not count as
   * a failed test, so Stryker reports it survived.
   */
  readonly testsCompleted: number | undefined;
}

/** What one run of {@link measureMutation} found. */
export interface MutationRun {
  /** One row per module, in {@link MUTATED_MODULES} order. */
  readonly modules: readonly ModuleMutationScore[];
  /** The undetected mutants, by module, then line. */
  readonly undetected: readonly UndetectedMutant[];
}

/** Options of {@link measureMutation}. */
export interface MutationOptions {
  /** The modules to mutate (default {@link MUTATED_MODULES}). */
  readonly modules?: readonly string[];
  /** Test runners working at once (default 2: each runs one vitest thread). */
  readonly concurrency?: number;
}

/**
 * The Stryker options of a run: the vitest runner over the unit suites related to the mutated files, per-test
 * coverage, the progress bar on the terminal and the HTML and JSON reports on disk.
 *
 * @param modules - The modules to mutate.
 * @param concurrency - Test runners working at once.
 * @returns The options.
 */
export function strykerOptions(modules: readonly string[], concurrency: number): PartialStrykerOptions {
  return {
    mutate: [...modules],
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile: "vitest.unit.config.mts", related: true },
    coverageAnalysis: "perTest",
    concurrency,
    reporters: ["progress", "html", "json"],
    htmlReporter: { fileName: MUTATION_REPORT_PATH },
    jsonReporter: { fileName: MUTATION_JSON_REPORT_PATH },
    tempDirName: ".stryker-tmp",
    cleanTempDir: true,
    // The sandbox needs the sources, the unit suites and their configuration, not the contracts' build outputs.
    ignorePatterns: ["artifacts", "cache", "typechain-types", "coverage", "dist", ".dist-next*", "deployments", "tools", "reports"],
  };
}

/**
 * Runs Stryker over the modules and tallies each one.
 *
 * @param options - The modules and the concurrency.
 * @returns The score of each module and the undetected mutants.
 */
export async function measureMutation(options: MutationOptions = {}): Promise<MutationRun> {
  const modules = options.modules ?? MUTATED_MODULES;
  // Stryker is ES modules only, and one of its dependencies offers no `require` entry: imported, not required.
  const { Stryker } = await import("@stryker-mutator/core");
  const results = await new Stryker(strykerOptions(modules, options.concurrency ?? 2)).runMutationTest();
  return tallyMutants(modules, results);
}

/**
 * Each module's tally and the undetected mutants, from Stryker's results.
 *
 * @param modules - The modules mutated, relative to the repository's root.
 * @param results - Stryker's result for every mutant (file names absolute or relative).
 * @returns The tallies, in the modules' order, and the undetected mutants, by module then line.
 */
export function tallyMutants(
  modules: readonly string[],
  results: ReadonlyArray<Pick<MutantResult, "fileName" | "status" | "mutatorName" | "replacement" | "location" | "testsCompleted">>,
): MutationRun {
  const moduleOf = (fileName: string) => modules.find((module) => fileName.replaceAll("\\", "/").endsWith(module));
  const scores = modules.map((module) => {
    const of = results.filter((result) => moduleOf(result.fileName) === module);
    const count = (status: MutantResult["status"]) => of.filter((result) => result.status === status).length;
    const killed = count("Killed");
    const survived = count("Survived");
    const timeout = count("Timeout");
    const noCoverage = count("NoCoverage");
    const mutants = killed + survived + timeout + noCoverage;
    return {
      module,
      mutants,
      killed,
      survived,
      timeout,
      noCoverage,
      errors: count("CompileError") + count("RuntimeError"),
      score: mutants === 0 ? undefined : ((killed + timeout) / mutants) * 100,
    };
  });
  const undetected: UndetectedMutant[] = [];
  for (const result of results) {
    const module = moduleOf(result.fileName);
    if (module === undefined || (result.status !== "Survived" && result.status !== "NoCoverage")) continue;
    undetected.push({
      module,
      line: result.location.start.line,
      mutator: result.mutatorName,
      replacement: (result.replacement ?? "").replace(/\s+/g, " ").trim(),
      status: result.status,
      testsCompleted: result.testsCompleted,
    });
  }
  undetected.sort((a, b) => modules.indexOf(a.module) - modules.indexOf(b.module) || a.line - b.line);
  return { modules: scores, undetected };
}
