/**
 * Records the oracle holds but the service's listing lacks (agents the service delisted, or never listed):
 * an `--all` scan built from the listing alone would never show them. The oracle's own events are the only
 * other source (`listOracleKeys`, the reference oracle's `RecordAdded`/`RecordRemoved`), so a scan replays
 * them by default, from the oracle's deployment block, in bounded `eth_getLogs` ranges.
 *
 * Decision: `"auto"` (the command line's default with `--all`) finds the deployment block by bisecting
 * `eth_getCode` (≈ log2(head) requests) and replays the events when the span is at most
 * {@link ONCHAIN_ENUMERATION_MAX_BLOCKS} blocks (100 requests of 10,000 blocks). When the block cannot be found
 * (a node without historical state) or the span is larger (the live Base oracle, whose events are not
 * published anyway), nothing is replayed and the report says so, loudly, in its notes and summary — with the
 * flag that looks for them. Never silently.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { messageOf } from "../errors.js";
import { findDeploymentBlock } from "../oracle/deployment-block.js";
import type { AnyClient } from "../oracle/client.js";
import type { OnchainEnumerationSource, TriageSummary } from "./types.js";

/** How notes and summaries name an oracle by its part in the run (followed by its address). */
export const ENUMERATION_SOURCE_NAMES: Readonly<Record<OnchainEnumerationSource["role"], string>> = {
  oracle: "the oracle",
  "attested-oracle": "the attested oracle",
  upstream: "the upstream oracle",
};

/** Largest span of blocks `"auto"` replays events over: 1,000,000 blocks (about 23 days of Base). */
export const ONCHAIN_ENUMERATION_MAX_BLOCKS = 1_000_000n;

/** How an `--all` scan looks for records the listing lacks. */
export type OnchainEnumerationPlan =
  /** Replay the oracle's events from this block (up to the scan's pinned block). */
  | { readonly kind: "replay"; readonly fromBlock: bigint; readonly found: "given" | "deployment-block" }
  /** Not looked for, and why. */
  | { readonly kind: "skipped"; readonly reason: string };

/**
 * Decides where an `--all` scan replays the oracle's events from.
 *
 * @param client - A viem client of the oracle's chain.
 * @param oracle - The oracle.
 * @param setting - A block, `"auto"`, or `undefined` (off: `--events-from off`).
 * @param blockNumber - The scan's pinned block.
 * @returns The plan; never throws (a failure to find the deployment block is a `skipped` plan with the reason).
 */
export async function planOnchainEnumeration(
  client: AnyClient,
  oracle: Address,
  setting: bigint | "auto" | undefined,
  blockNumber: bigint,
): Promise<OnchainEnumerationPlan> {
  if (setting === undefined) return { kind: "skipped", reason: "--events-from off" };
  if (setting !== "auto") return { kind: "replay", fromBlock: setting, found: "given" };
  let deployedAt: bigint;
  try {
    deployedAt = await findDeploymentBlock(client, oracle, blockNumber);
  } catch (error) {
    return { kind: "skipped", reason: `the oracle's deployment block could not be found (${firstLine(nodeMessage(error))})` };
  }
  const span = blockNumber - deployedAt + 1n;
  if (span > ONCHAIN_ENUMERATION_MAX_BLOCKS) {
    return {
      kind: "skipped",
      reason: `the oracle was deployed at block ${deployedAt}, ${span} blocks ago (more than ${ONCHAIN_ENUMERATION_MAX_BLOCKS} to replay by default)`,
    };
  }
  return { kind: "replay", fromBlock: deployedAt, found: "deployment-block" };
}

/**
 * The report note for the enumeration of an `--all` scan: loud (`NOT LOOKED FOR`, `FAILED`) when records the
 * listing lacks were not looked for; `null` when they were (the triage summary says how many) or outside `--all`.
 *
 * @param triage - The scan's triage summary.
 * @returns The note, or `null`.
 */
export function onchainEnumerationNote(triage: TriageSummary | undefined): string | null {
  const e = triage?.onchainEnumeration;
  if (!e) return null;
  const how = "give --events-from <block> (the oracle's deployment block) to replay its RecordAdded/RecordRemoved events";
  if (e.sources && e.sources.length > 1) return sourcesNote(e.sources);
  if (e.skipped !== undefined) {
    return `NOT LOOKED FOR: on-chain records the service's listing lacks (delisted agents) were not looked for, because ${e.skipped}; they do not appear in this report — ${how}`;
  }
  if (e.error !== undefined) {
    return `FAILED: replaying the oracle's events from block ${e.fromBlock} failed (${firstLine(e.error)}); on-chain records the listing lacks may be missing from this report — ${how}`;
  }
  return null; // looked for: the triage line of the summary says what was found
}

/**
 * The note when several oracles' events were searched (an attested oracle and its upstream): what was not looked
 * for, or failed, in whose events.
 */
function sourcesNote(sources: readonly OnchainEnumerationSource[]): string | null {
  const label = (s: OnchainEnumerationSource) => `${ENUMERATION_SOURCE_NAMES[s.role]} ${s.oracle}`;
  const skipped = sources.filter((s) => s.skipped !== undefined);
  const failed = sources.filter((s) => s.error !== undefined);
  const how = "give --events-from <block> (the earliest deployment block) to replay their RecordAdded/RecordRemoved events";
  const parts: string[] = [];
  if (skipped.length > 0) {
    parts.push(
      `NOT LOOKED FOR: on-chain records the service's listing lacks (delisted agents) were not looked for in the events of ${skipped
        .map((s) => `${label(s)} (because ${s.skipped})`)
        .join(" nor of ")}; those it holds do not appear in this report`,
    );
  }
  if (failed.length > 0) {
    parts.push(
      `FAILED: replaying the events of ${failed
        .map((s) => `${label(s)} from block ${s.fromBlock} (${firstLine(s.error!)})`)
        .join(" and of ")} failed; on-chain records the listing lacks may be missing from this report`,
    );
  }
  return parts.length === 0 ? null : `${parts.join("; ")} — ${how}`;
}

/** The node's own words where viem kept them (`details`), else the error's message. */
function nodeMessage(error: unknown): string {
  const details = (error as { details?: unknown } | null)?.details;
  return typeof details === "string" && details.trim() !== "" ? details : messageOf(error);
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}
