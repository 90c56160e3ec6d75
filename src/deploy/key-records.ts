/**
 * Lists the records an `AttestedTrustOracle` stored under a key id (`npm run keys -- --records <kid>`): after a key
 * leaks, the subjects whose records read as absent once it is revoked. Sends nothing.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { DeploymentError, InvalidArgumentError } from "../errors.js";
import { formatRecordKey } from "../oracle/record-key.js";
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
 * another key id has replaced already. Sends nothing. Each record's agent is printed as every report names agents,
 * `chain:id:registry` (`base:1:erc8004`).
 *
 * @param options - Chain, oracle, key id, first block, output.
 * @returns The key id's state and its records, with the oracle, its chain and the first block scanned.
 * @throws {@link DeploymentError} for an unreachable node, a chain other than the configured one, no oracle, or a
 *   contract that is not an `AttestedTrustOracle`; `bad-config` when the scan starts after one of the records (its
 *   subject cannot be named).
 */
export async function listKeyRecords(options: ListKeyRecordsParameters): Promise<KeyRecordsListing> {
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
      `  ${formatRecordKey(record)}  ${record.current ? "current " : "replaced"}  ` +
        `last stored in block ${record.blockNumber}, tx ${record.transactionHash}`,
    );
  }
  return { ...listed, oracle: target.address, chainId, fromBlock };
}

/** What {@link listKeyRecords} found: the key id's records, and where they were looked for. */
export interface KeyRecordsListing extends RecordsSignedBy {
  /** The `AttestedTrustOracle`. */
  readonly oracle: Address;
  /** The chain the oracle is on. */
  readonly chainId: number;
  /** The first block scanned. */
  readonly fromBlock: bigint;
}

/**
 * The JSON form of a listing (`npm run keys -- --records <kid> --json <file>`): numbers that may exceed 2^53 (agent
 * ids, blocks) as decimal strings, each record's agent named as reports name agents (`base:1:erc8004`) beside its parts.
 *
 * @param listing - What {@link listKeyRecords} found.
 * @returns A JSON-safe object.
 */
export function keyRecordsJson(listing: KeyRecordsListing): KeyRecordsJson {
  return {
    kid: listing.kid,
    oracle: listing.oracle,
    chainId: listing.chainId,
    fromBlock: listing.fromBlock.toString(),
    revoked: listing.revoked,
    current: listing.records.filter((r) => r.current).length,
    records: listing.records.map((record) => ({
      agent: formatRecordKey(record),
      agentId: record.agentId.toString(),
      chainId: record.chainId,
      registry: record.registry,
      current: record.current,
      key: record.key,
      blockNumber: record.blockNumber.toString(),
      transactionHash: record.transactionHash,
    })),
  };
}

/** The JSON form of a key id's records ({@link keyRecordsJson}). */
export interface KeyRecordsJson {
  /** The key id. */
  readonly kid: string;
  /** The `AttestedTrustOracle`. */
  readonly oracle: Address;
  /** Its chain. */
  readonly chainId: number;
  /** The first block scanned (decimal string). */
  readonly fromBlock: string;
  /** Whether the oracle holds the key id revoked (its current records then read as absent). */
  readonly revoked: boolean;
  /** How many of the records are still their subject's current record. */
  readonly current: number;
  /** One entry per subject the key id stored a record for, in order of first appearance. */
  readonly records: readonly {
    /** The agent, `chain:id:registry` (`base:1:erc8004`). */
    readonly agent: string;
    /** Its id in its registry (decimal string). */
    readonly agentId: string;
    /** The chain it is registered on. */
    readonly chainId: number;
    /** Its registry. */
    readonly registry: string;
    /** Whether the oracle's record for it now is the one this key id signed. */
    readonly current: boolean;
    /** The record key. */
    readonly key: string;
    /** The block of the last record this key id stored for it (decimal string). */
    readonly blockNumber: string;
    /** Its transaction. */
    readonly transactionHash: string;
  }[];
}
