/**
 * Reads a Hardhat configuration variable (`npx hardhat vars set NAME`) from Hardhat's vars file, without a Hardhat
 * runtime: how the deployment scripts find `DEPLOYER_PRIVATE_KEY` when the environment has none.
 *
 * @param name - The variable.
 * @returns Its value, or `undefined` when it is not set.
 */
export function readHardhatVar(name: string): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { getVarsFilePath } = require("hardhat/internal/util/global-dir") as { getVarsFilePath(): string };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { VarsManager } = require("hardhat/internal/core/vars/vars-manager") as {
    VarsManager: new (path: string) => { get(key: string, defaultValue?: string, includeEnvs?: boolean): string | undefined };
  };
  return new VarsManager(getVarsFilePath()).get(name, undefined, false);
}
