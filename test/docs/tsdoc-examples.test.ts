/**
 * Every runtime name of the main entry (`trustgate`), of `trustgate/drift` and of `trustgate/refresh` carries a TSDoc `@example` (a fenced
 * `ts` block), written as a caller writes it: it imports the name from its package entry, and it type-checks against
 * the package (test/support/snippet-typecheck.ts). Every other `@example` in `src/` (the harness's among them) is held
 * to the same, except those of the functions no entry exports, listed with the reason. The examples are checked, not
 * run: they may name a real RPC or a deployed gate.
 */
import { describe, expect, it } from "vitest";
import { typeCheckSnippets } from "../support/snippet-typecheck";
import { examplesOfComment, runtimeNameExamples, sourceExamples } from "../support/tsdoc-examples";

const ENTRIES = {
  trustgate: "src/index.ts",
  "trustgate/drift": "src/drift/entry.ts",
  "trustgate/refresh": "src/refresh/entry.ts",
} as const;

/** Whether `code` imports `name` from the package specifier `entry` (`import { a, name } from "trustgate"`). */
function importsFrom(code: string, name: string, entry: string): boolean {
  const escaped = entry.replace(/[/]/g, "\\/");
  const pattern = new RegExp(`import\\s*(?:type\\s*)?\\{([^}]*)\\}\\s*from\\s*"${escaped}"`, "g");
  return [...code.matchAll(pattern)].some((match) => match[1]!.split(",").some((part) => part.trim() === name));
}

describe.each(Object.entries(ENTRIES))("the @examples of %s", (entry, file) => {
  const names = runtimeNameExamples(file);

  it("are found for the entry's runtime names", () => {
    expect(names.length).toBeGreaterThanOrEqual({ trustgate: 50, "trustgate/drift": 10, "trustgate/refresh": 2 }[entry]!);
  });

  it("exist on every runtime name, and one of them imports the name from the entry", () => {
    // (A name two entries export, such as `createTrustEncoding`, has an example for each.)
    const missing = names.filter((n) => n.examples.length === 0).map((n) => `${n.name} (${n.file}) has no @example`);
    const unimported = names
      .filter((n) => n.examples.length > 0 && !n.examples.some((code) => importsFrom(code, n.name, entry)))
      .map((n) => `${n.name}: no @example imports it from "${entry}"`);
    expect([...missing, ...unimported]).toEqual([]);
  });

  it("type-check against the package, as a caller's strict program", () => {
    const snippets = names.flatMap((n) => n.examples.map((code, i) => ({ name: `${n.name} @example ${i + 1} (${n.file})`, code })));
    expect(Object.fromEntries(typeCheckSnippets(snippets))).toEqual({});
  }, 120_000);
});

/** Files whose @example documents a function no package entry exports, so that it cannot import it as a caller does. */
const INTERNAL_EXAMPLES: Readonly<Record<string, string>> = {
  "src/api/rate-limiter.ts": "createRateLimiter, which no entry exports",
  "src/api/rate-limit-headers.ts": "parseRateLimitHeaders, which no entry exports",
};

describe("every @example in src/", () => {
  const examples = sourceExamples("src");

  it("imports what it shows from a package entry, as a caller does (or documents a function no entry exports)", () => {
    expect(examples.length).toBeGreaterThanOrEqual(70);
    const bare = examples.filter((e) => !/from "trustgate(\/[a-z]+)?"/.test(e.code) && !(e.file in INTERNAL_EXAMPLES));
    expect(bare.map((e) => `${e.file}: an @example imports nothing from the package`)).toEqual([]);
  });

  it("type-checks against the package when it imports from it", () => {
    const snippets = examples
      .filter((e) => !(e.file in INTERNAL_EXAMPLES))
      .map((e, i) => ({ name: `${e.file} @example ${i + 1}`, code: e.code }));
    expect(Object.fromEntries(typeCheckSnippets(snippets))).toEqual({});
  }, 120_000);
});

describe("reading @example blocks", () => {
  it("takes the ts blocks under @example only, an @ inside a block included", () => {
    const comment = [
      "/**",
      " * Does a thing.",
      " *",
      " * ```ts",
      " * notAnExample();",
      " * ```",
      " *",
      " * @param x - A value.",
      " * @example",
      " * ```ts",
      ' * import { a } from "trustgate";',
      ' * const scope = "@scope/name";',
      " * ```",
      " * @returns Nothing.",
      " */",
    ].join("\n");
    expect(examplesOfComment(comment)).toEqual(['import { a } from "trustgate";\nconst scope = "@scope/name";']);
  });

  it("counts an import of the name from the entry, not from another entry or a type-only mention elsewhere", () => {
    expect(importsFrom('import { runDrift, type DriftConfig } from "trustgate/drift";', "runDrift", "trustgate/drift")).toBe(true);
    expect(importsFrom('import { runDrift } from "trustgate";', "runDrift", "trustgate/drift")).toBe(false);
    expect(importsFrom('import { runDriftX } from "trustgate/drift";', "runDrift", "trustgate/drift")).toBe(false);
  });
});
