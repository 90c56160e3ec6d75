/**
 * `npm run bench` writes docs/benchmarks.md (scripts/bench/page.ts): a run of some parts replaces their sections
 * and keeps the others, so that parts measured separately make one page; and the committed page has every part.
 * `npm run test:mutation` (the `mutation` part, run only when named) tallies Stryker's mutants per module
 * (scripts/bench/mutation.ts).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BENCH_PAGE_PATH,
  BENCH_PART_TITLES,
  BENCH_PARTS,
  markdownCode,
  markdownTable,
  mergeBenchPage,
  ON_DEMAND_BENCH_PARTS,
  pageSections,
  sectionMarkers,
  unmeasuredSection,
} from "../../scripts/bench/page";
import { MUTATED_MODULES, strykerOptions, tallyMutants } from "../../scripts/bench/mutation";

const HEADER = "<!-- Generated -->\n\n# Benchmarks";

describe("the benchmark page's sections", () => {
  it("a first run writes the header, its parts and a placeholder for every other part, in the parts' order", () => {
    const page = mergeBenchPage(HEADER, new Map([["limiter", "## Client rate limiter\n\nfigures L1"]]), undefined);
    expect(page.startsWith(`${HEADER}\n\n${sectionMarkers("gas").start}`)).toBe(true);
    expect(page.endsWith(`${sectionMarkers(BENCH_PARTS.at(-1)!).end}\n`)).toBe(true);
    const sections = pageSections(page);
    expect([...sections.keys()]).toEqual([...BENCH_PARTS]);
    expect(sections.get("limiter")).toBe("## Client rate limiter\n\nfigures L1");
    expect(sections.get("gas")).toBe(unmeasuredSection("gas"));
    const starts = BENCH_PARTS.map((part) => page.indexOf(sectionMarkers(part).start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("a later run of other parts keeps the sections it did not measure and replaces those it did", () => {
    const first = mergeBenchPage(
      "old header",
      new Map([
        ["gas", "gas G1"],
        ["limiter", "limiter L1"],
      ]),
      undefined,
    );
    const second = mergeBenchPage(
      HEADER,
      new Map([
        ["gas", "gas G2"],
        ["drift", "drift D2"],
      ]),
      first,
    );
    const sections = pageSections(second);
    expect(sections.get("gas")).toBe("gas G2");
    expect(sections.get("limiter")).toBe("limiter L1");
    expect(sections.get("drift")).toBe("drift D2");
    expect(sections.get("reader")).toBe(unmeasuredSection("reader"));
    expect(second).not.toContain("old header");
    expect(second).not.toContain("G1");
    // Merging again with nothing new changes nothing but the header.
    expect(mergeBenchPage(HEADER, new Map(), second)).toBe(second);
  });

  it("code spans are fenced by more backticks than the text holds in a row, padded when it starts or ends with one", () => {
    expect(markdownCode("a && b")).toBe("`a && b`");
    expect(markdownCode('"x"')).toBe('`"x"`');
    expect(markdownCode("``")).toBe("``` `` ```");
    expect(markdownCode("`${a}…`")).toBe("`` `${a}…` ``");
    expect(markdownCode("a ` b")).toBe("``a ` b``");
  });

  it("tables are Markdown with the first column left-aligned and the others right-aligned, pipes escaped", () => {
    expect(markdownTable(["gate", "gas"], [["a|b", 1000]]).split("\n")).toEqual(["| gate |  gas |", "| ---- | ---: |", "| a\\|b | 1000 |"]);
  });
});

describe("the mutation part", () => {
  const mutant = (fileName: string, status: string, line: number, replacement = "true") =>
    ({
      fileName,
      status,
      mutatorName: "ConditionalExpression",
      replacement,
      testsCompleted: status === "NoCoverage" ? undefined : line,
      location: { start: { line, column: 1 }, end: { line, column: 5 } },
    }) as Parameters<typeof tallyMutants>[1][number];

  it("tallies each module's mutants, scores detected (killed + timeout) over tested, and lists the undetected by module and line", () => {
    const run = tallyMutants(
      ["src/a.ts", "src/b.ts", "src/c.ts"],
      [
        mutant("/sandbox/src/b.ts", "Killed", 3),
        mutant("/sandbox/src/a.ts", "Survived", 9, "a\n  && b"),
        mutant("/sandbox/src/a.ts", "Killed", 1),
        mutant("/sandbox/src/a.ts", "Timeout", 2),
        mutant("/sandbox/src/a.ts", "NoCoverage", 4),
        mutant("/sandbox/src/a.ts", "CompileError", 5),
        mutant("/sandbox/src/a.ts", "Killed", 6),
        mutant("/sandbox/src/other.ts", "Survived", 1),
      ],
    );
    expect(run.modules).toEqual([
      { module: "src/a.ts", mutants: 5, killed: 2, survived: 1, timeout: 1, noCoverage: 1, errors: 1, score: 60 },
      { module: "src/b.ts", mutants: 1, killed: 1, survived: 0, timeout: 0, noCoverage: 0, errors: 0, score: 100 },
      { module: "src/c.ts", mutants: 0, killed: 0, survived: 0, timeout: 0, noCoverage: 0, errors: 0, score: undefined },
    ]);
    expect(run.undetected).toEqual([
      {
        module: "src/a.ts",
        line: 4,
        mutator: "ConditionalExpression",
        replacement: "true",
        status: "NoCoverage",
        testsCompleted: undefined,
      },
      { module: "src/a.ts", line: 9, mutator: "ConditionalExpression", replacement: "a && b", status: "Survived", testsCompleted: 9 },
    ]);
  });

  it("mutates the modules of the list, with the unit suites related to them, and runs only when named", () => {
    const options = strykerOptions(MUTATED_MODULES, 1);
    expect(options.mutate).toEqual([...MUTATED_MODULES]);
    expect(MUTATED_MODULES).toEqual(expect.arrayContaining(["src/attestation/strict-json.ts", "src/attestation/jws.ts"]));
    expect(options).toMatchObject({
      testRunner: "vitest",
      coverageAnalysis: "perTest",
      concurrency: 1,
      vitest: { configFile: "vitest.unit.config.mts", related: true },
    });
    expect(ON_DEMAND_BENCH_PARTS).toEqual(["mutation"]);
  });
});

describe(BENCH_PAGE_PATH, () => {
  const page = readFileSync(join(resolve(__dirname, "../.."), BENCH_PAGE_PATH), "utf8");

  it("is the generated page, with a section for every part, each saying which run printed its figures", () => {
    expect(page.split("\n")[0]).toMatch(/^<!-- Generated by `npm run bench`/);
    const sections = pageSections(page);
    for (const part of BENCH_PARTS) {
      const section = sections.get(part);
      expect(section, part).toBeDefined();
      expect(section!.startsWith(`## ${BENCH_PART_TITLES[part]}\n\n`), part).toBe(true);
      expect(section, part).not.toBe(unmeasuredSection(part));
      expect(section, part).toMatch(/scripts\/bench\.ts --only/);
    }
  });
});
