/**
 * Every TypeScript block of the documents is type-checked against the package, the way a caller's program is
 * (test/support/snippet-typecheck.ts): a renamed function or a wrong argument fails here even in a branch that
 * test/docs/readme-blocks.test.ts, which runs the blocks, never reaches. The blocks of the Hardhat 3 project are
 * checked in that project (test/package/hardhat3-project.test.ts); a block marked skip is checked too unless its
 * language is not TypeScript.
 */
import { describe, expect, it } from "vitest";
import { docBlocks, DOCUMENTS } from "../support/doc-blocks";
import { typeCheckSnippets } from "../support/snippet-typecheck";

const BLOCKS = DOCUMENTS.flatMap(docBlocks).filter((b) => b.lang === "ts" && b.hardhat3 === undefined);

describe("the documents' TypeScript blocks", () => {
  it("type-check against the package's entries, as a caller's strict program", () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(6);
    const errors = typeCheckSnippets(BLOCKS.map((b) => ({ name: `${b.file}:${b.line}`, code: b.code })));
    expect(Object.fromEntries(errors)).toEqual({});
  }, 120_000);

  it("would fail on a renamed function (the check is real)", () => {
    const errors = typeCheckSnippets([
      { name: "renamed", code: 'import { readTrustRecordz } from "trustgate";\nif (process.env.X) await readTrustRecordz();\n' },
      { name: "fine", code: 'import { tierForScore } from "trustgate";\nconst tier: string = tierForScore(60);\nconsole.log(tier);\n' },
    ]);
    expect([...errors.keys()]).toEqual(["renamed"]);
    expect(errors.get("renamed")!.join("\n")).toMatch(/readTrustRecordz/);
  }, 120_000);
});
