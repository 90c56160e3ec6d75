/**
 * The `--all` drift scan: page through the service's listing, read every listed agent's on-chain record in
 * bulk, and fetch signed attestations only where triage says it matters.
 *
 * @packageDocumentation
 */
import { agentKey } from "../agent-key.js";
import { chainSlugOf, resolveChain } from "../config/chains.js";
import { canonicalSybilSeverity } from "../config/encodings.js";
import { DEFAULT_REGISTRY } from "../config/service.js";
import { listOracleKeys } from "../oracle/events.js";
import { parseServiceTime } from "../attestation/time.js";
import { messageOf } from "../errors.js";
import { mapConcurrently } from "../util/concurrency.js";
import { compareAgent, errorRow, type RowSubject, type ServiceData, type ServiceOutcome } from "./compare.js";
import { readOnchain, type DriftScanOptions, type ScanResult, type ScanStage } from "./scan.js";
import { fetchServiceOutcome } from "./service-outcome.js";
import { triageReason, type TriageReason } from "./triage.js";
import type { TriageSummary } from "./types.js";

/** Options of {@link scanAllAgents} besides the common scan options. */
export interface ScanAllOptions extends DriftScanOptions {
  /** Restrict the listing to one chain (slug). */
  readonly chainFilter?: string;
  /** Fraction of agents fetched at random to audit the listing (0–1). */
  readonly auditFraction: number;
  /** Seed of the audit sample. */
  readonly seed: number;
  /** Also replay the oracle's `RecordAdded`/`RecordRemoved` events from this block to find records the listing lacks. */
  readonly enumerateOnchainFrom?: bigint;
  /** Why records the listing lacks are not looked for (recorded in the triage summary), when `enumerateOnchainFrom` is absent. */
  readonly enumerationSkipped?: string;
}

/** Result of {@link scanAllAgents}. */
export interface ScanAllResult extends ScanResult {
  readonly triage: TriageSummary;
}

interface Candidate {
  readonly subject: RowSubject & { chainId: number };
  readonly listed: Partial<ServiceData> | null;
}

/**
 * Scans every agent the service lists (and, optionally, every record the oracle's events announce).
 *
 * @param options - Chain, oracle, API, verification, rule, limits and triage settings.
 * @returns Rows, oracle reads, timings and the triage summary.
 */
