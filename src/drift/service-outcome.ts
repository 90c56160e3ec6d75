/**
 * Asking the service about one agent: fetch its signed `/api/trust-check` attestation, verify it, and turn
 * every outcome (verified, invalid, unknown agent, transport failure) into a {@link ServiceOutcome}.
 *
 * @packageDocumentation
 */
import type { TrustApiClient } from "../api/client.js";
import type { JwksResolver } from "../attestation/jwks.js";
import { normalizeSybilSeverity, verifyTrustAttestation } from "../attestation/verify.js";
import { HttpRequestError, messageOf } from "../errors.js";
import type { ServiceOutcome } from "./compare.js";

/** How attestations are verified. */
export interface AttestationPolicy {
  /** The configured issuer (attestations must name it). */
  readonly issuer: string;
  /** Keys of the issuer (never the URL a response carries). */
  readonly jwks: JwksResolver;
  /** Accepted key ids; default the kit's trust kids. */
  readonly acceptedKids?: readonly string[];
  /** Clock for expiry checks; default now. */
  readonly now?: () => Date;
  /** Counters to add time and requests to, if given (for reports and benchmarks). */
  readonly stats?: ServiceStats;
}

/** Time spent asking the service, split into the request and the verification. */
export interface ServiceStats {
  /** Trust-check requests made. */
  requests: number;
  /** Milliseconds spent in requests (including waits for the rate limit). */
  requestMs: number;
  /** Milliseconds spent verifying attestations. */
  verifyMs: number;
}

/**
 * Fresh, zeroed {@link ServiceStats}.
 *
 * @returns Counters at zero.
 */
export function newServiceStats(): ServiceStats {
  return { requests: 0, requestMs: 0, verifyMs: 0 };
}

/** The agent to ask about. */
export interface ServiceSubject {
  readonly chain: string;
  readonly agentId: string;
  readonly registry: string;
}

/**
 * Fetches and verifies one agent's attestation. Never throws: every failure is an outcome with a reason.
 *
 * @param api - The API client.
 * @param subject - The agent.
 * @param policy - Issuer, keys and accepted kids.
 * @returns The outcome.
 */
export async function fetchServiceOutcome(
  api: TrustApiClient,
  subject: ServiceSubject,
  policy: AttestationPolicy,
): Promise<ServiceOutcome> {
  let body: Awaited<ReturnType<TrustApiClient["trustCheck"]>>;
  const requested = performance.now();
  try {
    body = await api.trustCheck({ id: subject.agentId, chain: subject.chain, registry: subject.registry });
  } catch (error) {
    if (error instanceof HttpRequestError && error.status === 404) {
      return { kind: "missing", message: error.errorMessage ?? "404 not found" };
    }
    return { kind: "error", message: messageOf(error) };
  } finally {
    if (policy.stats) {
      policy.stats.requests++;
      policy.stats.requestMs += performance.now() - requested;
    }
  }
  const verifying = performance.now();
  const result = await verifyTrustAttestation(body, {
    issuer: policy.issuer,
    jwks: policy.jwks,
    ...(policy.acceptedKids ? { acceptedKids: [...policy.acceptedKids] } : {}),
    ...(policy.now ? { now: policy.now() } : {}),
    expected: { agentId: subject.agentId, chain: subject.chain, registry: subject.registry },
  });
  if (policy.stats) policy.stats.verifyMs += performance.now() - verifying;
  if (!result.valid) return { kind: "invalid", reason: result.reason, message: result.message };
  // Only the signed block is trusted: the body's own fields are at most equal to it (the verifier checked),
  // and may be absent.
  const { signed } = result;
  return {
    kind: "verified",
    kid: result.kid ?? "",
    data: {
      score: Number(signed.score),
      tier: String(signed.tier),
      // null (no sybil signal, v2) and the legacy "none" read as none, as compare and triage read them; a block
      // that carries no severity at all reads as "unknown", so that it shows up as a difference.
      sybilSeverity:
        signed.sybilSeverity === undefined ? "unknown" : (normalizeSybilSeverity(signed.sybilSeverity) ?? String(signed.sybilSeverity)),
      at: result.issuedAt ?? policy.now?.() ?? new Date(),
      computedAt: computedAtOf(result),
    },
  };
}

/**
 * When the service computed the attested score: in a v2 signed block, `issuedAt` is the computation time
 * (`verifiedAt` is the signing time), and the verdict exposes it as `issuedAt`. A v1 block's time is the
 * signing time, so the computation time is unknown there.
 *
 * @param result - A valid verdict.
 * @returns The computation time, or `null` when the verdict does not tell it.
 */
export function computedAtOf(result: {
  readonly version?: string | undefined;
  readonly signed?: Record<string, unknown> | undefined;
  readonly issuedAt?: Date | undefined;
}): Date | null {
  if (result.version !== "v2" || result.signed?.issuedAt === undefined) return null;
  return result.issuedAt ?? null;
}
