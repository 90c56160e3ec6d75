/**
 * The package as a user installs it, offline, in fresh projects under the system's temporary folder:
 *
 * 1. a clean copy of the repository (its tracked and unignored files) is built (`npm run build`) and packed
 *    (`npm pack`); the copy, with its production dependencies installed, also serves as a path dependency;
 * 2. `hardhat-project`: a Hardhat 2 TypeScript project (CommonJS, ts-node, the tsconfig.json `npx hardhat init`
 *    writes, the hardhat.config.ts of docs/contracts.md) with
 *    the tarball, hardhat, hardhat-toolbox, OpenZeppelin, solc, ts-node and TypeScript;
 * 3. `plain-project`: the tarball alone (no Hardhat), where a keeper script outside the repository imports
 *    `trustgate/refresh` and plans a refresh of a drift report, and a webhook receiver imports `trustgate/watch` and
 *    verifies an alert's signature;
 * 4. `linked-project`: the Hardhat project again, with the copy as a path dependency (`file:../trustgate`).
 *
 * Everything comes from the npm cache that `npm ci` filled, through `npm ci --offline` and a lockfile cut from
 * this repository's own (see `test/support/offline-lockfile.ts` for why `npm install <name>@<version>` cannot
 * work offline here).
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildRun, runChild } from "../support/child-run";
import { DEMO_NEEDS_HARDHAT } from "../../src/cli/demo";
import { MAIN_HELP } from "../../src/cli/help";
import type { DriftReport } from "../../src/drift/types";
import { type EmbeddedDriftEnvironment, startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { HARDHAT3_PEER_VERSION } from "../../src/harness/devnet/hardhat-network";
import { MAX_MAIN_ENTRY_NAMES, runtimeNamesOf } from "../support/entry-names";
import { type LockEntry, type Lockfile, lockfileFor } from "../support/offline-lockfile";
import { documentedHardhatConfig } from "../support/documented-hardhat-config";
import { docBlocks } from "../support/doc-blocks";
import { passToFail, REFRESH_POSSIBLE, report as driftReport } from "../cli/report-fixture";

const root = resolve(__dirname, "../..");
const repoPackage = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
  license: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const repoLock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as Lockfile;

/** What a Hardhat 2 TypeScript project installs (exact versions: the ones this repository locks). */
const HARDHAT_PROJECT_DEPENDENCIES = {
  hardhat: repoPackage.devDependencies.hardhat!,
  "@nomicfoundation/hardhat-toolbox": repoPackage.devDependencies["@nomicfoundation/hardhat-toolbox"]!,
  "@openzeppelin/contracts": repoPackage.devDependencies["@openzeppelin/contracts"]!,
  solc: repoPackage.devDependencies.solc!,
  "ts-node": repoPackage.devDependencies["ts-node"]!,
  typescript: repoPackage.devDependencies.typescript!,
};

/** Result of a command. */

/** npm's own warnings (this machine's npmrc has a setting npm 11 warns about), not the program's output. */
const withoutNpmNoise = (text: string) =>
  text
    .split("\n")
    .filter((line) => !line.startsWith("npm warn"))
    .join("\n");

/** Runs a command asynchronously (the embedded devnet in this process must keep serving meanwhile). */
function run(command: string, args: readonly string[], cwd: string, timeoutMs = 600_000): Promise<ChildRun> {
  return runChild(command, args, cwd, { timeoutMs });
}

/** Runs a command that must succeed. */
async function must(command: string, args: readonly string[], cwd: string): Promise<ChildRun> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** The lockfile entry of the packed kit, as npm writes it for a tarball dependency. */
function tarballEntry(tarball: string, spec: string): LockEntry {
  return {
    version: repoPackage.version,
    resolved: spec,
    integrity: `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`,
    dev: true,
    license: repoPackage.license,
    dependencies: repoPackage.dependencies,
    peerDependencies: repoPackage.peerDependencies,
    peerDependenciesMeta: repoPackage.peerDependenciesMeta,
    bin: repoPackage.bin,
    engines: repoPackage.engines,
  };
}

/**
 * Writes a project's package.json and lockfile, and installs it with `npm ci --offline`.
 *
 * @param extra - Entries of the kit (tarball, or link and link target), not in this repository's lockfile.
 */
