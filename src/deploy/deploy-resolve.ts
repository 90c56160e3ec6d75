/**
 * The deployment's first step: everything it needs to know before it plans, read from the configuration, the
 * environment and the chain. The configuration is held to the loader's rules, the chain must answer with the
 * configured id (and mainnet be confirmed), the deployer is found, the configured addresses must have code, the
 * JWKS is fetched and its keys checked, and the deployments file is trusted only for this chain, each of its records
 * checked against the chain. Nothing is sent.
 *
 * @packageDocumentation
 */
import { execFileSync } from "node:child_process";
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  type CustomTransport,
  getAddress,
  type Hash,
  type Hex,
  type PublicClient,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DeploymentError } from "../errors.js";
import { DEPLOY_MOCK_REGISTRY, type NetworkDeployConfig } from "./config.js";
import type { DeploymentParties, RecordedOnChain } from "./deploy-plan.js";
import type { DeployParameters } from "./deploy-types.js";
import { type DeploymentRecord, type DeploymentsFile, deploymentsFilePath, readDeploymentsFile } from "./deployments-file.js";
import { assertGatePolicyConsistent } from "./gate-requirements.js";
import { type KeySelection, keySelectionProblems, type LoadedJwks, type SelectedSigningKey, selectSigningKeys } from "./key-selection.js";
import { chainOf, MAINNET_CHAIN_IDS, resolveDeployerKey, unreachableNodeError } from "./sender.js";
import { loadJwks } from "./jwks-source.js";

/**
 * Sender of a dry run's estimates when no deployer key is given: the configured owner, else this address. A
 * dry run never needs the key; the addresses it predicts then depend on the real deployer's nonce.
 */
export const DRY_RUN_PLACEHOLDER_SENDER: Address = "0x000000000000000000000000000000000000dEaD";

/** Everything the deployment knows before it plans. */
export interface ResolvedDeployment {
  /** The chain's id (the configured one). */
  readonly chainId: number;
  /** The chain, for the wallet client's transactions. */
  readonly chain: Chain;
  /** Reads the chain. */
  readonly publicClient: PublicClient<CustomTransport>;
  /** Sends from the deployer. */
  readonly walletClient: WalletClient<CustomTransport, Chain, Account>;
  /** The deployer's account (an unlocked node account on a local network). */
  readonly account: Account | Address;
  /** The deployer's address (a dry run without a key: the owner, or {@link DRY_RUN_PLACEHOLDER_SENDER}). */
  readonly deployer: Address;
  /** True for a dry run without a deployer key. */
  readonly keyless: boolean;
  /** Owner and attested oracle admin. */
  readonly parties: DeploymentParties;
  /** The signing-key selection of `attestedOracle` (kids, forced kids, thumbprints). */
  readonly selection: KeySelection;
  /** The configured JWKS, fetched and checked, when `attestedOracle.jwks` is set. */
  readonly jwks: LoadedJwks | undefined;
  /** The keys of that JWKS to install. */
  readonly keysToInstall: readonly SelectedSigningKey[];
  /** The deployments file as trusted for this chain (its network and block 0 set to this run's). */
  readonly file: DeploymentsFile;
  /** Its records and whether each holds on the chain. */
  readonly onChain: RecordedOnChain;
  /** The git commit recorded with each creation. */
  readonly gitCommit: string | null;
}

/**
 * Resolves a deployment's inputs, in this order: the configuration's rules, the chain (id, mainnet confirmation),
 * the deployer, the configured addresses' code, the JWKS, the deployments file and its records on the chain.
 *
 * @param options - The deployment's options.
 * @returns What the plan and its execution need.
 * @throws {@link DeploymentError}: `bad-config`, `refused-kid`, `unreachable`, `chain-mismatch`,
 *   `mainnet-not-confirmed`, `missing-key`, `bad-key`, `no-code`, `untrusted-record`, and the JWKS's errors.
 */
