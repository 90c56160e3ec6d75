/**
 * What each deployable contract requires of the gate policy it is deployed with, and the check that a network's
 * configuration does not contradict it. Run when the configuration is loaded (`parseDeployConfig`) and again
 * by `deploy()` before it talks to the chain, so a configuration built in code is held to the same rules.
 *
 * @packageDocumentation
 */
import { DeploymentError } from "../errors.js";
import type { DeployableContract, DeployPolicy } from "./deployable-contracts.js";

/** A policy setting a contract requires, with the reason it does. */
export interface GatePolicyRequirement {
  /** The policy field. */
  readonly setting: keyof DeployPolicy;
  /** The value it must have. */
  readonly value: DeployPolicy[keyof DeployPolicy];
  /** Why the contract needs it: what goes wrong without it. */
  readonly reason: string;
}

/**
 * The policy settings each contract needs. `AgentTaskBoard` pays the account that took a task, and its hook
 * admits `(account, agentId)` by the hook's policy: without the controller check anyone can take, and be paid
 * for, a trusted agent's task. `TrustGatedEscrow` pays its claimer and refuses such a policy itself
 * (`ControllerCheckRequired`). A hook deployed alone does not pay anyone, so it has no requirement.
 */
export const GATE_POLICY_REQUIREMENTS: Readonly<Record<DeployableContract, readonly GatePolicyRequirement[]>> = {
  TrustAdmissionHook: [],
  AgentTaskBoard: [
    {
      setting: "requireController",
      value: true,
      reason:
        "it pays the account that takes a task, and its TrustAdmissionHook admits that account by this policy: without the controller check anyone can take, and be paid for, a trusted agent's task",
    },
  ],
  TrustGatedEscrow: [
    {
      setting: "requireController",
      value: true,
      reason: "it pays whoever claims an agent's escrow, and refuses a policy without the controller check (ControllerCheckRequired)",
    },
  ],
};

/** A contract of a network whose configured policy contradicts what the contract requires. */
export interface GatePolicyConflict {
  /** The network's name in the configuration. */
  readonly network: string;
  /** The contract. */
  readonly contract: DeployableContract;
  /** The policy field, as written in the configuration (`policy.requireController`). */
  readonly setting: string;
  /** The value the contract needs. */
  readonly required: DeployPolicy[keyof DeployPolicy];
  /** The value configured. */
  readonly configured: DeployPolicy[keyof DeployPolicy];
  /** One line naming the network, the contract, the setting and why. */
  readonly message: string;
}

/**
 * The contracts of a network whose policy contradicts their requirements ({@link GATE_POLICY_REQUIREMENTS}).
 *
 * @param network - The network's name, for the messages.
 * @param config - Its `contracts` and `policy`.
 * @returns One conflict per contract and setting; empty when the configuration is consistent.
 */
export function gatePolicyConflicts(
  network: string,
  config: { readonly contracts: readonly DeployableContract[]; readonly policy: DeployPolicy },
): GatePolicyConflict[] {
  const conflicts: GatePolicyConflict[] = [];
  for (const contract of config.contracts) {
    for (const requirement of GATE_POLICY_REQUIREMENTS[contract]) {
      const configured = config.policy[requirement.setting];
      if (configured === requirement.value) continue;
      const setting = `policy.${requirement.setting}`;
      conflicts.push({
        network,
        contract,
        setting,
        required: requirement.value,
        configured,
        message: `network "${network}": ${contract} requires ${setting} = ${String(requirement.value)} (configured: ${String(configured)}): ${requirement.reason}`,
      });
    }
  }
  return conflicts;
}

/**
 * Refuses a network whose policy contradicts what one of its contracts requires, before anything is sent.
 *
 * @param network - The network's name.
 * @param config - Its `contracts` and `policy`.
 * @throws {@link DeploymentError} (`bad-config`) listing every conflict.
 */
export function assertGatePolicyConsistent(
  network: string,
  config: { readonly contracts: readonly DeployableContract[]; readonly policy: DeployPolicy },
): void {
  const conflicts = gatePolicyConflicts(network, config);
  if (conflicts.length === 0) return;
  throw new DeploymentError("bad-config", conflicts[0]!.message, {
    metaMessages: conflicts.slice(1).map((c) => `- ${c.message}`),
    details: "Set the policy the contract needs (and an identityRegistry for the controller check), or leave the contract out.",
  });
}
