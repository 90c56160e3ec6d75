/**
 * The one rule for "do two sides say the same about an agent": score, tier and sybil severity, compared the
 * same way wherever the drift job needs it — the chain against a signed attestation (compare), the chain
 * against the service's listing (triage), and the listing against an attestation (the audit of the listing).
 *
 * On-chain codes are named under the encoding in use (a code outside it stays `code:<n>` and equals no
 * name); the service's words are compared case-insensitively, and its `null` sybil severity (no sybil
 * signal) is the legacy `none`.
 *
 * @packageDocumentation
 */
import {
  canonicalSybilSeverity,
  sybilSeverityCode,
  sybilSeverityName,
  type TrustEncoding,
  tierCode,
  tierName,
} from "../config/encodings.js";
import type { TrustRecord } from "../trust-record.js";

/** A field of trust data. */
export type TrustField = "score" | "tier" | "sybilSeverity";

/** The fields, in the order differences are reported. */
const TRUST_FIELDS: readonly TrustField[] = ["score", "tier", "sybilSeverity"];

/** Trust data as an oracle record stores it: codes. */
export type RecordedTrustData = Pick<TrustRecord, "score" | "tier" | "sybilSeverity">;

/**
 * The code a record built from the service's words carries for a name the encoding lacks: one past the largest
 * uint8, so it equals no on-chain code and lies above every policy's `maxSybilSeverity` (a gate refuses it).
 */
export const UNENCODED_CODE = 256;

/** Trust data in the service's words; a field left out is not compared. */
export interface StatedTrustData {
  readonly score?: number;
  /** Tier name, any case. */
  readonly tier?: string;
  /** Sybil severity name, any case; `null` is "no sybil signal" (`none`). */
  readonly sybilSeverity?: string | null;
}

/**
 * Which fields two sides disagree on.
 *
 * @param onchain - An on-chain record's codes (or, to audit the listing, the listing's words).
 * @param stated - What the service says (an attestation or the listing).
 * @param encoding - The encoding that names on-chain codes.
 * @returns The differing fields in {@link TRUST_FIELDS} order; empty when they say the same. A field either
 *   side leaves out is not compared.
 */
export function sameTrustData(
  onchain: RecordedTrustData | StatedTrustData,
  stated: StatedTrustData,
  encoding: TrustEncoding,
): TrustField[] {
  const a = canonicalTrustData(onchain, encoding);
  const b = canonicalTrustData(stated, encoding);
  return TRUST_FIELDS.filter((field) => a[field] !== undefined && b[field] !== undefined && a[field] !== b[field]);
}

/**
 * The on-chain code of a sybil severity the service names, for a gate decision — the one mapping.
 *
 * @param name - The service's name (`null` is `none`); `undefined` when not known.
 * @param encoding - The encoding in use.
 * @returns The code, or `undefined` for an absent or unknown name (a gate then treats it as the worst).
 */
export function sybilSeverityCodeOf(name: string | null | undefined, encoding: TrustEncoding): number | undefined {
  if (name === undefined) return undefined;
  return encodedOrNull(() => sybilSeverityCode(name, encoding)) ?? undefined;
}

/**
 * The service's data as the oracle record it stands for: the names encoded (a name the encoding lacks becomes
 * {@link UNENCODED_CODE}), so that one policy decides both sides of a comparison.
 *
 * @param stated - Score, tier name and sybil severity name (`null` is "no sybil signal").
 * @param updatedAt - The record's time, Unix seconds.
 * @param encoding - The encoding in use.
 * @returns The record.
 */
export function statedRecord(
  stated: { readonly score: number; readonly tier: string; readonly sybilSeverity: string | null },
  updatedAt: number,
  encoding: TrustEncoding,
): TrustRecord {
  return {
    score: stated.score,
    tier: encodedOrNull(() => tierCode(stated.tier, encoding)) ?? UNENCODED_CODE,
    sybilSeverity: sybilSeverityCodeOf(stated.sybilSeverity, encoding) ?? UNENCODED_CODE,
    updatedAt,
  };
}

function encodedOrNull(encode: () => number): number | null {
  try {
    return encode();
  } catch {
    return null;
  }
}

/** Each field as a comparable value: the score, and lower-case names (`code:<n>` for an unnamed code). */
function canonicalTrustData(
  side: RecordedTrustData | StatedTrustData,
  encoding: TrustEncoding,
): { readonly score?: number; readonly tier?: string; readonly sybilSeverity?: string } {
  if (typeof side.tier === "number") {
    const recorded = side as RecordedTrustData;
    return {
      score: recorded.score,
      tier: tierName(recorded.tier, encoding) ?? `code:${recorded.tier}`,
      sybilSeverity: sybilSeverityName(recorded.sybilSeverity, encoding) ?? `code:${recorded.sybilSeverity}`,
    };
  }
  const words = side as StatedTrustData;
  return {
    ...(words.score !== undefined ? { score: words.score } : {}),
    ...(words.tier !== undefined ? { tier: words.tier.toLowerCase() } : {}),
    ...(words.sybilSeverity !== undefined ? { sybilSeverity: canonicalSybilSeverity(words.sybilSeverity) } : {}),
  };
}
