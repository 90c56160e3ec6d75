/**
 * What `scripts/generate.ts` writes: which contract's ABI or runtime bytecode becomes which TypeScript constant,
 * in which file of `src/generated/`. Adding a generated constant is one entry here, then `npm run generate`.
 */

/** One ABI item as the compiler writes it into an artifact. */
export interface ArtifactAbiItem {
  readonly type: string;
  readonly name?: string;
  readonly [key: string]: unknown;
}

/** A generated ABI constant (`as const`, so that viem types every call, event and error). */
export interface AbiOutput {
  /** Name of the exported constant. */
  readonly name: string;
  /** Fully qualified name of the contract whose artifact holds the ABI (`contracts/…/X.sol:X`). */
  readonly contract: string;
  /** The constant's TSDoc, one sentence or more, without the generated-from line. */
  readonly doc: string;
  /** Keeps only some items of the contract's ABI (all of them when absent). */
  readonly select?: (item: ArtifactAbiItem) => boolean;
}

/** A generated runtime-bytecode constant (the code a node holds at a contract's address). */
export interface BytecodeOutput {
  /** Name of the exported constant. */
  readonly name: string;
  /** Fully qualified name of the contract whose artifact holds the code. */
  readonly contract: string;
  /** The constant's TSDoc, without the generated-from line. */
  readonly doc: string;
}

/** Folder of the generated files, relative to the repository root. */
export const GENERATED_DIR = "src/generated";

/** File of the generated ABIs, inside {@link GENERATED_DIR}. */
export const ABIS_FILE = "abis.ts";

/** File of the generated runtime bytecodes, inside {@link GENERATED_DIR}. */
export const BYTECODE_FILE = "bytecode.ts";

/** Every generated ABI, in file order. */
export const ABI_OUTPUTS: readonly AbiOutput[] = [
  {
    name: "trustOracleAbi",
    contract: "contracts/interfaces/ITrustOracle.sol:ITrustOracle",
    doc:
      "The read ABI of the oracle deployed on Base (`ITrustOracle`): `getScore`, `hasScore`, `meetsThreshold`, " +
      "`agentCount`. Served identically by the reference oracle and the mock.",
  },
  {
    name: "trustScoreOracleAbi",
    contract: "contracts/oracle/TrustScoreOracle.sol:TrustScoreOracle",
    doc:
      "The whole ABI of the reference oracle `TrustScoreOracle`: the read ABI, batch `publish` and `remove`, " +
      "`recordKey`, the roles, the record events and the publishing errors (to decode a refused batch).",
  },
  {
    name: "trustOracleReadErrorsAbi",
    contract: "contracts/testing/MockTrustOracle.sol:MockTrustOracle",
    doc:
      "Errors the kit knows an oracle read can revert with, used to name the revert reason of a failed read " +
      "(`Error(string)` and `Panic(uint256)` are always decoded): the mock's `MockOracleUnavailable()`, raised " +
      "while it is made unavailable. The Base oracle publishes no errors.",
    select: (item) => item.type === "error" && item.name === "MockOracleUnavailable",
  },
  {
    name: "trustGatedAbi",
    contract: "contracts/interfaces/ITrustGated.sol:ITrustGated",
    doc:
      "The outside view of a `TrustGated` gate (`ITrustGated`): its oracle, policy, agent domain and identity " +
      "registry, the non-reverting `trustVerdict`, the owner's setters, the configuration events and every " +
      "error a gated call or a configuration change reverts with.",
  },
  {
    name: "multicall3Abi",
    contract: "contracts/utils/Multicall3.sol:Multicall3",
    doc:
      "The whole Multicall3 ABI (`0xcA11bde05977b3631167028862bE2a173976CA11` on Base and most EVM chains), as " +
      "served by the kit's own `Multicall3`. viem's `multicall3Abi` holds only three of its functions (and " +
      "declares `aggregate3` `view`); this one has all sixteen, with their real mutability.",
  },
];

/** Every generated runtime bytecode, in file order. */
export const BYTECODE_OUTPUTS: readonly BytecodeOutput[] = [
  {
    name: "TRUST_SCORE_ORACLE_RUNTIME_BYTECODE",
    contract: "contracts/oracle/TrustScoreOracle.sol:TrustScoreOracle",
    doc: "The reference oracle, which the local Base simulation places at the Base oracle's address.",
  },
  {
    name: "MOCK_IDENTITY_REGISTRY_RUNTIME_BYTECODE",
    contract: "contracts/testing/MockIdentityRegistry.sol:MockIdentityRegistry",
    doc:
      "The ERC-8004-shaped identity registry, which the local Base simulation places at the ERC-8004 registry's " +
      "address.",
  },
  {
    name: "MULTICALL3_RUNTIME_BYTECODE",
    contract: "contracts/utils/Multicall3.sol:Multicall3",
    doc: "The kit's Multicall3, which a local network gets at Multicall3's canonical address.",
  },
  {
    name: "TRUST_ORACLE_OVERRIDE_RUNTIME_BYTECODE",
    contract: "contracts/testing/TrustOracleOverride.sol:TrustOracleOverride",
    doc:
      "The oracle override, which the forked-Base test helpers put in front of a trust oracle without " +
      "losing its records.",
  },
];