export async function resolveDeployment(options: DeployParameters): Promise<ResolvedDeployment> {
  const { config, network } = options;
  const selection = checkConfiguration(network, config);
  const log = options.log ?? (() => {});
  const transport = custom(options.provider as { request(args: unknown): Promise<unknown> });
  const publicClient = createPublicClient({ transport });
  const chainId = await connectedChainId(publicClient, options);
  const { account, keyless } = await resolveSender(options, chainId);
  const deployer: Address = getAddress(typeof account === "string" ? account : account.address);
  const chain = chainOf(chainId, network);
  const walletClient = createWalletClient({ account, chain, transport });
  await assertConfiguredCode(publicClient, config, chainId);

  const owner = config.owner ? getAddress(config.owner) : deployer;
  const attestedAdmin = config.attestedOracle?.admin ? getAddress(config.attestedOracle.admin) : owner;
  // The JWKS is fetched and its keys checked before anything is sent: a bad or unreachable JWKS deploys nothing.
  const jwksPath = config.attestedOracle?.jwks;
  let jwks: LoadedJwks | undefined;
  let keysToInstall: SelectedSigningKey[] = [];
  if (jwksPath) {
    if (!keyless && attestedAdmin !== deployer) {
      throw new DeploymentError(
        "bad-config",
        `attestedOracle.jwks is set, but the attested oracle's admin ${attestedAdmin} is not the deployer ${deployer}: only its admin can install the keys`,
        {
          details: "Remove attestedOracle.jwks and have the admin run `npm run keys` after the deployment, or deploy with the admin's key.",
        },
      );
    }
    jwks = await loadJwks(jwksPath, { ...options.jwksFetch, chainId });
    keysToInstall = await selectSigningKeys(jwks, selection);
  }

  const genesisHash = (await publicClient.getBlock({ blockNumber: 0n })).hash;
  const read: DeploymentsFile =
    (options.recordDeployments ?? true)
      ? trustedDeploymentsFile(readDeploymentsFile(options.deploymentsDir, chainId, network), {
          network,
          local: config.local,
          genesisHash,
          dir: options.deploymentsDir,
          log,
        })
      : { chainId, network, contracts: {} };
  const file: DeploymentsFile = { ...read, network, genesisHash };
  const problems = new Map<string, string | null>();
  for (const [name, record] of Object.entries(file.contracts)) problems.set(name, await recordedDeploymentProblem(publicClient, record));
  return {
    chainId,
    chain,
    publicClient,
    walletClient,
    account,
    deployer,
    keyless,
    parties: { owner, attestedAdmin },
    selection,
    jwks,
    keysToInstall,
    file,
    onChain: { recorded: file.contracts, problems },
    gitCommit: options.gitCommit === undefined ? currentGitCommit() : options.gitCommit,
  };
}

/**
 * Holds a configuration built in code to the loader's rules, before any request.
 *
 * @returns The signing-key selection of `attestedOracle`.
 */
function checkConfiguration(network: string, config: NetworkDeployConfig): KeySelection {
  assertGatePolicyConsistent(network, config);
  const attested = config.attestedOracle;
  const selection: KeySelection = { kids: attested?.kids, forceKids: attested?.forceKids, thumbprints: attested?.thumbprints };
  const refusedKids = keySelectionProblems(selection);
  if (refusedKids.length > 0) throw new DeploymentError("refused-kid", `network "${network}": ${refusedKids[0]}`);
  if (config.identityRegistry === DEPLOY_MOCK_REGISTRY && !config.local) {
    throw new DeploymentError("bad-config", `network "${network}": identityRegistry "${DEPLOY_MOCK_REGISTRY}" is for local networks only`);
  }
  return selection;
}

/** The chain's id, which must be the configured one; mainnet only with `confirmMainnet` (or a dry run). */
async function connectedChainId(publicClient: { getChainId(): Promise<number> }, options: DeployParameters): Promise<number> {
  const { config, network } = options;
  let chainId: number;
  try {
    chainId = await publicClient.getChainId();
  } catch (error) {
    throw unreachableNodeError(network, config, options.rpcUrl, error);
  }
  if (chainId !== config.chainId) {
    throw new DeploymentError(
      "chain-mismatch",
      `The RPC endpoint is chain ${chainId}, but network "${network}" is configured as chain ${config.chainId}`,
    );
  }
  if (MAINNET_CHAIN_IDS.has(chainId) && !options.confirmMainnet && !options.dryRun) {
    throw new DeploymentError("mainnet-not-confirmed", `Refusing to deploy to mainnet (chain ${chainId}) without --confirm-mainnet`, {
      details: "Run with --dry-run first to see what would be deployed, then again with --confirm-mainnet.",
    });
  }
  return chainId;
}

/**
 * The deployer: a local node's first unlocked account, else the key of the environment or Hardhat's variables. A dry
 * run sends nothing and signs nothing: without a key it estimates from the configured owner or a placeholder.
 */
