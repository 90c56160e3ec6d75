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
import { canonicalSybilSeverity, sybilSeverityCode, sybilSeverityName, type TrustEncoding, tierName } from "../config/encodings.js";

/** A field of trust data. */
export type TrustField = "score" | "tier" | "sybilSeverity";

/** The fields, in the order differences are reported. */
const TRUST_FIELDS: readonly TrustField[] = ["score", "tier", "sybilSeverity"];

/** Trust data as an oracle record stores it: codes. */
export interface RecordedTrustData {
  readonly score: number;
  readonly tierCode: number;
  readonly sybilSeverityCode: number;
}

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
  try {
    return sybilSeverityCode(name, encoding);
  } catch {
    return undefined;
  }
}

/** Each field as a comparable value: the score, and lower-case names (`code:<n>` for an unnamed code). */
function canonicalTrustData(
  side: RecordedTrustData | StatedTrustData,
  encoding: TrustEncoding,
): { readonly score?: number; readonly tier?: string; readonly sybilSeverity?: string } {
  if ("tierCode" in side) {
    return {
      score: side.score,
      tier: tierName(side.tierCode, encoding) ?? `code:${side.tierCode}`,
      sybilSeverity: sybilSeverityName(side.sybilSeverityCode, encoding) ?? `code:${side.sybilSeverityCode}`,
    };
  }
  return {
    ...(side.score !== undefined ? { score: side.score } : {}),
    ...(side.tier !== undefined ? { tier: side.tier.toLowerCase() } : {}),
    ...(side.sybilSeverity !== undefined ? { sybilSeverity: canonicalSybilSeverity(side.sybilSeverity) } : {}),
  };
}
