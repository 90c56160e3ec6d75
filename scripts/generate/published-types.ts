/**
 * Renders `src/generated/published-types.ts`: every response type of `src/published/` (each a `z.infer` of its zod
 * schema) written out as a plain TypeScript type, through the TypeScript checker. The kit's public functions return
 * these, so that the main entry's declarations name no zod type and a caller needs no zod; the schemas stay the one
 * definition (this file is regenerated from them, and `test/generated/generated-files.test.ts` fails while it
 * differs).
 */
import { join } from "node:path";
import ts from "typescript";

/** The folder of the service's response schemas, relative to the repository root. */
const PUBLISHED_INDEX = "src/published/index.ts";

/** Flags that print a type in full: no `...`, object literals on several lines. */
const PRINT_FLAGS = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.MultilineObjectLiterals;

/** How a program is made to ask the TypeScript checker about the sources (no emit, no ambient types). */
export const CHECKER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
};

/**
 * The text of `src/generated/published-types.ts`, without the generated-by header.
 *
 * @param root - The repository root.
 * @returns One exported type per type alias of `src/published/`, in the order the index exports them.
 */
export function renderPublishedTypes(root: string): string {
  const file = join(root, PUBLISHED_INDEX);
  const program = ts.createProgram([file], CHECKER_OPTIONS);
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(file);
  const module = index && checker.getSymbolAtLocation(index);
  if (!module) throw new Error(`${PUBLISHED_INDEX} is not a module`);
  const printer = ts.createPrinter({ removeComments: true });
  const print = (node: ts.Node, source: ts.SourceFile) => printer.printNode(ts.EmitHint.Unspecified, node, source);
  const blocks: string[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.find(ts.isTypeAliasDeclaration);
    if (!declaration) continue;
    const source = declaration.getSourceFile();
    const expand = (node: ts.TypeNode) => {
      const printed = checker.typeToTypeNode(checker.getTypeFromTypeNode(node), undefined, PRINT_FLAGS);
      if (!printed) throw new Error(`cannot print ${node.getText()}`);
      return print(printed, source);
    };
    // A generic alias (`Attestation<Signed>`) keeps its parameters and the members that use them; the inferred part
    // is written out.
    const body = ts.isIntersectionTypeNode(declaration.type)
      ? declaration.type.types.map((member) => (isInferred(member) ? `(${expand(member)})` : member.getText(source))).join(" & ")
      : expand(declaration.type);
    const parameters = declaration.typeParameters ? `<${declaration.typeParameters.map((p) => p.getText(source)).join(", ")}>` : "";
    const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker));
    const from = `\`${declaration.type.getText(source).replace(/\s+/g, " ")}\` in \`src/published/${source.fileName.split("/").at(-1)}\``;
    blocks.push(`${tsDoc(`${doc}\n\nWritten out from ${from}.`)}\nexport type ${symbol.getName()}${parameters} = ${body};`);
  }
  return `${blocks.join("\n\n")}\n`.replace(/^( {4})+/gm, (indent) => " ".repeat(indent.length / 2));
}

/** Whether a type node is `z.infer<…>` (or `z.output<…>`). */
function isInferred(node: ts.TypeNode): boolean {
  return ts.isTypeReferenceNode(node) && /^z\.(infer|output)$/.test(node.typeName.getText());
}

/** A TSDoc comment of the given text. */
function tsDoc(text: string): string {
  const lines = text.trim().split("\n");
  return `/**\n${lines.map((line) => (line ? ` * ${line}` : " *")).join("\n")}\n */`;
}
