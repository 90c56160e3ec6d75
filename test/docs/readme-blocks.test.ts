// Every code block of the documentation (README.md, CHANGELOG.md, CONTRIBUTING.md, docs/*.md) runs (or is marked, with a reason, as one that cannot):
//
// - `ts`: written to a file with its `trustgate…` imports mapped to this repository's sources (through the
//   package's own "exports" map), run with tsx against the local signing service and the local Base simulation
//   started here: TRUSTGATE_API_URL and BASE_RPC_URL point at them, as a user's environment would point at the
//   real ones (the examples fall back to https://rnwy.com and viem's Base RPC when they are unset);
// - `solidity`: compiled (solc, the kit's contracts and OpenZeppelin resolved as a user's project would), with no
//   error and no warning; every Solidity block, a Foundry project's files included, opens with an SPDX line and a pragma;
// - a block marked `<!-- doc-test: foundry: <path> -->` is that file of a Foundry project (any language: a contract, a
//   test, `foundry.toml`, `remappings.txt`): the marked blocks of a document make one fresh project, with the kit
//   and OpenZeppelin installed from npm into `node_modules` (test/support/foundry-project.ts), and its forge tests
//   run, without `BASE_RPC_URL` and then with `BASE_RPC_URL` at a local chain holding the reference oracle at the
//   Base oracle's address (a fork test forks it); skipped, with the reason in its name, where forge is absent;
// - a block marked `<!-- doc-test: hardhat3: <path> -->` is that file of the one Hardhat 3 project the documents
//   describe together (the config, a contract, a node:test or Solidity test): run elsewhere, by test/package/hardhat3-project.test.ts, which writes the marked
//   blocks into a Hardhat 3 project installed from the packed kit and runs `npx hardhat test` there (Node 22);
// - a block with no language (or `text`) is program output, not code;
// - anything else (`sh`, `json`, `jsonc`, …), and any block that truly cannot run here (a real Base RPC, a real
//   key), needs `<!-- doc-test: skip: <reason> -->` on the line before it. An unmarked block that does not run
//   fails this test.
//
// Running is not all: test/docs/block-types.test.ts type-checks every `ts` block, skipped or not, and
// test/docs/shell-blocks.test.ts parses every shell block's command lines with the programs' own parsers.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWalletClient, parseAbi } from "viem";
import { base as baseChain } from "viem/chains";
import { startBaseSimulation } from "../../src/harness/devnet/base-simulation";
import { startEmbeddedDriftEnvironment } from "../../src/harness/devnet/embedded-drift";
import { revertDecodingTransport } from "../../src/harness/devnet/revert-transport";
import { docBlocks, docProjectFiles, DOCUMENTS } from "../support/doc-blocks";
import { packageEntrySources } from "../support/snippet-typecheck";
import {
  createFoundryProject,
  declaredForgeTests,
  type FoundryProject,
  forgeBinary,
  forgeTestResults,
  forgeUnavailableReason,
} from "../support/foundry-project";

const ROOT = resolve(__dirname, "../..");
const OUTPUT_LANGUAGES = new Set(["", "text"]);

const BLOCKS = DOCUMENTS.flatMap(docBlocks);

function rewriteImports(code: string, entries: Map<string, string>): string {
  return code.replace(/from\s+"(trustgate(?:\/[^"]+)?)"/g, (_whole, specifier: string) => {
    const target = entries.get(specifier);
    if (!target) throw new Error(`import of "${specifier}" maps to no entry of package.json's exports`);
    return `from ${JSON.stringify(target)}`;
  });
}

/**
 * The block as a CommonJS module (the package has no "type": "module", so tsx loads its sources as CommonJS):
 * its imports first, the rest inside an async function, so that top-level await works; a rejection exits 1.
 */
function asModule(code: string): string {
  const imports: string[] = [];
  const body: string[] = [];
  let inImport = false;
  for (const line of code.split("\n")) {
    if (inImport || /^import\s/.test(line)) {
      imports.push(line);
      inImport = !/;\s*$/.test(line);
    } else body.push(line);
  }
  return `${imports.join("\n")}\nvoid (async () => {\n${body.join("\n")}\n})().catch((error: unknown) => {\n  console.error(error);\n  process.exit(1);\n});\n`;
}

