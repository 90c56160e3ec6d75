// The flag table of docs/refresh.md against the options `trustgate refresh` parses (REFRESH_OPTIONS): every flag the
// command takes is in the table, and the table names no flag the command does not take.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REFRESH_OPTIONS } from "../../src/cli/refresh-options.js";

const PAGE = readFileSync(join(process.cwd(), "docs", "refresh.md"), "utf8");

/** The flags named in the first column of the `| flag | meaning |` table under "## Flags". */
function documentedFlags(): string[] {
  const start = PAGE.indexOf("\n## Flags\n");
  expect(start).toBeGreaterThan(0);
  const section = PAGE.slice(start, PAGE.indexOf("\n## ", start + 1));
  const rows = section.slice(section.indexOf("| flag | meaning |")).split("\n").slice(2);
  const flags: string[] = [];
  for (const row of rows) {
    if (!row.startsWith("|")) break;
    for (const match of row.split(/(?<!\\)\|/)[1]!.matchAll(/`(-{1,2}[A-Za-z][\w-]*)/g)) flags.push(match[1]!);
  }
  return flags;
}

/** The flags of an option table, long and short. */
function parserFlags(options: readonly { readonly name: string; readonly short?: string }[]): string[] {
  return options.flatMap((option) => [`--${option.name}`, ...(option.short ? [`-${option.short}`] : [])]);
}

describe("docs/refresh.md: the flag table", () => {
  test("names exactly the flags trustgate refresh parses, each once", () => {
    const documented = documentedFlags();
    expect(new Set(documented).size, `a flag is in two rows: ${documented.join(" ")}`).toBe(documented.length);
    expect([...documented].sort()).toEqual(parserFlags(REFRESH_OPTIONS).sort());
  });

  test("a flag missing from the table, or one the command does not take, fails the comparison", () => {
    const documented = documentedFlags();
    expect(documented).toContain("--journal");
    const withoutJournal = REFRESH_OPTIONS.filter((option) => option.name !== "journal");
    expect([...documented].sort()).not.toEqual(parserFlags(withoutJournal).sort());
    expect([...documented, "--verbose"].sort()).not.toEqual(parserFlags(REFRESH_OPTIONS).sort());
  });
});
