/**
 * The `@example`s of a package entry's runtime names, read from the TSDoc of each name's declaration: the fenced
 * TypeScript blocks that follow an `@example` tag, up to the next tag. The comment is read as text (its ` * ` margin
 * removed) rather than through TypeScript's JSDoc parser, so that an `@` inside a code block is never taken for a tag.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { CHECKER_OPTIONS } from "../../scripts/generate/published-types";

/** The repository's root. */
const ROOT = resolve(__dirname, "../..");

/** One runtime name of an entry and the code of its `@example` blocks. */
export interface RuntimeNameExamples {
  /** The exported name. */
  readonly name: string;
  /** The source file that declares it, relative to the repository's root. */
  readonly file: string;
  /** The fenced TypeScript blocks of its `@example` tags, in order. */
  readonly examples: readonly string[];
}

/**
 * The `@example` blocks in a TSDoc comment's text.
 *
 * @param comment - The comment, `/**` to `*\/`.
 * @returns The code of each fenced `ts` block under an `@example` tag.
 */
export function examplesOfComment(comment: string): string[] {
  const lines = comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""));
  const examples: string[] = [];
  let inExample = false;
  let block: string[] | undefined;
  for (const line of lines) {
    if (block) {
      if (/^```\s*$/.test(line)) {
        if (inExample) examples.push(block.join("\n"));
        block = undefined;
      } else block.push(line);
      continue;
    }
    if (/^```(ts|typescript)\s*$/.test(line)) block = [];
    else if (/^@example\b/.test(line)) inExample = true;
    else if (/^@\w+/.test(line)) inExample = false;
  }
  return examples;
}

/**
 * The runtime names of an entry (the exports that are values: functions, classes, constants) with their examples.
 *
 * @param entryFile - The entry's source file, relative to the repository's root (`src/index.ts`).
 * @returns Each runtime name, sorted by name.
 */
export function runtimeNameExamples(entryFile: string): RuntimeNameExamples[] {
  const file = join(ROOT, entryFile);
  const program = ts.createProgram([file], { ...CHECKER_OPTIONS, types: ["node"] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!);
  if (!module) throw new Error(`${entryFile} is not a module`);
  const result: RuntimeNameExamples[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    // `export type { SomeClass }` names a class, but no value: a caller cannot use it at run time from this entry.
    if (exported.declarations?.some((declaration) => ts.isTypeOnlyImportOrExportDeclaration(declaration))) continue;
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(target.flags & ts.SymbolFlags.Value)) continue;
    const declarations = target.declarations ?? [];
    const examples = declarations.flatMap((declaration) =>
      ts.getJSDocCommentsAndTags(declaration).flatMap((doc) => (ts.isJSDoc(doc) ? examplesOfComment(doc.getText()) : [])),
    );
    const source = declarations[0]?.getSourceFile().fileName ?? file;
    result.push({ name: exported.getName(), file: source.slice(ROOT.length + 1), examples: [...new Set(examples)] });
  }
  return result.sort((a, b) => a.name.localeCompare(b.name));
}

/** One `@example` block found in a source file. */
export interface SourceExample {
  /** The file, relative to the repository's root. */
  readonly file: string;
  /** The block's code. */
  readonly code: string;
}

/**
 * Every `@example` block of every TSDoc comment under a folder (the generated files aside: their comments are the
 * generator's).
 *
 * @param dir - The folder, relative to the repository's root (`src`).
 * @returns The examples, by file.
 */
export function sourceExamples(dir = "src"): SourceExample[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(join(dir, "generated")))
    .sort()
    .flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/\/\*\*[\s\S]*?\*\//g)].flatMap((comment) =>
        examplesOfComment(comment[0]).map((code) => ({ file, code })),
      ),
    );
}
