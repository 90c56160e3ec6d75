import ts from "typescript";
const files = ["/work/wt31-b/src/index.ts", "/work/wt31-b/src/drift/entry.ts"];
const program = ts.createProgram(files, { strict: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: ["node"] });
const checker = program.getTypeChecker();
for (const f of files) {
  const sym = checker.getSymbolAtLocation(program.getSourceFile(f)!)!;
  for (const e of checker.getExportsOfModule(sym)) {
    const t = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
    if (!(t.flags & ts.SymbolFlags.Value)) continue;
    const d = t.valueDeclaration ?? t.declarations![0]!;
    const type = checker.typeToString(checker.getTypeOfSymbolAtLocation(t, d), undefined, ts.TypeFormatFlags.NoTruncation);
    console.log(`${e.getName()}  [${d.getSourceFile().fileName.replace("/work/wt31-b/","")}]  ${type.slice(0, 400)}`);
  }
}
