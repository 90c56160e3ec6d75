/**
 * A fresh Foundry project under the system's temporary folder with the kit installed by one of the two routes the
 * README gives, and the remappings and `foundry.toml` it gives for that route:
 *
 * - `npm`, the route that needs only the npm registry: the kit at `node_modules/trustgate` (the files `npm pack`
 *   puts in the package) and OpenZeppelin at `node_modules/@openzeppelin/contracts` (its npm package), compiled
 *   with the kit's solc-js shim (`node_modules/trustgate/tools/foundry/solc`) over the project's `solc` package;
 * - `git`, as `forge install` would: a copy of this repository's tracked and unignored files at `lib/trustgate`
 *   (what a clone holds: no `node_modules`), OpenZeppelin at `lib/openzeppelin-contracts` laid out as its git
 *   repository is (`contracts/…`), compiled with `tools/foundry/solc` of this repository.
 *
 * Both map `trustgate/` to the kit's root, so a project imports `trustgate/contracts/…`, as a Hardhat project does.
 * forge is the pinned one of `tools/foundry`, run with `--offline --use <solc>`: it cannot download solc here.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FORGE_SOLC_SHIM, REPO_ROOT, locateForge } from "../../scripts/lib/forge-binary";

export { REPO_ROOT };

/** How the kit and OpenZeppelin are installed in the project (see the module's description). */
export type FoundryInstallRoute = "npm" | "git";

/** Per route: the remappings a Foundry user of the kit writes (`remappings.txt`), as the README gives them. */
export const USER_REMAPPINGS: Readonly<Record<FoundryInstallRoute, readonly string[]>> = {
  npm: ["trustgate/=node_modules/trustgate/", "@openzeppelin/contracts/=node_modules/@openzeppelin/contracts/"],
  git: ["trustgate/=lib/trustgate/", "@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/"],
};

/** The user's `foundry.toml` for a route, as the README gives it. */
export function userFoundryToml(route: FoundryInstallRoute): string {
  return `[profile.default]
src = "src"
test = "test"
out = "out"
libs = ["${route === "npm" ? "node_modules" : "lib"}"]
solc_version = "0.8.28"
evm_version = "cancun"
optimizer = true
`;
}

/** The kit's solc-js shim as the npm route installs it (a path in the project), which the README tells forge to use. */
export const NPM_ROUTE_SOLC = "node_modules/trustgate/tools/foundry/solc";

/**
 * The pinned forge binary of this platform, when `tools/foundry` has one installed and `tools/foundry/solc` (a
 * Node script with a shebang) can serve as its compiler.
 *
 * @returns Its path, or `undefined` ({@link forgeUnavailableReason} says why).
 */
export function forgeBinary(): string | undefined {
  const forge = locateForge();
  return forge.ok ? forge.path : undefined;
}

/**
 * Why forge cannot run the kit's Foundry tests here, if it cannot: the words a skipped test's name carries.
 *
 * @returns The reason, or `undefined` when forge can run.
 */
export function forgeUnavailableReason(): string | undefined {
  const forge = locateForge();
  return forge.ok ? undefined : forge.reason;
}

/** Result of a forge run. */
export interface ForgeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A temporary Foundry project. */
export interface FoundryProject {
  /** Its folder. */
  readonly dir: string;
  /**
   * Writes a file of the project.
   *
   * @param path - Path inside the project.
   * @param text - Contents.
   */
  write(path: string, text: string): void;
  /**
   * Runs forge in the project, offline, with the pinned solc.
   *
   * @param args - forge's arguments (`test`, `build`, …); `--offline --use <solc>` are appended.
   * @param env - Extra environment variables.
   * @returns Exit code and output.
   */
  forge(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<ForgeRun>;
  /** Deletes the folder. */
  remove(): void;
}

/** The repository's tracked and unignored files (what `git clone`, hence `forge install`, gets, plus work in progress). */
function repositoryFiles(): string[] {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return listed.stdout.split("\0").filter((file) => file !== "" && existsSync(join(REPO_ROOT, file)));
}

/** The files `npm pack` puts in the kit's package (its package.json's `files`), as npm lists them. */
function packageFiles(): string[] {
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`npm pack --dry-run failed: ${packed.stderr}`);
  const [listing] = JSON.parse(packed.stdout) as [{ files: { path: string }[] }];
  return listing.files.map((file) => file.path);
}

