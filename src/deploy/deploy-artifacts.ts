/**
 * The compiled contracts the deployment creates: Hardhat's artifact of each, read from its artifacts directory.
 *
 * @packageDocumentation
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Abi, Hex } from "viem";
import { DeploymentError } from "../errors.js";

/** What the deployment needs of a compiled contract. */
export interface ContractArtifact {
  /** Its ABI (the constructor's arguments are encoded with it). */
  readonly abi: Abi;
  /** Creation bytecode. */
  readonly bytecode: Hex;
  /** Runtime bytecode (a dry run puts it at a predicted address to estimate what depends on it). */
  readonly deployedBytecode: Hex;
}

/** Source file of each contract the deployment can create, under `contracts/`. */
const SOURCES: Readonly<Record<string, string>> = {
  TrustScoreOracle: "oracle/TrustScoreOracle.sol",
  AttestedTrustOracle: "oracle/AttestedTrustOracle.sol",
  HeldFirstAttestedTrustOracle: "oracle/HeldFirstAttestedTrustOracle.sol",
  TrustAdmissionHook: "examples/TrustAdmissionHook.sol",
  AgentTaskBoard: "examples/AgentTaskBoard.sol",
  TrustGatedEscrow: "examples/TrustGatedEscrow.sol",
  MockIdentityRegistry: "testing/MockIdentityRegistry.sol",
};

/**
 * The artifacts of the named contracts.
 *
 * @param artifactsDir - Hardhat's artifacts directory.
 * @param names - Contract names the deployment knows.
 * @returns Each contract's artifact, by name.
 * @throws {@link DeploymentError} (`bad-config`) when one is missing or has no bytecode (not compiled).
 */
export function loadArtifacts(artifactsDir: string, names: readonly string[]): Map<string, ContractArtifact> {
  return new Map(names.map((name) => [name, loadArtifact(artifactsDir, name)]));
}

function loadArtifact(artifactsDir: string, name: string): ContractArtifact {
  const path = join(artifactsDir, "contracts", SOURCES[name]!, `${name}.json`);
  try {
    const artifact = JSON.parse(readFileSync(path, "utf8")) as ContractArtifact;
    if (!artifact.bytecode || artifact.bytecode === "0x") throw new Error("no bytecode");
    return artifact;
  } catch (cause) {
    throw new DeploymentError("bad-config", `Cannot load the artifact of ${name} (${path}); run \`npx hardhat compile\` first`, { cause });
  }
}