async function resolveSender(options: DeployParameters, chainId: number): Promise<{ account: Account | Address; keyless: boolean }> {
  const { config, network } = options;
  if (config.local) {
    const accounts = (await options.provider.request({ method: "eth_accounts" })) as Address[];
    if (!accounts[0]) throw new DeploymentError("missing-key", `The local node of network "${network}" has no unlocked account`);
    return { account: accounts[0], keyless: false };
  }
  try {
    return {
      account: privateKeyToAccount(resolveDeployerKey(network, chainId, options.env ?? process.env, options.readVar)),
      keyless: false,
    };
  } catch (error) {
    if (!(options.dryRun && error instanceof DeploymentError && error.reason === "missing-key")) throw error;
    return { account: config.owner ? getAddress(config.owner) : DRY_RUN_PLACEHOLDER_SENDER, keyless: true };
  }
}

/** Refuses a configured oracle, identity registry or attested upstream address without code. */
async function assertConfiguredCode(
  publicClient: { getCode(args: { address: Address }): Promise<Hex | undefined> },
  config: NetworkDeployConfig,
  chainId: number,
): Promise<void> {
  const attested = config.attestedOracle;
  const upstreamAddress = attested && attested.upstream !== "oracle" && attested.upstream !== "none" ? attested.upstream : null;
  for (const [label, address] of [
    ["oracle", config.oracle],
    ["identityRegistry", config.identityRegistry],
    ["attestedOracle.upstream", upstreamAddress],
  ] as const) {
    if (!address || address === "deploy-reference" || address === DEPLOY_MOCK_REGISTRY) continue;
    const code = await publicClient.getCode({ address: address as Address });
    if (!code || code === "0x") {
      throw new DeploymentError("no-code", `The configured ${label} ${address} has no code on chain ${chainId}`, {
        details: label === "oracle" ? 'Use "oracle": "deploy-reference" on a chain without the service\'s oracle.' : undefined,
      });
    }
  }
}

/**
 * The deployments file, if it belongs to this chain: a file whose recorded block 0 differs was written for another
 * chain with the same id (a restarted or another local node): on a local network it is set aside (said, then
 * replaced as contracts are deployed), elsewhere the deployment is refused.
 */
function trustedDeploymentsFile(
  file: DeploymentsFile,
  context: { network: string; local: boolean; genesisHash: Hash; dir: string; log: (line: string) => void },
): DeploymentsFile {
  if (file.genesisHash === undefined || file.genesisHash === context.genesisHash) return file;
  const where = deploymentsFilePath(context.dir, file.chainId);
  const what = `${where} was written for another chain with id ${file.chainId} (network "${file.network}", block 0 ${file.genesisHash}; this chain's block 0 is ${context.genesisHash})`;
  if (!context.local) {
    throw new DeploymentError(
      "untrusted-record",
      `${what}: refusing to trust it; check the RPC URL, or move the file away to deploy afresh`,
    );
  }
  context.log(`! ${what}: not trusted, deploying afresh (the file is replaced)`);
  return { chainId: file.chainId, network: context.network, contracts: {} };
}

/**
 * Whether a recorded deployment holds on the chain the provider talks to: its creation transaction is there and
 * created the recorded address, and that address has code.
 *
 * @returns `null` when it holds, else what is wrong (a phrase such as `there is no code at that address`).
 */
async function recordedDeploymentProblem(
  publicClient: {
    getCode(args: { address: Address }): Promise<Hex | undefined>;
    getTransactionReceipt(args: { hash: Hash }): Promise<{ contractAddress?: Address | null | undefined }>;
  },
  recorded: DeploymentRecord,
): Promise<string | null> {
  const code = await publicClient.getCode({ address: recorded.address });
  if (!code || code === "0x") return "there is no code at that address";
  let receipt: { contractAddress?: Address | null | undefined } | undefined;
  try {
    receipt = await publicClient.getTransactionReceipt({ hash: recorded.transactionHash });
  } catch {
    receipt = undefined;
  }
  if (!receipt?.contractAddress || getAddress(receipt.contractAddress) !== getAddress(recorded.address)) {
    return `its creation transaction ${recorded.transactionHash} is not on this chain (the code there is someone else's)`;
  }
  return null;
}

/**
 * The git commit of the working directory, `-dirty` appended when tracked files have local changes; `null`
 * outside a git checkout.
 *
 * @param cwd - Directory; default the current one.
 * @returns The commit, or `null`.
 */
export function currentGitCommit(cwd = process.cwd()): string | null {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return status.trim() ? `${commit}-dirty` : commit;
  } catch {
    return null;
  }
}
