import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-toolbox";

/**
 * The Solidity compiler version. It must equal the version of the `solc` npm package pinned in
 * package.json: Hardhat's own compiler download host is unreachable on the machines this kit is
 * built on, so the compile task is pointed at the solc-js build shipped inside that package.
 */
const SOLC_VERSION = "0.8.28";

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(
  async (args: { solcVersion: string }, _hre, runSuper) => {
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
  },
);

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      // Base runs the Cancun instruction set (transient storage, MCOPY) and later.
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 10_000 },
    },
  },
  networks: {
    hardhat: {
      // Large publish batches (500 records) in tests and benchmarks exceed the default block gas limit.
      blockGasLimit: 60_000_000,
    },
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
