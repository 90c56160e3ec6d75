/**
 * The kit's contracts need the Cancun instruction set (OpenZeppelin's `Bytes.sol`, under `MockIdentityRegistry`,
 * uses `mcopy`), while Hardhat 2 compiles solc ≥ 0.8.20 for `paris` unless told otherwise, as in the config
 * `npx hardhat init` writes (`solidity: "0.8.28"`). Checked here with Hardhat's own config resolution and the pinned
 * solc: that default fails with the error docs/contracts.md quotes, and its `evmVersion: "cancun"` compiles; the
 * documented Hardhat 2 config, which the packaged-project test uses as its `hardhat.config.ts`, says `cancun`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { resolveConfig } from "hardhat/internal/core/config/config-resolution";
import { describe, expect, it } from "vitest";
import { documentedHardhatConfig, HARDHAT2_CONFIG_PAGE } from "../support/documented-hardhat-config";

const root = resolve(__dirname, "../..");
const solc = createRequire(__filename)("solc") as { compile(input: string, callbacks: object): string };

/** The error solc gives for each `mcopy` in OpenZeppelin's `Bytes.sol` when compiling for an EVM before Cancun. */
const MCOPY_ERROR = 'The "mcopy" instruction is only available for Cancun-compatible VMs (you are currently compiling for "paris").';

/** Compiles the kit's `MockIdentityRegistry` with the given EVM version; returns solc's error messages. */
function compileMockIdentityRegistry(evmVersion: string): string[] {
  const input = {
    language: "Solidity",
    sources: { "Mocks.sol": { content: 'import "trustgate/contracts/testing/MockIdentityRegistry.sol";\n' } },
    settings: { evmVersion, outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
  };
  const findImports = (path: string) => {
    const file = path.startsWith("trustgate/") ? join(root, path.slice("trustgate/".length)) : join(root, "node_modules", path);
    return { contents: readFileSync(file, "utf8") };
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; message: string }[];
  };
  return (output.errors ?? []).filter((e) => e.severity === "error").map((e) => e.message);
}

describe("the EVM version a Hardhat 2 project compiles the kit for", () => {
  it("is paris by Hardhat's default for solc 0.8.28 (the config npx hardhat init writes), which fails on mcopy", () => {
    const resolved = resolveConfig("hardhat.config.ts", { solidity: "0.8.28" });
    const evmVersion = resolved.solidity.compilers[0]!.settings.evmVersion as string;
    expect(evmVersion).toBe("paris");
    const errors = compileMockIdentityRegistry(evmVersion);
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors)).toEqual(new Set([MCOPY_ERROR]));
  }, 120_000);

  it("is cancun in the documented Hardhat 2 config, which compiles the kit's mocks, and the same page quotes the paris error", () => {
    const config = documentedHardhatConfig();
    expect(config).toMatch(/evmVersion: "cancun"/);
    expect(compileMockIdentityRegistry("cancun")).toEqual([]);
    expect(readFileSync(join(root, HARDHAT2_CONFIG_PAGE), "utf8")).toContain(MCOPY_ERROR);
  }, 120_000);
});
