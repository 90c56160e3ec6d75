/**
 * Stage 5, compare. One agent's comparison: its on-chain record against what the service says now, turned into a report
 * row with a status, the decision on each side and a reason.
 *
 * "Drift since the last refresh": the oracle is refreshed nightly, and a record's `updatedAt` is that
 * refresh. When the service computed the attested score after it, a difference is a change since the last
 * refresh (expected; the next refresh should carry it). When the attested score was computed at or before
 * the on-chain `updatedAt`, the chain should already carry that computation: a difference then means chain
 * and service disagree about the same computation, which is more alarming, and the reason says so first.
 *
 * A `null` sybil severity from the service (no sybil signal) reads as `none`, the same as the legacy name,
 * and so compares equal to the on-chain code of `none` (0 under the default encoding).
 *
 * @packageDocumentation
 */
import type { AgentRef } from "../../agent/agent-ref.js";
import { canonicalSybilSeverity, sybilSeverityName, type TrustEncoding, tierName } from "../../config/encodings.js";
import type { TrustRecordRead, TrustRecordResult } from "../../oracle/records.js";
import { unixSeconds, updatedAtDate } from "../../trust-record.js";
import { type DecisionRule, decide } from "../decision.js";
import type { ServiceOutcome } from "../service-data.js";
import { sameTrustData, statedRecord, type TrustField } from "../trust-data.js";
import type { AttestedSide, DriftRow, DriftStatus, OnchainSide } from "../types.js";
import type { Candidate, Unscannable } from "./enumerate.js";
import { listingOutcome } from "./fetch-verify.js";
import { type AttestedOracleFacts, assessRefresh } from "./refresh.js";

/** Everything a comparison needs besides the two sides. */
export interface CompareContext {
  readonly rule: DecisionRule;
  /** On-chain records older than this are stale. */
  readonly maxAgeSeconds: number;
  readonly now: Date;
  readonly encoding: TrustEncoding;
  /**
   * The attested oracle's keys and chain slugs, to assess whether a verified attestation could refresh the record
   * (`row.refresh`); absent when no attested oracle was named: kids are then `unchecked`.
   */
  readonly attestedOracle?: AttestedOracleFacts | undefined;
}

/** Statuses whose rows get a refresh assessment (when their attested data is a verified signed attestation). */
const REFRESH_STATUSES: ReadonlySet<DriftStatus> = new Set<DriftStatus>(["stale-onchain", "missing-onchain", "drifted"]);

/**
 * Builds the report row of one agent.
 *
 * Status precedence: `error` (either side could not be read), `invalid-attestation`, `missing-attestation`,
 * `missing-onchain`, `stale-onchain` (older than `maxAgeSeconds`), `drifted` (score, tier or sybil severity
 * differ, or the record is dated in the future), `in-sync`. A `stale-onchain`, `missing-onchain` or `drifted` row
 * whose attested data is a verified signed attestation also says whether that attestation could refresh the record
 * through an `AttestedTrustOracle` (`refresh`, see `refresh.ts`); every other row has `refresh: null`.
 *
 * @param agent - The agent.
 * @param onchain - The oracle read.
 * @param service - What the service said.
 * @param context - Decision rule, staleness limit, time and encoding.
 * @returns The row.
 */
