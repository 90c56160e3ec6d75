/**
 * The records an `AttestedTrustOracle` stored under one signing key id: what an operator lists after a key leaks.
 * The oracle announces a subject's first record with `RecordAdded` and each later one with `RecordUpdated`, and
 * names the key id records are stored under with `RecordSignedBy` (topic: `keccak256(kid)`) just before the first
 * record and before each record stored under another key id than the one it replaces; replaying the three in log
 * order attributes every record to its key id.
 *
 * @packageDocumentation
 */
import { type Address, getAbiItem, type Hash, type Hex, keccak256, stringToBytes } from "viem";
import { readContract } from "viem/actions";
import { InvalidArgumentError } from "../errors.js";
import { attestedTrustOracleAbi } from "./abi.js";
import type { AnyClient } from "./client.js";
import { type LogScanOptions, scanLogs } from "./log-scan.js";

/** One record a key id stored. */
export interface SignedRecord {
  /** The record key, `keccak256(abi.encodePacked(agentId, chainId, registry))`. */
  readonly key: Hex;
  /** The agent's id in its registry. */
  readonly agentId: bigint;
  /** The chain the agent is registered on. */
  readonly chainId: number;
  /** The registry name. */
  readonly registry: string;
  /**
   * Whether the record the oracle stores for the subject now is one this key id signed (else an attestation under
   * another key id has replaced it since).
   */
  readonly current: boolean;
  /** The block of the last record this key id stored for the subject. */
  readonly blockNumber: bigint;
  /** Its transaction. */
  readonly transactionHash: Hash;
}

/** What {@link listRecordsSignedBy} found. */
export interface RecordsSignedBy {
  /** The key id. */
  readonly kid: string;
  /** Whether the oracle holds it revoked: its current records then read as absent. */
  readonly revoked: boolean;
  /** Every subject the key id stored a record for, in order of first appearance. */
  readonly records: readonly SignedRecord[];
}

const recordAdded = getAbiItem({ abi: attestedTrustOracleAbi, name: "RecordAdded" });
const recordUpdated = getAbiItem({ abi: attestedTrustOracleAbi, name: "RecordUpdated" });
const recordSignedBy = getAbiItem({ abi: attestedTrustOracleAbi, name: "RecordSignedBy" });

/**
 * Lists the records an `AttestedTrustOracle` stored under a key id, and which of them it still holds under it.
 *
 * @param client - A viem client of the oracle's chain (a node that serves the logs of the range).
 * @param oracle - The `AttestedTrustOracle`.
 * @param kid - The key id, as in the JWKS and `setSigningKey`.
 * @param options - Block range (start at the oracle's deployment block to save requests) and request size.
 * @returns The key id's revocation state and its records.
 * @throws {@link InvalidArgumentError} when `fromBlock` is after a record's `RecordSignedBy` or `RecordAdded` (its key
 *   id or its subject cannot be named: start at the oracle's deployment block); the node's error when it cannot serve the logs or the `signingKey` read.
 */
export async function listRecordsSignedBy(
  client: AnyClient,
  oracle: Address,
  kid: string,
  options: LogScanOptions = {},
): Promise<RecordsSignedBy> {
  const kidTopic = keccak256(stringToBytes(kid));
  const subjects = new Map<Hex, { agentId: bigint; chainId: number; registry: string }>();
  /** The key id topic the records of each record key are stored under, from its latest RecordSignedBy. */
  const signer = new Map<Hex, Hex>();
  /** The last record the key id stored, per record key. */
  const mine = new Map<Hex, { blockNumber: bigint; transactionHash: Hash }>();
  await scanLogs(
    client,
    oracle,
    [recordAdded, recordUpdated, recordSignedBy],
    (logs) => {
      for (const log of logs) {
        const key = (log.args as { key: Hex }).key;
        if (log.eventName === "RecordSignedBy") {
          // An indexed string is logged as its keccak256: the topic, not the text.
          signer.set(key, (log.args as { kid: Hex }).kid);
          continue;
        }
        if (log.eventName === "RecordAdded") {
          const { agentId, chainId, registry } = log.args as { agentId: bigint; chainId: bigint; registry: string };
          subjects.set(key, { agentId, chainId: Number(chainId), registry });
        }
        const kidOfRecord = signer.get(key);
        // Every RecordAdded comes after its RecordSignedBy; a RecordUpdated without one is under a key id named before
        // the scanned range, which cannot say whose record it is.
        if (kidOfRecord === undefined) {
          throw new InvalidArgumentError(
            `record ${key} was stored in block ${log.blockNumber} under a key id named before the scanned range: start the scan at the oracle's deployment block`,
          );
        }
        if (kidOfRecord === kidTopic) mine.set(key, { blockNumber: log.blockNumber!, transactionHash: log.transactionHash! });
      }
    },
    options,
  );
  const records: SignedRecord[] = [];
  for (const [key, at] of mine) {
    const subject = subjects.get(key);
    // A record key's first record always comes with its RecordAdded; one missing means the scan started after it:
    // the range is too short to name the subject.
    if (subject === undefined) {
      throw new InvalidArgumentError(
        `record ${key} was stored under "${kid}" but its RecordAdded is before the scanned range: start the scan earlier`,
      );
    }
    records.push({ key, ...subject, current: signer.get(key) === kidTopic, ...at });
  }
  const [, , revoked] = await readContract(client, {
    address: oracle,
    abi: attestedTrustOracleAbi,
    functionName: "signingKey",
    args: [kid],
    ...(options.toBlock === undefined ? {} : { blockNumber: options.toBlock }),
  });
  return { kid, revoked, records };
}
