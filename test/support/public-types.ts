/**
 * The kit's own types that a caller meets through an entry's functions, found with the TypeScript checker: every
 * exported function's (and class constructor's) parameter and return types, followed through unions, intersections,
 * type arguments, array elements, the properties of object types and the signatures of function-typed properties,
 * down to the types declared outside `src/` (viem's, the standard library's), which are not followed. A named type
 * of `src/` met on the way must be one the same entry exports, or a caller could not name what it passes or gets.
 * Read by `test/package/exported-types.test.ts`.
 */
import { join, resolve, sep } from "node:path";
import ts from "typescript";
import { CHECKER_OPTIONS } from "../../scripts/generate/published-types";
import { ENTRY_SOURCES, type EntryName } from "./entry-names";

const ROOT = resolve(__dirname, "../..");
const SRC = join(ROOT, "src") + sep;

/** A named type of `src/` that an entry's function reaches, and the path it was reached by. */
export interface ReachedType {
  /** The type's name. */
  readonly name: string;
  /** Where it is declared, relative to the repository. */
  readonly file: string;
  /** How it was reached, e.g. `runDrift(config).encoding`. */
  readonly via: string;
}

/** What one entry's functions reach. */
export interface EntryReach {
  /** The functions and classes walked. */
  readonly functions: readonly string[];
  /** Every named type of `src/` reached, with the first path to it. */
  readonly reached: readonly ReachedType[];
  /** The names of `src/` types the entry exports (its type and runtime names). */
  readonly exported: ReadonlySet<string>;
}

const isSourceDeclaration = (declaration: ts.Declaration) => {
  const file = resolve(declaration.getSourceFile().fileName);
  return file.startsWith(SRC) && !file.endsWith(".d.ts");
};

/**
 * The named types of `src/` that each entry's functions reach, and the names each entry exports.
 *
 * @returns Per entry, what it reaches and what it exports.
 */
export function publicTypeReach(): Record<EntryName, EntryReach> {
  const files = Object.values(ENTRY_SOURCES).map((file) => join(ROOT, file));
  const program = ts.createProgram(files, { ...CHECKER_OPTIONS, types: ["node"] });
  const checker = program.getTypeChecker();
  const result = {} as Record<EntryName, EntryReach>;
  for (const [entry, file] of Object.entries(ENTRY_SOURCES) as [EntryName, string][]) {
    const source = program.getSourceFile(join(ROOT, file));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file} is not a module`);
    const exports = checker.getExportsOfModule(module);
    const exported = new Set(exports.map((symbol) => symbol.getName()));
    const reached = new Map<ts.Declaration, ReachedType>();
    const seen = new Set<ts.Type>();
    const functions: string[] = [];

    const note = (symbol: ts.Symbol | undefined, via: string): boolean => {
      const declaration = symbol?.declarations?.find(isSourceDeclaration);
      if (!symbol || !declaration) return false;
      if (!reached.has(declaration)) {
        reached.set(declaration, { name: symbol.getName(), file: declaration.getSourceFile().fileName.slice(ROOT.length + 1), via });
      }
      return true;
    };

    const walkSignature = (signature: ts.Signature, via: string): void => {
      for (const parameter of signature.getParameters()) {
        const declaration = parameter.valueDeclaration;
        const type = declaration ? checker.getTypeOfSymbolAtLocation(parameter, declaration) : checker.getDeclaredTypeOfSymbol(parameter);
        walk(type, `${via}(${parameter.getName()})`);
      }
      walk(signature.getReturnType(), `${via}()`);
    };

    const walk = (type: ts.Type, via: string): void => {
      if (seen.has(type)) return;
      seen.add(type);
      const alias = type.aliasSymbol;
      const fromSource = alias ? note(alias, via) : false;
      for (const argument of type.aliasTypeArguments ?? []) walk(argument, `${via}<>`);
      if (type.isUnion() || type.isIntersection()) {
        for (const part of type.types) walk(part, via);
        return;
      }
      const symbol = type.getSymbol();
      const declaredInSource = symbol?.declarations?.some(isSourceDeclaration) ?? false;
      if (symbol && !alias && declaredInSource && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)) {
        note(symbol, via);
      }
      if (type.flags & ts.TypeFlags.Object) {
        const object = type as ts.ObjectType;
        if (object.objectFlags & ts.ObjectFlags.Reference) {
          for (const argument of checker.getTypeArguments(object as ts.TypeReference)) walk(argument, `${via}<>`);
        }
        // Follow the structure only of the kit's own types and of anonymous ones (not viem's, not the library's).
        const anonymous = !symbol || symbol.getName() === "__type" || symbol.getName() === "__object";
        if (!(declaredInSource || fromSource || anonymous)) return;
        for (const property of checker.getPropertiesOfType(type)) {
          const declaration = property.valueDeclaration ?? property.declarations?.[0];
          if (!declaration || !isSourceDeclaration(declaration)) continue;
          walk(checker.getTypeOfSymbolAtLocation(property, declaration), `${via}.${property.getName()}`);
        }
        for (const signature of type.getCallSignatures()) walkSignature(signature, via);
      }
    };

    for (const symbol of exports) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!(target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class))) continue;
      const declaration = target.valueDeclaration ?? target.declarations?.[0];
      if (!declaration || !isSourceDeclaration(declaration)) continue;
      const name = symbol.getName();
      functions.push(name);
      const type = checker.getTypeOfSymbolAtLocation(target, declaration);
      for (const signature of type.getCallSignatures()) walkSignature(signature, name);
      for (const signature of type.getConstructSignatures()) walkSignature(signature, `new ${name}`);
    }
    result[entry] = { functions: functions.sort(), reached: [...reached.values()], exported };
  }
  return result;
}
