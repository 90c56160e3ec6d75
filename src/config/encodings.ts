/**
 * The uint8 encodings of `tier` and `sybilSeverity` in oracle records.
 *
 * The service does not publish them. The kit assumes tier `0 flagged, 1 limited, 2 developing,
 * 3 established` and sybil `0 none, 1 low, 2 moderate, 3 elevated, 4 heavy`; the drift job reports when
 * on-chain (score, tier) pairs contradict the encoding in use. Everything that decodes codes takes a
 * {@link TrustEncoding}, so the assumption can be replaced in one place.
 *
 * The service's sources publish three sybil severity vocabularies ({@link PUBLISHED_SYBIL_SEVERITIES}); the kit
 * reads their union, which is the encoding's five names. The service states "no sybil signal" as `null` (in the
 * API and in signed v2 attestations); the spec and the kit's first version say `none`. Both read as the name `none`
 * here ({@link canonicalSybilSeverity}, {@link sybilSeverityCode}), so a `null` compares equal to the code of
 * `none` (0 under the default encoding).
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
 *
 * @example
 * ```ts
 * import { createTrustEncoding, tierName } from "trustgate";
 *
 * // an oracle that stores tiers best-first
 * const encoding = createTrustEncoding({ tiers: ["established", "developing", "limited", "flagged"] });
 * console.log(tierName(0, encoding)); // "established"
 * ```
 *
 * @example
 * ```ts
 * import { createTrustEncoding, type DriftConfig } from "trustgate/drift";
 *
 * // the drift job reading an oracle whose sybil codes count down
 * const encoding: DriftConfig["encoding"] = createTrustEncoding({ sybilSeverities: ["heavy", "elevated", "moderate", "low", "none"] });
 * ```
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
 *
 * @example
 * ```ts
 * import { tierName } from "trustgate";
 *
 * console.log(tierName(3)); // "established" under the kit's default encoding
 * console.log(tierName(1, { tiers: ["flagged", "limited", "developing", "established"], sybilSeverities: ["none", "low"] })); // "limited"
 * ```
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
 *
 * @example
 * ```ts
 * import { sybilSeverityName } from "trustgate";
 *
 * console.log(sybilSeverityName(2)); // "moderate" under the kit's default encoding
 * console.log(sybilSeverityName(9)); // undefined: a code outside the encoding
 * ```
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
 * The sybil severity vocabularies the service's sources publish, lowest first, each as written there (`null`
 * where a source writes JSON `null`). They disagree; the kit reads every name of every one of them
 * ({@link canonicalSybilSeverity}: `null` and `none` are both "no sybil signal", the others are the encoding's
 * names), and the drift job checks the on-chain sybil codes against what the service states
 * (`drift/encoding-check.ts`).
 *
 * - `crosswalk`: `crosswalk/rnwy.yaml` of `rnwy/agent-governance-vocabulary` (maintainer-confirmed 2026-04-14;
 *   its upstream `aeoess/agent-governance-vocabulary` carries it unchanged), the v2 signed block's
 *   `sybilSeverity`: `null | "low" | "moderate" | "elevated" | "heavy"`. What the service signs today.
 * - `spec`: insumer multi-attestation spec v1.2 (2026-09-02) §3.3, the signed payload table (written for the v1
 *   block): `none`, `low`, `moderate`, `heavy` — no `elevated`.
 * - `sdk`: rnwy-sdk 0.3.0 `src/types.ts` `SybilSeverity` (the explorer's `reviewerSybil.signals.severity`; types
 *   "derived from live API responses"): `low`, `moderate`, `elevated`, `heavy`, by flagged reviewers: heavy 20+,
 *   elevated 10–19, moderate 3–9, low 0–2. It has no "none": its `low` also covers an agent with no flagged
 *   reviewer. The kit reads that field nowhere it decides; a `low` is read as `low` wherever it appears.
 */
export const PUBLISHED_SYBIL_SEVERITIES: {
  readonly crosswalk: readonly (Exclude<SybilSeverityName, "none"> | null)[];
  readonly spec: readonly SybilSeverityName[];
  readonly sdk: readonly SybilSeverityName[];
} = {
  crosswalk: [null, "low", "moderate", "elevated", "heavy"],
  spec: ["none", "low", "moderate", "heavy"],
  sdk: ["low", "moderate", "elevated", "heavy"],
};

/**
 * A sybil severity as the service states it, in the kit's vocabulary: `null` (no sybil signal, what the
 * service signs: crosswalk) and `none` (spec, the kit's first version) both become `none`; any other name is
 * trimmed and lowercased (it may still be unknown to the encoding). Every name of {@link PUBLISHED_SYBIL_SEVERITIES}
 * is one of the encoding's. The one rule for the kit: the encodings and the drift comparison use it,
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
 *
 * @example
 * ```ts
 * import { tierForScore } from "trustgate";
 *
 * console.log(tierForScore(62)); // "developing" (51–74)
 * console.log(tierForScore(80)); // "established" (75 and up)
 * ```
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
