/**
 * Asking the service about one agent: fetch its signed `/api/trust-check` attestation, verify it, and turn
 * every outcome (verified, invalid, unknown agent, transport failure) into a {@link ServiceOutcome}.
 *
 * @packageDocumentation
 */
import type { TrustApiClient } from "../api/client.js";
import type { JwksResolver } from "../attestation/jwks.js";
import { verifyTrustAttestation } from "../attestation/verify.js";
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
  return {
    kind: "verified",
    kid: result.kid ?? "",
    data: {
      score: body.score,
      tier: String(body.tier),
      // The service says "no sybil signal" with null (v2) or the legacy name "none"; an absent value is
      // reported as "unknown" so that it shows up as a difference instead of passing for "none".
      sybilSeverity: body.sybilSeverity === null ? "none" : String(body.sybilSeverity ?? "unknown"),
      at: result.issuedAt ?? policy.now?.() ?? new Date(),
    },
  };
}
