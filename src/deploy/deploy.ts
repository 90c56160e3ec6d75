/**
 * Deploys the kit's gates (and, on chains without the service's oracle, the reference `TrustScoreOracle`; where
 * configured, an `AttestedTrustOracle` over the network's oracle, with the service's signing keys) according to a
 * network's configuration, records them in `deployments/<chainId>.json`, and does nothing for a contract whose
 * recorded deployment has the same fingerprint (name + creation bytecode + constructor arguments) and still has
 * code at its address.
 *
 * Plain viem rather than Hardhat Ignition: idempotence is keyed on our own deployments file (one JSON per
 * chain, with git commit and constructor arguments, readable by the drift job and by people), a dry run that
 * estimates each creation with `eth_estimateGas` and sends nothing, the mainnet confirmation and the key
 * handling are a few explicit lines here, and the same code runs against an in-process chain in tests
 * without Hardhat's runtime environment. Ignition's journal and its own deployment ids would be a second
 * source of truth next to that file.
 *
 * @packageDocumentation
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Abi,
  type Account,
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  encodeDeployData,
  getAddress,
  getContractAddress,
  type Hash,
  type Hex,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DeploymentError, messageOf } from "../errors.js";
import { type AttestedOracleDeployConfig, DEPLOY_MOCK_REGISTRY, DEPLOYABLE_CONTRACTS, type NetworkDeployConfig } from "./config.js";
import { assertGatePolicyConsistent } from "./gate-requirements.js";
import {
  type DeploymentRecord,
  type DeploymentsFile,
  deploymentFingerprint,
  deploymentsFilePath,
  type JsonValue,
  readDeploymentsFile,
  toJsonSafe,
  writeConstructorArgsFile,
  writeDeploymentsFile,
} from "./deployments-file.js";
import {
  chainOf,
  DEPLOYER_KEY_VARIABLE,
  type DeployProvider,
  MAINNET_CHAIN_IDS,
  resolveDeployerKey,
  unreachableNodeError,
} from "./sender.js";
import {
  forcedKidWarning,
  type KeySelection,
  keySelectionProblems,
  type LoadedJwks,
  type SelectedSigningKey,
  selectSigningKeys,
} from "./key-selection.js";
import { ATTESTED_ORACLE, describeChange, loadJwks, plannedChange, type SigningKeysResult, updateSigningKeys } from "./signing-keys.js";

export { DEPLOYER_KEY_VARIABLE, type DeployProvider, MAINNET_CHAIN_IDS, resolveDeployerKey } from "./sender.js";

/** The reference oracle's contract name. */
export const REFERENCE_ORACLE = "TrustScoreOracle";

/** Source file of each contract the deployment can create, under `contracts/`. */
const SOURCES: Readonly<Record<string, string>> = {
  TrustScoreOracle: "oracle/TrustScoreOracle.sol",
  AttestedTrustOracle: "oracle/AttestedTrustOracle.sol",
  TrustAdmissionHook: "examples/TrustAdmissionHook.sol",
  AgentTaskBoard: "examples/AgentTaskBoard.sol",
  TrustGatedEscrow: "examples/TrustGatedEscrow.sol",
  MockIdentityRegistry: "testing/MockIdentityRegistry.sol",
};

/** The contract deployed for `identityRegistry: "deploy-mock"` (local networks). */
export const MOCK_IDENTITY_REGISTRY = "MockIdentityRegistry";

