/**
 * Benchmark of attestation verification: how many realistic v2 `/api/trust-check` responses (both a `jws` and a
 * legacy `sig`) one thread verifies per second with a prepared resolver over a local JWKS — the whole kit path:
 * signatures (the JWS first, over its `header.payload`), the signed bytes read as the oracle reads them, the
 * response's fields, the time window — next to the limit on the same core: a bare `crypto.verify` loop (P-256, a
 * pre-imported `KeyObject`, `ieee-p1363`) over the same JWS signing inputs and signatures. The kit and the bare loop run in alternating 50 ms slices on the same thread, so that whatever
 * else the machine does weighs on both alike.
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import type { SignaturePolicy } from "../../src/attestation/options.js";
import type { TrustCheck } from "../../src/published/index.js";
import { createJwksResolver, type JwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { buildTrustCheckResponse, generateTestKeys, jwksOf, TEST_NOW } from "../../test/support/attestations.js";

/** Options of {@link measureAttestationVerification}: a duration, a count, or both (whichever ends first). */
export interface AttestationBenchOptions {
  /** Measure each path for this long, in ms (default 2,000 when `count` is not given). */
  durationMs?: number;
  /** Verify this many responses on each path. */
  count?: number;
  /** Distinct signed responses cycled through (default 256). */
  distinctResponses?: number;
  /** Verifications run on each path before measuring, to warm up the JIT (default 500). */
  warmup?: number;
  /** Also measure the kit with `verify: "both"` (two ECDSA checks per attestation). */
  includeBoth?: boolean;
  /** Length of one slice of the alternation, in ms (default 50). */
  sliceMs?: number;
}

/** What one path did while measured. */
export interface VerificationRate {
  /** Verifications measured. */
  count: number;
  /** Wall time measured, in ms. */
  ms: number;
  /**
   * CPU time of the process while measuring, in ms (every thread; verification itself runs on this one). Unlike
   * `ms`, it hardly depends on what else the machine is doing.
   */
  cpuMs: number;
  /** Verifications per second of wall time. */
  perSecond: number;
  /** Verifications per CPU-second: the figure to compare across loaded machines. */
  perCpuSecond: number;
}

/** Result of {@link measureAttestationVerification}. */
export interface AttestationBenchResult {
  /** The kit with the default `verify: "one"`: verifications per second (count / seconds). */
  verificationsPerSecond: number;
  /** Verifications of the kit measured. */
  count: number;
  /** Time the kit was measured, in ms. */
  ms: number;
  /** CPU time the process used while the kit was measured, in ms. */
  cpuMs: number;
  /** The kit's verifications per CPU-second. */
  verificationsPerCpuSecond: number;
  /** The bare `crypto.verify` loop over the same signatures: the limit. */
  raw: VerificationRate;
  /** The kit with `verify: "both"`, when asked for. */
  both?: VerificationRate;
  /**
   * Kit ÷ bare loop, per CPU-second: the median, over the rounds of the alternation, of the kit's rate in its
   * slice divided by the bare loop's in the slice just before (each pair ran within ~100 ms of each other, so a
   * burst of load elsewhere on the machine weighs on both sides of a pair and on few pairs).
   */
  ratio: number;
  /** The same ratio, of the totals (CPU-seconds). */
  totalRatio: number;
  /** Kit per second ÷ bare loop per second, of the totals (wall). */
  wallRatio: number;
}

/** Responses and keys shared by the measurements. */
interface Corpus {
  responses: TrustCheck[];
  resolver: JwksResolver;
  /** `[signing input bytes, raw r‖s]` of each response's `jws` (the signature `verify: "one"` checks). */
  raw: Array<[Buffer, Buffer]>;
  keyObject: KeyObject;
}

const TIERS = ["flagged", "limited", "developing", "established"] as const;
const SYBIL = ["none", "low", "moderate", "elevated", "heavy"] as const;

async function buildCorpus(distinct: number): Promise<Corpus> {
  const keys = await generateTestKeys();
  const resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2, keys.mcp) });
  const responses: TrustCheck[] = [];
  for (let i = 0; i < distinct; i++) {
    const score = 10 + (i % 86);
    const tier = score >= 75 ? TIERS[3] : score >= 51 ? TIERS[2] : score >= 30 ? TIERS[1] : TIERS[0];
    const built = await buildTrustCheckResponse(keys.v2, {
      agent: { agentId: 1000 + i, score, tier, sybilSeverity: SYBIL[i % SYBIL.length]!, chain: i % 3 ? "base" : "ethereum" },
    });
    responses.push(JSON.parse(JSON.stringify(built)) as TrustCheck); // as a client receives it
  }
  // The signature the kit checks by default: the JWS's, over its ASCII header.payload.
  const raw = responses.map((r): [Buffer, Buffer] => {
    const jws = r.attestation!.jws!;
    const cut = jws.lastIndexOf(".");
    return [Buffer.from(jws.slice(0, cut), "ascii"), Buffer.from(jws.slice(cut + 1), "base64url")];
  });
  const keyObject = createPublicKey({ key: { ...keys.v2.publicJwk } as never, format: "jwk" });
  return { responses, resolver, raw, keyObject };
}

