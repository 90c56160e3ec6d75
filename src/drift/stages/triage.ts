/**
 * Stage 3, triage: which candidates need a signed attestation. An explicit list fetches every one
 * ({@link selectAll}); an `--all` scan fetches only where something could have changed since it was last verified,
 * plus an audit sample so that a listing that lies cannot hide drift ({@link triageCandidates}), and compares the rest
 * with the service's (unsigned) listing or with the signed attestation an earlier run verified — a signed fetch costs
 * one request under a 30–300/minute limit. After the fetch, {@link summarizeTriage} says what triage did and whether
 * the attestations contradicted the listing.
 *
 * **The rules, per agent, the first that applies** ({@link triageAgent}):
 *
 * 1. The oracle read failed: nothing to fetch (the row is an error whatever the service says).
 * 2. `not-listed` (an on-chain record the listing lacks) and `incomplete-listing` (an entry without score, tier or
 *    sybil severity): fetch — nothing stands in for the service's word.
 * 3. With a state entry (`--state`, an earlier run asked the service about the agent):
 *    - `unverified-before`: its last answer did not verify (invalid, unknown, error): fetch again;
 *    - `listing-changed`: the listing's score, tier or sybil severity differs from the last verified attestation;
 *    - `onchain-changed`: the on-chain record's data changed since then, to something other than the last verified
 *      attestation;
 *    - `near-threshold` / `policy-edge`: the agent sits at a decision edge and the last verified attestation is not
 *      current (computed before the listing's `updatedAt`, the service's latest scoring of the agent; or either time
 *      is unknown) — unless the on-chain record holds that very computation (below);
 *    - otherwise the last verified attestation stands for the service's word: no fetch, and the row compares the chain
 *      with it. The reason a first run would have fetched for (`mismatch`, `stale-onchain`, `missing-onchain`, an
 *      edge) is counted as avoided, by `state`.
 * 4. Without a state entry: `missing-onchain` and `mismatch` (listing and chain disagree) fetch. `stale-onchain` (the
 *    record older than the staleness limit, or dated in the future) fetches unless the record is merely old and holds
 *    the data the listing states, at no decision edge: the row's status comes from the chain alone, the listing stands
 *    for the service's word as it does for a fresh record, and the audit checks it (avoided, by `chain`; an oracle left
 *    unwritten for months would otherwise have every agent fetched signed). At a
 *    decision edge (`near-threshold`: the score within the margin of the threshold or the gate's `minScore`;
 *    `policy-edge`: the gate's sybil limit or record age at its edge), the agent is fetched unless the on-chain record
 *    holds the computation the listing states — same data, and the listing's `updatedAt` no later than the record's:
 *    the service's publisher wrote that computation on-chain, so a fetch could only repeat it (unless the listing
 *    lies, which is what the audit is for). Avoided, by `chain`.
 * 5. `audit`: of the agents left (compared with the listing or with the state), a uniform sample sized by
 *    confidence (see `../audit.ts`) is fetched.
 *
 * @packageDocumentation
 */
import { agentKey } from "../../agent/agent-ref.js";
import type { TrustEncoding } from "../../config/encodings.js";
import type { TrustRecordResult } from "../../oracle/records.js";
import { type TrustPolicy, trustPolicyEdges } from "../../policy.js";
import { unixSeconds } from "../../trust-record.js";
import { type AuditPlan, auditSampleSize, DEFAULT_AUDIT_PLAN, detectionProbability, drawAuditSample, liesAtLeast } from "../audit.js";
import type { DecisionRule } from "../decision.js";
import type { ServiceData, ServiceOutcome } from "../service-data.js";
import { type RecordedTrustData, type StatedTrustData, sameTrustData, sybilSeverityCodeOf } from "../trust-data.js";
import type { TriageAudit, TriageSummary } from "../types.js";
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
  /** The listing differs from the attestation an earlier run verified (`--state`). */
  | "listing-changed"
  /** The on-chain record changed since an earlier run verified the agent, and not to what was verified (`--state`). */
  | "onchain-changed"
  /** The last answer an earlier run got for the agent did not verify (`--state`). */
  | "unverified-before"
  /** Picked at random to audit the listing. */
  | "audit";

