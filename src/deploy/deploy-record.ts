/**
 * The deployment's record: the deployments file (`deployments/<chainId>.json`) rewritten after each creation, so an
 * interrupted run keeps what it did, with each contract's constructor arguments beside it for hardhat-verify; and
 * the run's closing lines.
 *
 * @packageDocumentation
 */
import type { DeployAction } from "./deploy-types.js";
import { type DeploymentRecord, type DeploymentsFile, writeConstructorArgsFile, writeDeploymentsFile } from "./deployments-file.js";

/** Records the creations of one run. */
export interface DeploymentRecorder {
  /**
   * Adds a creation to the file and, unless recording is off, writes the file and its constructor arguments. The
   * record it replaces, if any, moves to the file's history.
   */
  add(record: DeploymentRecord, replaces?: DeploymentRecord): void;
}

/**
 * A recorder over the trusted deployments file.
 *
 * @param dir - Directory of the deployments files.
 * @param file - The file as trusted for this chain.
 * @param enabled - False for a throw-away chain: nothing is written.
 * @returns The recorder.
 */
export function deploymentRecorder(dir: string, file: DeploymentsFile, enabled: boolean): DeploymentRecorder {
  let current = file;
  return {
    add(record, replaces) {
      const history = replaces
        ? [...(current.history ?? []), { ...replaces, replacedBy: record.address, replacedAt: record.deployedAt }]
        : current.history;
      current = { ...current, contracts: { ...current.contracts, [record.name]: record }, ...(history ? { history } : {}) };
      if (!enabled) return;
      writeDeploymentsFile(dir, current);
      writeConstructorArgsFile(dir, current.chainId, record.name, record.constructorArgs);
    },
  };
}

/** What a run did, for its closing line. */
export interface RunOutcome {
  /** A dry run. */
  readonly dryRun: boolean;
  /** Whether the deployments file is written. */
  readonly recorded: boolean;
  /** Creations sent. */
  readonly sent: number;
  /** Creations a dry run would send. */
  readonly wouldDeploy: number;
  /** The deployments file. */
  readonly deploymentsFile: string;
}

/**
 * The run's closing line: what was (or would be) deployed, and where it is recorded.
 *
 * @param outcome - What the run did.
 * @returns One line.
 */
export function runSummary(outcome: RunOutcome): string {
  if (outcome.dryRun) return `Dry run: nothing sent; ${outcome.wouldDeploy} contract(s) would be deployed.`;
  if (!outcome.recorded) return `Deployed ${outcome.sent} contract(s) to the throw-away chain; nothing recorded.`;
  if (outcome.sent === 0) return `Nothing to deploy: every contract in ${outcome.deploymentsFile} is up to date.`;
  return `Deployed ${outcome.sent} contract(s); recorded in ${outcome.deploymentsFile}.`;
}

/**
 * A dry run's total of the estimated gas of the contracts it would deploy, naming those whose gas is unknown.
 *
 * @param actions - The run's actions.
 * @returns One line: `Estimated gas in total: <n> for <k> contract(s)`, or `at least <n>` when some are unknown.
 */
export function estimatedGasTotal(actions: readonly DeployAction[]): string {
  const planned = actions.filter((a) => a.status === "would-deploy");
  const total = planned.reduce((sum, a) => sum + (a.gas ?? 0n), 0n);
  const unknown = planned.filter((a) => a.gas === undefined).map((a) => a.name);
  return unknown.length === 0
    ? `Estimated gas in total: ${total} for ${planned.length} contract(s)`
    : `Estimated gas in total: at least ${total} for ${planned.length} contract(s) (unknown for ${unknown.join(", ")})`;
}