/** One verification of response `i` by the kit; throws unless it is valid with the expected checks. */
async function kitVerify(corpus: Corpus, i: number, policy: SignaturePolicy): Promise<void> {
  const result = await verifyTrustAttestation(corpus.responses[i % corpus.responses.length], {
    jwks: corpus.resolver,
    now: TEST_NOW,
    verify: policy,
  });
  // With verify: "one" the JWS is checked (the sig beside it is "not-checked"); with "both", the sig too.
  const expected = policy === "one" ? "jws" : "both";
  if (!result.valid || result.checked !== expected || result.verified.jws !== true) {
    throw new Error(`benchmark response ${i} did not verify as expected (${policy}): ${result.message}`);
  }
}

/** One bare verification of signature `i`; throws if it does not verify. */
function rawVerify(corpus: Corpus, i: number): void {
  const [data, signature] = corpus.raw[i % corpus.raw.length]!;
  if (!verify("sha256", data, { key: corpus.keyObject, dsaEncoding: "ieee-p1363" }, signature)) {
    throw new Error(`benchmark signature ${i} does not verify`);
  }
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function rate(count: number, ms: number, cpuMs: number): VerificationRate {
  return { count, ms, cpuMs, perSecond: count / (ms / 1000), perCpuSecond: count / (cpuMs / 1000) };
}

/**
 * Measures sequential verification of realistic v2 trust-check responses by the kit (default `verify: "one"`;
 * optionally `"both"`) and the bare `crypto.verify` loop over the same signatures, in alternating slices on this
 * thread. Every verification must succeed; a failure throws, so a broken verifier cannot report a speed.
 *
 * @param options - Duration and/or count per path.
 * @returns The kit's figures, the bare loop's, and their ratio.
 */
export async function measureAttestationVerification(options: AttestationBenchOptions = {}): Promise<AttestationBenchResult> {
  const count = options.count ?? Number.POSITIVE_INFINITY;
  const durationMs = options.durationMs ?? (options.count === undefined ? 2_000 : Number.POSITIVE_INFINITY);
  const sliceMs = options.sliceMs ?? 50;
  const corpus = await buildCorpus(options.distinctResponses ?? 256);
  type Path = { name: "raw" | "one" | "both"; step: (i: number) => Promise<void> | void; count: number; ms: number; cpuMs: number };
  const paths: Path[] = [
    { name: "raw", step: (i) => rawVerify(corpus, i), count: 0, ms: 0, cpuMs: 0 },
    { name: "one", step: (i) => kitVerify(corpus, i, "one"), count: 0, ms: 0, cpuMs: 0 },
  ];
  if (options.includeBoth) paths.push({ name: "both", step: (i) => kitVerify(corpus, i, "both"), count: 0, ms: 0, cpuMs: 0 });

  for (const path of paths) for (let i = 0; i < (options.warmup ?? 500); i++) await path.step(i);

  const unfinished = () => paths.filter((p) => p.count < count && p.ms < durationMs);
  const pairRatios: number[] = [];
  for (let open = unfinished(); open.length > 0; open = unfinished()) {
    const slice: Record<string, number> = {};
    for (const path of open) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      let now = start;
      const end = Math.min(start + sliceMs, start + (durationMs - path.ms));
      const before = path.count;
      while (path.count < count && now < end) {
        await path.step(path.count);
        path.count++;
        now = performance.now();
      }
      const cpu = process.cpuUsage(cpuStart);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      path.ms += now - start;
      path.cpuMs += cpuMs;
      if (cpuMs > 0) slice[path.name] = (path.count - before) / cpuMs;
    }
    if (slice.raw !== undefined && slice.one !== undefined) pairRatios.push(slice.one / slice.raw);
  }
  const [raw, one, both] = paths.map((p) => rate(p.count, p.ms, p.cpuMs)) as [VerificationRate, VerificationRate, VerificationRate?];
  return {
    verificationsPerSecond: one.perSecond,
    count: one.count,
    ms: one.ms,
    cpuMs: one.cpuMs,
    verificationsPerCpuSecond: one.perCpuSecond,
    raw,
    ...(both ? { both } : {}),
    ratio: median(pairRatios) ?? one.perCpuSecond / raw.perCpuSecond,
    totalRatio: one.perCpuSecond / raw.perCpuSecond,
    wallRatio: one.perSecond / raw.perSecond,
  };
}