/** What earlier runs verified about an agent (from the state file). */
export interface TriageEvidence {
  /** The last verified attestation's signed data and computation time; `null` when the last answer did not verify. */
  readonly verified: (StatedTrustData & { readonly computedAt: Date | null }) | null;
  /** The on-chain record seen then: `null` for no record, `undefined` when not known. */
  readonly onchain: RecordedTrustData | null | undefined;
}

/** Triage settings. */
export interface TriageOptions {
  readonly rule: DecisionRule;
  readonly maxAgeSeconds: number;
  readonly now: Date;
  readonly encoding: TrustEncoding;
  /** How the audit sample is sized; default {@link DEFAULT_AUDIT_PLAN} (99 % confidence of catching 1 % lies). */
  readonly audit?: AuditPlan;
  /** Seed of the audit sample. */
  readonly seed: number;
  /** Score distance from the threshold that counts as near (default 2). */
  readonly margin?: number;
  /** What earlier runs verified, by agent key (`chain:registry:id`); absent: no state (a first run, or `--full`). */
  readonly evidence?: (key: string) => TriageEvidence | undefined;
}

/** Default distance from a threshold within which an agent is at a decision edge. */
const DEFAULT_TRIAGE_MARGIN = 2;

/** What triage decided for one agent, before the audit. */
export type AgentTriage =
  /** Fetch, for this reason. */
  | { readonly fetch: TriageReason }
  /** No fetch. */
  | {
      readonly fetch: null;
      /** The row's service data is the last verified attestation from the state (else the listing, if any). */
      readonly fromState: boolean;
      /** The reason a run without this evidence would have fetched for, and the evidence that made it unnecessary. */
      readonly avoided?: { readonly reason: TriageReason; readonly by: "state" | "chain" };
      /** Whether the audit may pick it (its record was read and the service's word stands in for a fetch). */
      readonly auditable: boolean;
    };

/**
 * The reason a run without a state would fetch an agent for (rules 1, 2 and 4 of the module notes, without the
 * chain's evidence and without the audit).
 *
 * @param listed - What the listing says (`null` when the agent is not listed). A `null` sybil severity is the
 *   service's "no sybil signal" and matches the on-chain `none`; an absent one makes the listing incomplete.
 * @param onchain - The oracle read.
 * @param options - Rule, limits, encoding.
 * @returns Why to fetch, or `null` when the listing would do.
 */
export function triageReason(
  listed: Partial<ServiceData> | null,
  onchain: TrustRecordResult,
  options: Pick<TriageOptions, "rule" | "maxAgeSeconds" | "now" | "encoding" | "margin">,
): TriageReason | null {
  if (!onchain.ok) return null; // the row is an error whatever the service says
  if (listed === null) return "not-listed";
  if (!onchain.hasScore) return "missing-onchain";
  const age = recordAgeSeconds(onchain, options.now);
  if (age > options.maxAgeSeconds || age < 0) return "stale-onchain";
  return dataReason(listed, onchain, options, age);
}

/** Seconds since the record's `updatedAt` (negative when it is dated in the future). */
function recordAgeSeconds(onchain: Extract<TrustRecordResult, { ok: true }>, now: Date): number {
  return unixSeconds(now) - onchain.updatedAt;
}

/**
 * The reasons of rule 4 that look at the data (after the record's presence and age): an incomplete listing, a
 * mismatch, a decision edge. `age` is `null` for a record already past the staleness limit, where the gate's age edge
 * no longer applies.
 */
