/**
 * The package's contracts under the toolchains' default compiler settings: Hardhat 2, Hardhat 3's `default` build
 * profile and Foundry all compile with the optimizer off and the legacy code generator (no `viaIR`). Each file of
 * `contracts/` that the package ships (not `contracts/fixtures`) is compiled alone, as a user's project that imports only
 * it would (solc stops at the first "Stack too deep", so one compilation of everything would name one file only).
 *
 * Every file compiles so, except those that hold OpenZeppelin's Solidity P-256 fallback (`P256Verifier`,
 * `AttestedTrustOracle`, which deploys it, and `HeldFirstAttestedTrustOracle`, which derives from it): OpenZeppelin's
 * `P256._jAdd` is too deep for the stack without the optimizer. docs/onchain-attestations.md ("Compiler settings") names the setting and quotes the error; this file pins both, and
 * checks the quoted text against what Hardhat 2 prints in a fresh project.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CODE_BYTES } from "../../src/oracle/deployless-budget";
import { runChild } from "../support/child-run";
import { compileWithSolc, type CompileResult } from "../support/solc-standard-json";

const ROOT = resolve(__dirname, "../..");
const OPTIMIZER_OFF = { optimizer: { enabled: false } } as const;

/** The files that compile only with the optimizer: those whose code holds OpenZeppelin's `P256.verify`. */
const OPTIMIZER_REQUIRED = [
  "contracts/attestation/P256Verifier.sol",
  "contracts/oracle/AttestedTrustOracle.sol",
  "contracts/oracle/HeldFirstAttestedTrustOracle.sol",
];
const P256_SOURCE = "@openzeppelin/contracts/utils/cryptography/P256.sol";
const ORACLE = "contracts/oracle/AttestedTrustOracle.sol";
const HELD_FIRST_ORACLE = "contracts/oracle/HeldFirstAttestedTrustOracle.sol";

/** The package's Solidity files (`contracts/`, less the kit's own fixtures in `contracts/fixtures`), as source names. */
function packageContracts(dir = join(ROOT, "contracts")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(ROOT, "contracts/fixtures") ? [] : packageContracts(path);
    return entry.name.endsWith(".sol") ? [relative(ROOT, path)] : [];
  });
}

const compileAlone = (file: string, settings: Parameters<typeof compileWithSolc>[1]): CompileResult =>
  compileWithSolc({ [file]: readFileSync(join(ROOT, file), "utf8") }, settings);

/** The page that names the compiler setting the attested oracle needs, and quotes the error without it. */
const SETTINGS_PAGE = "docs/onchain-attestations.md";

/** The page's quoted compiler output: the lines of the `text` block holding "Stack too deep", less the "…". */
function documentedQuotedError(): string[] {
  const page = readFileSync(join(ROOT, SETTINGS_PAGE), "utf8");
  const at = page.indexOf("CompilerError: Stack too deep");
  const start = page.lastIndexOf("```text\n", at);
  const end = page.indexOf("\n```", at);
  expect(at > 0 && start >= 0 && end > at, `${SETTINGS_PAGE} quotes the compiler's error in a text block`).toBe(true);
  const block = page.slice(start + "```text\n".length, end);
  return block.split("\n").filter((line) => line.trim() !== "" && line.trim() !== "…");
}

describe("the package's contracts under the default compiler settings (optimizer off, no viaIR)", () => {
  const files = packageContracts();
  const unoptimized = new Map(files.map((file) => [file, compileAlone(file, OPTIMIZER_OFF)]));

  it("finds the package's contracts", () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
    expect(files).toContain(ORACLE);
    expect(files).toContain("contracts/TrustGated.sol");
  });

  it("compiles every file but those holding the P-256 fallback, which fail only inside OpenZeppelin's P256", () => {
    const failing = files.filter((file) => unoptimized.get(file)!.errors.length > 0);
    expect(failing.sort()).toEqual([...OPTIMIZER_REQUIRED].sort());
    for (const file of OPTIMIZER_REQUIRED) {
      const errors = unoptimized.get(file)!.errors;
      expect(errors.map((e) => [e.file, e.message.includes("Stack too deep")])).toEqual([[P256_SOURCE, true]]);
    }
  });

  it("keeps every contract that compiles so under EIP-170, so default networks deploy it", () => {
    const sizes = [...unoptimized.values()].flatMap((result) => Object.entries(result.runtimeBytes));
    expect(sizes.length).toBeGreaterThanOrEqual(10);
    for (const [contract, bytes] of sizes) expect(bytes, contract).toBeLessThanOrEqual(MAX_CODE_BYTES);
  });

  it("quotes solc's error in the manual as solc gives it", () => {
    const [message, location] = unoptimized.get(ORACLE)!.errors[0]!.formattedMessage.split("\n");
    const quoted = documentedQuotedError();
    expect(quoted).toContain(message);
    expect(quoted).toContain(location);
  });
});

