// The flag table of docs/refresh.md against the options `trustgate refresh` parses (REFRESH_OPTIONS): every flag the
// command takes is in the table, and the table names no flag the command does not take.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REFRESH_OPTIONS } from "../../src/cli/refresh-options.js";
import { documentedFlags as flagsOf, parserFlags } from "../support/doc-tables";

const PAGE = readFileSync(join(process.cwd(), "docs", "refresh.md"), "utf8");

/** The flags of the page's flag table. */
const documentedFlags = () => flagsOf(PAGE);

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