function dataReason(
  listed: Partial<ServiceData>,
  onchain: Extract<TrustRecordResult, { ok: true }>,
  options: Pick<TriageOptions, "rule" | "encoding" | "margin">,
  age: number | null,
): TriageReason | null {
  if (listed.score === undefined || listed.tier === undefined || listed.sybilSeverity === undefined) return "incomplete-listing";
  if (sameTrustData(onchain, listed, options.encoding).length > 0) return "mismatch";
  // The policy's decision edges, on the chain's sybil code and on the listing's (they differ only where the encoding
  // names two codes alike). A record past the staleness limit (`age` null) is past the age edge too, which then adds
  // nothing: it is taken at age 0.
  const policy = decisionPolicy(options.rule);
  const now = onchain.updatedAt + (age ?? 0);
  const margin = options.margin ?? DEFAULT_TRIAGE_MARGIN;
  const listedSybil = sybilSeverityCodeOf(listed.sybilSeverity, options.encoding) ?? onchain.sybilSeverity;
  const edges = [
    ...trustPolicyEdges(onchain, policy, now, margin),
    ...trustPolicyEdges({ ...onchain, sybilSeverity: listedSybil }, policy, now, margin),
  ];
  if (edges.includes("ScoreTooLow")) return "near-threshold";
  return edges.length > 0 ? "policy-edge" : null;
}

/** The policy a rule decides by: a gate's own, or, for a threshold, a policy whose only limit is the score. */
function decisionPolicy(rule: DecisionRule): TrustPolicy {
  if (rule.kind === "gate") return rule.policy;
  return {
    minScore: rule.threshold,
    maxSybilSeverity: Number.POSITIVE_INFINITY,
    maxAge: Number.POSITIVE_INFINITY,
    requireController: false,
  };
}

/**
 * For a record past the staleness limit (not one dated in the future): what a fetch is still needed for. Its row's
 * status (`stale-onchain`) comes from the chain alone; a signed fetch adds only whether the old record still holds the
 * service's data. Where the listing states that very data and the agent is at no decision edge, the listing stands for
 * it, as it does for a fresh record, and the audit checks the listing: `null`. Otherwise the reason to fetch: a
 * listing that disagrees (or is incomplete) keeps `stale-onchain`; an edge keeps its own.
 */
function staleRecordReason(
  listed: Partial<ServiceData>,
  onchain: Extract<TrustRecordResult, { ok: true }>,
  options: Pick<TriageOptions, "rule" | "now" | "encoding" | "margin">,
): TriageReason | null {
  if (recordAgeSeconds(onchain, options.now) < 0) return "stale-onchain"; // dated in the future: never on the listing's word
  const reason = dataReason(listed, onchain, options, null);
  return reason === "mismatch" || reason === "incomplete-listing" ? "stale-onchain" : reason;
}

const EDGE_REASONS: ReadonlySet<TriageReason> = new Set<TriageReason>(["near-threshold", "policy-edge"]);

/**
 * Decides for one agent (rules 1–4 of the module notes; the audit is drawn over all agents afterwards).
 *
 * @param listed - What the listing says (`null`: not listed).
 * @param onchain - The oracle read.
 * @param options - Rule, limits, encoding.
 * @param evidence - What earlier runs verified about the agent, if anything.
 * @returns Fetch and why, or no fetch and what stands in for it.
 */
