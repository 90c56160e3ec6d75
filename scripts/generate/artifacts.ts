/**
 * Reads Hardhat's compiled artifacts (`artifacts/<source>/<Contract>.json`) by fully qualified contract name, for
 * `scripts/generate.ts` and the test that keeps `src/generated/` in step with them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ArtifactAbiItem } from "./manifest";

/** The parts of a Hardhat artifact the generator uses. */
export interface Artifact {
  /** The contract's ABI, as the compiler wrote it. */
  readonly abi: readonly ArtifactAbiItem[];
  /** Creation bytecode, `0x`-prefixed. */
  readonly bytecode: string;
  /** Runtime (deployed) bytecode, `0x`-prefixed. */
  readonly deployedBytecode: string;
  /** Library placeholders in the creation code, by source and library name (empty when nothing is linked). */
  readonly linkReferences: Readonly<Record<string, unknown>>;
  /** Library placeholders in the runtime code (empty when nothing is linked). */
  readonly deployedLinkReferences: Readonly<Record<string, unknown>>;
}

/** Gives the artifact of a contract by its fully qualified name (`contracts/…/X.sol:X`). */
export type ArtifactReader = (fullyQualifiedName: string) => Artifact;

/**
 * An {@link ArtifactReader} over the `artifacts/` folder of a repository.
 *
 * @param root - The repository root.
 * @returns The reader; it throws, naming the command to run, when an artifact is missing.
 */
export function artifactReader(root: string): ArtifactReader {
  return (fullyQualifiedName) => {
    const separator = fullyQualifiedName.lastIndexOf(":");
    if (separator < 0) throw new Error(`not a fully qualified contract name: ${fullyQualifiedName}`);
    const source = fullyQualifiedName.slice(0, separator);
    const contract = fullyQualifiedName.slice(separator + 1);
    const path = join(root, "artifacts", source, `${contract}.json`);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      throw new Error(`no artifact for ${fullyQualifiedName} (${path}): run \`npx hardhat compile\` first`);
    }
    const artifact = JSON.parse(text) as Partial<Artifact>;
    return {
      abi: artifact.abi ?? [],
      bytecode: artifact.bytecode ?? "0x",
      deployedBytecode: artifact.deployedBytecode ?? "0x",
      linkReferences: artifact.linkReferences ?? {},
      deployedLinkReferences: artifact.deployedLinkReferences ?? {},
    };
  };
}
