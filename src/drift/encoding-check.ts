/**
 * Checks the assumed encodings against live data, since the service publishes neither:
 *
 * - tiers: a record's tier code, decoded, should be the tier its score falls in by the service's published
 *   boundaries;
 * - sybil severities: a record's sybil code should be the code of the severity the service states for the same
 *   agent (a verified attestation, or the listing), when that statement is of the same computation as the record
 *   as far as the kit can tell: the same score, computed not after the record was written. A difference there is
 *   the encoding's, not a change since the last refresh.
 *
 * @packageDocumentation
 */
import { canonicalSybilSeverity, type TrustEncoding, tierForScore, tierName } from "../config/encodings.js";
import { formatRecordKey } from "../oracle/record-key.js";
import type { TrustRecordResult } from "../oracle/records.js";
import type { ServiceData } from "./service-data.js";
import { computedAfterRefresh } from "./stages/compare.js";
import { sybilSeverityCodeOf } from "./trust-data.js";
import type { EncodingCheck, SybilEncodingCheck } from "./types.js";

const MAX_EXAMPLES = 5;

/** What the service states about the agent of one record, and where it comes from. */
export interface SybilStatement {
  /** The service's data for the agent. */
  readonly data: ServiceData;
  /** `attestation` for a verified signed attestation, `listing` for the unsigned listing. */
  readonly source: "attestation" | "listing";
}

/**
 * Checks both encodings.
 *
 * @param records - Oracle reads (failures and absent records are skipped).
 * @param statements - What the service states about the agent of each record, by the records' index (`undefined`
 *   where it states nothing usable).
 * @param encoding - The encoding in use.
 * @returns The tier check, with the sybil check in `sybil`.
 */
export function checkEncodings(
  records: readonly TrustRecordResult[],
  statements: readonly (SybilStatement | undefined)[],
  encoding: TrustEncoding,
): EncodingCheck {
  return { ...checkTierEncoding(records, encoding), sybil: checkSybilEncoding(records, statements, encoding) };
}

/**
 * Compares every record's (score, tier code) pair with the encoding.
 *
 * @param records - Oracle reads (failures and absent records are skipped).
 * @param encoding - The encoding in use.
 * @returns Counts, examples and the codes observed per score-derived tier.
 */
export function checkTierEncoding(records: Iterable<TrustRecordResult>, encoding: TrustEncoding): Omit<EncodingCheck, "sybil"> {
  let checked = 0;
  let contradictions = 0;
  const examples: string[] = [];
  const observed: Record<string, Set<number>> = {};
  for (const record of records) {
    if (!record.ok || !record.hasScore) continue;
    checked++;
    const expected = tierForScore(record.score);
    observed[expected] ??= new Set();
    observed[expected].add(record.tier);
    if (tierName(record.tier, encoding) !== expected) {
      contradictions++;
      if (examples.length < MAX_EXAMPLES) {
        examples.push(`${formatRecordKey(record.key)} score=${record.score} tierCode=${record.tier} (expected ${expected})`);
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
    observed: sortedCodes(observed),
  };
}

/**
 * Compares every record's sybil code with the severity the service states for its agent, where the statement is of
 * the same computation (same score, computed not after the record's `updatedAt`).
 *
 * @param records - Oracle reads (failures and absent records are skipped).
 * @param statements - What the service states, by the records' index.
 * @param encoding - The encoding in use.
 * @returns Counts, examples and the codes observed per stated severity.
 */
export function checkSybilEncoding(
  records: readonly TrustRecordResult[],
  statements: readonly (SybilStatement | undefined)[],
  encoding: TrustEncoding,
): SybilEncodingCheck {
  let checked = 0;
  let contradictions = 0;
  const examples: string[] = [];
  const observed: Record<string, Set<number>> = {};
  records.forEach((record, i) => {
    const statement = statements[i];
    if (!record.ok || !record.hasScore || statement === undefined) return;
    const { data } = statement;
    if (data.score !== record.score || computedAfterRefresh(data.computedAt, record.updatedAt) === true) return;
    checked++;
    const stated = canonicalSybilSeverity(data.sybilSeverity);
    observed[stated] ??= new Set();
    observed[stated].add(record.sybilSeverity);
    const expected = sybilSeverityCodeOf(data.sybilSeverity, encoding);
    if (expected === record.sybilSeverity) return;
    contradictions++;
    if (examples.length < MAX_EXAMPLES) {
      const code = expected === undefined ? "no code" : `code ${expected}`;
      examples.push(
        `${formatRecordKey(record.key)} score=${record.score} sybilCode=${record.sybilSeverity} (stated ${stated}, ${code}; ${statement.source})`,
      );
    }
  });
  return { checked, contradictions, consistent: contradictions === 0, examples, observed: sortedCodes(observed) };
}

function sortedCodes(observed: Record<string, Set<number>>): Record<string, number[]> {
  return Object.fromEntries(Object.entries(observed).map(([name, codes]) => [name, [...codes].sort((a, b) => a - b)]));
}