export function triageAgent(
  listed: Partial<ServiceData> | null,
  onchain: TrustRecordResult,
  options: Pick<TriageOptions, "rule" | "maxAgeSeconds" | "now" | "encoding" | "margin">,
  evidence?: TriageEvidence,
): AgentTriage {
  if (!onchain.ok) return { fetch: null, fromState: false, auditable: false };
  const base = triageReason(listed, onchain, options);
  if (base === "not-listed" || base === "incomplete-listing" || listed === null) return { fetch: base ?? "not-listed" };
  const chainCovers = base !== null && EDGE_REASONS.has(base) && chainHoldsListedComputation(listed, onchain);
  if (evidence) {
    const verified = evidence.verified;
    if (verified === null) return { fetch: "unverified-before" };
    if (sameTrustData(listed, verified, options.encoding).length > 0) return { fetch: "listing-changed" };
    const holdsVerified = onchain.hasScore && sameTrustData(onchain, verified, options.encoding).length === 0;
    if (!sameRecordData(onchain, evidence.onchain) && !holdsVerified) return { fetch: "onchain-changed" };
    if (base !== null && EDGE_REASONS.has(base) && !isCurrent(verified.computedAt, listed) && !chainCovers) return { fetch: base };
    return { fetch: null, fromState: true, auditable: true, ...(base !== null ? { avoided: { reason: base, by: "state" as const } } : {}) };
  }
  if (base === null) return { fetch: null, fromState: false, auditable: true };
  if (chainCovers) return { fetch: null, fromState: false, auditable: true, avoided: { reason: base, by: "chain" } };
  if (base === "stale-onchain" && onchain.hasScore) {
    const reason = staleRecordReason(listed, onchain, options);
    if (reason === null) return { fetch: null, fromState: false, auditable: true, avoided: { reason: base, by: "chain" } };
    return { fetch: reason };
  }
  return { fetch: base };
}

/** Whether the record holds the listing's data and the listing's computation is no newer than the record. */
function chainHoldsListedComputation(listed: Partial<ServiceData>, onchain: TrustRecordResult): boolean {
  if (!onchain.ok || !onchain.hasScore || !listed.at) return false;
  return unixSeconds(listed.at) <= onchain.updatedAt;
}

/** Whether a verified attestation's computation is at least as new as the one the listing states. */
function isCurrent(computedAt: Date | null, listed: Partial<ServiceData>): boolean {
  if (!computedAt || !listed.at) return false;
  return Math.floor(computedAt.getTime() / 1000) >= Math.floor(listed.at.getTime() / 1000);
}

/** Whether an oracle read holds the same data (score, tier code, sybil code, or no record) as the record seen before. */
function sameRecordData(onchain: TrustRecordResult, seen: RecordedTrustData | null | undefined): boolean {
  if (!onchain.ok || seen === undefined) return false;
  if (!onchain.hasScore || seen === null) return !onchain.hasScore && seen === null;
  return onchain.score === seen.score && onchain.tier === seen.tier && onchain.sybilSeverity === seen.sybilSeverity;
}