async function installProject(
  dir: string,
  devDependencies: Record<string, string>,
  extra: Record<string, LockEntry>,
  npmArgs: readonly string[] = [],
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const name = dir.split("/").at(-1)!;
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, version: "1.0.0", private: true, devDependencies }, null, 2)}\n`);
  const lock = lockfileFor(repoLock, { name, version: "1.0.0", devDependencies, extra });
  // A link's target is not found by walking node_modules: add it as npm writes it.
  const packages = { ...lock.packages, ...extra };
  writeFileSync(join(dir, "package-lock.json"), `${JSON.stringify({ ...lock, packages }, null, 2)}\n`);
  await must("npm", ["ci", "--offline", "--no-audit", "--no-fund", ...npmArgs], dir);
}

/**
 * The tsconfig.json of Hardhat's own TypeScript template, the one `npx hardhat init` writes (CommonJS under
 * `"module": "Node16"`), read from the Hardhat this repository installs (the project's version).
 */
const HARDHAT_INIT_TSCONFIG = readFileSync(join(root, "node_modules/hardhat/sample-projects/typescript/tsconfig.json"), "utf8");

/** docs/testing.md's Hardhat 2 test of the Base context, verbatim. */
function testingDocTest(): string {
  const block = docBlocks("docs/testing.md").find((b) => b.lang === "ts" && b.code.includes('describe("the Base context", () => {'));
  if (!block) throw new Error('docs/testing.md: no ts block with describe("the Base context")');
  return `${block.code}\n`;
}

/** The files of a Hardhat 2 TypeScript project using the kit. */
const HARDHAT_PROJECT_FILES: Record<string, string> = {
  // The config of docs/contracts.md (evmVersion cancun, and the solc npm package as the compiler: Hardhat cannot
  // download solc here), and the TypeScript settings of `npx hardhat init`.
  "hardhat.config.ts": documentedHardhatConfig(),
  "tsconfig.json": HARDHAT_INIT_TSCONFIG,
  // The one line that brings the kit's mock into the project's artifacts (docs/contracts.md, "The mock oracle").
  "contracts/TrustgateMocks.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "trustgate/contracts/testing/MockTrustOracle.sol";
import "trustgate/contracts/testing/MockIdentityRegistry.sol";
`,
  "contracts/AgentVault.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TrustGated} from "trustgate/contracts/TrustGated.sol";

contract AgentVault is TrustGated {
    uint256 public withdrawals;

    constructor(TrustGateConfig memory config, address owner) TrustGated(config, owner) {}

    function withdrawFor(uint256 agentId) external onlyTrustedAgent(agentId) {
        withdrawals += 1;
    }
}
`,
  "test/trustgate.test.ts": `import { expect } from "chai";
import { ethers } from "hardhat";
import { startBaseContext } from "trustgate/testing";

describe("trustgate from a Hardhat 2 TypeScript project", () => {
  it("gates AgentVault (TrustGated) with the kit's MockTrustOracle", async () => {
    const [owner] = await ethers.getSigners();
    const oracle = await ethers.deployContract("MockTrustOracle");
    const vault = await ethers.deployContract("AgentVault", [
      {
        oracle: await oracle.getAddress(),
        identityRegistry: ethers.ZeroAddress,
        agentChainId: 8453n,
        agentRegistry: "erc8004",
        policy: { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: false },
      },
      owner!.address,
    ]);
    await expect(vault.withdrawFor(7)).to.be.revertedWithCustomError(vault, "TrustRecordMissing");
    const now = (await ethers.provider.getBlock("latest"))!.timestamp;
    await oracle.setRecord(7, 8453, "erc8004", 40, 1, 0, now);
    await expect(vault.withdrawFor(7)).to.be.revertedWithCustomError(vault, "TrustScoreTooLow");
    await oracle.setRecord(7, 8453, "erc8004", 80, 3, 0, now);
    await vault.withdrawFor(7);
    expect(await vault.withdrawals()).to.equal(1n);
  });

  it("starts a Base context from trustgate/testing and changes one record", async () => {
    const base = await startBaseContext({ mode: "simulation" });
    try {
      expect(base.chainId).to.equal(8453);
      const key = base.sampleKeys[0]!;
      await base.setRecord(key, { score: 12 });
      expect((await base.readRecord(key)).score).to.equal(12);
    } finally {
      await base.close();
    }
  });
});
`,
  // The "one chain" setup of docs/testing.md: the Base context on Hardhat's own network (chain id 8453 in the config), so that
  // hardhat-ethers deploys on it and chai's matchers decode the gate's reverts there.
  "test/base-context-on-hardhat-network.test.ts": `import { expect } from "chai";
