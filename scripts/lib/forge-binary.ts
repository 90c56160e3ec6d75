/**
 * Where this repository's forge is: the pinned forge 1.7.1 of `tools/foundry` ({@link FORGE_TOOLCHAIN}, located and
 * installed by `./toolchains`), and the solc shim forge compiles with where it cannot download solc. The one locator
 * of forge for `npm test`, `npm run test:forge`, `npm run bench` and the tests that run forge.
 *
 * @packageDocumentation
 */
import { join } from "node:path";
import { ensureToolchain, FORGE_TOOLCHAIN, locateToolchain, REPO_ROOT, type ToolchainLocation } from "./toolchains";

export { REPO_ROOT };

/** The folder of the private package that pins forge (`tools/foundry/package.json`). */
export const FORGE_TOOLCHAIN_DIR = FORGE_TOOLCHAIN.dir;

/** The solc executable handed to forge (`--use`): the `solc` npm package behind a small shim. */
export const FORGE_SOLC_SHIM = join(FORGE_TOOLCHAIN_DIR, "solc");

/** Where forge is, or why it cannot run here. */
export type ForgeLocation = ToolchainLocation;

/**
 * The forge binary for this platform.
 *
 * @returns Its path, or why there is none and whether installing `tools/foundry` would give one.
 */
export function locateForge(): ForgeLocation {
  return locateToolchain(FORGE_TOOLCHAIN);
}

/**
 * The forge binary for this platform, installed first when the platform has one and none is installed.
 *
 * @param log - Receives what is done.
 * @returns Its path, or why there is none (with the install's failure, when it failed).
 */
export function ensureForge(log: (line: string) => void): ForgeLocation {
  return ensureToolchain(FORGE_TOOLCHAIN, log);
}