/** Which candidates to fetch signed attestations for (indexes into the candidates), and why. */
export interface TriageSelection {
  /** Indexes of the candidates to fetch, ascending. */
  readonly fetch: readonly number[];
  /** Why candidates were fetched: count per reason (empty when every candidate is fetched unasked). */
  readonly reasons: Readonly<Record<string, number>>;
  /** Fetches a run without the evidence would have made, per reason (see {@link AgentTriage}). */
  readonly avoided?: Readonly<Record<string, number>>;
  /** Of those, how many were avoided thanks to the state, and thanks to the on-chain record. */
  readonly avoidedBy?: { readonly state: number; readonly chain: number };
  /** Indexes of the candidates not fetched whose service data is the last verified attestation in the state. */
  readonly fromState?: readonly number[];
  /** How the audit sample was sized and drawn. */
  readonly audit?: TriageAudit;
  /** Seed of the audit sample. */
  readonly seed?: number;
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
 * Selects the candidates to fetch: each agent's {@link triageAgent} decision, then the audit sample among the agents
 * left whose service data stands in for a fetch.
 *
 * @param candidates - The candidates, with what the listing says about each.
 * @param records - Their oracle reads, in the same order.
 * @param options - Rule, limits, encoding, audit settings, seed and the state's evidence.
 * @returns The selection: indexes, counts per reason fetched and avoided, the audit.
 */
export function triageCandidates(
  candidates: readonly Candidate[],
  records: readonly TrustRecordResult[],
  options: TriageOptions,
): TriageSelection {
  const reasons: Record<string, number> = {};
  const avoided: Record<string, number> = {};
  const avoidedBy = { state: 0, chain: 0 };
  const chosen = new Map<number, TriageReason>();
  const fromState = new Set<number>();
  const avoidedOf = new Map<number, NonNullable<Extract<AgentTriage, { fetch: null }>["avoided"]>>();
  const eligible: number[] = [];
  candidates.forEach((candidate, i) => {
    const key = agentKey(candidate.agent);
    const decision = triageAgent(candidate.listed ?? null, records[i]!, options, options.evidence?.(key));
    if (decision.fetch !== null) {
      chosen.set(i, decision.fetch);
      return;
    }
    if (decision.fromState) fromState.add(i);
    if (decision.avoided) avoidedOf.set(i, decision.avoided);
    if (decision.auditable) eligible.push(i);
  });
  const plan = options.audit ?? DEFAULT_AUDIT_PLAN;
  const sampleSize = auditSampleSize(eligible.length, plan);
  const sample = drawAuditSample(
    eligible.map((i) => agentKey(candidates[i]!.agent)),
    sampleSize,
    options.seed,
  ).map((position) => eligible[position]!);
  for (const i of sample) {
    chosen.set(i, "audit");
    fromState.delete(i);
    avoidedOf.delete(i); // fetched after all
  }
  for (const { reason, by } of avoidedOf.values()) {
    avoided[reason] = (avoided[reason] ?? 0) + 1;
    avoidedBy[by]++;
  }
  const fetch = [...chosen.keys()].sort((a, b) => a - b);
  for (const i of fetch) reasons[chosen.get(i)!] = (reasons[chosen.get(i)!] ?? 0) + 1;
  const lies = liesAtLeast(eligible.length, plan.lieRate);
  return {
    fetch,
    reasons,
    avoided,
    avoidedBy,
    fromState: [...fromState].sort((a, b) => a - b),
    audit: {
      confidence: plan.confidence,
      lieRate: plan.lieRate,
      eligible: eligible.length,
      sampleSize,
      liesAtLeast: lies,
      detectionProbability: detectionProbability(eligible.length, lies, sampleSize),
    },
    seed: options.seed,
  };
}

/**
 * What triage did, once the attestations are in: counts, reasons, the audit, and how many verified attestations
 * contradicted the listing they were fetched against.
 *
 * @param enumeration - The enumeration (its listing counts).
 * @param selection - The selection.
 * @param outcomes - What the service said, by candidate index (every selected candidate has one; others may be holes).
 * @param settings - The encoding.
 * @returns The summary the report carries.
 */
export function summarizeTriage(
  enumeration: Enumeration,
  selection: TriageSelection,
  outcomes: readonly (ServiceOutcome | undefined)[],
  settings: { readonly encoding: TrustEncoding },
): TriageSummary {
  let listingContradictions = 0;
  let signedNotAnswered = 0;
  for (const i of selection.fetch) {
    const outcome = outcomes[i];
    if (outcome === undefined || outcome.kind === "error") signedNotAnswered++;
    const listing = enumeration.candidates[i]!.listed;
    if (outcome?.kind !== "verified" || !listing) continue;
    if (sameTrustData(listing, outcome.data, settings.encoding).length > 0) listingContradictions++;
  }
  const onchainEnumeration = enumeration.listing?.onchainEnumeration;
  const audit = selection.audit;
  const auditFraction = audit && audit.eligible > 0 ? audit.sampleSize / audit.eligible : 0;
  return {
    listed: enumeration.listing?.listed ?? 0,
    signedFetches: selection.fetch.length,
    ...(signedNotAnswered > 0 ? { signedNotAnswered } : {}),
    fetchesSaved: enumeration.candidates.length - selection.fetch.length,
    reasons: selection.reasons,
    ...(selection.avoided ? { avoided: selection.avoided } : {}),
    ...(selection.avoidedBy ? { avoidedBy: selection.avoidedBy } : {}),
    auditFraction,
    ...(audit ? { audit } : {}),
    ...(selection.seed !== undefined ? { seed: selection.seed } : {}),
    listingContradictions,
    ...(onchainEnumeration ? { onchainEnumeration } : {}),
  };
}
