// `npm run prepare` (run by npm after `npm install` in this checkout, and in it when another project installs it by
// path or from git): builds `dist/` (`npm run build`) unless it is current, i.e. unless `dist/.build-complete`, which
// the build writes last, is newer than every input of the build. A project depending on the kit by path thus does
// not rebuild it (about a minute) on each of its own `npm install`s. Plain Node, so that a checkout whose dist/ is
// current needs none of its development dependencies here. The package ships this file, since its package.json
// names it: in an installed package (no `scripts/build.ts`; `dist/` comes built) it does nothing.
import { spawnSync } from "node:child_process";
import console from "node:console";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marker = join(root, "dist", ".build-complete");
const inputs = ["src", "package.json", "tsconfig.json", "tsconfig.build.json", "scripts/build.ts"];

/** The newest modification time among the files at or below `path` (0 when it does not exist). */
function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

if (!existsSync(join(root, "scripts", "build.ts"))) {
  console.log("trustgate: an installed package (dist/ ships built, no build script): nothing to build");
  process.exit(0);
}

const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const changed = Math.max(...inputs.map((input) => newestChange(join(root, input))));
if (built > changed) {
  console.log("trustgate: dist/ is current (no source changed since the last build): build skipped");
} else {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const build = spawnSync(npm, ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  process.exitCode = build.status ?? 1;
}
