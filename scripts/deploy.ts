/**
 * Deploys the kit's gates (and the reference oracle where the service has none, and an attested oracle where
 * configured) to a configured network, idempotently, recording them in `deployments/<chainId>.json`. Thin:
 * parses arguments and calls `src/deploy/`; see that module for why this is a plain script rather than Hardhat
 * Ignition.
 *
 *   npx tsx scripts/deploy.ts --network <hardhat|localhost|baseSepolia|base> [--dry-run] [--confirm-mainnet]
 *                             [--rpc-url <url>] [--config deploy/config.json] [--deployments-dir deployments]
 *
 * @packageDocumentation
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { http } from "viem";
import { type DeployProvider, deploy, loadDeployConfig, networkConfig, RPC_URL_VARIABLE, resolveRpcUrl } from "../src/deploy/index.js";
import { DeploymentError } from "../src/errors.js";
import { startLocalChain } from "../src/harness/devnet/local-chain.js";
import { readHardhatVar } from "./lib/hardhat-vars.js";
import { runCommand } from "./lib/run-command.js";
import { DEPLOY_OPTIONS } from "./lib/script-options.js";

const USAGE = `Usage: npx tsx scripts/deploy.ts --network <name> [options]

Deploys the configured gates (and the reference TrustScoreOracle where the configuration says
"deploy-reference"; an AttestedTrustOracle, and its signing keys, where it has "attestedOracle") and records
them in <deployments-dir>/<chainId>.json. A second run with the same configuration deploys nothing.

Options:
  --network <name>          Network of the configuration: hardhat (in-process, throw-away: nothing is
                            recorded), localhost, baseSepolia, base
  --dry-run                 Print what would be deployed, the arguments and the estimated gas; send
                            nothing (no key needed)
  --confirm-mainnet         Required to deploy to Base (8453) or Ethereum (1) mainnet
  --rpc-url <url>           RPC endpoint (default: $${RPC_URL_VARIABLE}, else the network's variable —
                            LOCALHOST_RPC_URL, BASE_SEPOLIA_RPC_URL, BASE_RPC_URL —, else its rpcUrl)
  --config <file>           Configuration (default deploy/config.json)
  --deployments-dir <dir>   Where deployments files go (default deployments; git-ignored: commit a real
                            network's file deliberately, git add -f deployments/<chainId>.json)
  -h, --help                Show this help

The deployer key is read from DEPLOYER_PRIVATE_KEY (environment, or \`npx hardhat vars set DEPLOYER_PRIVATE_KEY\`);
local networks use the node's unlocked accounts.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: DEPLOY_OPTIONS,
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.network) throw new DeploymentError("bad-config", "--network is required (hardhat, localhost, baseSepolia, base)");
  const network = values.network;
  const config = networkConfig(loadDeployConfig(resolve(values.config)), network);

  let provider: DeployProvider;
  let rpcUrl: string | undefined;
  let close = async (): Promise<void> => {};
  const inProcess = network === "hardhat" && !values["rpc-url"];
  if (inProcess) {
    const chain = await startLocalChain({ chainId: config.chainId });
    provider = chain.provider;
    close = chain.close;
    console.log("Network hardhat is in-process: its deployments vanish when this command exits, so nothing is recorded.");
  } else {
    const resolved = resolveRpcUrl(network, config, values["rpc-url"], process.env);
    rpcUrl = resolved.url;
    provider = http(rpcUrl, { retryCount: 2 })({});
  }
  try {
    await deploy({
      network,
      config,
      provider,
      deploymentsDir: resolve(values["deployments-dir"]),
      dryRun: values["dry-run"],
      confirmMainnet: values["confirm-mainnet"],
      readVar: readHardhatVar,
      log: (line) => console.log(line),
      recordDeployments: !inProcess,
      rpcUrl,
    });
  } finally {
    await close();
  }
  return 0;
}

runCommand(main, USAGE);
