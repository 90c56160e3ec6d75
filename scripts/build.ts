/**
 * `npm run build`: compiles `src/` to an ES-module distribution in `dist/` (JavaScript, declarations, source
 * maps). The repository itself is CommonJS (Hardhat 2 loads its TypeScript config that way), so `dist/`
 * gets its own `package.json` marking its files as ES modules.
 *
 * Each entry's `require` condition names a CommonJS declaration file (`index.d.cts`) re-exporting the entry's
 * declarations: TypeScript under `"module": "Node16"` (what `npx hardhat init` writes) refuses a CommonJS file
 * importing declarations it sees as an ES module (TS1479), although Node ≥ 20.19 `require`s the ES module itself.
 *
 * The build is written beside `dist/`, in `.dist-next/`, and put in its place by renames when complete
 * (`replaceDirectory`): a project that depends on the kit by path keeps a whole `dist/` while it builds. Last in the
 * new tree, `.build-complete` marks the build done; `scripts/prepare.mjs` compares it with the sources.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { replaceDirectory } from "./lib/replace-directory";

const root = join(__dirname, "..");
const dist = join(root, "dist");
/** Where the build is written before it replaces `dist/`. */
const next = join(root, ".dist-next");

/** The marker file `scripts/prepare.mjs` reads: written last, so it exists only after a complete build. */
const BUILD_COMPLETE_MARKER = ".build-complete";

/** The `require`-condition declaration files package.json's exports name (`./dist/….d.cts`). */
function commonJsDeclarations(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };
  return Object.values(pkg.exports).flatMap((target) => {
    const types = (target as { require?: { types?: unknown } }).require?.types;
    return typeof types === "string" && types.endsWith(".d.cts") ? [types] : [];
  });
}

rmSync(next, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json"), "--outDir", next], {
  stdio: "inherit",
});
mkdirSync(next, { recursive: true });
writeFileSync(join(next, "package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
// The `trustgate` command (package.json "bin").
chmodSync(join(next, "cli", "bin.js"), 0o755);
for (const declaration of commonJsDeclarations()) {
  const esmTwin = `./${basename(declaration, ".d.cts")}.js`;
  writeFileSync(join(next, relative(dist, join(root, declaration))), `export * from ${JSON.stringify(esmTwin)};\n`);
}
writeFileSync(join(next, BUILD_COMPLETE_MARKER), `${new Date().toISOString()}\n`);
replaceDirectory(next, dist);
