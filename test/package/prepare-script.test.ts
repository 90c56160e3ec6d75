/**
 * `scripts/prepare.mjs`, npm's `prepare` script: it builds `dist/` only when a build input changed after the last
 * complete build, so a project that installs the kit by path does not rebuild it on each of its own installs. Run
 * in a temporary copy of the layout it reads, with a `build` script that only records that it ran. The package ships
 * the script (its package.json names it), and there, with no build script beside it, it does nothing.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");

describe("npm's prepare script (scripts/prepare.mjs)", () => {
  let dir: string;
  const at = (path: string, seconds: number) => utimesSync(join(dir, path), seconds, seconds);
  const prepare = () => execFileSync("npm", ["run", "--silent", "prepare"], { cwd: dir, encoding: "utf8" });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "trustgate-prepare-"));
    mkdirSync(join(dir, "scripts"));
    cpSync(join(root, "scripts/prepare.mjs"), join(dir, "scripts/prepare.mjs"));
    const build = `node -e "require('fs').writeFileSync('built', '')"`;
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "kit", scripts: { prepare: "node scripts/prepare.mjs", build } }));
    for (const file of ["tsconfig.json", "tsconfig.build.json", "scripts/build.ts"]) writeFileSync(join(dir, file), "{}");
    mkdirSync(join(dir, "src/deep"), { recursive: true });
    writeFileSync(join(dir, "src/deep/a.ts"), "export {};\n");
    for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json", "scripts/build.ts", "src/deep/a.ts"]) at(file, 1_000);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("builds when dist/ has never been built", () => {
    prepare();
    expect(existsSync(join(dir, "built"))).toBe(true);
  });

  it("skips the build, saying so, when the last complete build is newer than every input", () => {
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist/.build-complete"), "");
    at("dist/.build-complete", 2_000);
    expect(prepare()).toContain("dist/ is current");
    expect(existsSync(join(dir, "built"))).toBe(false);
  });

  it("does nothing, saying so, in an installed package: no build script beside it, and dist/ without the marker", () => {
    unlinkSync(join(dir, "scripts/build.ts"));
    mkdirSync(join(dir, "dist"));
    expect(prepare()).toContain("an installed package (dist/ ships built, no build script): nothing to build");
    expect(existsSync(join(dir, "built"))).toBe(false);
  });

  it("builds again when a source below src/ changed after the last build", () => {
    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist/.build-complete"), "");
    at("dist/.build-complete", 2_000);
    at("src/deep/a.ts", 3_000);
    prepare();
    expect(existsSync(join(dir, "built"))).toBe(true);
  });
});
