import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import { subtask } from "hardhat/config";
import "@nomicfoundation/hardhat-toolbox";
import { baseForkBlockFromEnv } from "./src/harness/testing/fork-block";

/**
 * The Solidity compiler version. It must equal the version of the `solc` npm package pinned in
 * package.json: Hardhat's own compiler download host is unreachable on the machines this kit is
 * built on, so the compile task is pointed at the solc-js build shipped inside that package.
 */
const SOLC_VERSION = "0.8.28";

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return runSuper(args);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solcPackage = require("solc/package.json") as { version: string };
  if (solcPackage.version !== SOLC_VERSION) {
    throw new Error(
      `hardhat.config.ts compiles with solc ${SOLC_VERSION} but the installed solc package is ${solcPackage.version}; pin both to the same version`,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc") as { version(): string };
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    longVersion: solc.version(),
  };
});

/**
 * The deployer key from DEPLOYER_PRIVATE_KEY, for the live networks. A value that is not a 32-byte hex key is
 * left out here (so that Hardhat still loads for every other command); scripts/deploy.ts reports it clearly.
 */
function deployerAccounts(): string[] {
  const key = process.env.DEPLOYER_PRIVATE_KEY?.trim().replace(/^0x/i, "");
  return key && /^[0-9a-fA-F]{64}$/.test(key) ? [`0x${key}`] : [];
}

/**
 * The attested oracle's build: the IR pipeline. Its submission path (base64url decoding, the signed block's reader,
 * the checks) costs about 2,900 gas less a transaction than with the legacy code generator
 * (docs/onchain-attestations.md, "Compiler settings"). The parser harness is built the same way, so that the steps the
 * benchmark measures on it are the oracle's.
 */
const ATTESTED_ORACLE_BUILD = {
  version: SOLC_VERSION,
  settings: { evmVersion: "cancun", optimizer: { enabled: true, runs: 10_000 }, viaIR: true },
};

const config: HardhatUserConfig = {
  solidity: {
    compilers: [
      {
        version: SOLC_VERSION,
        settings: {
          // Base runs the Cancun instruction set (transient storage, MCOPY) and later.
          evmVersion: "cancun",
          optimizer: { enabled: true, runs: 10_000 },
        },
      },
    ],
    overrides: {
      "contracts/oracle/AttestedTrustOracle.sol": ATTESTED_ORACLE_BUILD,
      "contracts/oracle/HeldFirstAttestedTrustOracle.sol": ATTESTED_ORACLE_BUILD,
      "contracts/fixtures/AttestationParserHarness.sol": ATTESTED_ORACLE_BUILD,
      "contracts/fixtures/JwsParserHarness.sol": ATTESTED_ORACLE_BUILD,
    },
  },
  networks: {
    hardhat: {
      // Large publish batches (500 records) in tests and benchmarks exceed the default block gas limit.
      blockGasLimit: 60_000_000,
      // With BASE_RPC_URL set, the in-process network forks Base at a pinned block (BASE_FORK_BLOCK overrides the
      // default in src/harness/testing/fork-block.ts): pinned so that Hardhat's fork cache makes reruns offline and
      // deterministic. Without it, the plain local network (what the unit tests use) is unchanged.
      ...(process.env.BASE_RPC_URL ? { forking: { url: process.env.BASE_RPC_URL, blockNumber: baseForkBlockFromEnv() } } : {}),
    },
    // Deployment targets (scripts/deploy.ts reads deploy/config.json; these serve `npx hardhat verify` and
    // `hardhat run`). The deployer key is used only when DEPLOYER_PRIVATE_KEY is set.
    base: {
      url: process.env.BASE_RPC_URL ?? "https://mainnet.base.org",
      chainId: 8453,
      accounts: deployerAccounts(),
    },
    baseSepolia: {
      url: process.env.BASE_SEPOLIA_RPC_URL ?? "https://sepolia.base.org",
      chainId: 84532,
      accounts: deployerAccounts(),
    },
  },
  // hardhat-verify: one Etherscan v2 key covers Base and Base Sepolia (BASESCAN_API_KEY, or ETHERSCAN_API_KEY).
  etherscan: {
    apiKey: process.env.BASESCAN_API_KEY ?? process.env.ETHERSCAN_API_KEY ?? "",
  },
  sourcify: {
    enabled: true,
  },
  typechain: {
    outDir: "typechain-types",
    target: "ethers-v6",
  },
  gasReporter: {
    enabled: process.env.REPORT_GAS === "true",
  },
};

export default config;
