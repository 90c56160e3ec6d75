/**
 * `onchain-encodings` (needs `--rpc`): the tier and sybil-severity codes of on-chain records against the names the
 * service lists, under the encoding the kit is configured with (`--tier-encoding`, `--sybil-encoding`; default
 * tiers `flagged limited developing established`, severities `none low moderate elevated heavy`). Two comparisons:
 * every record's tier code against the tier its own score falls in (the drift job's encoding check), and, for the
 * records that hold the listing's current data (same score and, when listed, same `updatedAt`), the decoded tier
 * and sybil severity against the listed names. Holds when nothing contradicts the encoding; differs when something
 * does; could not check without a chain, or without a record of any listed agent.
 *
 * @packageDocumentation
 */
import type { Address } from "viem";
import { formatAgentRef, isEvmAgent } from "../../agent/agent-ref.js";
import { canonicalSybilSeverity, sybilSeverityName, type TrustEncoding, tierName } from "../../config/encodings.js";
import { checkTierEncoding } from "../../drift/encoding-check.js";
import type { AnyClient } from "../../oracle/client.js";
import { readTrustRecords } from "../../oracle/reader.js";
import type { TrustRecordRead } from "../../oracle/records.js";
import { parseServiceTime } from "../../attestation/time.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import type { ListedAgent, ServiceObservations } from "../service-probe.js";

/** The check's id. */
export const ONCHAIN_ENCODINGS_CHECK = "onchain-encodings";

/** Most contradictions listed. */
const MAX_EXAMPLES = 5;

/** Where the records are read. */
export interface OnchainEncodingsTarget {
  /** A viem client of the chain (`--rpc`). */
  readonly client: AnyClient;
  /** The oracle read. */
  readonly oracle: Address;
  /** The encoding the kit is configured with. */
  readonly encoding: TrustEncoding;
}

/**
 * Runs the check.
 *
 * @param service - What the service answered (its listing page).
 * @param target - The chain, the oracle and the encoding; `undefined` without `--rpc`.
 * @returns The result.
 */
export async function checkOnchainEncodings(
  service: ServiceObservations,
  target: OnchainEncodingsTarget | undefined,
): Promise<CheckResult> {
  if (target === undefined)
    return couldNotCheck(ONCHAIN_ENCODINGS_CHECK, "needs a chain: give --rpc (and --oracle when it is not the Base oracle)");
  if (!service.listing.ok) return couldNotCheck(ONCHAIN_ENCODINGS_CHECK, `no listing to compare with (${service.listing.reason})`);
  const listed = service.listed.filter((l) => isEvmAgent(l.agent));
  if (listed.length === 0) return couldNotCheck(ONCHAIN_ENCODINGS_CHECK, "the listing page names no agent on an EVM chain");
  let results;
  try {
    results = await readTrustRecords(target.client, {
      keys: listed.map(({ agent }) => ({ agentId: agent.agentId, chainId: agent.chainId!, registry: agent.registry })),
      oracle: target.oracle,
    });
  } catch (error) {
    return couldNotCheck(ONCHAIN_ENCODINGS_CHECK, `reading the oracle failed: ${(error as Error).message}`);
  }
  const failures = results.filter((r) => !r.ok);
  const records = results.flatMap((r, i) => (r.ok && r.hasScore ? [{ record: r, listed: listed[i]! }] : []));
  if (records.length === 0) {
    const why =
      failures.length > 0
        ? `reading failed: ${failures[0]!.error.shortMessage}`
        : `the oracle holds no record of the ${listed.length} listed agents`;
    return couldNotCheck(ONCHAIN_ENCODINGS_CHECK, why);
  }
  const byScore = checkTierEncoding(
    records.map((r) => r.record),
    target.encoding,
  );
  const comparable = records.filter(({ record, listed: l }) => holdsListedData(record, l));
  const contradictions = comparable.flatMap(({ record, listed: l }) => contradictionsOf(record, l, target.encoding));
  const observed = {
    encoding: { tiers: target.encoding.tiers, sybilSeverities: target.encoding.sybilSeverities },
    listed: listed.length,
    records: records.length,
    unreadable: failures.length,
    tierByScore: {
      checked: byScore.checked,
      contradictions: byScore.contradictions,
      examples: byScore.examples,
      observed: byScore.observed,
    },
    againstListing: { compared: comparable.length, contradictions: contradictions.slice(0, MAX_EXAMPLES) },
  };
  if (byScore.contradictions === 0 && contradictions.length === 0) {
    const listing =
      comparable.length > 0
        ? `; tier and sybil codes of ${comparable.length} agreeing with the listing`
        : "; no record holds the listing's current data, sybil codes not compared";
    return holds(ONCHAIN_ENCODINGS_CHECK, `${records.length} records: tier codes match their scores${listing}`, observed);
  }
  const parts = [
    ...(byScore.contradictions > 0 ? [`${byScore.contradictions} tier codes contradict their scores (${byScore.examples[0]})`] : []),
    ...(contradictions.length > 0 ? [`${contradictions.length} codes contradict the listing (${contradictions[0]})`] : []),
  ];
  return differs(
    ONCHAIN_ENCODINGS_CHECK,
    `${parts.join("; ")} under tiers ${target.encoding.tiers.join(",")}, sybil ${target.encoding.sybilSeverities.join(",")}`,
    observed,
  );
}

/** Whether a record holds the data the listing states now: the same score, and the same time when one is listed. */
function holdsListedData(record: TrustRecordRead, listed: ListedAgent): boolean {
  if (record.score !== listed.score) return false;
  if (listed.updatedAt === undefined) return true;
  const time = parseServiceTime(listed.updatedAt);
  return time.ok && Math.floor(time.ms / 1000) === record.updatedAt;
}

function contradictionsOf(record: TrustRecordRead, listed: ListedAgent, encoding: TrustEncoding): string[] {
  const found: string[] = [];
  const agent = formatAgentRef(listed.agent);
  const tier = tierName(record.tier, encoding);
  if (listed.tier !== undefined && tier !== listed.tier.trim().toLowerCase()) {
    found.push(`${agent} tier code ${record.tier} is ${tier ?? "outside the encoding"}, listed ${listed.tier}`);
  }
  if (listed.sybilSeverity !== undefined) {
    const name = canonicalSybilSeverity(listed.sybilSeverity);
    const decoded = sybilSeverityName(record.sybilSeverity, encoding);
    if (decoded !== name) {
      const shown = decoded ?? `outside the encoding (${encoding.sybilSeverities.length} names)`;
      found.push(`${agent} sybil code ${record.sybilSeverity} is ${shown}, listed ${listed.sybilSeverity ?? "null"}`);
    }
  }
  return found;
}
