/**
 * The main entry's declarations, with every declaration file they reach, name no zod module: a caller needs no zod
 * and is not tied to its major version.
 *
 * The kit's exported declarations name no Hardhat module: a consumer type-checks them under either Hardhat major
 * (or none), with `skipLibCheck: false`. Every `.d.ts` and `.d.cts` the build writes to `dist/` is read; none may
 * import, re-export, reference or even mention a `hardhat` module path (the kit's own provider and artifact types
 * stand in for Hardhat's).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const dist = join(root, "dist");

/** `hardhat` or one of its subpaths as a module: imported, re-exported, required or referenced. */
const HARDHAT_SPECIFIER = /(\bfrom|\bimport\(|\brequire\(|\btypes=)\s*["']hardhat(\/[^"']*)?["']/;
/** `zod` or one of its subpaths as a module. */
const ZOD_SPECIFIER = /(\bfrom|\bimport\()\s*["']zod(\/[^"']*)?["']/;
/** A `hardhat/…` path anywhere, comments included. */
const HARDHAT_PATH = /\bhardhat\//;

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return /\.d\.c?ts$/.test(entry.name) ? [path] : [];
  });
}

describe("the exported declarations", () => {
  beforeAll(() => {
    execFileSync(process.execPath, [require.resolve("tsx/cli"), "scripts/build.ts"], { cwd: root, stdio: "pipe" });
  }, 180_000);

  it("recognise a Hardhat module however it is named", () => {
    for (const line of [
      'import type { Artifacts } from "hardhat/types";',
      "export type { HardhatRuntimeEnvironment } from 'hardhat';",
      'provider: import("hardhat/types").EthereumProvider;',
      '/// <reference types="hardhat" />',
    ]) {
      expect(HARDHAT_SPECIFIER.test(line), line).toBe(true);
    }
    expect(HARDHAT_PATH.test("// the type of hardhat/types' Artifacts")).toBe(true);
    // The name as a plain string type is not a module.
    expect(HARDHAT_SPECIFIER.test('export type DevNodeKind = "hardhat" | "anvil";')).toBe(false);
  });

  it("of the main entry name no zod type: no declaration file dist/index.d.ts reaches imports zod", () => {
    const reached = new Set<string>();
    const pending = [join(dist, "index.d.ts"), join(dist, "index.d.cts")];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const match of readFileSync(file, "utf8").matchAll(/(?:\bfrom\s+|\bimport\()\s*"(\.[^"]+)"/g)) {
        const target = resolve(dirname(file), match[1]!.replace(/\.js$/, ".d.ts"));
        if (existsSync(target)) pending.push(target);
      }
    }
    expect(reached.size).toBeGreaterThan(20);
    expect(readFileSync(join(dist, "index.d.ts"), "utf8")).toContain("TrustCheck");
    const namingZod = [...reached].filter((file) => ZOD_SPECIFIER.test(readFileSync(file, "utf8")));
    expect(namingZod.map((file) => relative(root, file))).toEqual([]);
    // The check sees zod where it is: the schemas' own declarations.
    expect(ZOD_SPECIFIER.test(readFileSync(join(dist, "published/trust-check.d.ts"), "utf8"))).toBe(true);
  });

  it("name no Hardhat module, in code or in comments", () => {
    const files = declarationFiles(dist);
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.endsWith(".d.cts"))).toBe(true);
    const offending = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, index) => ({ where: `${relative(root, file)}:${index + 1}`, line }))
        .filter(({ line }) => HARDHAT_PATH.test(line) || HARDHAT_SPECIFIER.test(line)),
    );
    expect(offending).toEqual([]);
  });
});
