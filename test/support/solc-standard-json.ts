import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

/** The solc-js build of the `solc` npm package: the compiler `hardhat.config.ts` uses. */
interface SolcJs {
  compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
}

/** The compiler settings a test varies: what a toolchain's defaults or a user's config choose. */
export interface CompileSettings {
  readonly optimizer: { readonly enabled: boolean; readonly runs?: number };
  readonly viaIR?: boolean;
  /** Imported sources to compile with another text instead of the file's (source name → text). */
  readonly replacedImports?: Readonly<Record<string, string>>;
}

/** One compiler error, as solc reports it. */
export interface SolcError {
  /** solc's one-line message (e.g. "Stack too deep. …"). */
  readonly message: string;
  /** solc's whole text: the message, the `--> file:line:column` line and the source excerpt. */
  readonly formattedMessage: string;
  /** The source the error points into (e.g. `@openzeppelin/contracts/utils/cryptography/P256.sol`). */
  readonly file: string | undefined;
}

/** What a compilation gave: its errors, and the runtime size in bytes of each contract of the compiled files. */
export interface CompileResult {
  readonly errors: readonly SolcError[];
  /** Runtime (deployed) code size in bytes, by contract name; abstract contracts and interfaces are left out. */
  readonly runtimeBytes: Readonly<Record<string, number>>;
}

/**
 * Resolves an import as a user's project does: `@openzeppelin/…` from `node_modules`, `trustgate/contracts/…` and
 * this repository's own `contracts/…` source names from the checkout.
 */
function findImport(path: string): { contents: string } | { error: string } {
  const file = path.startsWith("@openzeppelin/")
    ? join(ROOT, "node_modules", path)
    : path.startsWith("trustgate/contracts/")
      ? join(ROOT, path.slice("trustgate/".length))
      : path.startsWith("contracts/")
        ? join(ROOT, path)
        : undefined;
  if (!file) return { error: `cannot resolve ${path}` };
  try {
    return { contents: readFileSync(file, "utf8") };
  } catch {
    return { error: `not found: ${path}` };
  }
}

/**
 * Compiles the given sources (source name → text) with the `solc` npm package through standard JSON, EVM version
 * `cancun` (the kit's), and the given optimizer and codegen settings. Only the given sources' contracts are asked
 * for; their imports are compiled as far as those need them (a contract created with `new` is compiled whole), each
 * from its file or from `settings.replacedImports`.
 */
export function compileWithSolc(sources: Readonly<Record<string, string>>, settings: CompileSettings): CompileResult {
  const solc = createRequire(__filename)("solc") as SolcJs;
  const names = Object.keys(sources);
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(names.map((name) => [name, { content: sources[name] }])),
    settings: {
      evmVersion: "cancun",
      optimizer: { enabled: settings.optimizer.enabled, runs: settings.optimizer.runs ?? 200 },
      viaIR: settings.viaIR ?? false,
      outputSelection: Object.fromEntries(names.map((name) => [name, { "*": ["evm.deployedBytecode.object"] }])),
    },
  };
  const replaced = settings.replacedImports ?? {};
  const resolveImport = (path: string) => (path in replaced ? { contents: replaced[path]! } : findImport(path));
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: resolveImport })) as {
    errors?: { severity: string; message: string; formattedMessage: string; sourceLocation?: { file: string } }[];
    contracts?: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? [])
    .filter((e) => e.severity === "error")
    .map((e) => ({ message: e.message, formattedMessage: e.formattedMessage, file: e.sourceLocation?.file }));
  const runtimeBytes: Record<string, number> = {};
  for (const name of names) {
    for (const [contract, compiled] of Object.entries(output.contracts?.[name] ?? {})) {
      const size = compiled.evm.deployedBytecode.object.length / 2;
      if (size > 0) runtimeBytes[contract] = size;
    }
  }
  return { errors, runtimeBytes };
}
