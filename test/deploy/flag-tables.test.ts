// The flag tables of docs/deployment.md against the option tables scripts/deploy.ts and scripts/keys.ts parse with:
// every flag a script takes is in its table, and the table names no flag the script does not take.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEPLOY_OPTIONS, KEYS_OPTIONS } from "../../scripts/lib/script-options.js";

const PAGE = readFileSync(join(process.cwd(), "docs", "deployment.md"), "utf8");

/** The flags named in the first column of the first `| flag | meaning |` table under a heading of the page. */
function documentedFlags(heading: string): string[] {
  const start = PAGE.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const next = PAGE.indexOf("\n## ", start + 1);
  const section = PAGE.slice(start, next < 0 ? undefined : next);
  const table = section.slice(section.indexOf("| flag | meaning |"));
  const rows = table.split("\n").slice(2);
  const flags: string[] = [];
  for (const row of rows) {
    if (!row.startsWith("|")) break;
    const firstCell = row.split(/(?<!\\)\|/)[1]!;
    for (const match of firstCell.matchAll(/`(-{1,2}[A-Za-z][\w-]*)/g)) flags.push(match[1]!);
  }
  return flags;
}

/** The flags a `parseArgs` option table accepts, long and short. */
function parserFlags(options: Readonly<Record<string, { readonly type: string; readonly short?: string }>>): string[] {
  return Object.entries(options).flatMap(([name, option]) => [`--${name}`, ...(option.short ? [`-${option.short}`] : [])]);
}

describe("docs/deployment.md flag tables", () => {
  test.each([
    ["npm run deploy", "## Usage", DEPLOY_OPTIONS],
    ["npm run keys", "## Signing keys (`npm run keys`)", KEYS_OPTIONS],
  ] as const)("%s: the table names exactly the flags the script parses", (_script, heading, options) => {
    const documented = documentedFlags(heading);
    expect(new Set(documented).size, `a flag is in two rows: ${documented.join(" ")}`).toBe(documented.length);
    expect([...documented].sort()).toEqual(parserFlags(options).sort());
  });

  test("a flag missing from the table, or one the script does not take, fails the comparison", () => {
    const documented = documentedFlags("## Signing keys (`npm run keys`)");
    expect(documented).toContain("--records");
    const { records: _records, ...withoutRecords } = KEYS_OPTIONS;
    expect([...documented].sort()).not.toEqual(parserFlags(withoutRecords).sort());
    expect([...documented, "--verbose"].sort()).not.toEqual(parserFlags(KEYS_OPTIONS).sort());
  });
});
