import { createRequire } from "node:module";
import hardhatToolboxViemPlugin from "@nomicfoundation/hardhat-toolbox-viem";
import { defineConfig } from "hardhat/config";

// Compiles offline: the solc npm package's WebAssembly build stands in for the compiler Hardhat would download.
const soljson = createRequire(import.meta.url).resolve("solc/soljson.js");

export default defineConfig({
  plugins: [hardhatToolboxViemPlugin],
  solidity: {
    version: "0.8.28",
    path: soljson,
    settings: { evmVersion: "cancun" },
    npmFilesToBuild: ["trustgate/contracts/testing/MockTrustOracle.sol", "trustgate/contracts/testing/MockIdentityRegistry.sol"],
  },
});
