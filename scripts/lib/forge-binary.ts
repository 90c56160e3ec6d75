/**
 * Where this repository's forge is: the platform package of forge 1.7.1 that `tools/foundry` pins (installed with
 * `npm ci --prefix tools/foundry`), its installation, and the solc shim forge compiles with where it cannot download
 * solc. The one locator of forge for `npm test`, `npm run test:forge`, `npm run bench` and the tests that run forge.
 *
 * @packageDocumentation
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root. */
export const REPO_ROOT = resolve(__dirname, "../..");

/** The folder of the private package that pins forge (`tools/foundry/package.json`). */
export const FORGE_TOOLCHAIN_DIR = join(REPO_ROOT, "tools/foundry");

/** The solc executable handed to forge (`--use`): the `solc` npm package behind a small shim. */
export const FORGE_SOLC_SHIM = join(FORGE_TOOLCHAIN_DIR, "solc");

/** The platform packages `tools/foundry` pins, by `${process.platform}-${process.arch}`. */
const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "forge-linux-amd64",
  "darwin-arm64": "forge-darwin-arm64",
  "win32-x64": "forge-win32-amd64",
};

/** Where forge is, or why it cannot run here. */
export type ForgeLocation =
  | { readonly ok: true; readonly path: string }
  | {
      readonly ok: false;
      /** Why, in words a skip message or a test name can carry. */
      readonly reason: string;
      /** True when `npm ci --prefix tools/foundry` would install it (the platform has a binary, none is installed). */
      readonly installable: boolean;
    };

/**
 * The forge binary for this platform.
 *
 * @returns Its path, or why there is none and whether installing `tools/foundry` would give one.
 */
export function locateForge(): ForgeLocation {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[platform];
  if (!pkg) return { ok: false, installable: false, reason: `the npm registry has no forge 1.7.1 binary for ${platform}` };
  if (process.platform === "win32") {
    return { ok: false, installable: false, reason: `tools/foundry/solc, a Node script, cannot serve as forge's solc on ${platform}` };
  }
  const path = join(FORGE_TOOLCHAIN_DIR, "node_modules/@foundry-rs", pkg, "bin", "forge");
  if (!existsSync(path)) {
    return { ok: false, installable: true, reason: `forge is not installed (${path}): run npm ci --prefix tools/foundry` };
  }
  return { ok: true, path };
}

/**
 * The forge binary for this platform, installed first when the platform has one and none is installed
 * (`npm ci --prefix tools/foundry`, preferring npm's cache, so that an installed or cached forge needs no network).
 * Does nothing when forge is installed or the platform has no binary.
 *
 * @param log - Receives what is done.
 * @returns Its path, or why there is none (with the install's failure, when it failed).
 */
export function ensureForge(log: (line: string) => void): ForgeLocation {
  const found = locateForge();
  if (found.ok || !found.installable) return found;
  log("installing forge 1.7.1 into tools/foundry (npm ci --prefix tools/foundry)");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", FORGE_TOOLCHAIN_DIR, "--no-audit", "--no-fund", "--prefer-offline"], {
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  const after = locateForge();
  if (after.ok || install.status === 0) return after;
  return {
    ok: false,
    installable: true,
    reason: `installing forge failed (npm ci --prefix tools/foundry exited ${install.status ?? "on a signal"}; offline, with an empty npm cache?)`,
  };
}