function runTs(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Compiles a Solidity block with the kit's sources and OpenZeppelin resolved as in a user's project: its errors and warnings. */
function compileSolidity(source: string): string[] {
  const require = createRequire(__filename);
  const solc = require("solc") as {
    compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
  };
  const input = {
    language: "Solidity",
    sources: { "Example.sol": { content: source } },
    settings: { evmVersion: "cancun", outputSelection: { "Example.sol": { "*": ["abi"] } } },
  };
  const findImport = (path: string) => {
    const file = path.startsWith("trustgate/contracts/")
      ? join(ROOT, path.slice("trustgate/".length))
      : path.startsWith("@openzeppelin/")
        ? join(ROOT, "node_modules", path)
        : undefined;
    if (!file) return { error: `cannot resolve ${path}` };
    try {
      return { contents: readFileSync(file, "utf8") };
    } catch {
      return { error: `not found: ${path}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
  };
  return (output.errors ?? []).map((e) => e.formattedMessage);
}

describe("the documents' code blocks", () => {
  it("are found, and each is runnable code, output, or marked with a reason", () => {
    expect(BLOCKS.filter((b) => b.lang === "ts").length).toBeGreaterThanOrEqual(6);
    const unmarked = BLOCKS.filter(
      (b) =>
        !OUTPUT_LANGUAGES.has(b.lang) &&
        b.lang !== "ts" &&
        b.lang !== "solidity" &&
        b.skip === undefined &&
        b.foundry === undefined &&
        b.hardhat3 === undefined,
    );
    expect(unmarked.map((b) => `${b.file}:${b.line} (${b.lang}) does not run and is not marked <!-- doc-test: skip: <reason> -->`)).toEqual(
      [],
    );
    const placeholders = BLOCKS.filter(
      (b) => (b.lang === "ts" || b.lang === "solidity") && b.skip === undefined && /["'`][^"'`\n]*…[^"'`\n]*["'`]/.test(b.code),
    );
    expect(placeholders.map((b) => `${b.file}:${b.line} holds a placeholder that cannot run`)).toEqual([]);
  });

  it("open every Solidity block with an SPDX license line and a pragma, so that a copied snippet compiles clean", () => {
    const solidity = BLOCKS.filter((b) => b.lang === "solidity" && b.skip === undefined);
    expect(solidity.length).toBeGreaterThanOrEqual(5);
    const bare = solidity.filter((b) => !/^\/\/ SPDX-License-Identifier: \S+\npragma solidity [^;]+;\n/.test(b.code));
    expect(bare.map((b) => `${b.file}:${b.line} does not open with // SPDX-License-Identifier and pragma solidity`)).toEqual([]);
  });

  describe("solidity", () => {
    const blocks = BLOCKS.filter(
      (b) => b.lang === "solidity" && b.skip === undefined && b.foundry === undefined && b.hardhat3 === undefined,
    );
    it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))(
      "%s compiles against the kit's contracts, without a warning",
      (_name, block) => {
        expect(compileSolidity(block.code)).toEqual([]);
      },
    );
  });

  it("mark one Hardhat 3 project across the documents (run by test/package/hardhat3-project.test.ts): config, contract, node:test and Solidity tests", () => {
    const paths = Object.keys(docProjectFiles(DOCUMENTS, "hardhat3"));
    expect(paths).toEqual(expect.arrayContaining(["hardhat.config.ts", "contracts/AgentVault.sol"]));
    expect(paths.filter((path) => /^test\/.+\.test\.ts$/.test(path)).length).toBeGreaterThanOrEqual(2);
    expect(paths.some((path) => /^test\/.+\.t\.sol$/.test(path))).toBe(true);
  });

  const FORGE = forgeBinary();
  const FOUNDRY_DOCS = [...new Set(BLOCKS.filter((b) => b.foundry !== undefined).map((b) => b.file))];
  for (const doc of FOUNDRY_DOCS) {
    const files = docProjectFiles(doc, "foundry");
    const title = FORGE
      ? `${doc}: the Foundry project of its marked blocks`
      : `${doc}: the Foundry project of its marked blocks (skipped: ${forgeUnavailableReason()})`;
    describe.skipIf(!FORGE)(title, () => {
      const declared = declaredForgeTests(files);
      const forkSuites = Object.entries(files)
        .filter(([, text]) => /skipUnlessBaseFork\(\)/.test(text))
        .flatMap(([path]) => Object.keys(declared).filter((suite) => suite.startsWith(`${path}:`)));
      let project: FoundryProject;
      let chain: Awaited<ReturnType<typeof startBaseSimulation>>;
      let forkBlock: number;

      beforeAll(async () => {
        // A local chain with the reference oracle at the Base oracle's address: agents 1-8 on Base (erc8004) hold a
        // record and are registered in the ERC-8004 stand-in, owned by the node's accounts 1-4.
        chain = await startBaseSimulation({ http: true });
        const now = await chain.latestTimestamp();
        await chain.publish(
          Array.from({ length: 8 }, (_, i) => ({
            agentId: i + 1,
            chainId: 8453,
            registry: "erc8004",
            score: 40 + i * 7,
            tier: i < 2 ? 1 : i < 6 ? 2 : 3,
            sybilSeverity: i % 3,
            updatedAt: now - 3600 * (i + 1),
          })),
        );
        const wallet = createWalletClient({ chain: baseChain, transport: revertDecodingTransport(chain.provider) });
        const registry = parseAbi(["function registerWithId(address owner, uint256 agentId)"]);
        for (let id = 1; id <= 8; id++) {
          await wallet.writeContract({
            account: chain.publisher,
            address: chain.identityRegistry,
            abi: registry,
            functionName: "registerWithId",
            args: [chain.accounts[1 + ((id - 1) % 4)]!, BigInt(id)],
          });
        }
        forkBlock = Number(BigInt((await chain.provider.request({ method: "eth_blockNumber", params: [] })) as string));
        project = createFoundryProject(files, FORGE!);
      }, 300_000);
      afterAll(async () => {
        project?.remove();
        await chain?.close();
      });

      it("has a foundry.toml, remappings.txt, a contract and a test", () => {
        expect(Object.keys(files)).toEqual(expect.arrayContaining(["foundry.toml", "remappings.txt"]));
        expect(Object.keys(files).some((path) => path.startsWith("src/") && path.endsWith(".sol"))).toBe(true);
        expect(Object.keys(declared).length).toBeGreaterThanOrEqual(1);
      });

      it("passes without BASE_RPC_URL (the simulation), its fork tests skipped with their reason", async () => {
        const run = await project.forge(["test", "--json"], { BASE_RPC_URL: "" });
        expect(run.code, `${run.stderr}\n${run.stdout.slice(0, 4000)}`).toBe(0);
        const results = forgeTestResults(run.stdout);
        for (const [suite, tests] of Object.entries(declared)) {
          if (forkSuites.includes(suite)) {
            expect(results[suite]?.["setUp()"]?.status, suite).toBe("Skipped");
            expect(results[suite]?.["setUp()"]?.reason, suite).toContain("fork test: no BASE_RPC_URL");
            continue;
          }
          expect(Object.keys(results[suite] ?? {}).sort(), suite).toEqual([...tests].sort());
          for (const test of tests)
            expect(results[suite]![test]!.status, `${suite} ${test}: ${results[suite]![test]!.reason}`).toBe("Success");
        }
      }, 600_000);

      it("passes with BASE_RPC_URL at a local chain holding the oracle at the Base address, which its fork tests fork", async () => {
        const env = { BASE_RPC_URL: chain.rpcUrl!, BASE_FORK_BLOCK: String(forkBlock) };
        const run = await project.forge(["test", "--json", "--no-storage-caching"], env);
        expect(run.code, `${run.stderr}\n${run.stdout.slice(0, 4000)}`).toBe(0);
        const results = forgeTestResults(run.stdout);
        for (const [suite, tests] of Object.entries(declared)) {
          expect(Object.keys(results[suite] ?? {}).sort(), suite).toEqual([...tests].sort());
          for (const test of tests)
            expect(results[suite]![test]!.status, `${suite} ${test}: ${results[suite]![test]!.reason}`).toBe("Success");
        }
        expect(forkSuites.length).toBeGreaterThanOrEqual(1);
      }, 600_000);

      it("fails its fork tests when BASE_RPC_URL names no node (they really fork what it names)", async () => {
        if (forkSuites.length === 0) return;
        const env = { BASE_RPC_URL: "http://127.0.0.1:9", BASE_FORK_BLOCK: String(forkBlock) };
        const run = await project.forge(["test", "--json", "--no-storage-caching", "--match-path", forkSuites[0]!.split(":")[0]!], env);
        expect(run.code).not.toBe(0);
      }, 600_000);
    });
  }

  describe("ts, against the local service and the local Base simulation", () => {
    let env: Awaited<ReturnType<typeof startEmbeddedDriftEnvironment>>;
    let dir: string;
    const entries = packageEntrySources();
    beforeAll(async () => {
      env = await startEmbeddedDriftEnvironment({
        size: 300,
        documentedAgents: true,
        faults: false,
        delisted: 0,
        staleChain: null,
        rateLimit: false,
      });
      dir = mkdtempSync(join(ROOT, ".doc-test-"));
    });
    afterAll(async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await env?.close();
    });

    const blocks = BLOCKS.filter((b) => b.lang === "ts" && b.skip === undefined && b.hardhat3 === undefined);
    it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))("%s runs", async (_name, block) => {
      const file = join(dir, `${block.file.replace(/\W+/g, "-")}-${block.line}.ts`);
      writeFileSync(file, asModule(rewriteImports(block.code, entries)));
      const childEnv: NodeJS.ProcessEnv = { ...process.env, TRUSTGATE_API_URL: env.apiUrl, BASE_RPC_URL: env.rpcUrl };
      delete childEnv.TRUSTGATE_API_KEY;
      // startBaseContext forks whatever BASE_RPC_URL names: the testing example runs in its simulation mode here.
      if (/from\s+"trustgate\/testing"/.test(block.code)) delete childEnv.BASE_RPC_URL;
      const result = await runTs(file, childEnv);
      expect(result.code, `${block.file}:${block.line}\n${result.stderr}\n${result.stdout}`).toBe(0);
    });
  });
});
