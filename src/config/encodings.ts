/**
 * The uint8 encodings of `tier` and `sybilSeverity` in oracle records.
 *
 * The service does not publish them. The kit assumes tier `0 flagged, 1 limited, 2 developing,
 * 3 established` and sybil `0 none, 1 low, 2 moderate, 3 elevated, 4 heavy`; the drift job reports when
 * on-chain (score, tier) pairs contradict the encoding in use. Everything that decodes codes takes a
 * {@link TrustEncoding}, so the assumption can be replaced in one place.
 *
 * The service states "no sybil signal" as `null` (in the API and in signed attestations); older material
 * and the kit's first version said `none`. Both read as the name `none` here ({@link canonicalSybilSeverity},
 * {@link sybilSeverityCode}), so a `null` compares equal to the code of `none` (0 under the default encoding).
 *
 * @packageDocumentation
 */
import { InvalidArgumentError } from "../errors.js";
import { TIER_MIN_SCORE } from "../policy.js";

/** Tier names, lowest first. */
export type TierName = "flagged" | "limited" | "developing" | "established";
/** Sybil severity names, lowest first. */
export type SybilSeverityName = "none" | "low" | "moderate" | "elevated" | "heavy";

/** Code → name tables for the two enumerations of an oracle record. */
export interface TrustEncoding {
  /** `tiers[code]` is the tier name of `code`. */
  readonly tiers: readonly TierName[];
  /** `sybilSeverities[code]` is the sybil severity name of `code`. */
  readonly sybilSeverities: readonly SybilSeverityName[];
}

/** The kit's assumed encoding (see the module notes). */
export const DEFAULT_TRUST_ENCODING: TrustEncoding = {
  tiers: ["flagged", "limited", "developing", "established"],
  sybilSeverities: ["none", "low", "moderate", "elevated", "heavy"],
};

const TIER_NAMES: readonly TierName[] = DEFAULT_TRUST_ENCODING.tiers;
const SYBIL_NAMES: readonly SybilSeverityName[] = DEFAULT_TRUST_ENCODING.sybilSeverities;

/**
 * Builds an encoding from the default with some tables replaced, checking that each is a permutation of
 * the known names.
 *
 * @param overrides - Replacement tables.
 * @returns The encoding.
 * @throws {@link InvalidArgumentError} when a table is not a permutation of the known names.
 */
export function createTrustEncoding(overrides: Partial<TrustEncoding> = {}): TrustEncoding {
  const encoding = { ...DEFAULT_TRUST_ENCODING, ...overrides };
  checkPermutation("tiers", encoding.tiers, TIER_NAMES);
  checkPermutation("sybilSeverities", encoding.sybilSeverities, SYBIL_NAMES);
  return encoding;
}

/**
 * The tier name of a code, or `undefined` when the encoding has no such code.
 *
 * @param code - On-chain tier code.
 * @param encoding - The encoding in use.
 * @returns The name, if any.
 */
export function tierName(code: number, encoding: TrustEncoding = DEFAULT_TRUST_ENCODING): TierName | undefined {
  return encoding.tiers[code];
}

/**
 * The sybil severity name of a code, or `undefined` when the encoding has no such code.
 *
 * @param code - On-chain sybil severity code.
 * @param encoding - The encoding in use.
 * @returns The name, if any.
 */
export function sybilSeverityName(code: number, encoding: TrustEncoding = DEFAULT_TRUST_ENCODING): SybilSeverityName | undefined {
  return encoding.sybilSeverities[code];
}

/**
 * The on-chain code of a tier name under an encoding.
 *
 * @param name - Tier name (case-insensitive).
 * @param encoding - The encoding in use.
 * @returns The code.
 * @throws {@link InvalidArgumentError} for an unknown name.
 */
export function tierCode(name: string, encoding: TrustEncoding = DEFAULT_TRUST_ENCODING): number {
  const code = encoding.tiers.indexOf(name.toLowerCase() as TierName);
  if (code < 0) throw new InvalidArgumentError(`Unknown tier "${name}"`, { details: `Known: ${encoding.tiers.join(", ")}` });
  return code;
}

/** The sybil severity name that stands for "no sybil signal" (the service's `null`). */
export const NO_SYBIL_SIGNAL: SybilSeverityName = "none";

/**
 * A sybil severity as the service states it, in the kit's vocabulary: `null` (no sybil signal, what the
 * service signs) and the legacy `none` both become `none`; any other name is trimmed and lowercased (it may
 * still be unknown to the encoding). The one rule for the kit: the encodings and the drift comparison use it,
 * and the attestation verifier's `normalizeSybilSeverity` applies it to any signed value.
 *
 * @param value - The service's value.
 * @returns The name to compare with a decoded on-chain severity.
 */
export function canonicalSybilSeverity(value: string | null): string {
  return value === null ? NO_SYBIL_SIGNAL : value.trim().toLowerCase();
}

/**
 * The on-chain code of a sybil severity under an encoding.
 *
 * @param name - Sybil severity name (case-insensitive), or `null` for no sybil signal (the code of `none`).
 * @param encoding - The encoding in use.
 * @returns The code.
 * @throws {@link InvalidArgumentError} for an unknown name.
 */
export function sybilSeverityCode(name: string | null, encoding: TrustEncoding = DEFAULT_TRUST_ENCODING): number {
  const code = encoding.sybilSeverities.indexOf(canonicalSybilSeverity(name) as SybilSeverityName);
  if (code < 0) {
    throw new InvalidArgumentError(`Unknown sybil severity "${name}"`, {
      details: `Known: ${encoding.sybilSeverities.join(", ")}`,
    });
  }
  return code;
}

/**
 * The tier a score falls in, by the service's published boundaries (established ≥ 75, developing 51–74,
 * limited 30–50, flagged < 30). Independent of any on-chain encoding.
 *
 * @param score - Trust score.
 * @returns The tier name.
 */
export function tierForScore(score: number): TierName {
  if (score >= TIER_MIN_SCORE.established) return "established";
  if (score >= TIER_MIN_SCORE.developing) return "developing";
  if (score >= TIER_MIN_SCORE.limited) return "limited";
  return "flagged";
}

function checkPermutation(field: string, given: readonly string[], known: readonly string[]): void {
  const ok = given.length === known.length && known.every((name) => given.includes(name));
  if (!ok) {
    throw new InvalidArgumentError(`Encoding table "${field}" must list each of: ${known.join(", ")}`, {
      details: `Got: ${given.join(", ")}`,
    });
  }
}
