/**
 * Checks the assumed tier encoding against live data: a record's tier code, decoded, should be the tier
 * its score falls in by the service's published boundaries.
 *
 * @packageDocumentation
 */
import { type TrustEncoding, tierForScore, tierName } from "../config/encodings.js";
import type { TrustRecordResult } from "../oracle/records.js";
import type { EncodingCheck } from "./types.js";

const MAX_EXAMPLES = 5;

/**
 * Compares every record's (score, tier code) pair with the encoding.
 *
 * @param records - Oracle reads (failures and absent records are skipped).
 * @param encoding - The encoding in use.
 * @returns Counts, examples and the codes observed per score-derived tier.
 */
export function checkTierEncoding(records: Iterable<TrustRecordResult>, encoding: TrustEncoding): EncodingCheck {
  let checked = 0;
  let contradictions = 0;
  const examples: string[] = [];
  const observed: Record<string, Set<number>> = {};
  for (const record of records) {
    if (!record.ok || !record.hasScore) continue;
    checked++;
    const expected = tierForScore(record.score);
    observed[expected] ??= new Set();
    observed[expected].add(record.tierCode);
    if (tierName(record.tierCode, encoding) !== expected) {
      contradictions++;
      if (examples.length < MAX_EXAMPLES) {
        const k = record.key;
        examples.push(`${k.chainId}:${k.agentId}:${k.registry} score=${record.score} tierCode=${record.tierCode} (expected ${expected})`);
      }
    }
  }
  return {
    tiers: encoding.tiers,
    sybilSeverities: encoding.sybilSeverities,
    checked,
    contradictions,
    consistent: contradictions === 0,
    examples,
    observed: Object.fromEntries(Object.entries(observed).map(([tier, codes]) => [tier, [...codes].sort((a, b) => a - b)])),
  };
}
