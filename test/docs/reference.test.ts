/**
 * `docs/reference/` is what `npm run docs:reference` writes from the code (scripts/docs-reference.ts): the TypeScript
 * entries by TypeDoc, the packaged contracts from the compiler's NatSpec. Written again here into a temporary folder
 * (vitest's global setup has compiled the contracts), the committed reference must be identical, file for file, the
 * way test/generated/ holds src/generated/ to the artifacts. A changed export, TSDoc comment or contract fails this
 * test until the reference is rewritten.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solidityReferencePages, unpackagedContractFolders } from "../../scripts/reference/solidity";
import { runChild } from "../support/child-run";

const ROOT = resolve(__dirname, "../..");
const COMMITTED = join(ROOT, "docs/reference");
const COMMAND = "npm run docs:reference";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe("docs/reference", () => {
  let scratch: string;
  let written: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "trustgate-reference-"));
    written = join(scratch, "reference");
    const run = await runChild(process.execPath, ["--import", "tsx", "scripts/docs-reference.ts", "--out", written], ROOT);
    if (run.code !== 0) throw new Error(`scripts/docs-reference.ts failed (${run.code}):\n${run.stderr}\n${run.stdout}`);
  }, 600_000);
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("holds exactly the files the generator writes", () => {
    expect(filesUnder(COMMITTED), `the reference is stale: run \`${COMMAND}\` and commit the result`).toEqual(filesUnder(written));
  });

  it("holds each file as the generator writes it", () => {
    const stale = filesUnder(written).filter((file) => {
      let committed: string;
      try {
        committed = readFileSync(join(COMMITTED, file), "utf8");
      } catch {
        return true;
      }
      return committed !== readFileSync(join(written, file), "utf8");
    });
    expect(stale, `stale pages: run \`${COMMAND}\` and commit the result`).toEqual([]);
  });

  it("documents every runtime name of the main entry, with its @example", () => {
    const main = filesUnder(join(written, "typescript/trustgate")).filter(
      (file) => !file.includes("/") || /^(classes|functions|variables)\//.test(file),
    );
    expect(main).toEqual(
      expect.arrayContaining(["functions/readTrustRecord.md", "functions/evaluateTrustPolicy.md", "classes/TrustgateError.md"]),
    );
    expect(readFileSync(join(written, "typescript/trustgate/functions/readTrustRecord.md"), "utf8")).toMatch(
      /## Example[\s\S]*```ts\nimport /,
    );
  });

  it("has a page for each packaged contract source, none for the repository's own test contracts, each from the NatSpec", () => {
    const pages = solidityReferencePages(ROOT);
    const unpackaged = unpackagedContractFolders(ROOT);
    expect(unpackaged.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(pages)).toEqual(
      expect.arrayContaining(["README.md", "TrustGated.md", "interfaces/ITrustOracle.md", "oracle/AttestedTrustOracle.md"]),
    );
    for (const folder of unpackaged) expect(Object.keys(pages).filter((page) => `contracts/${page}`.startsWith(folder))).toEqual([]);
    expect(pages["interfaces/ITrustOracle.md"]).toContain("| agentId | `uint256` | The agent's id in its registry. |");
  });
});