describe("the files that need the optimizer", () => {
  it("compile with it at 200 runs (Hardhat 3's production profile), the oracle's runtime code under EIP-170", () => {
    const oracle = compileAlone(ORACLE, { optimizer: { enabled: true, runs: 200 } });
    expect(oracle.errors).toEqual([]);
    expect(oracle.runtimeBytes.AttestedTrustOracle).toBeLessThan(MAX_CODE_BYTES);
    const heldFirst = compileAlone(HELD_FIRST_ORACLE, { optimizer: { enabled: true, runs: 200 } });
    expect(heldFirst.errors).toEqual([]);
    expect(heldFirst.runtimeBytes.HeldFirstAttestedTrustOracle).toBeLessThan(MAX_CODE_BYTES);
    expect(compileAlone("contracts/attestation/P256Verifier.sol", { optimizer: { enabled: true, runs: 200 } }).errors).toEqual([]);
  });

  it("compile with it at the kit's 10,000 runs, each oracle's runtime code under EIP-170 (this repository's artifacts)", () => {
    for (const name of ["AttestedTrustOracle", "HeldFirstAttestedTrustOracle"]) {
      const artifact = JSON.parse(readFileSync(join(ROOT, `artifacts/contracts/oracle/${name}.sol/${name}.json`), "utf8")) as {
        deployedBytecode: string;
      };
      expect((artifact.deployedBytecode.length - 2) / 2, name).toBeLessThan(MAX_CODE_BYTES);
    }
  });

  it("need it for the oracle's own code too: without OpenZeppelin's fallback the oracle compiles, over EIP-170", () => {
    // P256Verifier with the precompile alone (no Solidity fallback, so no P256._jAdd): what the oracle would be if
    // the fallback were written to compile without the optimizer. Its runtime code still could not be deployed.
    const precompileOnly = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
contract P256Verifier {
    function verify(bytes32 h, bytes32 r, bytes32 s, bytes32 x, bytes32 y) external view returns (bool) {
        return P256.verifyNative(h, r, s, x, y);
    }
}
`;
    const oracle = compileAlone(ORACLE, {
      ...OPTIMIZER_OFF,
      replacedImports: { "contracts/attestation/P256Verifier.sol": precompileOnly },
    });
    expect(oracle.errors).toEqual([]);
    expect(oracle.runtimeBytes.AttestedTrustOracle).toBeGreaterThan(MAX_CODE_BYTES);
  });
});

/** Runs Hardhat 2's CLI in a project (without colours: a CI environment turns them on); its exit code and output. */
async function hardhat(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const run = await runChild(process.execPath, [join(ROOT, "node_modules/hardhat/internal/cli/cli.js"), ...args], cwd, { env });
  return { code: run.code, output: `${run.stdout}${run.stderr}` };
}

/**
 * A fresh Hardhat 2 project with its defaults (optimizer off, the default network's EIP-170 check) but the kit's
 * EVM version, that deploys `AttestedTrustOracle` from the package (`trustgate/contracts/…`). The compiler is the
 * `solc` package's solc-js build, since no compiler can be downloaded here; `VIA_IR=1` turns `viaIR` on.
 */
function createHardhatProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "trustgate-defaults-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/trustgate"), "dir");
  for (const name of ["@openzeppelin", "@nomicfoundation", "hardhat", "solc", "ethers"]) {
    symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  mkdirSync(join(dir, "contracts"));
  writeFileSync(
    join(dir, "contracts/Oracles.sol"),
    '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\nimport {AttestedTrustOracle} from "trustgate/contracts/oracle/AttestedTrustOracle.sol";\n',
  );
  writeFileSync(
    join(dir, "hardhat.config.js"),
    `require("@nomicfoundation/hardhat-ethers");
const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async () => ({
  compilerPath: require.resolve("solc/soljson.js"),
  isSolcJs: true,
  version: "0.8.28",
  longVersion: require("solc").version(),
}));
module.exports = { solidity: { version: "0.8.28", settings: { evmVersion: "cancun", viaIR: process.env.VIA_IR === "1" } } };
`,
  );
  writeFileSync(
    join(dir, "deploy.js"),
    `const hre = require("hardhat");
hre.ethers.getSigners().then(async ([admin]) => {
  const oracle = await hre.ethers.deployContract("AttestedTrustOracle", [admin.address, hre.ethers.ZeroAddress]);
  await oracle.waitForDeployment();
  console.log("deployed");
}).catch((error) => {
  console.log("deployment failed: " + error.message);
  process.exitCode = 1;
});
`,
  );
  return dir;
}

describe("a fresh Hardhat 2 project with its default settings, deploying AttestedTrustOracle", () => {
  let project: string;
  beforeAll(() => {
    project = createHardhatProject();
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("fails to compile with the error the manual quotes", async () => {
    const run = await hardhat(project, ["compile"]);
    expect(run.code).not.toBe(0);
    for (const line of documentedQuotedError()) expect(run.output, line).toContain(line);
  });

  it("with viaIR alone compiles, and the default network refuses the deployment as the manual says", async () => {
    const compile = await hardhat(project, ["compile"], { VIA_IR: "1" });
    expect(compile.code, compile.output).toBe(0);
    expect(compile.output).toContain("exceeds 24576 bytes");
    const deploy = await hardhat(project, ["run", "deploy.js"], { VIA_IR: "1" });
    expect(deploy.code).not.toBe(0);
    // The creation code holds the two contracts the oracle deploys, so the first limit it meets is EIP-3860's.
    const refusal = "The max length allowed by EIP-3860 is 49152";
    expect(deploy.output).toContain(refusal);
    expect(readFileSync(join(ROOT, SETTINGS_PAGE), "utf8").replace(/\s+/g, " ")).toContain(refusal);
  }, 180_000);
});
