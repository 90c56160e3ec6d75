/**
 * The manual names every runtime export of every package entry: each function, class and constant that an entry of
 * package.json's "exports" makes public appears in the code of README.md or docs/*.md (a code block or an inline
 * code span), so that a caller can find it without reading the source. The generated reference (docs/reference/)
 * and the benchmarks page do not count: they are written by programs, not for this.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { packageEntrySources } from "../support/snippet-typecheck";
import { runtimeNameExamples } from "../support/tsdoc-examples";

const ROOT = resolve(__dirname, "../..");

/** The manual: the front page and docs/*.md, without the page `npm run bench` writes. */
const MANUAL = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((file) => file.endsWith(".md") && file !== "benchmarks.md")
    .map((file) => `docs/${file}`),
];

/** The code of a Markdown text: its fenced blocks and inline code spans. */
function codeOf(markdown: string): string {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```|`([^`\n]+)`/gm)].map((match) => match[1] ?? match[2]).join("\n");
}

/** Whether `name` appears in `code` as a whole identifier. */
function names(code: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(code);
}

describe("the manual", () => {
  const code = MANUAL.map((file) => codeOf(readFileSync(join(ROOT, file), "utf8"))).join("\n");
  const entries = [...packageEntrySources()];

  it("is found, and every entry of package.json's exports is read", () => {
    expect(MANUAL).toEqual(expect.arrayContaining(["README.md", "docs/sdk.md", "docs/drift.md"]));
    expect(entries.map(([specifier]) => specifier)).toEqual(expect.arrayContaining(["trustgate", "trustgate/drift", "trustgate/harness"]));
  });

  it.each(entries)(
    "names every runtime export of %s",
    (_specifier, file) => {
      const runtime = runtimeNameExamples(relative(ROOT, file)).map((entry) => entry.name);
      expect(runtime.length).toBeGreaterThan(0);
      expect(runtime.filter((name) => !names(code, name))).toEqual([]);
    },
    60_000,
  );

  it("counts a name in code only, as a whole identifier", () => {
    const sample = codeOf("Call `readTrustRecord(client, key)`; readGatePolicy in prose.\n\n```ts\nconst x = tierForScore(60);\n```\n");
    expect(names(sample, "readTrustRecord")).toBe(true);
    expect(names(sample, "tierForScore")).toBe(true);
    expect(names(sample, "readGatePolicy")).toBe(false);
    expect(names(sample, "readTrustRecords")).toBe(false);
  });
});