import { ethers, network } from "hardhat";
import { startBaseContext } from "trustgate/testing";

describe("the Base context on Hardhat's own network", () => {
  it("gates a vault deployed with hardhat-ethers on the context's oracle and registry", async () => {
    const base = await startBaseContext({ provider: network.provider });
    expect(base.mode).to.equal("simulation");
    expect((await ethers.provider.getNetwork()).chainId).to.equal(8453n);
    const [owner] = await ethers.getSigners();
    const policy = { minScore: 51, maxSybilSeverity: 2, maxAge: 36 * 3600, requireController: true };
    const config = { oracle: base.oracle, identityRegistry: base.identityRegistry, agentChainId: 8453n, agentRegistry: "erc8004", policy };
    const vault = await ethers.deployContract("AgentVault", [config, owner!.address]);
    const key = base.sampleKeys[0]!;
    const byController = vault.connect(await ethers.getSigner(await base.controllerOf(key.agentId))) as typeof vault;
    await base.setRecord(key, { score: 80 });
    await byController.withdrawFor(key.agentId);
    await base.setRecord(key, { score: 10 });
    await expect(byController.withdrawFor(key.agentId))
      .to.be.revertedWithCustomError(vault, "TrustScoreTooLow")
      .withArgs(key.agentId, 10, 51);
    await base.setRecord(key, { score: 80 });
    await expect(vault.withdrawFor(key.agentId)).to.be.revertedWithCustomError(vault, "NotAgentController"); // sent by owner
    expect(await vault.withdrawals()).to.equal(1n);
    await base.close();
  });
});
`,
  // docs/testing.md's first test, as a user pastes it into a Hardhat 2 test file (no top-level await: mocha
  // requires the file).
  "test/testing-doc.test.ts": testingDocTest(),
  // Type checks of every entry (compiled by tsc only: not a test file).
  "typecheck/entries.ts": `import { verifyTrustAttestation, type TrustAttestationVerification } from "trustgate";
import {
  createTrustEncoding,
  evaluateTrustPolicy,
  readGatePolicy,
  readTrustRecord,
  tierName,
  updatedAtDate,
  type AnyTrustgateError,
  type ReadTrustRecordParameters,
  type TrustRecord,
  type VerifyTrustAttestationParameters,
} from "trustgate";
import { createTrustEncoding as driftEncoding, runDrift, exitCodeOf, type DriftConfig, type DriftReport, type TrustEncoding } from "trustgate/drift";
import { deploy, loadDeployConfig, type DeployResult } from "trustgate/deploy";
import { readRefreshInputReport, refreshAttestedOracle, type RefreshAttestedOracleOptions, type RefreshPlan } from "trustgate/refresh";
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type AlertMessage, type WatchConfig } from "trustgate/watch";
import { startTrustService, createPopulation, type RunningTrustService } from "trustgate/service";
import { startBaseContext, type BaseContext } from "trustgate/testing";
import { startDemoDriftEnvironment, generateSigningKey } from "trustgate/harness";

export async function typed(config: DriftConfig): Promise<[DriftReport, 0 | 3 | 4, boolean]> {
  const report = await runDrift(config);
  const verdict = await verifyTrustAttestation({}, { issuer: "https://rnwy.com", jwks: { keys: [] } });
  const checked: TrustAttestationVerification = verdict;
  return [report, exitCodeOf(report), checked.valid];
}

// A drift configuration built from the declarations alone, its encoding among them.
const encoding: TrustEncoding = driftEncoding({ tiers: ["flagged", "limited", "developing", "established"] });
export const built: DriftConfig = {
  rpcUrl: "http://127.0.0.1:8545",
  oracle: "0xD5fdccD492bB5568bC7aeB1f1E888e0BbA6276f4",
  apiUrl: "http://127.0.0.1:8787",
  issuer: "http://127.0.0.1:8787",
  jwks: "http://127.0.0.1:8787/.well-known/jwks.json",
  scope: { kind: "all" },
  maxAgeSeconds: 36 * 3600,
  concurrency: 4,
  encoding,
};

// A read, a verification and a policy decision: what readTrustRecord returns is what evaluateTrustPolicy takes.
export async function decided(client: Parameters<typeof readTrustRecord>[0], gate: string): Promise<string> {
  const parameters: ReadTrustRecordParameters = { agentId: 16907n, chain: "base" };
  const read = await readTrustRecord(client, parameters);
  if (!read.ok) return read.error.failure;
  const record: TrustRecord = read;
  const { policy } = await readGatePolicy(client, { gate });
  const verification: VerifyTrustAttestationParameters = { issuer: "https://rnwy.com", jwks: { keys: [] } };
  const verdict = await verifyTrustAttestation({}, verification);
  const refusal = evaluateTrustPolicy(record, policy, Math.floor(Date.now() / 1000));
  return [refusal, tierName(read.tier, createTrustEncoding()), updatedAtDate(read)?.toISOString(), verdict.valid ? "valid" : verdict.reason].join(" ");
}