/** Options of {@link deploy}. */
export interface DeployOptions {
  /** Name of the network in the configuration (`hardhat`, `localhost`, `baseSepolia`, `base`). */
  readonly network: string;
  /** That network's configuration. */
  readonly config: NetworkDeployConfig;
  /** The chain. Its chain id must equal `config.chainId`. */
  readonly provider: DeployProvider;
  /** Directory of the deployments files (`deployments/`). */
  readonly deploymentsDir: string;
  /** Hardhat's artifacts directory; default `<cwd>/artifacts`. */
  readonly artifactsDir?: string | undefined;
  /** Print what would be deployed, with arguments and estimated gas, and send nothing. */
  readonly dryRun?: boolean | undefined;
  /** Required to send anything on Ethereum or Base mainnet. */
  readonly confirmMainnet?: boolean | undefined;
  /** Environment holding `DEPLOYER_PRIVATE_KEY`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Reads a Hardhat configuration variable (`npx hardhat vars set`), consulted when the environment has no key. */
  readonly readVar?: ((name: string) => string | undefined) | undefined;
  /** Git commit to record; default `git rev-parse HEAD` of the working directory (`-dirty` with local changes). */
  readonly gitCommit?: string | null | undefined;
  /** Receives one line per event; default none. */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * Whether the deployments file is read and written (default true). False for a throw-away chain (the
   * in-process `hardhat` network): its deployments vanish with it, and a file written for it would be trusted
   * by a later run against another chain with the same id (`localhost` is 31337 too).
   */
  readonly recordDeployments?: boolean | undefined;
  /** The RPC URL the provider talks to, for messages (an unreachable node names it). */
  readonly rpcUrl?: string | undefined;
  /** Fetch timeout and implementation for `attestedOracle.jwks` when it is a URL. */
  readonly jwksFetch?: { readonly timeoutMs?: number | undefined; readonly fetch?: typeof fetch | undefined } | undefined;
}

/**
 * Sender of a dry run's estimates when no deployer key is given: the configured owner, else this address. A
 * dry run never needs the key; the addresses it predicts then depend on the real deployer's nonce.
 */
export const DRY_RUN_PLACEHOLDER_SENDER: Address = "0x000000000000000000000000000000000000dEaD";

/** What happened (or would happen) to one contract. */
export interface DeployAction {
  /** Contract name. */
  readonly name: string;
  /** `deployed` now, `unchanged` (recorded deployment kept), or `would-deploy` (dry run). */
  readonly status: "deployed" | "unchanged" | "would-deploy";
  /** Its address (predicted from the deployer's nonce for `would-deploy`). */
  readonly address: Address;
  /** Constructor arguments, JSON-safe. */
  readonly constructorArgs: readonly JsonValue[];
  /** Creation transaction (the recorded one for `unchanged`; none for `would-deploy`). */
  readonly transactionHash: Hash | undefined;
  /** Gas used (`deployed`) or estimated (`would-deploy`); undefined when unknown or `unchanged`. */
  readonly gas: bigint | undefined;
  /** Why the gas of a `would-deploy` could not be estimated, if it could not. */
  readonly gasNote: string | undefined;
}

/** Result of {@link deploy}. */
export interface DeployResult {
  /** The chain. */
  readonly chainId: number;
  /** The account that deploys (or would). */
  readonly deployer: Address;
  /** One action per contract, in deployment order. */
  readonly actions: readonly DeployAction[];
  /** Transactions sent, creations and signing keys (0 for a dry run or when nothing changed). */
  readonly transactionsSent: number;
  /** The deployments file (written unless a dry run). */
  readonly deploymentsFile: string;
  /**
   * The signing keys installed on the `AttestedTrustOracle` (or that a dry run would install), when
   * `attestedOracle.jwks` is configured.
   */
  readonly signingKeys: SigningKeysResult | undefined;
}

interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
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
 * The deployments file, if it belongs to this chain: a file whose recorded block 0 differs was written for another
 * chain with the same id (a restarted or another local node): on a local network it is set aside (said, then
 * replaced as contracts are deployed), elsewhere the deployment is refused.
 */
function trustedDeploymentsFile(
  file: DeploymentsFile,
  context: { network: string; config: NetworkDeployConfig; genesisHash: Hash; dir: string; log: (line: string) => void },
): DeploymentsFile {
  if (file.genesisHash === undefined || file.genesisHash === context.genesisHash) return file;
  const where = deploymentsFilePath(context.dir, file.chainId);
  const what = `${where} was written for another chain with id ${file.chainId} (network "${file.network}", block 0 ${file.genesisHash}; this chain's block 0 is ${context.genesisHash})`;
  if (!context.config.local) {
    throw new DeploymentError(
      "untrusted-record",
      `${what}: refusing to trust it; check the RPC URL, or move the file away to deploy afresh`,
    );
  }
  context.log(`! ${what}: not trusted, deploying afresh (the file is replaced)`);
  return { chainId: file.chainId, network: context.network, contracts: {} };
}

