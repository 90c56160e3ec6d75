/**
 * `npm run build`: compiles `src/` to an ES-module distribution in `dist/` (JavaScript, declarations, source
 * maps). The repository itself is CommonJS (Hardhat 2 loads its TypeScript config that way), so `dist/`
 * gets its own `package.json` marking its files as ES modules.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(__dirname, "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], {
  stdio: "inherit",
});
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, "package.json"), `${JSON.stringify({ type: "module" }, null, 2)}\n`);
// The `trustgate` command (package.json "bin").
chmodSync(join(dist, "cli", "bin.js"), 0o755);
