/**
 * Stage 3, triage: which candidates need a signed attestation. An explicit list fetches every one
 * ({@link selectAll}); an `--all` scan fetches only where chain and listing may disagree or a decision may
 * turn, plus a random audit sample so that a listing that lies cannot hide drift ({@link triageCandidates}),
 * and compares the rest with the service's (unsigned) listing — a signed fetch costs one request under a
 * 30–300/minute limit. After the fetch, {@link summarizeTriage} says what triage did and whether the
 * attestations contradicted the listing.
 *
 * @packageDocumentation
 */
import { agentKey } from "../../agent/agent-ref.js";
import type { TrustEncoding } from "../../config/encodings.js";
import type { TrustRecordResult } from "../../oracle/records.js";
import type { DecisionRule } from "../decision.js";
import type { ServiceData, ServiceOutcome } from "../service-data.js";
import { sameTrustData, sybilSeverityCodeOf } from "../trust-data.js";
import type { TriageSummary } from "../types.js";
import type { Candidate, Enumeration } from "./enumerate.js";

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
  if (sameTrustData(onchain, listed, options.encoding).length > 0) return "mismatch";
  const margin = options.margin ?? DEFAULT_TRIAGE_MARGIN;
  const threshold = options.rule.kind === "threshold" ? options.rule.threshold : options.rule.policy.minScore;
  if (Math.abs(onchain.score - threshold) <= margin) return "near-threshold";
  if (options.rule.kind === "gate") {
    const { maxSybilSeverity, maxAge } = options.rule.policy;
    const listedSybil = sybilSeverityCodeOf(listed.sybilSeverity, options.encoding);
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

/** Which candidates to fetch signed attestations for (indexes into the candidates), and why. */
export interface TriageSelection {
  /** Indexes of the candidates to fetch, ascending. */
  readonly fetch: readonly number[];
  /** Why candidates were fetched: count per reason (empty when every candidate is fetched unasked). */
  readonly reasons: Readonly<Record<string, number>>;
}

/**
 * Selects every candidate (an explicit list: each agent gets its signed attestation).
 *
 * @param candidates - The candidates.
 * @returns All of them, with no reasons.
 */
export function selectAll(candidates: readonly Candidate[]): TriageSelection {
  return { fetch: candidates.map((_, i) => i), reasons: {} };
}

/**
 * Selects the candidates whose {@link triageReason} is not `null`.
 *
 * @param candidates - The candidates, with what the listing says about each.
 * @param records - Their oracle reads, in the same order.
 * @param options - Rule, limits, encoding, audit settings.
 * @returns The selection and the count per reason.
 */
export function triageCandidates(
  candidates: readonly Candidate[],
  records: readonly TrustRecordResult[],
  options: TriageOptions,
): TriageSelection {
  const reasons: Record<string, number> = {};
  const fetch: number[] = [];
  candidates.forEach((candidate, i) => {
    const reason = triageReason(agentKey(candidate.agent), candidate.listed ?? null, records[i]!, options);
    if (reason === null) return;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    fetch.push(i);
  });
  return { fetch, reasons };
}

/**
 * What triage did, once the attestations are in: counts, reasons, and how many verified attestations
 * contradicted the listing they were fetched against.
 *
 * @param enumeration - The enumeration (its listing counts).
 * @param selection - The selection.
 * @param outcomes - What the service said about each candidate, in candidate order.
 * @param settings - The audit fraction and the encoding.
 * @returns The summary the report carries.
 */
export function summarizeTriage(
  enumeration: Enumeration,
  selection: TriageSelection,
  outcomes: readonly ServiceOutcome[],
  settings: { readonly auditFraction: number; readonly encoding: TrustEncoding },
): TriageSummary {
  let listingContradictions = 0;
  for (const i of selection.fetch) {
    const outcome = outcomes[i]!;
    const listing = enumeration.candidates[i]!.listed;
    if (outcome.kind !== "verified" || !listing) continue;
    if (sameTrustData(listing, outcome.data, settings.encoding).length > 0) listingContradictions++;
  }
  const onchainEnumeration = enumeration.listing?.onchainEnumeration;
  return {
    listed: enumeration.listing?.listed ?? 0,
    signedFetches: selection.fetch.length,
    fetchesSaved: enumeration.candidates.length - selection.fetch.length,
    reasons: selection.reasons,
    auditFraction: settings.auditFraction,
    listingContradictions,
    ...(onchainEnumeration ? { onchainEnumeration } : {}),
  };
}
