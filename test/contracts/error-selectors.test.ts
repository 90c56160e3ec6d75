/**
 * Every error selector in the Solidity sources comes from the compiler (`SomeError.selector`), never from a hex
 * literal: a literal would keep its old value through a rename of the error or of one of its parameter types, and the
 * contract would then revert with an error no ABI decodes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import hre from "hardhat";
import { type Abi, toFunctionSelector } from "viem";
import { formatAbiItem } from "viem/utils";

type AbiError = Extract<Abi[number], { type: "error" }>;
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");

function solidityFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return solidityFiles(path);
    return entry.name.endsWith(".sol") ? [path] : [];
  });
}

/** Every custom error of every compiled contract, by selector (without `0x`). */
async function errorSelectors(): Promise<Map<string, string>> {
  const selectors = new Map<string, string>();
  for (const name of await hre.artifacts.getAllFullyQualifiedNames()) {
    const { abi } = await hre.artifacts.readArtifact(name);
    for (const item of abi as readonly { type: string }[]) {
      if (item.type !== "error") continue;
      const signature = formatAbiItem(item as AbiError);
      selectors.set(toFunctionSelector(signature).slice(2), signature);
    }
  }
  return selectors;
}

describe("error selectors in the Solidity sources", () => {
  it("the compiled contracts declare the errors the readers raise (the scan below has something to find)", async () => {
    const signatures = [...(await errorSelectors()).values()];
    expect(signatures).toContain("AttestationJsonMalformed(uint256)");
    expect(signatures).toContain("JwsMalformed(uint256)");
    expect(signatures).toContain("JwsHeaderMemberDuplicate(string,uint256)");
  });

  it("no source writes an error's selector as a hex literal", async () => {
    const selectors = await errorSelectors();
    const found: string[] = [];
    for (const file of solidityFiles(join(ROOT, "contracts"))) {
      const lines = readFileSync(file, "utf8").toLowerCase().split("\n");
      lines.forEach((line, index) => {
        for (const [selector, signature] of selectors) {
          if (line.includes(selector)) found.push(`${relative(ROOT, file)}:${index + 1}: ${signature}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