export function narrowed(error: AnyTrustgateError): string {
  return error.code === "DEPLOYMENT" ? error.reason : error.code === "ATTESTATION_INVALID" ? error.reason : error.shortMessage;
}

// A webhook receiver's check, and an alert's shape as the watch delivers it.
export function received(headers: Record<string, string | undefined>, rawBody: string, secret: string): AlertMessage | null {
  return verifyWebhookSignature({ rawBody, header: headers[WEBHOOK_SIGNATURE_HEADER], secret }) ? (JSON.parse(rawBody) as AlertMessage) : null;
}
export const watched: Pick<WatchConfig, "rpcUrl" | "confirmations"> = { rpcUrl: "http://127.0.0.1:8545", confirmations: 2 };

export const deployer: [typeof deploy, typeof loadDeployConfig, DeployResult | undefined] = [deploy, loadDeployConfig, undefined];

// A refresh planned from a drift report's text, with the options a keeper passes.
export async function planned(text: string, options: RefreshAttestedOracleOptions): Promise<RefreshPlan> {
  return (await refreshAttestedOracle(readRefreshInputReport(text, "report.json"), { ...options, dryRun: true })).plan;
}

export const starters: [() => Promise<RunningTrustService>, () => Promise<BaseContext>, typeof startDemoDriftEnvironment, typeof generateSigningKey] = [
  () => startTrustService({ population: createPopulation({ seed: 1, size: 10 }) }),
  () => startBaseContext(),
  startDemoDriftEnvironment,
  generateSigningKey,
];

// @ts-expect-error: the main entry exports the SDK only (no harness stand-ins).
import { startTrustService as notInTheKit } from "trustgate";
export const absent = notInTheKit;
`,
  "typecheck/tsconfig.node10.json": `{ "extends": "../tsconfig.json", "compilerOptions": { "module": "commonjs", "moduleResolution": "node10", "noEmit": true }, "files": ["entries.ts"] }\n`,
  "typecheck/tsconfig.bundler.json": `{ "extends": "../tsconfig.json", "compilerOptions": { "module": "esnext", "moduleResolution": "bundler", "noEmit": true }, "files": ["entries.ts"] }\n`,
  "typecheck/tsconfig.nodenext.json": `{ "extends": "../tsconfig.json", "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext", "noEmit": true }, "files": ["entries.ts"] }\n`,
  "typecheck/tsconfig.node16.json": `{ "extends": "../tsconfig.json", "compilerOptions": { "module": "node16", "moduleResolution": "node16", "noEmit": true }, "files": ["entries-esm.mts"] }\n`,
};

/** A plain Node ESM program using the main entry, and a CommonJS one requiring every entry. */
const NODE_PROGRAMS: Record<string, string> = {
  "esm.mjs": `import * as kit from "trustgate";
import { verifyTrustAttestation } from "trustgate";
import { runDrift } from "trustgate/drift";
import { deploy } from "trustgate/deploy";
import { refreshAttestedOracle } from "trustgate/refresh";
const verdict = await verifyTrustAttestation({ nope: true }, { issuer: "https://rnwy.com", jwks: { keys: [] } });
const zodSchemas = Object.keys(kit).filter((name) => typeof kit[name] === "object" && kit[name] !== null && "_zod" in kit[name]);
console.log(JSON.stringify({ keys: Object.keys(kit).sort(), zodSchemas, runDrift: typeof runDrift, deploy: typeof deploy, refresh: typeof refreshAttestedOracle, valid: verdict.valid }));
`,
  // Every entry package.json's exports name (patterns and package.json aside), required from CommonJS: an entry
  // with a top-level await on its require path fails with ERR_REQUIRE_ASYNC_MODULE.
  "require-entries.cjs": `const { exports: entries } = require("trustgate/package.json");
