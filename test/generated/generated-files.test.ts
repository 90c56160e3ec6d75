// src/generated/ is what scripts/generate.ts writes from the compiled artifacts (vitest's global setup compiles
// first): regenerated in memory here, every committed file must be identical, text for text, and nothing else may
// live in that folder. The generated constants must also be the artifacts' values, not just their text.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as abis from "../../src/generated/abis.js";
import * as bytecode from "../../src/generated/bytecode.js";
import { artifactReader } from "../../scripts/generate/artifacts";
import { ABI_OUTPUTS, BYTECODE_OUTPUTS, GENERATED_DIR } from "../../scripts/generate/manifest";
import { GENERATE_COMMAND, GENERATED_HEADER, renderGeneratedFiles } from "../../scripts/generate/render";

const ROOT = resolve(__dirname, "../..");
const read = artifactReader(ROOT);
const expected = renderGeneratedFiles(read);

/** The artifact's ABI items without `internalType`, for a value comparison that ignores key order. */
function withoutInternalType(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutInternalType);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "internalType")
      .map(([key, field]) => [key, withoutInternalType(field)]),
  );
}

describe("src/generated", () => {
  for (const [path, text] of Object.entries(expected)) {
    it(`${path} is up to date with the compiled contracts`, () => {
      const committed = readFileSync(join(ROOT, path), "utf8");
      // Compared as booleans so that a failure prints the command, not two long files.
      expect(committed === text, `${path} is stale: run \`${GENERATE_COMMAND}\` and commit the result`).toBe(true);
      expect(committed.startsWith(`${GENERATED_HEADER}\n`)).toBe(true);
    });
  }

  it("holds only generated files", () => {
    const present = readdirSync(join(ROOT, GENERATED_DIR)).map((name) => `${GENERATED_DIR}/${name}`);
    expect(present.sort(), `files the generator does not write: run \`${GENERATE_COMMAND}\``).toEqual(
      Object.keys(expected).sort(),
    );
  });

  it("exports each ABI with the artifact's items, each bytecode equal to the artifact's runtime code", () => {
    for (const output of ABI_OUTPUTS) {
      const items = read(output.contract).abi.filter((item) => !output.select || output.select(item));
      expect(withoutInternalType((abis as Record<string, unknown>)[output.name]), output.name).toEqual(
        withoutInternalType(items),
      );
    }
    for (const output of BYTECODE_OUTPUTS) {
      expect((bytecode as Record<string, unknown>)[output.name], output.name).toBe(
        read(output.contract).deployedBytecode,
      );
    }
    expect(Object.keys(abis).sort()).toEqual(ABI_OUTPUTS.map((output) => output.name).sort());
    expect(Object.keys(bytecode).sort()).toEqual(BYTECODE_OUTPUTS.map((output) => output.name).sort());
  });
});
