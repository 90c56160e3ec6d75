/**
 * The names each package entry makes public, read two ways: the runtime names by loading the entry's source
 * module, the type names through the TypeScript checker (every export of the entry file that is not a runtime
 * name). The entry snapshot test and `scripts/entry-names.ts` both read them from here.
 */
import { join, resolve } from "node:path";
import ts from "typescript";
import { CHECKER_OPTIONS } from "../../scripts/generate/published-types";

/** The repository's root. */
const ROOT = resolve(__dirname, "../..");

/** Each package subpath and its source entry file. */
export const ENTRY_SOURCES = {
  trustgate: "src/index.ts",
  "trustgate/drift": "src/drift/entry.ts",
  "trustgate/deploy": "src/deploy/entry.ts",
  "trustgate/refresh": "src/refresh/entry.ts",
  "trustgate/watch": "src/watch/entry.ts",
  "trustgate/service": "src/harness/service/index.ts",
  "trustgate/testing": "src/harness/testing/index.ts",
  "trustgate/harness": "src/harness/index.ts",
} as const;

/** The most runtime names the main entry, `trustgate`, may have. */
export const MAX_MAIN_ENTRY_NAMES = 60;

/**
 * The names of a module namespace whose values are zod schemas (every zod 4 schema carries its internals as `_zod`).
 *
 * @param namespace - A loaded module namespace.
 * @returns The sorted names.
 */
export function zodSchemaNames(namespace: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(namespace)
    .filter(([, value]) => typeof value === "object" && value !== null && "_zod" in value)
    .map(([name]) => name)
    .sort();
}

/** A package subpath the kit publishes. */
export type EntryName = keyof typeof ENTRY_SOURCES;

/** One entry's public names, each list sorted. */
export interface EntryNames {
  readonly runtime: readonly string[];
  readonly types: readonly string[];
}

/**
 * The runtime names of an entry: the keys of its module namespace.
 *
 * @param entry - The package subpath.
 * @returns The sorted names.
 */
export async function runtimeNamesOf(entry: EntryName): Promise<string[]> {
  const namespace = (await import(join(ROOT, ENTRY_SOURCES[entry]))) as Record<string, unknown>;
  return Object.keys(namespace).sort();
}

/**
 * Every exported name of each entry file, through one TypeScript program over all entries.
 *
 * @returns The names per entry, sorted.
 */
export function declaredNamesOf(): Record<EntryName, string[]> {
  const files = Object.values(ENTRY_SOURCES).map((file) => join(ROOT, file));
  const program = ts.createProgram(files, { ...CHECKER_OPTIONS, types: ["node"] });
  const checker = program.getTypeChecker();
  const names = {} as Record<EntryName, string[]>;
  for (const [entry, file] of Object.entries(ENTRY_SOURCES) as [EntryName, string][]) {
    const source = program.getSourceFile(join(ROOT, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${file} is not a module`);
    names[entry] = checker
      .getExportsOfModule(symbol)
      .map((exported) => exported.getName())
      .sort();
  }
  return names;
}

/**
 * The runtime and type names of every entry.
 *
 * @returns Per entry, its runtime names and its type-only names.
 */
export async function entryNames(): Promise<Record<EntryName, EntryNames>> {
  const declared = declaredNamesOf();
  const result = {} as Record<EntryName, EntryNames>;
  for (const entry of Object.keys(ENTRY_SOURCES) as EntryName[]) {
    const runtime = await runtimeNamesOf(entry);
    result[entry] = { runtime, types: declared[entry].filter((name) => !runtime.includes(name)) };
  }
  return result;
}