function loadArtifact(artifactsDir: string, name: string): Artifact {
  const path = join(artifactsDir, "contracts", SOURCES[name]!, `${name}.json`);
  try {
    const artifact = JSON.parse(readFileSync(path, "utf8")) as Artifact;
    if (!artifact.bytecode || artifact.bytecode === "0x") throw new Error("no bytecode");
    return artifact;
  } catch (cause) {
    throw new DeploymentError("bad-config", `Cannot load the artifact of ${name} (${path}); run \`npx hardhat compile\` first`, { cause });
  }
}

/**
 * Deploys what the network's configuration asks for, skipping what is already deployed unchanged.
 *
 * Order: the reference oracle (when `oracle` is `"deploy-reference"` and something reads it), the
 * `AttestedTrustOracle` (when `attestedOracle` is configured: admin `attestedOracle.admin`, else `config.owner`,
 * else the deployer; upstream the network's oracle, none or an address, per `attestedOracle.upstream`),
 * `MockIdentityRegistry` (when `identityRegistry` is `"deploy-mock"`, local networks only),
 * `TrustAdmissionHook`, `AgentTaskBoard` (with the hook), `TrustGatedEscrow`. Each gate gets the oracle
 * `gateOracle` names (the network's, or the attested one), the identity registry, agent domain and policy; owners
 * (and the reference oracle's admin and publisher) are `config.owner`, default the deployer. The deployments file
 * is written after each creation, so an interrupted run keeps what it did. Then, when `attestedOracle.jwks` is
 * configured, its keys are installed on the attested oracle with {@link updateSigningKeys}: the on-chain trust kids
 * it publishes, or `attestedOracle.kids` and `forceKids`, with the thumbprints `attestedOracle.thumbprints` pins (the
 * JWKS is fetched and checked before anything is sent, and the attested oracle's admin must then be the deployer).
 *
 * @param options - Network, configuration, provider, directories, dry run, confirmation, key source.
 * @returns What was (or would be) done.
 * A dry run needs no key: without one it estimates from the configured owner or
 * {@link DRY_RUN_PLACEHOLDER_SENDER}. A deployments file is trusted only for the chain it was written for (same
 * block 0) and a recorded contract only when its creation transaction and code are on the chain; otherwise a
 * local network says so and deploys afresh, and any other network refuses (`untrusted-record`).
 *
 * Before any request to the chain, a configuration whose policy contradicts what one of its contracts requires
 * (`AgentTaskBoard` or `TrustGatedEscrow` without `policy.requireController`) is refused (`bad-config`, naming the
 * network, the contract and the setting), and so is a key selection the loader refuses (`refused-kid`).
 *
 * @throws {@link DeploymentError}: `unreachable` (the node does not answer; one line naming the URL and how to
 *   start a local node), `chain-mismatch`, `mainnet-not-confirmed`, `missing-key`, `bad-key`, `no-code`
 *   (configured oracle, attested upstream or registry absent), `untrusted-record`, `bad-config`, `refused-kid`,
 *   `insecure-jwks` / `jwks-unavailable` / `bad-jwks` / `thumbprint-mismatch` (the configured JWKS), `failed` (a creation or a key installation failed), and
 *   those of {@link updateSigningKeys}.
 */
