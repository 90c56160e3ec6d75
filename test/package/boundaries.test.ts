import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const src = join(root, "src");
const harness = join(src, "harness");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** One module reference found in a source file. */
interface Reference {
  readonly file: string;
  readonly specifier: string;
  /** `import type`, `export type`, or an `import("x")` type: erased from the JavaScript. */
  readonly typeOnly: boolean;
  readonly line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

/** Every import, re-export, dynamic `import()`, `require()` and `import("x")` type of a file, through the TypeScript parser. */
function referencesOf(file: string): Reference[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Reference[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ file, specifier: specifier.text, typeOnly, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      add(node, node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        add(node, node.arguments[0], false);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal as ts.Expression, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const isRelative = (specifier: string) => specifier.startsWith("./") || specifier.startsWith("../");
const target = (ref: Reference) => resolve(join(ref.file, ".."), ref.specifier);
const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
const show = (ref: Reference) => `${relative(root, ref.file)}:${ref.line} ${ref.specifier}`;
const packageName = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0]!);

const allFiles = sourceFiles(src);
const kitFiles = allFiles.filter((file) => !inside(file, harness));
const harnessFiles = allFiles.filter((file) => inside(file, harness));
const references = allFiles.flatMap(referencesOf);
const kitReferences = references.filter((ref) => !inside(ref.file, harness));
const harnessReferences = references.filter((ref) => inside(ref.file, harness));

describe("the line between the kit and the harness", () => {
  it("finds the sources on both sides (the scan is not vacuous)", () => {
    expect(kitFiles.length).toBeGreaterThan(50);
    expect(harnessFiles.length).toBeGreaterThan(30);
    expect(kitReferences.filter((ref) => isRelative(ref.specifier)).length).toBeGreaterThan(100);
    // The parser sees every form: a re-export, a type-only import, a dynamic import.
    expect(references.some((ref) => ref.file === join(src, "index.ts") && ref.specifier === "./errors.js")).toBe(true);
    expect(references.some((ref) => ref.typeOnly && ref.specifier === "hardhat/types")).toBe(true);
    expect(
      references.some((ref) => ref.file === join(src, "cli", "harness-loader.ts") && ref.specifier === "node:module" && !ref.typeOnly),
    ).toBe(true);
    expect(
      references.some(
        (ref) => ref.file === join(harness, "devnet", "hardhat2-chain.ts") && ref.specifier.startsWith("hardhat/internal/") && ref.typeOnly,
      ),
    ).toBe(true);
  });

  it("the kit (src/ outside src/harness/) never imports from the harness, not even a type", () => {
    const offending = kitReferences.filter((ref) => isRelative(ref.specifier) && inside(target(ref), harness));
    expect(offending.map(show)).toEqual([]);
  });

  it("the kit never names the harness's package entries in an import; only src/cli/harness-loader.ts knows trustgate/harness, as a string it loads for --demo and doctor", () => {
    const bySelfReference = kitReferences.filter((ref) => /^trustgate(\/|$)/.test(ref.specifier));
    expect(bySelfReference.map(show)).toEqual([]);
    const mentions = kitFiles.filter((file) => /["']trustgate\/(harness|service|testing)["']/.test(readFileSync(file, "utf8")));
    expect(mentions.map((file) => relative(root, file))).toEqual([join("src", "cli", "harness-loader.ts")]);
  });

  it("src/ never imports from test/, scripts/ or the Hardhat configuration", () => {
    const outside = references.filter((ref) => isRelative(ref.specifier) && !inside(target(ref), src));
    expect(outside.map(show)).toEqual([]);
  });

  it("the kit needs only its dependencies and the required peer viem at run time (never Hardhat)", () => {
    expect(pkg.peerDependencies.viem).toBe("^2.57.0");
    expect(pkg.peerDependenciesMeta.viem).toBeUndefined();
    expect(Object.keys(pkg.dependencies)).not.toContain("viem");
    const dependencies = [...Object.keys(pkg.dependencies), "viem"];
    const bare = kitReferences.filter((ref) => !isRelative(ref.specifier) && !isBuiltin(ref.specifier));
    const undeclared = bare.filter((ref) => !ref.typeOnly && !dependencies.includes(packageName(ref.specifier)));
    expect(undeclared.map(show)).toEqual([]);
    expect(bare.filter((ref) => packageName(ref.specifier) === "hardhat").map(show)).toEqual([]);
  });

  it("the harness needs only the dependencies and the optional peer hardhat, which it loads lazily", () => {
    const allowed = [...Object.keys(pkg.dependencies), "viem", "hardhat"];
    const bare = harnessReferences.filter((ref) => !isRelative(ref.specifier) && !isBuiltin(ref.specifier));
    const undeclared = bare.filter((ref) => !ref.typeOnly && !allowed.includes(packageName(ref.specifier)));
    expect(undeclared.map(show)).toEqual([]);
    expect(pkg.peerDependenciesMeta.hardhat?.optional).toBe(true);
    // Hardhat is never imported statically: loading the harness (trustgate/testing, trustgate/service) works without it.
    const staticHardhat = harnessReferences.filter((ref) => packageName(ref.specifier) === "hardhat" && !ref.typeOnly);
    expect(staticHardhat.map(show)).toEqual([]);
  });
});

describe("the service's published shapes", () => {
  it("verification (src/attestation/) and the harness take them from src/published/, never from the API client (src/api/)", () => {
    const api = join(src, "api");
    const readers = references.filter((ref) => inside(ref.file, join(src, "attestation")) || inside(ref.file, harness));
    expect(readers.some((ref) => isRelative(ref.specifier) && inside(target(ref), join(src, "published")))).toBe(true);
    const offending = readers.filter((ref) => isRelative(ref.specifier) && inside(target(ref), api));
    expect(offending.map(show)).toEqual([]);
  });
});
