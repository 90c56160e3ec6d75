/**
 * The pinned toolchains of `tools/` (scripts/lib/toolchains.ts): where each binary is by platform, why one cannot
 * run, and that each entry names a binary its package's lockfile pins for that platform; and that CI installs none of
 * them itself, since `npm test` does (`npm run tools:install`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  FORGE_TOOLCHAIN,
  locateToolchain,
  NODE22_TOOLCHAIN,
  PINNED_TOOLCHAINS,
  type PinnedToolchain,
  REPO_ROOT,
} from "../../scripts/lib/toolchains";

describe("the pinned toolchains", () => {
  it("say why a platform without a binary has none, and that it cannot be installed there", () => {
    expect(locateToolchain(NODE22_TOOLCHAIN, "darwin-x64")).toEqual({
      ok: false,
      installable: false,
      reason: "the npm registry has no Node 22.23.3 binary for darwin-x64",
    });
    expect(locateToolchain(FORGE_TOOLCHAIN, "linux-arm64")).toMatchObject({ ok: false, installable: false });
  });

  it("refuse a platform whose binary installs but cannot serve, with the reason", () => {
    expect(locateToolchain(FORGE_TOOLCHAIN, "win32-x64")).toEqual({
      ok: false,
      installable: false,
      reason: "tools/foundry/solc, a Node script, cannot serve as forge's solc on win32-x64",
    });
  });

  it("say that a missing binary of a platform that has one is installable, and how", () => {
    const absent: PinnedToolchain = { name: "Node 22.23.3", dir: "/nonexistent/tools/node22", binaries: { "linux-x64": "bin/node" } };
    expect(locateToolchain(absent, "linux-x64")).toEqual({
      ok: false,
      installable: true,
      reason: "Node 22.23.3 is not installed (/nonexistent/tools/node22/bin/node): run npm run tools:install",
    });
  });

  it.each(PINNED_TOOLCHAINS.map((t) => [t.name, t] as const))(
    "%s: each platform's binary is a package its lockfile pins, optional",
    (_, toolchain) => {
      const lock = JSON.parse(readFileSync(join(toolchain.dir, "package-lock.json"), "utf8")) as {
        packages: Record<string, { version?: string; optional?: boolean; bin?: Record<string, string> }>;
      };
      for (const binary of Object.values(toolchain.binaries)) {
        const pkg = /^(node_modules\/(?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(binary);
        expect(pkg, binary).not.toBeNull();
        const entry = lock.packages[pkg![1]!];
        expect(entry, `${pkg![1]} in ${toolchain.dir}/package-lock.json`).toBeDefined();
        // Optional, so that npm ci on another platform skips it rather than failing with EBADPLATFORM.
        expect(entry!.optional).toBe(true);
        expect(toolchain.name).toContain(entry!.version!);
      }
    },
  );

  it("CI needs nothing npm ci && npm test does not do: .ci/run and the release job install no toolchain themselves", () => {
    for (const file of [".ci/run", ".github/workflows/release.yml"]) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      expect(text, file).not.toMatch(/--prefix\s+tools\//);
      expect(text, file).toMatch(/npm ci\b/);
      expect(text, file).toMatch(/npm test\b/);
    }
    const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test).toBe("tsx scripts/test.ts");
    expect(readFileSync(join(REPO_ROOT, "scripts/test.ts"), "utf8")).toMatch(/for \(const script of \["tools:install",/);
  });
});
