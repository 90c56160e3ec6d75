/**
 * `npm run build` puts the new `dist/` in place of the old by renames (scripts/lib/replace-directory.ts): the old
 * tree is whole until the new one, whole, takes its name, and nothing is left beside it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replaceDirectory } from "../../scripts/lib/replace-directory";

describe("replaceDirectory", () => {
  let dir: string;
  const tree = (name: string, content: string) => {
    mkdirSync(join(dir, name, "cli"), { recursive: true });
    writeFileSync(join(dir, name, "cli", "bin.js"), content);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "trustgate-replace-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("replaces a directory in use with the new one and removes the old", () => {
    tree("dist", "old");
    writeFileSync(join(dir, "dist", "stale.js"), "");
    tree(".dist-next", "new");
    replaceDirectory(join(dir, ".dist-next"), join(dir, "dist"));
    expect(readFileSync(join(dir, "dist", "cli", "bin.js"), "utf8")).toBe("new");
    expect(existsSync(join(dir, "dist", "stale.js"))).toBe(false);
    expect(readdirSync(dir)).toEqual(["dist"]);
  });

  it("puts the new directory in place when there was none, and clears what an interrupted run left", () => {
    tree(".dist-next", "new");
    tree(".dist-next-previous", "left over");
    replaceDirectory(join(dir, ".dist-next"), join(dir, "dist"));
    expect(readFileSync(join(dir, "dist", "cli", "bin.js"), "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["dist"]);
  });
});