export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const { config, network } = options;
  // A configuration built in code has not been through the loader: hold it to the same rules before any request.
  assertGatePolicyConsistent(network, config);
  const attested: AttestedOracleDeployConfig | undefined = config.attestedOracle;
  const selection: KeySelection = { kids: attested?.kids, forceKids: attested?.forceKids, thumbprints: attested?.thumbprints };
  const refusedKids = keySelectionProblems(selection);
  if (refusedKids.length > 0) throw new DeploymentError("refused-kid", `network "${network}": ${refusedKids[0]}`);
  if (config.identityRegistry === DEPLOY_MOCK_REGISTRY && !config.local) {
    throw new DeploymentError("bad-config", `network "${network}": identityRegistry "${DEPLOY_MOCK_REGISTRY}" is for local networks only`);
  }
  const log = options.log ?? (() => {});
  const dryRun = options.dryRun ?? false;
  const artifactsDir = options.artifactsDir ?? join(process.cwd(), "artifacts");
  const transport = custom(options.provider as { request(args: unknown): Promise<unknown> });
  const publicClient = createPublicClient({ transport });

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
  if (MAINNET_CHAIN_IDS.has(chainId) && !options.confirmMainnet && !dryRun) {
    throw new DeploymentError("mainnet-not-confirmed", `Refusing to deploy to mainnet (chain ${chainId}) without --confirm-mainnet`, {
      details: "Run with --dry-run first to see what would be deployed, then again with --confirm-mainnet.",
    });
  }

  let account: Account | Address;
  let keyless = false;
  if (config.local) {
    const accounts = (await options.provider.request({ method: "eth_accounts" })) as Address[];
    if (!accounts[0]) throw new DeploymentError("missing-key", `The local node of network "${network}" has no unlocked account`);
    account = accounts[0];
  } else {
    try {
      account = privateKeyToAccount(resolveDeployerKey(network, chainId, options.env ?? process.env, options.readVar));
    } catch (error) {
      // A dry run sends nothing and signs nothing: without a key it estimates from a placeholder sender.
      if (!(dryRun && error instanceof DeploymentError && error.reason === "missing-key")) throw error;
      account = config.owner ? getAddress(config.owner) : DRY_RUN_PLACEHOLDER_SENDER;
      keyless = true;
    }
  }
  const deployer: Address = getAddress(typeof account === "string" ? account : account.address);
  const chain = chainOf(chainId, network);
  const walletClient = createWalletClient({ account, chain, transport });

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

  const owner = config.owner ? getAddress(config.owner) : deployer;
  const attestedAdmin = attested?.admin ? getAddress(attested.admin) : owner;
  // The JWKS is fetched and its keys checked before anything is sent: a bad or unreachable JWKS deploys nothing.
  let jwks: LoadedJwks | undefined;
  let keysToInstall: SelectedSigningKey[] = [];
  if (attested?.jwks) {
    if (!keyless && attestedAdmin !== deployer) {
      throw new DeploymentError(
        "bad-config",
        `attestedOracle.jwks is set, but the attested oracle's admin ${attestedAdmin} is not the deployer ${deployer}: only its admin can install the keys`,
        {
          details: "Remove attestedOracle.jwks and have the admin run `npm run keys` after the deployment, or deploy with the admin's key.",
        },
      );
    }
    jwks = await loadJwks(attested.jwks, { ...options.jwksFetch, chainId });
    keysToInstall = await selectSigningKeys(jwks, selection);
  }

  const recordDeployments = options.recordDeployments ?? true;
  const genesisHash = (await publicClient.getBlock({ blockNumber: 0n })).hash;
  let file: DeploymentsFile = recordDeployments
    ? trustedDeploymentsFile(readDeploymentsFile(options.deploymentsDir, chainId, network), {
        network,
        config,
        genesisHash,
        dir: options.deploymentsDir,
        log,
      })
    : { chainId, network, contracts: {} };
  file = { ...file, network, genesisHash };
  const gitCommit = options.gitCommit === undefined ? currentGitCommit() : options.gitCommit;
  const mockRegistry = config.identityRegistry === DEPLOY_MOCK_REGISTRY;
  const gateConfig = (oracle: Address, a: Record<string, Address>) => ({
    oracle,
    identityRegistry: mockRegistry
      ? a[MOCK_IDENTITY_REGISTRY]!
      : config.identityRegistry
        ? getAddress(config.identityRegistry)
        : zeroAddress,
    agentChainId: BigInt(config.agentChainId),
    agentRegistry: config.agentRegistry,
    policy: { ...config.policy },
  });

  type Addresses = Record<string, Address>;
  const steps: { name: string; args: (addresses: Addresses) => readonly unknown[]; dependsOn: readonly string[] }[] = [];
  const gates = DEPLOYABLE_CONTRACTS.filter((c) => config.contracts.includes(c));
  const reference = config.oracle === "deploy-reference";
  const networkOracle = (a: Addresses) => (reference ? a[REFERENCE_ORACLE]! : getAddress(config.oracle));
  const networkOracleDeps = reference ? [REFERENCE_ORACLE] : [];
  // The reference oracle is deployed when something reads it: the gates, or the attested oracle as its upstream.
  const gatesReadAttested = config.gateOracle === "attested";
  if (reference && ((gates.length > 0 && !gatesReadAttested) || attested?.upstream === "oracle")) {
    steps.push({ name: REFERENCE_ORACLE, args: () => [owner], dependsOn: [] });
  }
  if (attested) {
    const upstream = attested.upstream;
    const upstreamOf = (a: Addresses): Address =>
      upstream === "oracle" ? networkOracle(a) : upstream === "none" ? zeroAddress : getAddress(upstream);
    steps.push({
      name: ATTESTED_ORACLE,
      args: (a) => [attestedAdmin, upstreamOf(a)],
      dependsOn: upstream === "oracle" ? networkOracleDeps : [],
    });
  }
  const gateOracle = gatesReadAttested ? (a: Addresses) => a[ATTESTED_ORACLE]! : networkOracle;
  const gateDeps = [...(gatesReadAttested ? [ATTESTED_ORACLE] : networkOracleDeps), ...(mockRegistry ? [MOCK_IDENTITY_REGISTRY] : [])];
  // The mock registry (local networks) is deployed when a gate reads it.
  if (mockRegistry && gates.some((name) => name !== "AgentTaskBoard")) {
    steps.push({ name: MOCK_IDENTITY_REGISTRY, args: () => [], dependsOn: [] });
  }
  for (const name of gates) {
    if (name === "AgentTaskBoard") steps.push({ name, args: (a) => [a.TrustAdmissionHook!, owner], dependsOn: ["TrustAdmissionHook"] });
    else steps.push({ name, args: (a) => [gateConfig(gateOracle(a), a), owner], dependsOn: gateDeps });
  }

  let nonce = dryRun ? await publicClient.getTransactionCount({ address: deployer, blockTag: "pending" }) : 0;
  const addresses: Record<string, Address> = {};
  const pending = new Map<string, Artifact>();
  const actions: DeployAction[] = [];
  let sent = 0;
  log(`${dryRun ? "Dry run on" : "Deploying to"} ${network} (chain ${chainId}) from ${deployer}`);
  if (keyless) {
    log(
      `No ${DEPLOYER_KEY_VARIABLE}: estimating from ${deployer} (${config.owner ? "the configured owner" : "a placeholder"}); predicted addresses depend on the real deployer's nonce`,
    );
  }

  for (const step of steps) {
    const artifact = loadArtifact(artifactsDir, step.name);
    const args = step.args(addresses);
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
    const fingerprint = deploymentFingerprint(step.name, artifact.bytecode, `0x${data.slice(artifact.bytecode.length)}`);
    const constructorArgs = args.map(toJsonSafe);
    const recorded = file.contracts[step.name];
    if (recorded && recorded.fingerprint === fingerprint) {
      const problem = await recordedDeploymentProblem(publicClient, recorded);
      if (problem === null) {
        addresses[step.name] = recorded.address;
        actions.push({
          name: step.name,
          status: "unchanged",
          address: recorded.address,
          constructorArgs,
          transactionHash: recorded.transactionHash,
          gas: undefined,
          gasNote: undefined,
        });
        log(`= ${step.name} unchanged at ${recorded.address}`);
        continue;
      }
      const where = deploymentsFilePath(options.deploymentsDir, chainId);
      if (!config.local) {
        throw new DeploymentError(
          "untrusted-record",
          `${where} records ${step.name} at ${recorded.address}, but on chain ${chainId} ${problem}: refusing to trust it (wrong RPC URL?); move the file away to deploy afresh`,
        );
      }
      log(`! ${step.name} is recorded at ${recorded.address} in ${where}, but ${problem}: not trusted, deploying again`);
    }

    if (dryRun) {
      const address = getContractAddress({ from: deployer, nonce: BigInt(nonce++) });
      addresses[step.name] = address;
      const overrides = step.dependsOn
        .filter((d) => pending.has(d))
        .map((d) => ({ address: addresses[d]!, code: pending.get(d)!.deployedBytecode }));
      let gas: bigint | undefined;
      let gasNote: string | undefined;
      try {
        gas = await publicClient.estimateGas({ account: deployer, data, ...(overrides.length ? { stateOverride: overrides } : {}) });
      } catch (error) {
        const reason = messageOf(error).split("\n")[0];
        gasNote = overrides.length
          ? `not estimable until ${step.dependsOn.filter((d) => pending.has(d)).join(", ")} is deployed (the node refused eth_estimateGas with a state override: ${reason})`
          : `estimation failed: ${reason}`;
      }
      pending.set(step.name, artifact);
      actions.push({ name: step.name, status: "would-deploy", address, constructorArgs, transactionHash: undefined, gas, gasNote });
      log(`+ would deploy ${step.name} at ${address} (predicted)`);
      log(`    constructor arguments: ${JSON.stringify(constructorArgs)}`);
      log(`    estimated gas: ${gas === undefined ? `unknown, ${gasNote}` : gas.toString()}`);
      continue;
    }

    let hash: Hash;
    try {
      hash = await walletClient.sendTransaction({ data, chain });
    } catch (error) {
      throw new DeploymentError("failed", `Sending the creation of ${step.name} failed: ${messageOf(error)}`, { cause: error });
    }
    sent++;
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) {
      throw new DeploymentError("failed", `The creation of ${step.name} reverted (transaction ${hash})`);
    }
    const record: DeploymentRecord = {
      name: step.name,
      address: getAddress(receipt.contractAddress),
      transactionHash: hash,
      blockNumber: Number(receipt.blockNumber),
      constructorArgs,
      fingerprint,
      gitCommit,
      deployedAt: new Date().toISOString(),
    };
    addresses[step.name] = record.address;
    file = { ...file, network, contracts: { ...file.contracts, [step.name]: record } };
    if (recordDeployments) {
      writeDeploymentsFile(options.deploymentsDir, file);
      writeConstructorArgsFile(options.deploymentsDir, chainId, step.name, constructorArgs);
    }
    actions.push({
      name: step.name,
      status: "deployed",
      address: record.address,
      constructorArgs,
      transactionHash: hash,
      gas: receipt.gasUsed,
      gasNote: undefined,
    });
    log(`+ deployed ${step.name} at ${record.address} (transaction ${hash}, block ${record.blockNumber}, gas ${receipt.gasUsed})`);
  }

  const deploymentsFile = join(options.deploymentsDir, `${chainId}.json`);
  if (dryRun) log(`Dry run: nothing sent; ${actions.filter((a) => a.status === "would-deploy").length} contract(s) would be deployed.`);
  else if (!recordDeployments) log(`Deployed ${sent} contract(s) to the throw-away chain; nothing recorded.`);
  else if (sent === 0) log(`Nothing to deploy: every contract in ${deploymentsFile} is up to date.`);
  else log(`Deployed ${sent} contract(s); recorded in ${deploymentsFile}.`);

  let signingKeys: SigningKeysResult | undefined;
  if (jwks) {
    const oracle = addresses[ATTESTED_ORACLE]!;
    if (actions.find((a) => a.name === ATTESTED_ORACLE)?.status === "would-deploy") {
      // A dry run before the oracle exists: every key would be set on it.
      log(`Dry run: signing keys of the new ${ATTESTED_ORACLE} (predicted at ${oracle}), JWKS ${jwks.source}`);
      for (const key of keysToInstall) if (key.forced) log(forcedKidWarning(key.kid));
      const changes = keysToInstall.map((key) => plannedChange(key.kid, "set", key));
      for (const change of changes) log(describeChange(change, true));
      log(`Dry run: nothing sent; ${changes.length} signing-key change(s) would be made.`);
      signingKeys = { chainId, oracle, sender: keyless ? undefined : deployer, jwks: jwks.source, dryRun, changes, transactionsSent: 0 };
    } else {
      signingKeys = await updateSigningKeys({
        provider: options.provider,
        oracle,
        jwks,
        ...selection,
        dryRun,
        confirmMainnet: options.confirmMainnet,
        network,
        expectedChainId: chainId,
        account: keyless ? null : account,
        local: config.local,
        rpcUrl: options.rpcUrl,
        log,
      });
    }
  }
  return {
    chainId,
    deployer,
    actions,
    transactionsSent: sent + (signingKeys?.transactionsSent ?? 0),
    deploymentsFile,
    signingKeys,
  };
}