export async function scanAllAgents(options: ScanAllOptions): Promise<ScanAllResult> {
  const now = options.now ?? (() => new Date());
  const timings: Record<ScanStage, number> = { onchain: 0, listing: 0, attestations: 0 };

  let started = performance.now();
  const candidates: Candidate[] = [];
  const offChain: RowSubject[] = [];
  const seen = new Set<string>();
  let listed = 0;
  for await (const item of options.api.iterateAgents({ ...(options.chainFilter ? { chain: options.chainFilter } : {}), limit: 1000 })) {
    listed++;
    if (listed % 1000 === 0) options.onProgress?.({ stage: "listing", done: listed, total: listed });
    const registry = (item.registry ?? DEFAULT_REGISTRY).toLowerCase();
    let chain;
    try {
      chain = resolveChain(item.chain);
    } catch {
      offChain.push({ chain: item.chain, chainId: null, agentId: String(item.agentId), registry });
      continue;
    }
    const subject = { chain: chain.slug, chainId: chain.chainId ?? null, agentId: String(item.agentId), registry };
    if (subject.chainId === null) {
      offChain.push(subject);
      continue;
    }
    const key = agentKey(subject);
    if (seen.has(key)) continue;
    seen.add(key);
    const parsed = item.updatedAt === undefined || item.updatedAt === null ? undefined : parseServiceTime(item.updatedAt);
    const at = parsed?.ok ? new Date(parsed.ms) : undefined;
    candidates.push({
      subject: subject as RowSubject & { chainId: number },
      listed: {
        score: item.score,
        ...(item.tier ? { tier: item.tier } : {}),
        // null is the service's "no sybil signal" (the legacy name is "none"); absent means not listed.
        ...(item.sybilSeverity === null ? { sybilSeverity: "none" } : item.sybilSeverity ? { sybilSeverity: item.sybilSeverity } : {}),
        ...(at ? { at } : {}),
      },
    });
  }
  let enumeration: TriageSummary["onchainEnumeration"] =
    options.enumerationSkipped !== undefined ? { fromBlock: null, records: 0, skipped: options.enumerationSkipped } : undefined;
  if (options.enumerateOnchainFrom !== undefined) {
    let keys: Awaited<ReturnType<typeof listOracleKeys>> = [];
    const fromBlock = options.enumerateOnchainFrom.toString();
    try {
      keys = await listOracleKeys(options.chain, options.oracle, {
        fromBlock: options.enumerateOnchainFrom,
        ...(options.blockNumber !== undefined ? { toBlock: options.blockNumber } : {}),
      });
      enumeration = { fromBlock, records: keys.length };
    } catch (error) {
      enumeration = { fromBlock, records: 0, error: messageOf(error) };
    }
    let notListed = 0;
    for (const key of keys) {
      let chain: string;
      try {
        chain = chainSlugOf(key.chainId);
      } catch {
        continue; // a chain the service does not cover
      }
      if (options.chainFilter && resolveChain(options.chainFilter).slug !== chain) continue;
      const subject = { chain, chainId: key.chainId, agentId: key.agentId.toString(), registry: key.registry };
      if (seen.has(agentKey(subject))) continue;
      seen.add(agentKey(subject));
      candidates.push({ subject, listed: null });
      notListed++;
    }
    if (enumeration.error === undefined) enumeration = { ...enumeration, notListed };
  }
  timings.listing = performance.now() - started;
  options.onProgress?.({ stage: "listing", done: listed, total: listed });

  started = performance.now();
  options.onProgress?.({ stage: "onchain", done: 0, total: candidates.length });
  const records = await readOnchain(candidates.map((c) => c.subject), options);
  timings.onchain = performance.now() - started;
  options.onProgress?.({ stage: "onchain", done: candidates.length, total: candidates.length });

  const triageOptions = {
    rule: options.rule,
    maxAgeSeconds: options.maxAgeSeconds,
    now: now(),
    encoding: options.encoding,
    auditFraction: options.auditFraction,
    seed: options.seed,
  };
  const reasons: Record<string, number> = {};
  const toFetch: number[] = [];
  candidates.forEach((candidate, i) => {
    const reason: TriageReason | null = triageReason(agentKey(candidate.subject), candidate.listed, records[i]!, triageOptions);
    if (reason === null) return;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    toFetch.push(i);
  });

  started = performance.now();
  const outcomes = new Array<ServiceOutcome>(candidates.length);
  candidates.forEach((candidate, i) => {
    const data = completeListing(candidate.listed);
    if (data) outcomes[i] = { kind: "listed", data };
    else if (candidate.listed === null) outcomes[i] = { kind: "missing", message: "not in the service's listing" };
    else outcomes[i] = { kind: "error", message: "the listing entry is incomplete" };
  });
  let done = 0;
  await mapConcurrently(toFetch, options.concurrency, async (i) => {
    outcomes[i] = await fetchServiceOutcome(options.api, candidates[i]!.subject, options.attestations);
    options.onProgress?.({ stage: "attestations", done: ++done, total: toFetch.length });
  });
  timings.attestations = performance.now() - started;

  let listingContradictions = 0;
  for (const i of toFetch) {
    const outcome = outcomes[i]!;
    const listing = candidates[i]!.listed;
    if (outcome.kind !== "verified" || !listing) continue;
    if (
      listing.score !== outcome.data.score ||
      (listing.tier !== undefined && listing.tier.toLowerCase() !== outcome.data.tier.toLowerCase()) ||
      (listing.sybilSeverity !== undefined &&
        canonicalSybilSeverity(listing.sybilSeverity) !== canonicalSybilSeverity(outcome.data.sybilSeverity))
    ) {
      listingContradictions++;
    }
  }

  const context = { rule: options.rule, maxAgeSeconds: options.maxAgeSeconds, now: now(), encoding: options.encoding };
  const rows = [
    ...candidates.map((c, i) => compareAgent(c.subject, records[i]!, outcomes[i]!, context)),
    ...offChain.map((s) => errorRow(s, `chain "${s.chain}" is not an EVM chain the oracle can hold records for`)),
  ];
  const triage: TriageSummary = {
    listed,
    signedFetches: toFetch.length,
    fetchesSaved: candidates.length - toFetch.length,
    reasons,
    auditFraction: options.auditFraction,
    listingContradictions,
    ...(enumeration ? { onchainEnumeration: enumeration } : {}),
  };
  return { rows, records, timings, triage };
}


function completeListing(listed: Partial<ServiceData> | null): ServiceData | null {
  if (!listed || listed.score === undefined || listed.tier === undefined || listed.sybilSeverity === undefined) return null;
  return {
    score: listed.score,
    tier: listed.tier,
    sybilSeverity: listed.sybilSeverity,
    at: listed.at ?? new Date(0),
    // The listing's updatedAt is when the service last scored the agent.
    computedAt: listed.at ?? null,
  };
}
