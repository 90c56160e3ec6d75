/**
 * `npm publish --dry-run` passes, and what it would publish is the kit: the built entries package.json's "exports",
 * "typesVersions" and "bin" name (the harness's subpaths among them), the contracts users import, the sources the
 * source maps point at, and none of the repository's tests, scripts, test contracts or build outputs; and the
 * scripts npm may run in an installed package (an install script, and `prepare` for a tarball, git or path install,
 * which npm 11 lists for approval) run only files the package ships, the packed `prepare` doing nothing there.
 *
 * The dry run is pointed at a closed loopback port with no retries: npm asks the registry who is logged in and warns
 * when it cannot tell, which a dry run tolerates, so nothing leaves the machine. A dry run stops before
 * `libnpmpublish`, so `publishConfig.provenance` asks for no OIDC token or signature here; the real
 * `npm publish --provenance` runs from CI, where the token exists.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");

interface PackageJson {
  readonly private?: boolean;
  readonly exports: Record<string, unknown>;
  readonly typesVersions: Record<string, Record<string, string[]>>;
  readonly bin: Record<string, string>;
  readonly [field: string]: unknown;
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;

/** A loopback port nothing listens on: a server is opened on a free port and closed again. */
function closedLoopbackPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

/** Every file path a package.json field names under `./` (exports' conditions, typesVersions, bin), `*` patterns aside. */
function namedFiles(): string[] {
  const strings = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];
  return [...strings(pkg.exports), ...strings(pkg.typesVersions), ...Object.values(pkg.bin)]
    .filter((path) => !path.includes("*"))
    .map((path) => path.replace(/^\.\//, ""));
}

let published: { code: number | null; stderr: string; files: string[] };

beforeAll(async () => {
  // The build the prepare script makes when dist/ is stale; the dry run itself runs no scripts.
  execFileSync(process.execPath, [join(root, "scripts/prepare.mjs")], { cwd: root, stdio: "pipe" });
  const port = await closedLoopbackPort();
  const result = spawnSync(
    "npm",
    ["publish", "--dry-run", "--json", "--ignore-scripts", `--registry=http://127.0.0.1:${port}/`, "--fetch-retries=0"],
    { cwd: root, encoding: "utf8" },
  );
  const report = result.stdout ? (JSON.parse(result.stdout) as Record<string, { files: { path: string }[] }>) : {};
  published = { code: result.status, stderr: result.stderr, files: report.trustgate?.files.map((file) => file.path) ?? [] };
}, 300_000);

describe("npm publish --dry-run", () => {
  it("passes, for a public package with provenance", () => {
    expect(published.code, published.stderr).toBe(0);
    expect(published.stderr).toContain("(dry-run)");
    expect(pkg.private).toBeUndefined();
    expect(pkg).toMatchObject({
      sideEffects: false,
      publishConfig: { access: "public", provenance: true },
      repository: { type: "git", url: expect.stringMatching(/^git\+https:\/\//) },
    });
    expect(pkg.keywords).toEqual(expect.arrayContaining(["trust-score", "oracle"]));
  });

  it("would publish every file package.json's entries name, the harness's subpaths among them", () => {
    const named = namedFiles().filter((path) => path !== "package.json");
    expect(named).toEqual(expect.arrayContaining(["dist/harness/index.js", "dist/harness/testing/index.d.cts", "dist/drift/entry.js"]));
    for (const path of named) expect(published.files, path).toContain(path);
    expect(published.files).toEqual(expect.arrayContaining(["contracts/TrustGated.sol", "contracts/testing/MockTrustOracle.sol"]));
  });

  it("would publish no test, test contract, script (but the prepare script its package.json names), fixture or build output", () => {
    expect(published.files.length).toBeGreaterThan(500);
    const unwanted = published.files.filter(
      (path) =>
        (/^(test|scripts|deploy|contracts\/test|artifacts|cache|typechain-types|node_modules|coverage)\//.test(path) &&
          path !== "scripts/prepare.mjs") ||
        /(^|\/)(fixtures?|__snapshots__)\//.test(path) ||
        /\.(test|spec)\.[cm]?[jt]s$/.test(path) ||
        path === "dist/.build-complete",
    );
    expect(unwanted).toEqual([]);
  });
});

/** The lifecycle scripts npm runs in an installed package: the install scripts, and `prepare` for a non-registry source. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"] as const;

describe("the packed package's install scripts", () => {
  it("name only files the package ships (npm 11 lists each for approval; a missing file would fail the install)", () => {
    const scripts = pkg.scripts as Record<string, string>;
    const present = INSTALL_SCRIPTS.filter((name) => scripts[name] !== undefined);
    expect(present).toEqual(["prepare"]);
    for (const name of present) {
      const files = [...scripts[name]!.matchAll(/(?:^|\s)node\s+(\S+)/g)].map((match) => match[1]!);
      expect(files, `${name}: ${scripts[name]}`).not.toEqual([]);
      for (const file of files) expect(published.files, `${name} runs ${file}`).toContain(file);
    }
  });

  it("prepare, run in the unpacked tarball, builds nothing and exits 0", () => {
    const work = mkdtempSync(join(tmpdir(), "trustgate-packed-prepare-"));
    try {
      const packed = JSON.parse(
        execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: root, encoding: "utf8" }),
      ) as [{ filename: string }];
      execFileSync("tar", ["-xzf", join(work, packed[0].filename)], { cwd: work });
      const unpacked = join(work, "package");
      const before = statSync(join(unpacked, "dist/index.js")).mtimeMs;
      const output = execFileSync("npm", ["run", "prepare"], { cwd: unpacked, encoding: "utf8" });
      expect(output).toContain("an installed package (dist/ ships built, no build script): nothing to build");
      expect(statSync(join(unpacked, "dist/index.js")).mtimeMs).toBe(before);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});