/** Copies the kit and OpenZeppelin into the project as the route installs them; returns the solc forge is given. */
function installKit(dir: string, route: FoundryInstallRoute): string {
  const openZeppelin = join(REPO_ROOT, "node_modules/@openzeppelin/contracts");
  if (route === "git") {
    for (const file of repositoryFiles()) cpSync(join(REPO_ROOT, file), join(dir, "lib/trustgate", file), { recursive: true });
    cpSync(openZeppelin, join(dir, "lib/openzeppelin-contracts/contracts"), { recursive: true });
    return FORGE_SOLC_SHIM; // the clone has no node_modules: this repository's shim, over its solc package
  }
  for (const file of packageFiles()) cpSync(join(REPO_ROOT, file), join(dir, "node_modules/trustgate", file), { recursive: true });
  cpSync(openZeppelin, join(dir, "node_modules/@openzeppelin/contracts"), { recursive: true });
  // The project's `solc` package (`npm i -D solc@0.8.28`), which the kit's shim runs: this repository's copy.
  symlinkSync(join(REPO_ROOT, "node_modules/solc"), join(dir, "node_modules/solc"), "dir");
  return join(dir, NPM_ROUTE_SOLC);
}

/**
 * Makes a Foundry project with the kit and OpenZeppelin installed by the given route, the user's `foundry.toml` and
 * remappings for it, and the given files (which may replace those two).
 *
 * @param files - Project files by path (`src/…`, `test/…`).
 * @param forge - The forge binary.
 * @param route - How the kit is installed: from npm into `node_modules` (default), or by `forge install` into `lib`.
 * @returns The project.
 */
export function createFoundryProject(files: Record<string, string>, forge: string, route: FoundryInstallRoute = "npm"): FoundryProject {
  const dir = mkdtempSync(join(tmpdir(), "trustgate-foundry-"));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const solc = installKit(dir, route);
  write("foundry.toml", userFoundryToml(route));
  write("remappings.txt", `${USER_REMAPPINGS[route].join("\n")}\n`);
  for (const [path, text] of Object.entries(files)) write(path, text);
  return {
    dir,
    write,
    forge: (args, env = {}) =>
      new Promise((done) => {
        const child = spawn(forge, [...args, "--offline", "--use", solc], {
          cwd: dir,
          env: { ...process.env, FOUNDRY_DISABLE_NIGHTLY_WARNING: "1", NO_COLOR: "1", ...env },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("close", (code) => done({ code, stdout, stderr }));
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One test's result in `forge test --json`. */
export interface ForgeTestResult {
  readonly status: string;
  readonly reason: string | null;
}

/**
 * The results of `forge test --json`, by `path:Contract` then test signature.
 *
 * @param stdout - forge's standard output.
 * @returns The results.
 * @throws Error when the output holds no JSON object.
 */
export function forgeTestResults(stdout: string): Record<string, Record<string, ForgeTestResult>> {
  const start = stdout.indexOf("{");
  if (start < 0) throw new Error(`forge printed no JSON:\n${stdout}`);
  const suites = JSON.parse(stdout.slice(start)) as Record<string, { test_results: Record<string, ForgeTestResult> }>;
  return Object.fromEntries(Object.entries(suites).map(([suite, { test_results }]) => [suite, test_results]));
}

/**
 * Every test the given Solidity files declare (`function test…(…)` in a `contract`), as forge names them
 * (`name(type,…)`), by suite (`path:Contract`).
 *
 * @param files - Files by path.
 * @returns The test signatures by suite.
 */
export function declaredForgeTests(files: Record<string, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith(".sol")) continue;
    // Each contract's text runs from its `contract` line to the next one; signatures may span lines.
    const contracts = [...text.matchAll(/^contract (\w+)/gm)];
    contracts.forEach((contract, i) => {
      const body = text.slice(contract.index, contracts[i + 1]?.index ?? text.length);
      for (const test of body.matchAll(/function (test\w*)\(([^)]*)\)/g)) {
        const types = test[2]!
          .split(",")
          .map((param) => param.trim().split(/\s+/)[0]!)
          .filter(Boolean);
        (out[`${path}:${contract[1]}`] ??= []).push(`${test[1]}(${types.join(",")})`);
      }
    });
  }
  return out;
}
