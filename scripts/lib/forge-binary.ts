/**
 * Where this repository's forge is: the platform package of forge 1.7.1 that `tools/foundry` pins (installed with
 * `npm ci --prefix tools/foundry`), and the solc shim forge compiles with where it cannot download solc.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root. */
export const REPO_ROOT = resolve(__dirname, "../..");

/** The solc executable handed to forge (`--use`): the `solc` npm package behind a small shim. */
export const FORGE_SOLC_SHIM = join(REPO_ROOT, "tools/foundry/solc");

/** The platform packages `tools/foundry` pins, by `${process.platform}-${process.arch}`. */
const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "forge-linux-amd64",
  "darwin-arm64": "forge-darwin-arm64",
  "win32-x64": "forge-win32-amd64",
};

/**
 * The forge binary for this platform.
 *
 * @returns Its path, or why there is none.
 */
export function locateForge(): { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string } {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[platform];
  if (!pkg) return { ok: false, reason: `the npm registry has no forge 1.7.1 binary for ${platform}` };
  const path = join(REPO_ROOT, "tools/foundry/node_modules/@foundry-rs", pkg, "bin", process.platform === "win32" ? "forge.exe" : "forge");
  if (!existsSync(path)) return { ok: false, reason: `forge is not installed (${path}): run npm ci --prefix tools/foundry` };
  return { ok: true, path };
}
