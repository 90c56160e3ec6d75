/**
 * Benchmark of attestation verification: how many realistic v2 `/api/trust-check` responses one process
 * verifies per second, one after the other (one core), with a prepared resolver over a local JWKS, checking
 * both the `jws` and the legacy `sig`, the payload bytes, the response's fields and the time window.
 */
import type { TrustCheck } from "../../src/api/schemas.js";
import { createJwksResolver, verifyTrustAttestation } from "../../src/attestation/verify.js";
import { buildTrustCheckResponse, generateTestKeys, jwksOf, TEST_NOW } from "../../test/support/attestations.js";

/** Options of {@link measureAttestationVerification}: a duration, a count, or both (whichever ends first). */
export interface AttestationBenchOptions {
  /** Measure for this long, in ms (default 2,000 when `count` is not given). */
  durationMs?: number;
  /** Verify this many responses. */
  count?: number;
  /** Distinct signed responses cycled through (default 256). */
  distinctResponses?: number;
  /** Verifications run before measuring, to warm up the JIT (default 500). */
  warmup?: number;
}

/** Result of {@link measureAttestationVerification}. */
export interface AttestationBenchResult {
  /** Verifications per second (count / seconds). */
  verificationsPerSecond: number;
  /** Verifications measured. */
  count: number;
  /** Time measured, in ms. */
  ms: number;
  /**
   * CPU time the process used while measuring (all its threads: jose's WebCrypto work runs on libuv's
   * pool), in ms. Unlike `ms`, it hardly depends on what else the machine is doing.
   */
  cpuMs: number;
  /** Verifications per CPU-second (count / CPU seconds): the figure to compare across loaded machines. */
  verificationsPerCpuSecond: number;
}

const TIERS = ["flagged", "limited", "developing", "established"] as const;
const SYBIL = ["none", "low", "moderate", "elevated", "heavy"] as const;

/**
 * Measures sequential verification of realistic v2 trust-check responses (both signatures present and
 * checked). Every verification must succeed; a failure throws, so a broken verifier cannot report a speed.
 *
 * @param options - Duration and/or count.
 * @returns Verifications per second, count and elapsed ms.
 */
export async function measureAttestationVerification(options: AttestationBenchOptions = {}): Promise<AttestationBenchResult> {
  const count = options.count;
  const durationMs = options.durationMs ?? (count === undefined ? 2_000 : Number.POSITIVE_INFINITY);
  const keys = await generateTestKeys();
  const resolver = createJwksResolver({ keys: jwksOf(keys.v1, keys.v2, keys.mcp) });
  const responses: TrustCheck[] = [];
  for (let i = 0; i < (options.distinctResponses ?? 256); i++) {
    const score = 10 + (i % 86);
    const tier = score >= 75 ? TIERS[3] : score >= 51 ? TIERS[2] : score >= 30 ? TIERS[1] : TIERS[0];
    const built = await buildTrustCheckResponse(keys.v2, {
      agent: { agentId: 1000 + i, score, tier, sybilSeverity: SYBIL[i % SYBIL.length]!, chain: i % 3 ? "base" : "ethereum" },
    });
    responses.push(JSON.parse(JSON.stringify(built)) as TrustCheck); // as a client receives it
  }
  const verifyOne = async (i: number) => {
    const result = await verifyTrustAttestation(responses[i % responses.length], { jwks: resolver, now: TEST_NOW });
    if (!result.valid || result.verified.jws !== true || result.verified.sig !== true) {
      throw new Error(`benchmark response ${i} did not verify: ${result.message}`);
    }
  };

  for (let i = 0; i < (options.warmup ?? 500); i++) await verifyOne(i);

  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let done = 0;
  while ((count === undefined || done < count) && performance.now() - start < durationMs) {
    await verifyOne(done);
    done++;
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { verificationsPerSecond: done / (ms / 1000), count: done, ms, cpuMs, verificationsPerCpuSecond: done / (cpuMs / 1000) };
}
