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
 * The run has four steps, each in its own file: resolve (`deploy-resolve.ts`: configuration, chain, deployer, JWKS,
 * deployments file), plan (`deploy-plan.ts`: which contracts, in which order, kept or deployed; no request),
 * execute (`deploy-execute.ts`: estimate or create), record (`deploy-record.ts`: the deployments file), then the
 * configured signing keys (`deploy-install-keys.ts`).
 *
 * @packageDocumentation
 */
import { join } from "node:path";
import type { DeploymentError } from "../errors.js";
import { loadArtifacts } from "./deploy-artifacts.js";
import { executePlan } from "./deploy-execute.js";
import { installConfiguredSigningKeys } from "./deploy-install-keys.js";
import { contractOf, deploymentOrder, planDeployment } from "./deploy-plan.js";
import { deploymentRecorder, estimatedGasTotal, runSummary } from "./deploy-record.js";
import { resolveDeployment } from "./deploy-resolve.js";
import type { DeployParameters, DeployResult } from "./deploy-types.js";
import { deploymentsFilePath } from "./deployments-file.js";
import { DEPLOYER_KEY_VARIABLE } from "./sender.js";
import { ATTESTED_ORACLE } from "./attested-oracle-target.js";
import type { SigningKeysResult } from "./signing-keys.js";

export { DEPLOYER_KEY_VARIABLE, type DeployProvider, MAINNET_CHAIN_IDS, resolveDeployerKey } from "./sender.js";
export type { DeployAction, DeployParameters, DeployResult } from "./deploy-types.js";
export { currentGitCommit, DRY_RUN_PLACEHOLDER_SENDER } from "./deploy-resolve.js";
export { MOCK_IDENTITY_REGISTRY, REFERENCE_ORACLE } from "./deploy-plan.js";

/** What {@link deploy} throws: a refusal or a failure, with its reason. */
export type DeployErrorType = DeploymentError;

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
export async function deploy(options: DeployParameters): Promise<DeployResult> {
  const { config, network } = options;
  const log = options.log ?? (() => {});
  const dryRun = options.dryRun ?? false;
  const recorded = options.recordDeployments ?? true;
  const resolved = await resolveDeployment(options);
  const { chainId, deployer } = resolved;
  const deploymentsFile = deploymentsFilePath(options.deploymentsDir, chainId);

  const steps = deploymentOrder(config, resolved.parties);
  const compiled = loadArtifacts(options.artifactsDir ?? join(process.cwd(), "artifacts"), [...new Set(steps.map(contractOf))]);
  // By step name: the artifact of the contract each step creates.
  const artifacts = new Map(steps.map((s) => [s.name, compiled.get(contractOf(s))!]));
  const plan = planDeployment(steps, artifacts, resolved.onChain, { local: config.local, chainId, deploymentsFile });

  log(`${dryRun ? "Dry run on" : "Deploying to"} ${network} (chain ${chainId}) from ${deployer}`);
  if (resolved.keyless) {
    log(
      `No ${DEPLOYER_KEY_VARIABLE}: estimating from ${deployer} (${config.owner ? "the configured owner" : "a placeholder"}); predicted addresses depend on the real deployer's nonce`,
    );
  }
  const { actions, addresses, sent } = await executePlan(plan, {
    publicClient: resolved.publicClient,
    walletClient: resolved.walletClient,
    deployer,
    dryRun,
    artifacts,
    gitCommit: resolved.gitCommit,
    recorder: deploymentRecorder(options.deploymentsDir, resolved.file, recorded),
    deploymentsFile,
    log,
  });
  const wouldDeploy = actions.filter((a) => a.status === "would-deploy").length;
  if (dryRun && wouldDeploy > 0) log(estimatedGasTotal(actions));
  log(runSummary({ dryRun, recorded, sent, wouldDeploy, deploymentsFile }));

  let signingKeys: SigningKeysResult | undefined;
  if (resolved.jwks) {
    signingKeys = await installConfiguredSigningKeys({
      provider: options.provider,
      chainId,
      network,
      local: config.local,
      rpcUrl: options.rpcUrl,
      oracle: addresses[ATTESTED_ORACLE]!,
      oracleIsNew: actions.find((a) => a.name === ATTESTED_ORACLE)?.status === "would-deploy",
      jwks: resolved.jwks,
      keysToInstall: resolved.keysToInstall,
      selection: resolved.selection,
      account: resolved.keyless ? null : resolved.account,
      deployer,
      dryRun,
      confirmMainnet: options.confirmMainnet,
      log,
    });
  }
  return { chainId, deployer, actions, transactionsSent: sent + (signingKeys?.transactionsSent ?? 0), deploymentsFile, signingKeys };
}
