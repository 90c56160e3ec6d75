/**
 * The audit sample of an `--all` scan: agents compared with the service's unsigned listing only, fetched signed at
 * random so that a listing that lies is caught.
 *
 * **Size.** By default the sample is sized by the confidence the operator asks for: the smallest `n` such that a
 * listing lying about at least a fraction `p` (`lieRate`, `--audit-lie-rate`) of the `N` eligible agents has at least
 * one lie in the sample with probability `c` (`confidence`, `--audit-confidence`). Drawing without replacement from a
 * finite population, the chance of missing every one of the `K = ⌈p·N⌉` lies is hypergeometric:
 *
 *   P(miss) = C(N−K, n) / C(N, n) = ∏_{i=0}^{n−1} (N−K−i) / (N−i)
 *
 * and `n` is the smallest with `P(miss) ≤ 1 − c` ({@link auditSampleSize}). It is never larger than the binomial
 * bound `⌈ln(1−c) / ln(1−p)⌉` (459 for 99 % and 1 %), and it hardly depends on `N` once `N` is large: 456 of 132,000.
 *
 * **Draw.** Each eligible agent is ranked by a 53-bit hash of its key keyed by the seed (two MurmurHash3 passes under
 * keys derived from the seed with SHA-256), and the `n` lowest are taken: a uniform sample without replacement,
 * independent of the listing's order. The seed is drawn at random for each run ({@link randomAuditSeed}: nobody but
 * the run knows it while the listing is served, so a listing cannot steer its lies around the sample) and printed in
 * the report, so that `--seed` reproduces a run's sample. A seed anyone could work out in advance (the day, say) would
 * let a listing lie only about agents outside the sample.
 *
 * @packageDocumentation
 */
import { createHash, randomBytes } from "node:crypto";
import { InvalidArgumentError } from "../errors.js";

/** How the audit sample is sized: to detect a listing that lies about at least `lieRate` of the eligible agents with probability `confidence`. */
export interface AuditPlan {
  /** Probability of catching such a listing, above 0 and below 1. */
  readonly confidence: number;
  /** The least share of lying entries to catch, above 0 and at most 1. */
  readonly lieRate: number;
}

/** Default confidence of the audit (`--audit-confidence`): 99 %. */
export const DEFAULT_AUDIT_CONFIDENCE = 0.99;

/** Default share of lying listing entries the audit is sized to detect (`--audit-lie-rate`): 1 %. */
export const DEFAULT_AUDIT_LIE_RATE = 0.01;

/** The default audit plan: 99 % confidence of catching a listing that lies about 1 % of the agents. */
export const DEFAULT_AUDIT_PLAN: AuditPlan = Object.freeze({
  confidence: DEFAULT_AUDIT_CONFIDENCE,
  lieRate: DEFAULT_AUDIT_LIE_RATE,
});

/**
 * Checks an audit plan built by a program.
 *
 * @param plan - The plan.
 * @returns The same plan.
 * @throws {@link InvalidArgumentError} for a confidence outside (0, 1) or a lie rate outside (0, 1].
 */
export function checkAuditPlan(plan: AuditPlan): AuditPlan {
  if (!(plan.confidence > 0 && plan.confidence < 1)) {
    throw new InvalidArgumentError(`The audit confidence must be above 0 and below 1, got ${String(plan.confidence)}`);
  }
  if (!(plan.lieRate > 0 && plan.lieRate <= 1)) {
    throw new InvalidArgumentError(`The audit lie rate must be above 0 and at most 1, got ${String(plan.lieRate)}`);
  }
  return plan;
}

/**
 * The least number of lies a listing lying about at least `lieRate` of `population` agents tells: `⌈lieRate·N⌉`,
 * and at least 1 when there is anyone to lie about.
 *
 * @param population - Eligible agents.
 * @param lieRate - The share (0–1].
 * @returns `K`.
 */
export function liesAtLeast(population: number, lieRate: number): number {
  if (population <= 0) return 0;
  // A tolerance for 0.01 × 300 = 3.0000000000000004.
  return Math.min(population, Math.max(1, Math.ceil(lieRate * population - 1e-9)));
}

/**
 * The probability that a uniform sample of `n` out of `population` agents, drawn without replacement, holds at least
 * one of `lies` agents (hypergeometric).
 *
 * @param population - `N`.
 * @param lies - `K`.
 * @param n - Sample size.
 * @returns `1 − C(N−K, n)/C(N, n)`.
 */
export function detectionProbability(population: number, lies: number, n: number): number {
  if (lies <= 0 || n <= 0) return 0;
  if (n > population - lies) return 1;
  let miss = 1;
  for (let i = 0; i < n; i++) miss *= (population - lies - i) / (population - i);
  return 1 - miss;
}

/**
 * The size of the audit sample among `population` eligible agents (see the module notes).
 *
 * @param population - Eligible agents (`N`).
 * @param plan - Confidence and lie rate.
 * @returns `n`, from 0 to `population`.
 */
export function auditSampleSize(population: number, plan: AuditPlan): number {
  checkAuditPlan(plan);
  if (population <= 0) return 0;
  const lies = liesAtLeast(population, plan.lieRate);
  const target = 1 - plan.confidence;
  let miss = 1;
  for (let n = 1; n <= population; n++) {
    miss *= (population - lies - (n - 1)) / (population - (n - 1));
    if (miss <= target + 1e-15) return n;
  }
  return population;
}

/**
 * A fresh random seed for the audit sample: 48 bits from the system's cryptographic generator.
 *
 * @returns An integer from 0 to 2^48 − 1.
 */
export function randomAuditSeed(): number {
  return randomBytes(6).readUIntBE(0, 6);
}

/** The two 32-bit hash keys of a seed: the first 8 bytes of SHA-256("trustgate-audit:<seed>"). */
function rankKeys(seed: number): readonly [number, number] {
  const digest = createHash("sha256").update(`trustgate-audit:${seed}`).digest();
  return [digest.readUInt32BE(0), digest.readUInt32BE(4)];
}

/** MurmurHash3 (x86, 32-bit) of a string's UTF-16 code units. */
function murmur3(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    let k = Math.imul(text.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= text.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function rankWith(keys: readonly [number, number], key: string): number {
  return murmur3(key, keys[0]) * 0x20_0000 + (murmur3(key, keys[1]) >>> 11);
}

/**
 * Draws the audit sample: the `n` eligible agents with the lowest rank under the seed (see the module notes).
 *
 * @param keys - The eligible agents' keys (any order).
 * @param n - Sample size.
 * @param seed - The run's seed.
 * @returns Positions into `keys` of the sampled agents, ascending.
 */
export function drawAuditSample(keys: readonly string[], n: number, seed: number): number[] {
  if (n <= 0) return [];
  if (n >= keys.length) return keys.map((_, i) => i);
  const hashKeys = rankKeys(seed);
  const ranks = new Float64Array(keys.length);
  keys.forEach((key, i) => (ranks[i] = rankWith(hashKeys, key)));
  const cut = Float64Array.from(ranks).sort()[n - 1]!;
  // Every rank below the n-th, then as many at it as fit (two equal 53-bit ranks: in key order).
  const below: number[] = [];
  const at: number[] = [];
  ranks.forEach((rank, i) => (rank < cut ? below.push(i) : rank === cut ? at.push(i) : undefined));
  at.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  return [...below, ...at.slice(0, n - below.length)].sort((a, b) => a - b);
}
