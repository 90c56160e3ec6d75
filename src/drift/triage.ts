/**
 * Triage of an `--all` scan: which agents need a signed attestation, and which the service's (unsigned)
 * listing is enough for. A signed fetch costs one request under a 30–300/minute limit, so the scan fetches
 * only where chain and service may disagree or a decision may turn, plus a random audit sample so that a
 * listing that lies cannot hide drift.
 *
 * @packageDocumentation
 */
import { canonicalSybilSeverity, sybilSeverityCode, type TrustEncoding } from "../config/encodings.js";
import type { TrustRecordResult } from "../oracle/records.js";
import type { ServiceData } from "./compare.js";
import type { DecisionRule } from "./decision.js";

/** Why triage fetches a signed attestation for an agent. */
export type TriageReason =
  /** The listing and the chain disagree on score, tier or sybil severity. */
  | "mismatch"
  /** The oracle holds no record. */
  | "missing-onchain"
  /** The on-chain record is older than the staleness limit. */
  | "stale-onchain"
  /** The score is within the margin of the decision threshold (or the gate's `minScore`). */
  | "near-threshold"
  /** The gate's sybil limit or record age is at its edge. */
  | "policy-edge"
  /** The listing lacks a field needed to compare. */
  | "incomplete-listing"
  /** On-chain record of an agent the listing does not contain. */
  | "not-listed"
  /** Picked at random to audit the listing. */
  | "audit";

/** Triage settings. */
export interface TriageOptions {
  readonly rule: DecisionRule;
  readonly maxAgeSeconds: number;
  readonly now: Date;
  readonly encoding: TrustEncoding;
  /** Fraction of otherwise unfetched agents fetched at random (0–1). */
  readonly auditFraction: number;
  /** Seed of the audit sample. */
  readonly seed: number;
  /** Score distance from the threshold that counts as near (default 2). */
  readonly margin?: number;
}

/** Default distance from a threshold within which an agent is always fetched. */
export const DEFAULT_TRIAGE_MARGIN = 2;

/**
 * Decides whether an agent needs a signed attestation.
 *
 * @param key - The agent's key (`chain:registry:id`), for the audit sample.
 * @param listed - What the listing says (`null` when the agent is not listed). A `null` sybil severity is the
 *   service's "no sybil signal" and matches the on-chain `none`; an absent one makes the listing incomplete.
 * @param onchain - The oracle read.
 * @param options - Rule, limits, encoding, audit settings.
 * @returns Why to fetch, or `null` when the listing suffices.
 */
export function triageReason(
  key: string,
  listed: Partial<ServiceData> | null,
  onchain: TrustRecordResult,
  options: TriageOptions,
): TriageReason | null {
  if (!onchain.ok) return null; // the row is an error whatever the service says
  if (listed === null) return "not-listed";
  if (!onchain.hasScore) return "missing-onchain";
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  const age = nowSeconds - onchain.updatedAtSeconds;
  if (age > options.maxAgeSeconds || age < 0) return "stale-onchain";
  if (listed.score === undefined || listed.tier === undefined || listed.sybilSeverity === undefined) return "incomplete-listing";
  if (
    listed.score !== onchain.score ||
    listed.tier.toLowerCase() !== (onchain.tier ?? "") ||
    canonicalSybilSeverity(listed.sybilSeverity) !== (onchain.sybilSeverity ?? "")
  ) {
    return "mismatch";
  }
  const margin = options.margin ?? DEFAULT_TRIAGE_MARGIN;
  const threshold = options.rule.kind === "threshold" ? options.rule.threshold : options.rule.policy.minScore;
  if (Math.abs(onchain.score - threshold) <= margin) return "near-threshold";
  if (options.rule.kind === "gate") {
    const { maxSybilSeverity, maxAge } = options.rule.policy;
    const listedSybil = safeSybilCode(listed.sybilSeverity, options.encoding);
    if (onchain.sybilSeverityCode === maxSybilSeverity || listedSybil === maxSybilSeverity) return "policy-edge";
    if (age > maxAge * 0.9) return "policy-edge";
  }
  if (auditPick(key, options.seed, options.auditFraction)) return "audit";
  return null;
}

/**
 * The deterministic audit sample: an agent is picked when a hash of its key and the seed falls under the
 * fraction, so the pick does not depend on listing order.
 *
 * @param key - The agent's key.
 * @param seed - The sample's seed.
 * @param fraction - Fraction picked (0–1).
 * @returns Whether the agent is in the sample.
 */
export function auditPick(key: string, seed: number, fraction: number): boolean {
  if (fraction <= 0) return false;
  if (fraction >= 1) return true;
  // FNV-1a 32-bit over the seed and the key.
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return (hash >>> 0) / 0x1_0000_0000 < fraction;
}

function safeSybilCode(name: string | null | undefined, encoding: TrustEncoding): number | undefined {
  if (name === undefined) return undefined;
  try {
    return sybilSeverityCode(name, encoding);
  } catch {
    return undefined;
  }
}
