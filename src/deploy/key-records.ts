/**
 * Lists the records an `AttestedTrustOracle` stored under a key id (`npm run keys -- --records <kid>`): after a key
 * leaks, the subjects whose records read as absent once it is revoked. Sends nothing.
 *
 * @packageDocumentation
 */
import { DeploymentError, InvalidArgumentError } from "../errors.js";
import { listRecordsSignedBy, type RecordsSignedBy } from "../oracle/records-by-key.js";
import { assertAttestedOracle, attestedOracleTarget, connectedNode, type NodeTarget, type OracleTarget } from "./attested-oracle-target.js";

/** Options of {@link listKeyRecords}. */
export interface ListKeyRecordsParameters extends OracleTarget, NodeTarget {
  /** The key id whose records to list. */
  readonly kid: string;
  /**
   * First block to scan. Default: the oracle's deployment block when the oracle is the one recorded in the deployments
   * file, else 0 (every block: give the deployment block on a long chain).
   */
  readonly fromBlock?: bigint | undefined;
  /** Receives the report's lines (default: none). */
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * Lists the records an `AttestedTrustOracle` stored under a key id (`npm run keys -- --records <kid>`): after a key
 * leaks, the subjects whose records read as absent once it is revoked, and which of them a later attestation under
 * another key id has replaced already. Sends nothing.
 *
 * @param options - Chain, oracle, key id, first block, output.
 * @returns The key id's state and its records ({@link listRecordsSignedBy}).
 * @throws {@link DeploymentError} for an unreachable node, a chain other than the configured one, no oracle, or a
 *   contract that is not an `AttestedTrustOracle`; `bad-config` when the scan starts after one of the records (its
 *   subject cannot be named).
 */
export async function listKeyRecords(options: ListKeyRecordsParameters): Promise<RecordsSignedBy> {
  const log = options.log ?? (() => {});
  if (options.kid.trim() === "") throw new DeploymentError("bad-config", "The key id whose records to list is empty");
  const { publicClient, chainId } = await connectedNode(options);
  const target = await attestedOracleTarget(publicClient, chainId, options);
  await assertAttestedOracle(publicClient, target.address, chainId);
  const fromBlock = options.fromBlock ?? target.deployedAt ?? 0n;
  let listed: RecordsSignedBy;
  try {
    listed = await listRecordsSignedBy(publicClient, target.address, options.kid, { fromBlock });
  } catch (cause) {
    if (cause instanceof InvalidArgumentError) throw new DeploymentError("bad-config", `${cause.shortMessage}`, { cause });
    throw cause;
  }
  const current = listed.records.filter((record) => record.current).length;
  log(
    `Records stored under "${options.kid}" by the oracle ${target.address} on chain ${chainId} (blocks ${fromBlock} on): ` +
      `${listed.records.length}, of which ${current} still current` +
      (listed.revoked ? "; the key id is revoked: its current records read as absent" : "; the key id is not revoked"),
  );
  for (const record of listed.records) {
    log(
      `  agent ${record.agentId} on chain ${record.chainId} (${record.registry})  ${record.current ? "current " : "replaced"}  ` +
        `last stored in block ${record.blockNumber}, tx ${record.transactionHash}`,
    );
  }
  return listed;
}
