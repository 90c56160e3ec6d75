/**
 * The deployment's plan, without a request to the chain: which contracts a network's configuration asks for, in
 * which order and with which constructor arguments ({@link deploymentOrder}), and, given what the deployments file
 * records and whether each record holds on the chain, which are kept and which are deployed
 * ({@link planDeployment}).
 *
 * @packageDocumentation
 */
import { type Address, encodeDeployData, getAddress, type Hex, zeroAddress } from "viem";
import { DeploymentError } from "../errors.js";
import { DEPLOY_MOCK_REGISTRY, DEPLOYABLE_CONTRACTS, type NetworkDeployConfig } from "./config.js";
import type { ContractArtifact } from "./deploy-artifacts.js";
import { type DeploymentRecord, deploymentFingerprint, type JsonValue, toJsonSafe } from "./deployments-file.js";
import { ATTESTED_ORACLE } from "./attested-oracle-target.js";

/** The contract deployed as the attested oracle when `attestedOracle.heldFirstRecordMaxAge` is set. */
export const HELD_FIRST_ATTESTED_ORACLE = "HeldFirstAttestedTrustOracle";

/** The reference oracle's contract name. */
export const REFERENCE_ORACLE = "TrustScoreOracle";

/** The contract deployed for `identityRegistry: "deploy-mock"` (local networks). */
export const MOCK_IDENTITY_REGISTRY = "MockIdentityRegistry";

/** The address of each contract deployed or kept so far, by name. */
export type DeployedAddresses = Readonly<Record<string, Address>>;

/** One contract of the deployment, in its place in the order. */
export interface ContractStep {
  /** Contract name: what the deployments file records it under. */
  readonly name: string;
  /** The compiled contract it creates, when not `name` (the held-first attested oracle, recorded as the attested oracle). */
  readonly contract?: string;
  /** Its constructor arguments, given the addresses of the contracts before it. */
  readonly args: (addresses: DeployedAddresses) => readonly unknown[];
  /** The contracts before it whose addresses its arguments hold. */
  readonly dependsOn: readonly string[];
}

/**
 * The compiled contract a step creates.
 *
 * @param step - The step.
 * @returns Its `contract`, else its name.
 */
export function contractOf(step: ContractStep): string {
  return step.contract ?? step.name;
}

/** The accounts the configuration's contracts are owned and administered by. */
export interface DeploymentParties {
  /** Owner of the gates and admin and publisher of the reference oracle (`config.owner`, else the deployer). */
  readonly owner: Address;
  /** Admin of the attested oracle (`attestedOracle.admin`, else the owner). */
  readonly attestedAdmin: Address;
}

/**
 * The contracts a network's configuration asks for, in deployment order: the reference oracle (when `oracle` is
 * `"deploy-reference"` and something reads it), the `AttestedTrustOracle` (when configured; `HeldFirstAttestedTrustOracle`
 * when `heldFirstRecordMaxAge` is set, recorded under the same name), `MockIdentityRegistry`
 * (when `identityRegistry` is `"deploy-mock"` and a gate reads it), then the gates in {@link DEPLOYABLE_CONTRACTS}
 * order. Each gate gets the oracle `gateOracle` names, the identity registry, agent domain and policy.
 *
 * @param config - The network's configuration.
 * @param parties - Owner and attested oracle admin.
 * @returns The steps, each depending only on steps before it.
 */