export function compareAgent(agent: AgentRef, onchain: TrustRecordResult, service: ServiceOutcome, context: CompareContext): DriftRow {
  const nowSeconds = unixSeconds(context.now);
  const onchainSide = onchain.ok && onchain.hasScore ? describeOnchain(onchain, context.encoding) : null;
  const serviceData = service.kind === "verified" || service.kind === "listed" ? service.data : null;
  const attested: AttestedSide | null = serviceData
    ? {
        score: serviceData.score,
        tier: serviceData.tier,
        sybilSeverity: canonicalSybilSeverity(serviceData.sybilSeverity),
        attestedAt: serviceData.at.toISOString(),
        kid: service.kind === "verified" ? service.kid : null,
        ...(service.kind === "verified" && service.fromState
          ? { fromState: { verifiedAt: service.fromState.verifiedAt.toISOString() } }
          : {}),
      }
    : null;

  const onchainDecision =
    onchain.ok && onchainSide
      ? decide(context.rule, onchain, nowSeconds)
      : onchain.ok
        ? false // no record: every gate refuses
        : null;
  const attestedDecision = serviceData
    ? decide(context.rule, statedRecord(serviceData, Math.min(nowSeconds, unixSeconds(serviceData.at)), context.encoding), nowSeconds)
    : service.kind === "missing"
      ? false
      : null;
  const decision = {
    onchain: onchainDecision,
    attested: attestedDecision,
    flipped: onchainDecision !== null && attestedDecision !== null && onchainDecision !== attestedDecision,
  };
  const scoreDelta = onchainSide && attested ? attested.score - onchainSide.score : null;
  const computedAt = serviceData ? knownTime(serviceData.computedAt) : null;
  const lastRefresh = { computedAt, after: computedAfterRefresh(computedAt, onchain.ok && onchainSide ? onchain.updatedAt : null) };

  const differences = onchain.ok && onchain.hasScore && serviceData ? sameTrustData(onchain, serviceData, context.encoding) : [];
  const { status, reason } = classify(onchain, onchainSide, service, attested, differences, lastRefresh, context, nowSeconds);
  const refreshAssessment =
    service.kind === "verified" && REFRESH_STATUSES.has(status)
      ? assessRefresh({
          chain: agent.chain,
          chainId: agent.chainId,
          onchainUpdatedAtSeconds: onchain.ok && onchainSide ? onchain.updatedAt : null,
          service,
          now: context.now,
          attestedOracle: context.attestedOracle,
        })
      : null;
  const row: DriftRow = {
    ...rowAgent(agent),
    status,
    onchain: onchainSide,
    attested,
    attestedComputedAt: computedAt ? computedAt.toISOString() : null,
    computedAfterRefresh: lastRefresh.after,
    scoreDelta,
    decision,
    refresh: refreshAssessment,
    ...(reason ? { reason } : {}),
  };
  return row;
}

function classify(
  onchain: TrustRecordResult,
  onchainSide: OnchainSide | null,
  service: ServiceOutcome,
  attested: AttestedSide | null,
  differing: readonly TrustField[],
  refresh: { readonly computedAt: Date | null; readonly after: boolean | null },
  context: CompareContext,
  nowSeconds: number,
): { status: DriftStatus; reason?: string } {
  if (!onchain.ok) return { status: "error", reason: `on-chain read failed: ${onchain.error.shortMessage}` };
  if (service.kind === "error")
    return { status: "error", reason: service.notFetched ? service.message : `service request failed: ${service.message}` };
  if (service.kind === "invalid") return { status: "invalid-attestation", reason: `${service.reason}: ${service.message}` };
  if (service.kind === "missing") {
    return {
      status: "missing-attestation",
      reason: onchainSide
        ? `the service does not know the agent (${service.message})`
        : "neither the oracle nor the service knows the agent",
    };
  }
  if (!onchainSide || !attested) return { status: "missing-onchain", reason: "the oracle holds no record for the agent" };
  const age = nowSeconds - onchain.updatedAt;
  if (age > context.maxAgeSeconds) {
    return { status: "stale-onchain", reason: `on-chain record is ${formatAge(age)} old (max ${formatAge(context.maxAgeSeconds)})` };
  }
  if (age < 0) return { status: "drifted", reason: `on-chain record is dated ${formatAge(-age)} in the future` };
  if (differing.length === 0) return { status: "in-sync" };
  const listed = differing.map((field) => DIFFERENCE_TEXT[field](onchainSide, attested)).join(", ");
  if (refresh.after === true) return { status: "drifted", reason: `${listed} (changed since the last refresh)` };
  if (refresh.after === false) {
    return {
      status: "drifted",
      reason:
        `chain and service disagree about the same computation: ${listed} ` +
        `(attested score computed ${refresh.computedAt!.toISOString()}, not after the on-chain refresh ${onchainSide.updatedAt})`,
    };
  }
  return { status: "drifted", reason: listed };
}

/**
 * Whether the service computed the attested score after the on-chain record was written (the last refresh),
 * compared in whole seconds as the chain stores them.
 *
 * @param computedAt - When the service computed the attested score, if known.
 * @param updatedAtSeconds - The on-chain record's `updatedAt` (Unix seconds), if there is a record.
 * @returns True when computed strictly after it, false when at or before it, `null` when either is unknown.
 */
export function computedAfterRefresh(computedAt: Date | null | undefined, updatedAtSeconds: number | null | undefined): boolean | null {
  const known = knownTime(computedAt);
  if (known === null || updatedAtSeconds === null || updatedAtSeconds === undefined) return null;
  return unixSeconds(known) > updatedAtSeconds;
}

