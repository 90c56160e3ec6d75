// Hardhat 2 loads hardhat.config.ts with `require`, which needs a TypeScript hook in the test process.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require("ts-node").register({ transpileOnly: true, compilerOptions: { module: "commonjs" } });