export function deploymentOrder(config: NetworkDeployConfig, parties: DeploymentParties): ContractStep[] {
  const { owner, attestedAdmin } = parties;
  const attested = config.attestedOracle;
  const mockRegistry = config.identityRegistry === DEPLOY_MOCK_REGISTRY;
  const gateConfig = (oracle: Address, a: DeployedAddresses) => ({
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

  const steps: ContractStep[] = [];
  const gates = DEPLOYABLE_CONTRACTS.filter((c) => config.contracts.includes(c));
  const reference = config.oracle === "deploy-reference";
  const networkOracle = (a: DeployedAddresses) => (reference ? a[REFERENCE_ORACLE]! : getAddress(config.oracle));
  const networkOracleDeps = reference ? [REFERENCE_ORACLE] : [];
  // The reference oracle is deployed when something reads it: the gates, or the attested oracle as its upstream.
  const gatesReadAttested = config.gateOracle === "attested";
  if (reference && ((gates.length > 0 && !gatesReadAttested) || attested?.upstream === "oracle")) {
    steps.push({ name: REFERENCE_ORACLE, args: () => [owner], dependsOn: [] });
  }
  if (attested) {
    const upstream = attested.upstream;
    const upstreamOf = (a: DeployedAddresses): Address =>
      upstream === "oracle" ? networkOracle(a) : upstream === "none" ? zeroAddress : getAddress(upstream);
    const maxAge = attested.heldFirstRecordMaxAge;
    steps.push({
      name: ATTESTED_ORACLE,
      ...(maxAge === undefined ? {} : { contract: HELD_FIRST_ATTESTED_ORACLE }),
      args: (a) => (maxAge === undefined ? [attestedAdmin, upstreamOf(a)] : [attestedAdmin, upstreamOf(a), BigInt(maxAge)]),
      dependsOn: upstream === "oracle" ? networkOracleDeps : [],
    });
  }
  const gateOracle = gatesReadAttested ? (a: DeployedAddresses) => a[ATTESTED_ORACLE]! : networkOracle;
  const gateDeps = [...(gatesReadAttested ? [ATTESTED_ORACLE] : networkOracleDeps), ...(mockRegistry ? [MOCK_IDENTITY_REGISTRY] : [])];
  // The mock registry (local networks) is deployed when a gate reads it.
  if (mockRegistry && gates.some((name) => name !== "AgentTaskBoard")) {
    steps.push({ name: MOCK_IDENTITY_REGISTRY, args: () => [], dependsOn: [] });
  }
  for (const name of gates) {
    if (name === "AgentTaskBoard") steps.push({ name, args: (a) => [a.TrustAdmissionHook!, owner], dependsOn: ["TrustAdmissionHook"] });
    else steps.push({ name, args: (a) => [gateConfig(gateOracle(a), a), owner], dependsOn: gateDeps });
  }
  return steps;
}

/** A contract's creation: what is sent, and what identifies it in the deployments file. */
export interface Creation {
  /** Creation bytecode followed by the encoded constructor arguments. */
  readonly data: Hex;
  /** Name + creation bytecode + constructor arguments (see `deploymentFingerprint`). */
  readonly fingerprint: Hex;
  /** The constructor arguments, JSON-safe, as recorded. */
  readonly constructorArgs: readonly JsonValue[];
}

/**
 * The creation of a contract, given the addresses of those before it.
 *
 * @param step - The contract.
 * @param artifact - Its compiled form.
 * @param addresses - The addresses its arguments hold.
 * @returns Its creation data, fingerprint and recorded arguments.
 */
export function creationOf(step: ContractStep, artifact: ContractArtifact, addresses: DeployedAddresses): Creation {
  const args = step.args(addresses);
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
  return {
    data,
    fingerprint: deploymentFingerprint(step.name, artifact.bytecode, `0x${data.slice(artifact.bytecode.length)}`),
    constructorArgs: args.map(toJsonSafe),
  };
}

/** What the chain holds of the recorded deployments, as the deployment found it. */
export interface RecordedOnChain {
  /** The trusted deployments file's records, by contract name. */
  readonly recorded: Readonly<Record<string, DeploymentRecord>>;
  /** For each recorded contract, `null` when its record holds on the chain, else what is wrong. */
  readonly problems: ReadonlyMap<string, string | null>;
}

/** One contract of the plan: kept as recorded, or deployed (again). */
export type PlannedContract =
  | {
      readonly kind: "keep";
      readonly step: ContractStep;
      /** The recorded deployment kept. */
      readonly record: DeploymentRecord;
      /** The creation the record matches. */
      readonly creation: Creation;
    }
  | {
      readonly kind: "deploy";
      readonly step: ContractStep;
      /** The record set aside (a local network's record that does not hold on the chain), with why. */
      readonly distrusted: { readonly record: DeploymentRecord; readonly problem: string } | undefined;
      /**
       * The recorded deployment of the same contract that this one replaces (its creation, or what it depends on,
       * changed), kept in the deployments file's history once the new one is created; the distrusted record too.
       */
      readonly replaces: DeploymentRecord | undefined;
    };

/** Where the plan is made, for its decisions and messages. */
export interface PlanContext {
  /** Whether the network is local: a record that does not hold is then set aside, not refused. */
  readonly local: boolean;
  /** The chain id, for messages. */
  readonly chainId: number;
  /** The deployments file's path, for messages. */
  readonly deploymentsFile: string;
}

/**
 * Which contracts are kept and which deployed. A contract is kept when its record's fingerprint equals the creation
 * the configuration asks for now and the record holds on the chain. A contract that depends on one deployed anew is
 * deployed anew too: its arguments name the new address, which no record holds.
 *
 * @param steps - The contracts, in order ({@link deploymentOrder}).
 * @param artifacts - Their compiled forms, by name.
 * @param onChain - The records and whether each holds on the chain.
 * @param context - Local or not, chain id and file, for the decision and its messages.
 * @returns One entry per step, in order.
 * @throws {@link DeploymentError} (`untrusted-record`) on a network that is not local, when a matching record does
 *   not hold on the chain (its code or creation transaction is missing): nothing is sent then.
 */
export function planDeployment(
  steps: readonly ContractStep[],
  artifacts: ReadonlyMap<string, ContractArtifact>,
  onChain: RecordedOnChain,
  context: PlanContext,
): PlannedContract[] {
  const kept: Record<string, Address> = {};
  const deployed = new Set<string>();
  return steps.map((step): PlannedContract => {
    const record = onChain.recorded[step.name];
    if (step.dependsOn.some((name) => deployed.has(name))) {
      deployed.add(step.name);
      return { kind: "deploy", step, distrusted: undefined, replaces: record };
    }
    const creation = creationOf(step, artifacts.get(step.name)!, kept);
    if (!record || record.fingerprint !== creation.fingerprint) {
      deployed.add(step.name);
      return { kind: "deploy", step, distrusted: undefined, replaces: record };
    }
    const problem = onChain.problems.has(step.name) ? onChain.problems.get(step.name)! : "it was not checked on this chain";
    if (problem === null) {
      kept[step.name] = record.address;
      return { kind: "keep", step, record, creation };
    }
    if (!context.local) {
      throw new DeploymentError(
        "untrusted-record",
        `${context.deploymentsFile} records ${step.name} at ${record.address}, but on chain ${context.chainId} ${problem}: refusing to trust it (wrong RPC URL?); move the file away to deploy afresh`,
      );
    }
    deployed.add(step.name);
    return { kind: "deploy", step, distrusted: { record, problem }, replaces: record };
  });
}
