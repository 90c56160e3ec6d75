/**
 * The deployment's execution: each planned contract kept, estimated (dry run: its address predicted from the
 * deployer's nonce, its gas estimated with the contracts it depends on put at their predicted addresses) or created
 * and recorded.
 *
 * @packageDocumentation
 */
import {
  type Account,
  type Address,
  type Chain,
  type CustomTransport,
  getAddress,
  getContractAddress,
  type Hash,
  type PublicClient,
  type WalletClient,
} from "viem";
import { DeploymentError, messageOf } from "../errors.js";
import { estimateCreationGas } from "./creation-gas.js";
import type { ContractArtifact } from "./deploy-artifacts.js";
import { creationOf, type Creation, type PlannedContract } from "./deploy-plan.js";
import type { DeploymentRecorder } from "./deploy-record.js";
import type { DeployAction } from "./deploy-types.js";
import type { DeploymentRecord } from "./deployments-file.js";

/** What the execution works with. */
export interface ExecutionContext {
  /** Reads the chain. */
  readonly publicClient: PublicClient<CustomTransport>;
  /** Sends from the deployer. */
  readonly walletClient: WalletClient<CustomTransport, Chain, Account>;
  /** The deployer. */
  readonly deployer: Address;
  /** Estimate and predict only; send nothing. */
  readonly dryRun: boolean;
  /** The contracts' compiled forms, by name. */
  readonly artifacts: ReadonlyMap<string, ContractArtifact>;
  /** The git commit recorded with each creation. */
  readonly gitCommit: string | null;
  /** Records each creation. */
  readonly recorder: DeploymentRecorder;
  /** The deployments file, for messages. */
  readonly deploymentsFile: string;
  /** Receives one line per event. */
  readonly log: (line: string) => void;
}

/** What the execution did. */
export interface ExecutionResult {
  /** One action per contract, in order. */
  readonly actions: DeployAction[];
  /** The address of each contract (predicted for a dry run's), by name. */
  readonly addresses: Readonly<Record<string, Address>>;
  /** Creations sent. */
  readonly sent: number;
}

/**
 * Carries out a plan, in order.
 *
 * @param plan - The planned contracts (`planDeployment`).
 * @param context - Clients, deployer, dry run, artifacts, recorder, log.
 * @returns The actions, the addresses and the count of creations sent.
 * @throws {@link DeploymentError} (`failed`) when a creation cannot be sent or reverts.
 */
export async function executePlan(plan: readonly PlannedContract[], context: ExecutionContext): Promise<ExecutionResult> {
  const { publicClient, deployer, log } = context;
  let nonce = context.dryRun ? await publicClient.getTransactionCount({ address: deployer, blockTag: "pending" }) : 0;
  const addresses: Record<string, Address> = {};
  const pending = new Map<string, ContractArtifact>();
  const actions: DeployAction[] = [];
  let sent = 0;
  for (const planned of plan) {
    const { step } = planned;
    if (planned.kind === "keep") {
      const { record, creation } = planned;
      addresses[step.name] = record.address;
      actions.push({
        name: step.name,
        status: "unchanged",
        address: record.address,
        constructorArgs: creation.constructorArgs,
        transactionHash: record.transactionHash,
        replaces: undefined,
        gas: undefined,
        gasMethod: undefined,
        gasNote: undefined,
      });
      log(`= ${step.name} unchanged at ${record.address}`);
      continue;
    }
    if (planned.distrusted) {
      const { record, problem } = planned.distrusted;
      log(`! ${step.name} is recorded at ${record.address} in ${context.deploymentsFile}, but ${problem}: not trusted, deploying again`);
    }
    const artifact = context.artifacts.get(step.name)!;
    const creation = creationOf(step, artifact, addresses);
    if (context.dryRun) {
      const address = getContractAddress({ from: deployer, nonce: BigInt(nonce++) });
      addresses[step.name] = address;
      const dependencies = step.dependsOn.filter((name) => pending.has(name));
      const estimated = await estimateCreation(publicClient, deployer, step.name, address, creation, dependencies, addresses, pending);
      const action = { ...estimated, replaces: planned.replaces?.address };
      pending.set(step.name, artifact);
      actions.push(action);
      log(`+ would deploy ${step.name} at ${address} (predicted)`);
      if (planned.replaces) log(`    replaces ${planned.replaces.address}, deployed in block ${planned.replaces.blockNumber}`);
      log(`    constructor arguments: ${JSON.stringify(action.constructorArgs)}`);
      log(`    estimated gas: ${gasLine(action)}`);
      continue;
    }
    const action = await sendCreation(context, step.name, creation, planned.replaces);
    sent++;
    addresses[step.name] = action.address;
    actions.push(action);
  }
  return { actions, addresses, sent };
}

/** A dry run's creation: its gas estimated with what it depends on put at its predicted address. */
async function estimateCreation(
  publicClient: PublicClient<CustomTransport>,
  deployer: Address,
  name: string,
  address: Address,
  creation: Creation,
  dependencies: readonly string[],
  addresses: Readonly<Record<string, Address>>,
  pending: ReadonlyMap<string, ContractArtifact>,
): Promise<Omit<DeployAction, "replaces">> {
  const overrides = dependencies.map((d) => ({ address: addresses[d]!, code: pending.get(d)!.deployedBytecode }));
  const estimate = await estimateCreationGas(publicClient, deployer, creation.data, overrides);
  return {
    name,
    status: "would-deploy",
    address,
    constructorArgs: creation.constructorArgs,
    transactionHash: undefined,
    gas: estimate.gas,
    gasMethod: estimate.method,
    gasNote: estimate.note,
  };
}

/** Sends a creation, waits for it and records it. */
async function sendCreation(
  context: ExecutionContext,
  name: string,
  creation: Creation,
  replaces: DeploymentRecord | undefined,
): Promise<DeployAction> {
  const { publicClient, walletClient, log } = context;
  let hash: Hash;
  try {
    hash = await walletClient.sendTransaction({ data: creation.data, chain: walletClient.chain });
  } catch (error) {
    throw new DeploymentError("failed", `Sending the creation of ${name} failed: ${messageOf(error)}`, { cause: error });
  }
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new DeploymentError("failed", `The creation of ${name} reverted (transaction ${hash})`);
  }
  const address = getAddress(receipt.contractAddress);
  const blockNumber = Number(receipt.blockNumber);
  context.recorder.add(
    {
      name,
      address,
      transactionHash: hash,
      blockNumber,
      constructorArgs: creation.constructorArgs,
      fingerprint: creation.fingerprint,
      gitCommit: context.gitCommit,
      deployedAt: new Date().toISOString(),
    },
    replaces,
  );
  log(`+ deployed ${name} at ${address} (transaction ${hash}, block ${blockNumber}, gas ${receipt.gasUsed})`);
  if (replaces) {
    log(`    replaces ${replaces.address}, deployed in block ${replaces.blockNumber} (kept in ${context.deploymentsFile} under "history")`);
  }
  return {
    name,
    status: "deployed",
    address,
    constructorArgs: creation.constructorArgs,
    transactionHash: hash,
    replaces: replaces?.address,
    gas: receipt.gasUsed,
    gasMethod: undefined,
    gasNote: undefined,
  };
}

/** A dry run's gas figure, with how it was measured when not by `eth_estimateGas`, or why it is unknown. */
function gasLine(action: DeployAction): string {
  if (action.gas === undefined) return `unknown, ${action.gasNote}`;
  return action.gasMethod === "eth_call"
    ? `${action.gas} (measured in an eth_call with a state override: this node refuses one in eth_estimateGas)`
    : action.gas.toString();
}