/** A usable time, or `null` for an absent or invalid one (the Unix epoch stands for "no time" in listings). */
function knownTime(time: Date | null | undefined): Date | null {
  return time instanceof Date && Number.isFinite(time.getTime()) && time.getTime() > 0 ? time : null;
}

function describeOnchain(record: TrustRecordRead, encoding: TrustEncoding): OnchainSide {
  return {
    score: record.score,
    tier: tierName(record.tier, encoding) ?? `code:${record.tier}`,
    sybilSeverity: sybilSeverityName(record.sybilSeverity, encoding) ?? `code:${record.sybilSeverity}`,
    updatedAt: (updatedAtDate(record) ?? new Date(0)).toISOString(),
  };
}

/** How a differing field reads in a row's reason. */
const DIFFERENCE_TEXT: Readonly<Record<TrustField, (onchain: OnchainSide, attested: AttestedSide) => string>> = {
  score: (onchain, attested) => `score ${onchain.score} → ${attested.score}`,
  tier: (onchain, attested) => `tier ${onchain.tier} → ${attested.tier}`,
  sybilSeverity: (onchain, attested) => `sybil ${onchain.sybilSeverity} → ${attested.sybilSeverity}`,
};

function formatAge(seconds: number): string {
  if (seconds >= 86_400) return `${(seconds / 86_400).toFixed(1)}d`;
  if (seconds >= 3600) return `${(seconds / 3600).toFixed(1)}h`;
  return `${seconds}s`;
}

/**
 * A row for an agent that could not be compared at all.
 *
 * @param agent - The agent.
 * @param reason - Why.
 * @returns An `error` row with no data on either side.
 */
export function errorRow(agent: AgentRef, reason: string): DriftRow {
  return {
    ...rowAgent(agent),
    status: "error",
    onchain: null,
    attested: null,
    attestedComputedAt: null,
    computedAfterRefresh: null,
    scoreDelta: null,
    decision: { onchain: null, attested: null, flipped: false },
    refresh: null,
    reason,
  };
}

/**
 * The agent fields of a report row (`agentId` as a decimal string, as the report pins it) — the one place
 * an agent reference becomes row fields.
 *
 * @param agent - The agent.
 * @returns `chain`, `chainId`, `agentId`, `registry`.
 */
export function rowAgent(agent: AgentRef): Pick<DriftRow, "chain" | "chainId" | "agentId" | "registry"> {
  return { chain: agent.chain, chainId: agent.chainId, agentId: agent.agentId.toString(), registry: agent.registry };
}

/**
 * Runs the stage: one row per candidate, then one `error` row per agent that could not be scanned.
 *
 * @param candidates - The candidates.
 * @param records - Their oracle reads, in order.
 * @param outcomes - What the service said about each, in order.
 * @param unscannable - Agents set aside by the enumeration, with their reasons.
 * @param context - Decision rule, staleness limit, time and encoding.
 * @returns The rows, candidates first (in order), unsorted.
 */
export function compareCandidates(
  candidates: readonly Candidate[],
  records: readonly TrustRecordResult[],
  outcomes: readonly ServiceOutcome[],
  unscannable: readonly Unscannable[],
  context: CompareContext,
): DriftRow[] {
  return [...compareEach(candidates, records, outcomes, unscannable, context)];
}

/**
 * Runs the stage one row at a time, in the order of {@link compareCandidates}, so that a caller need not hold them
 * all (the pipeline hands each to its row sink).
 *
 * @param candidates - The candidates.
 * @param records - Their oracle reads, in order.
 * @param outcomes - What the service said about each, in order; a hole (`fetchSelected`) stands for what the listing
 *   said (`listingOutcome`).
 * @param unscannable - Agents set aside by the enumeration, with their reasons.
 * @param context - Decision rule, staleness limit, time and encoding.
 * @returns The rows, candidates first (in order), unsorted.
 */
export function* compareEach(
  candidates: readonly Candidate[],
  records: readonly TrustRecordResult[],
  outcomes: readonly (ServiceOutcome | undefined)[],
  unscannable: readonly Unscannable[],
  context: CompareContext,
): Generator<DriftRow, void, undefined> {
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    yield compareAgent(candidate.agent, records[i]!, outcomes[i] ?? listingOutcome(candidate.listed), context);
  }
  for (const { agent, reason } of unscannable) yield errorRow(agent, reason);
}
