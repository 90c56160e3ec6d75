/**
 * The journal of a refresh run: a JSON file that records every transaction the run sends, before it is sent (its
 * batch, agents, kids, nonce, and each hash with its fees: the first and each replacement) and after it is settled
 * (its receipt's status, gas and cost, and each agent's outcome). With a local account (a private key, a keystore)
 * the transaction is signed first and its hash written before it is sent, so no transaction reaches a node without
 * the journal knowing it; one killed between the write and the send is known to no node, and a rerun settles it as
 * `dropped`. It is written atomically (a temporary file renamed
 * over it), so a run killed at any moment leaves the journal of before or after the write, never half of it.
 *
 * A rerun with the same journal settles first what the journal has in flight (the receipt of one of its hashes, or
 * its nonce consumed by another transaction: `replaced`), and pushes again no agent the journal has stored or in
 * flight for the same drift report: so a killed run resumes without pushing an attestation twice. A run from a newer
 * report (a nightly job that writes the report to the same file) settles the older transactions in flight too, and
 * then pushes what its own report says is due.
 *
 * @packageDocumentation
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Address, Hash } from "viem";
import { ConfigurationError, messageOf } from "../errors.js";
import type { SentAttempt } from "./transaction.js";

/** What a journal's transaction carried an attestation to. */
export type JournalAttestationOutcome = "stored" | "no-op" | "refused";

/** One transaction of the journal. */
export interface JournalTransaction {
  /** The `generatedAt` of the drift report whose plan sent it. */
  readonly report: string;
  /** The plan's batch. */
  readonly batch: number;
  readonly nonce: number;
  /** Its agents (`chain:id:registry`) and their kids, in the order sent. */
  readonly agents: readonly string[];
  readonly kids: readonly string[];
  /** Their agents' chain ids (`null`: none; their record keys are read with 0), for the receipt's record keys. */
  readonly chainIds: readonly (number | null)[];
  /** Every hash sent for its nonce, in order. */
  sent: SentAttempt[];
  /**
   * `in-flight` until settled: `mined` (a receipt of one of `sent`), `replaced` (the nonce consumed by another), or
   * `dropped` (no node knows any of `sent`, the nonce unused: its agents may be pushed again).
   */
  state: "in-flight" | "mined" | "replaced" | "dropped";
  /** The mined hash, its status, gas used, price per gas and cost in wei (decimal), once mined. */
  receipt?: {
    readonly hash: Hash;
    readonly status: "success" | "reverted";
    readonly blockNumber: string;
    readonly gasUsed: string;
    readonly effectiveGasPrice: string;
    readonly costWei: string;
  };
  /** Each agent's outcome, once mined. */
  outcomes?: Record<string, JournalAttestationOutcome>;
}

/** The journal file's content. */
export interface RefreshJournalContent {
  readonly version: 1;
  /** The oracle, chain and sender it belongs to: a journal of another is refused. */
  readonly attestedOracle: Address;
  readonly chainId: number;
  readonly from: Address;
  readonly transactions: JournalTransaction[];
}

/** An open journal. */
export interface RefreshJournal {
  /** The file; absent: kept in memory only. */
  readonly path?: string;
  readonly content: RefreshJournalContent;
  /** Writes the content atomically (nothing without a path). */
  save(): void;
}

/**
 * Opens a run's journal: reads the file when it exists (it must belong to the same oracle, chain and sender), else
 * starts an empty one (written at the first send).
 *
 * @param path - The file; absent: an in-memory journal (a run that cannot be resumed).
 * @param identity - The oracle, chain and sender of the run.
 * @returns The journal.
 * @throws {@link ConfigurationError} for a file that is not a journal, or one of another oracle, chain or sender.
 */
export function openRefreshJournal(
  path: string | undefined,
  identity: { readonly attestedOracle: Address; readonly chainId: number; readonly from: Address },
): RefreshJournal {
  let content: RefreshJournalContent = { version: 1, ...identity, transactions: [] };
  if (path !== undefined && existsSync(path)) {
    let read: RefreshJournalContent;
    try {
      read = JSON.parse(readFileSync(path, "utf8")) as RefreshJournalContent;
    } catch (error) {
      throw new ConfigurationError(`The refresh journal ${path} cannot be read (${messageOf(error)}): move it away to start afresh`);
    }
    if (read?.version !== 1 || !Array.isArray(read.transactions)) {
      throw new ConfigurationError(`${path} is not a refresh journal (version 1): move it away to start afresh`);
    }
    for (const field of ["attestedOracle", "chainId", "from"] as const) {
      if (String(read[field]).toLowerCase() !== String(identity[field]).toLowerCase()) {
        throw new ConfigurationError(
          `The refresh journal ${path} is of ${field} ${read[field]}, this run's is ${identity[field]}: give another --journal`,
        );
      }
    }
    content = read;
  }
  return {
    ...(path !== undefined ? { path } : {}),
    content,
    save() {
      if (path === undefined) return;
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`);
      renameSync(temporary, path);
    },
  };
}
