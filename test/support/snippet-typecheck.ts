/**
 * Type-checks snippets of TypeScript (the documents' code blocks, the `@example`s of the sources) the way a caller's
 * program is checked: each snippet is a module of its own, its `trustgate…` imports resolved to the package entries
 * named by package.json's "exports" (their sources, which the declarations are emitted from), strict mode, the Node
 * types. All snippets are checked in one TypeScript program, so that the sources are read once.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

/** The repository's root. */
const ROOT = resolve(__dirname, "../..");

/** A snippet to check: a name for the messages and its code. */
export interface Snippet {
  /** Where the snippet comes from (`docs/sdk.md:42`, `readTrustRecord @example`). */
  readonly name: string;
  /** The snippet's TypeScript. */
  readonly code: string;
}

/**
 * Each package specifier (`trustgate`, `trustgate/drift`, …) and the source file of its entry, read from package.json's
 * "exports" (`./dist/x.js` is built from `src/x.ts`).
 *
 * @returns The specifiers and their source files.
 */
export function packageEntrySources(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, { import?: string } | string>;
  };
  const map = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const file = typeof target === "string" ? target : target.import;
    if (!file?.startsWith("./dist/") || !file.endsWith(".js")) continue;
    map.set(
      subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      join(ROOT, "src", file.slice("./dist/".length).replace(/\.js$/, ".ts")),
    );
  }
  return map;
}

/** The options a caller's strict ES-module program would use; top-level await is allowed. */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2023.d.ts"],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules/@types")],
};

/**
 * Type-checks the snippets.
 *
 * @param snippets - The snippets; each is checked as a module (an `export {}` is added to one without imports).
 * @returns For each snippet with an error, its name and the errors (`line:column message`, lines of the snippet).
 */
export function typeCheckSnippets(snippets: readonly Snippet[]): Map<string, string[]> {
  const entries = packageEntrySources();
  const dir = join(ROOT, ".snippets");
  const files = new Map<string, string>();
  snippets.forEach((snippet, i) => {
    const module = /^\s*(import|export)\s/m.test(snippet.code) ? snippet.code : `${snippet.code}\nexport {};\n`;
    files.set(join(dir, `snippet-${i}.ts`), module);
  });
  const options: ts.CompilerOptions = {
    ...OPTIONS,
    paths: Object.fromEntries([...entries].map(([specifier, file]) => [specifier, [file]])),
    pathsBasePath: ROOT,
  } as ts.CompilerOptions;
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, shouldCreate) => {
    const text = files.get(name);
    return text === undefined ? getSourceFile(name, language, onError, shouldCreate) : ts.createSourceFile(name, text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);

  const program = ts.createProgram([...files.keys()], options, host);
  const errors = new Map<string, string[]>();
  [...files.keys()].forEach((file, i) => {
    const source = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    if (diagnostics.length === 0) return;
    errors.set(
      snippets[i]!.name,
      diagnostics.map((d) => {
        const at = d.start === undefined ? "" : position(source, d.start);
        return `${at}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      }),
    );
  });
  return errors;
}

function position(source: ts.SourceFile, offset: number): string {
  const { line, character } = source.getLineAndCharacterOfPosition(offset);
  return `${line + 1}:${character + 1} `;
}