const required = {};
for (const key of Object.keys(entries).filter((key) => !key.includes("*") && !key.endsWith(".json"))) {
  const entry = key === "." ? "trustgate" : "trustgate/" + key.slice(2);
  required[entry] = Object.keys(require(entry)).length;
}
console.log(JSON.stringify(required));
`,
  // A keeper script outside the repository: reads a drift report and plans its refresh (a dry run sends nothing).
  "keeper.mjs": `import { readFile } from "node:fs/promises";
import { readRefreshInputReport, refreshAttestedOracle } from "trustgate/refresh";
const report = readRefreshInputReport(await readFile("report.json", "utf8"), "report.json");
const { plan, sent } = await refreshAttestedOracle(report, { dryRun: true, now: new Date(report.generatedAt) });
console.log(JSON.stringify({ due: plan.due.map((entry) => [entry.agent, entry.reasons]), batches: plan.totals.batches, sent: sent ?? null }));
`,
  // A webhook receiver outside the repository: checks the watch's signature header (the HMAC over "<t>.<raw body>")
  // on a body signed here, on the same body tampered with, and under another key.
  "receiver.mjs": `import { signWebhookBody, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "trustgate/watch";
const rawBody = JSON.stringify({ version: 1, kind: "pass-to-fail", state: "firing", id: "pass-to-fail:base:erc8004:7" });
const now = new Date("2026-11-29T03:05:00Z");
const header = signWebhookBody(rawBody, "s3cret", Math.floor(now.getTime() / 1000));
console.log(JSON.stringify({
  header: WEBHOOK_SIGNATURE_HEADER,
  valid: verifyWebhookSignature({ rawBody, header, secret: "s3cret", now }),
  tampered: verifyWebhookSignature({ rawBody: rawBody.replace("firing", "resolved"), header, secret: "s3cret", now }),
  otherKey: verifyWebhookSignature({ rawBody, header, secret: "other", now }),
}));
`,
  "report.json": JSON.stringify(driftReport([{ ...passToFail("7"), refresh: REFRESH_POSSIBLE }, passToFail("8")])),
  "cjs.cjs": `const kit = require("trustgate");
const drift = require("trustgate/drift");
const deployer = require("trustgate/deploy");
const refresh = require("trustgate/refresh");
const watch = require("trustgate/watch");
const service = require("trustgate/service");
const testing = require("trustgate/testing");
const harness = require("trustgate/harness");
console.log(JSON.stringify({
  kit: typeof kit.verifyTrustAttestation,
  drift: typeof drift.runDrift,
  deploy: typeof deployer.deploy,
  refresh: typeof refresh.refreshAttestedOracle,
  watch: typeof watch.runWatch,
  service: typeof service.startTrustService,
  testing: typeof testing.startBaseContext,
  harness: typeof harness.startDemoDriftEnvironment,
}));
`,
};

let work: string;
let checkout: string;
let tarball: string;
let hardhatProject: string;
let plainProject: string;
let linkedProject: string;
let checkoutBuiltAt: number;
let devnet: EmbeddedDriftEnvironment | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "trustgate-package-"));
  checkout = join(work, "trustgate");
  // A clean copy of the repository: what a checkout holds (tracked and unignored files).
  const files = (await must("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root)).stdout
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    cpSync(join(root, file), join(checkout, file));
  }
  // Build it with this repository's tools (read through a link, removed afterwards), then pack it.
  symlinkSync(join(root, "node_modules"), join(checkout, "node_modules"));
  try {
    await must("npm", ["run", "build"], checkout);
  } finally {
    unlinkSync(join(checkout, "node_modules"));
  }
  const packed = JSON.parse((await must("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], checkout)).stdout) as [
    { filename: string },
  ];
  tarball = join(work, packed[0].filename);
  // The checkout as a path dependency needs its own dependencies, as after `npm ci` there; and viem, the peer
  // dependency a linked folder cannot take from the project (Node resolves a linked package's imports from its real
  // folder): the checkout's development copy, read through a link.
  await must("npm", ["ci", "--offline", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], checkout);
  symlinkSync(join(root, "node_modules", "viem"), join(checkout, "node_modules", "viem"));

  hardhatProject = join(work, "hardhat-project");
  await installProject(
    hardhatProject,
    { trustgate: `file:../${packed[0].filename}`, ...HARDHAT_PROJECT_DEPENDENCIES },
    {
      "node_modules/trustgate": tarballEntry(tarball, `file:../${packed[0].filename}`),
    },
  );
  writeFiles(hardhatProject, { ...HARDHAT_PROJECT_FILES, ...NODE_PROGRAMS });
  writeFiles(hardhatProject, { "typecheck/entries-esm.mts": HARDHAT_PROJECT_FILES["typecheck/entries.ts"]! });

  plainProject = join(work, "plain-project");
  await installProject(
    plainProject,
    { trustgate: `file:../${packed[0].filename}` },
    {
      "node_modules/trustgate": tarballEntry(tarball, `file:../${packed[0].filename}`),
    },
  );
  writeFiles(plainProject, NODE_PROGRAMS);

  linkedProject = join(work, "linked-project");
  // `npm ci` runs a linked folder's `prepare`. The checkout is built and has no devDependencies: the install passes
  // only if prepare sees that dist/ is current and skips the build (checked below: dist/ is not rewritten).
  checkoutBuiltAt = statSync(join(checkout, "dist/.build-complete")).mtimeMs;
  await installProject(
    linkedProject,
    { trustgate: "file:../trustgate", ...HARDHAT_PROJECT_DEPENDENCIES },
    {
      "node_modules/trustgate": { resolved: "../trustgate", link: true },
      "../trustgate": {
        name: repoPackage.name,
        version: repoPackage.version,
        license: repoPackage.license,
        dependencies: repoPackage.dependencies,
        peerDependencies: repoPackage.peerDependencies,
        peerDependenciesMeta: repoPackage.peerDependenciesMeta,
        bin: repoPackage.bin,
        engines: repoPackage.engines,
      },
    },
  );
  writeFiles(linkedProject, { ...HARDHAT_PROJECT_FILES, ...NODE_PROGRAMS });
}, 1_500_000);

afterAll(async () => {
  await devnet?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  // Removing the three installed projects (tens of thousands of files) can outlast the default hook time-out on a busy machine.
}, 600_000);

describe("the packed tarball", () => {
  it("holds the built kit and harness, the contracts users import, and none of the repository's own tests", async () => {
    const listing = (await must("tar", ["-tzf", tarball], work)).stdout.split("\n");
    for (const file of [
      "package/package.json",
      "package/dist/index.js",
      "package/dist/index.d.ts",
      "package/dist/cli/bin.js",
      "package/dist/harness/index.js",
      "package/dist/harness/service/index.js",
      "package/dist/harness/testing/index.d.ts",
      "package/dist/harness/testing/index.d.cts",
      "package/tools/foundry/solc",
      "package/contracts/TrustGated.sol",
      "package/contracts/testing/MockTrustOracle.sol",
    ]) {
      expect(listing, file).toContain(file);
    }
    expect(
      listing.filter(
        (file) =>
          /^package\/(contracts\/test|test|scripts|node_modules|artifacts|typechain-types)\//.test(file) &&
          file !== "package/scripts/prepare.mjs", // the prepare script package.json names, a no-op once installed
      ),
    ).toEqual([]);
    expect(listing).not.toContain("package/dist/.build-complete");
  });
});

describe("a Hardhat 2 TypeScript project (CommonJS, ts-node) with the tarball", () => {
  it("(a, b) with the README's config, compiles a TrustGated contract and the kit's mocks, and runs a test importing trustgate/testing, type-checked", async () => {
    expect(JSON.parse(HARDHAT_INIT_TSCONFIG)).toMatchObject({ compilerOptions: { module: "Node16", moduleResolution: "Node16" } });
    const result = await run("npx", ["hardhat", "test", "--typecheck"], hardhatProject);
    expect(result.code, withoutNpmNoise(result.stdout + result.stderr)).toBe(0);
    expect(result.stdout).toMatch(/4 passing/);
    expect(result.stdout).toContain("gates a vault deployed with hardhat-ethers on the context's oracle and registry");
    expect(result.stdout).toContain("sets, backdates and clears one record, and acts as its agent's controller"); // docs/testing.md's test
    expect(existsSync(join(hardhatProject, "artifacts/contracts/AgentVault.sol/AgentVault.json"))).toBe(true);
    for (const mock of ["MockTrustOracle", "MockIdentityRegistry"])
      expect(existsSync(join(hardhatProject, `artifacts/trustgate/contracts/testing/${mock}.sol/${mock}.json`)), mock).toBe(true);
  }, 600_000);

  it("type-checks every entry under npx hardhat init's tsconfig (Node16, CommonJS), node10 (typesVersions), bundler, node16 (ESM) and nodenext (CommonJS)", async () => {
    for (const project of [
      "tsconfig.json",
      "typecheck/tsconfig.node10.json",
      "typecheck/tsconfig.bundler.json",
      "typecheck/tsconfig.node16.json",
      "typecheck/tsconfig.nodenext.json",
    ]) {
      const result = await run("npx", ["tsc", "--noEmit", "-p", project], hardhatProject);
      expect(result.code, `${project}: ${withoutNpmNoise(result.stdout + result.stderr)}`).toBe(0);
    }
  }, 600_000);

  it("(c) runs the main entry from plain Node ESM (exactly the kit's exports) and every entry from CommonJS", async () => {
    const esm = JSON.parse((await must("node", ["esm.mjs"], hardhatProject)).stdout) as {
      keys: string[];
      zodSchemas: string[];
      runDrift: string;
      valid: boolean;
    };
    expect(esm.keys).toEqual(await runtimeNamesOf("trustgate"));
    expect(esm.keys.length).toBeLessThanOrEqual(MAX_MAIN_ENTRY_NAMES);
    expect(esm).toMatchObject({ zodSchemas: [], runDrift: "function", deploy: "function", refresh: "function", valid: false });
    const cjs = await must("node", ["cjs.cjs"], hardhatProject);
    expect(JSON.parse(cjs.stdout)).toEqual({
      kit: "function",
      drift: "function",
      deploy: "function",
      refresh: "function",
      watch: "function",
      service: "function",
      testing: "function",
      harness: "function",
    });
    expect(cjs.stderr).toBe("");
  }, 300_000);

  it("(d) npx trustgate --help prints the help, and drift --rpc --api reports on this repository's devnet", async () => {
    const help = await run("npx", ["trustgate", "--help"], hardhatProject);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(MAIN_HELP);

    devnet = await startEmbeddedDriftEnvironment({ seed: 4, size: 200 });
    // No client-side rate limit against the local service (the default for a real API is 30 requests a minute).
    const args = [
      "trustgate",
      "drift",
      "--rpc",
      devnet.rpcUrl,
      "--api",
      devnet.apiUrl,
      "--all",
      "--rate",
      "100000",
      "--max-errors",
      "20",
      "--json",
      "-",
    ];
    const drift = await run("npx", args, hardhatProject);
    expect(drift.code, withoutNpmNoise(drift.stderr)).toBe(3); // the devnet's scenario holds decision flips
    const report = JSON.parse(drift.stdout) as DriftReport;
    expect(report.source).toMatchObject({ rpc: devnet.rpcUrl, api: devnet.apiUrl, chainId: 8453 });
    expect(report.summary.agents).toBeGreaterThanOrEqual(200);
    expect(report.summary.flips.passToFail + report.summary.flips.failToPass).toBeGreaterThan(0);
  }, 300_000);

  it("(e) drift --demo runs the embedded environment (Hardhat installed; the project's hardhat.config.ts is not read)", async () => {
    const demo = await run("npx", ["trustgate", "drift", "--demo", "--quiet"], hardhatProject);
    expect(demo.code, withoutNpmNoise(demo.stderr)).toBe(3);
    expect(demo.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /^DRIFT: \d+ gate decisions? flips? and \d+ attestations? (?:is|are) invalid \(exit 3\)$/,
    );
  }, 300_000);
});

describe("a project with the tarball and without Hardhat", () => {
  it("has no Hardhat: it is an optional peer dependency", () => {
    expect(existsSync(join(plainProject, "node_modules/hardhat"))).toBe(false);
    expect(existsSync(join(plainProject, "node_modules/@openzeppelin/contracts/package.json"))).toBe(true);
  });

  it("(e) drift --demo exits 2 with one line naming what to install; drift without --rpc/--api/--demo is a usage error", async () => {
    const demo = await run(join(plainProject, "node_modules/.bin/trustgate"), ["drift", "--demo"], plainProject);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toBe(`trustgate: ${DEMO_NEEDS_HARDHAT}\n`);
    expect(demo.stdout).toBe("");
    const viaNpx = await run("npx", ["trustgate", "drift", "--demo"], plainProject);
    expect(viaNpx.code).toBe(2);
    expect(withoutNpmNoise(viaNpx.stderr)).toBe(`trustgate: ${DEMO_NEEDS_HARDHAT}\n`);
    const bare = await run(join(plainProject, "node_modules/.bin/trustgate"), ["drift"], plainProject);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^trustgate: Give --rpc and --api .* or --demo .*\n$/);
  }, 300_000);

  it("(c) loads every entry, ESM and CommonJS; the harness's chain says what to install", async () => {
    const esm = JSON.parse((await must("node", ["esm.mjs"], plainProject)).stdout) as { keys: string[] };
    expect(esm.keys).toEqual(await runtimeNamesOf("trustgate"));
    const required = await must("node", ["require-entries.cjs"], plainProject);
    expect(required.stderr).not.toContain("ERR_REQUIRE_ASYNC_MODULE");
    const counts = JSON.parse(required.stdout) as Record<string, number>;
    expect(Object.keys(counts)).toEqual([
      "trustgate",
      "trustgate/drift",
      "trustgate/deploy",
      "trustgate/refresh",
      "trustgate/watch",
      "trustgate/service",
      "trustgate/testing",
      "trustgate/harness",
    ]);
    for (const [entry, names] of Object.entries(counts)) expect(names, entry).toBeGreaterThan(0);
    expect(JSON.parse((await must("node", ["cjs.cjs"], plainProject)).stdout)).toEqual({
      kit: "function",
      drift: "function",
      deploy: "function",
      refresh: "function",
      watch: "function",
      service: "function",
      testing: "function",
      harness: "function",
    });
    const program = `require("trustgate/testing").startBaseContext({ mode: "simulation" }).then(
  () => console.log("started"),
  (error) => console.log(JSON.stringify({ code: error.code, message: error.shortMessage })),
);`;
    const attempt = JSON.parse((await must("node", ["-e", program], plainProject)).stdout) as { code: string; message: string };
    expect(attempt.code).toBe("CONFIGURATION");
    expect(attempt.message).toContain(
      `needs the optional peer dependency hardhat: npm install --save-dev hardhat@${HARDHAT3_PEER_VERSION} (Hardhat 3, Node 22 or later) or hardhat@${HARDHAT_PROJECT_DEPENDENCIES.hardhat} (Hardhat 2)`,
    );
  }, 300_000);
});

describe("a keeper script outside the repository, with the tarball", () => {
  it("imports trustgate/refresh and plans a drift report's refresh: the refreshable flip is due, the other row not", async () => {
    const keeper = await must("node", ["keeper.mjs"], plainProject);
    expect(keeper.stderr).toBe("");
    expect(JSON.parse(keeper.stdout)).toEqual({ due: [["base:7:erc8004", ["decision-flip", "score-change"]]], batches: 1, sent: null });
  }, 120_000);
});

describe("a webhook receiver outside the repository, with the tarball", () => {
  it("imports trustgate/watch and verifies an alert's signature: the signed body passes, a tampered body and another key do not", async () => {
    const receiver = await must("node", ["receiver.mjs"], plainProject);
    expect(receiver.stderr).toBe("");
    expect(JSON.parse(receiver.stdout)).toEqual({ header: "x-trustgate-signature", valid: true, tampered: false, otherKey: false });
  }, 120_000);
});

describe("a Hardhat project with the checkout as a path dependency (file:../trustgate)", () => {
  it("installs without rebuilding the kit: its prepare script finds dist/ current", () => {
    expect(statSync(join(checkout, "dist/.build-complete")).mtimeMs).toBe(checkoutBuiltAt);
  });

  it("links it, and (a, b) compiles and runs the same Hardhat test with the project's Hardhat", async () => {
    const result = await run("npx", ["hardhat", "test"], linkedProject);
    expect(result.code, withoutNpmNoise(result.stdout + result.stderr)).toBe(0);
    expect(result.stdout).toMatch(/4 passing/);
    expect(result.stdout).toContain("gates a vault deployed with hardhat-ethers on the context's oracle and registry");
    expect(result.stdout).toContain("sets, backdates and clears one record, and acts as its agent's controller"); // docs/testing.md's test
    expect(existsSync(join(checkout, "node_modules/hardhat"))).toBe(false); // only the project's Hardhat exists
  }, 600_000);

  it("(c, d, e) loads the main entry from ESM, prints the help and runs a --demo scan", async () => {
    const esm = JSON.parse((await must("node", ["esm.mjs"], linkedProject)).stdout) as { keys: string[] };
    expect(esm.keys).toEqual(await runtimeNamesOf("trustgate"));
    const help = await run("npx", ["trustgate", "--help"], linkedProject);
    expect(help.stdout).toBe(MAIN_HELP);
    const demo = await run("npx", ["trustgate", "drift", "--demo", "--agents", "base:1,base:2", "--json", "-"], linkedProject);
    expect([3, 4], withoutNpmNoise(demo.stderr)).toContain(demo.code);
    expect((JSON.parse(demo.stdout) as DriftReport).summary.agents).toBe(2);
  }, 300_000);
});
