/**
 * Stage 4, fetch and verify: ask the service about each selected candidate — fetch its signed
 * `/api/trust-check` attestation (with bounded concurrency, under the client's rate limit), verify it
 * against the configured issuer's keys — and turn every outcome (verified, invalid, unknown agent, transport
 * failure) into a {@link ServiceOutcome}, never a throw. Candidates triage did not select keep what the
 * listing said.
 *
 * Verification runs on this thread: the service's rate (a few requests a second) is far below what one thread
 * verifies (`npm run bench` measures it).
 *
 * @packageDocumentation
 */
import type { AgentRef } from "../../agent/agent-ref.js";
import type { TrustApiClient } from "../../api/client.js";
import type { JwksResolver } from "../../attestation/jwks.js";
import { normalizeSybilSeverity, verifyTrustAttestation } from "../../attestation/verify.js";
import { HttpRequestError, messageOf } from "../../errors.js";
import { mapConcurrently } from "../../util/concurrency.js";
import type { ScanProgress } from "../progress.js";
import type { ServiceData, ServiceOutcome } from "../service-data.js";
import type { Candidate } from "./enumerate.js";
import { submissionOf } from "./refresh.js";
import type { TriageSelection } from "./triage.js";

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

/** The reason of a row whose attestation the verifier failed to judge (it threw instead of giving a verdict). */
export const VERIFIER_FAILED = "verifier-failed";

/**
 * Fresh, zeroed {@link ServiceStats}.
 *
 * @returns Counters at zero.
 */
export function newServiceStats(): ServiceStats {
  return { requests: 0, requestMs: 0, verifyMs: 0 };
}

/**
 * Fetches and verifies one agent's attestation. Never throws: every failure is an outcome with a reason.
 *
 * @param api - The API client.
 * @param agent - The agent.
 * @param policy - Issuer, keys and accepted kids.
 * @returns The outcome.
 */
export async function fetchServiceOutcome(
  api: TrustApiClient,
  agent: Pick<AgentRef, "chain" | "agentId" | "registry">,
  policy: AttestationPolicy,
): Promise<ServiceOutcome> {
  let body: Awaited<ReturnType<TrustApiClient["trustCheck"]>>;
  const requested = performance.now();
  try {
    body = await api.trustCheck({ id: agent.agentId, chain: agent.chain, registry: agent.registry });
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
  const verifyOptions = {
    issuer: policy.issuer,
    jwks: policy.jwks,
    ...(policy.acceptedKids ? { acceptedKids: [...policy.acceptedKids] } : {}),
    ...(policy.now ? { now: policy.now() } : {}),
    expected: { agentId: agent.agentId.toString(), chain: agent.chain, registry: agent.registry },
  };
  let result: Awaited<ReturnType<typeof verifyTrustAttestation>>;
  try {
    result = await verifyTrustAttestation(body, verifyOptions);
  } catch (error) {
    // The verifier returns verdicts for bad responses; a throw is the kit's own failure (bad options, for
    // instance): the row says so rather than the run stopping.
    return { kind: "invalid", reason: VERIFIER_FAILED, message: `the attestation could not be verified: ${messageOf(error)}` };
  } finally {
    if (policy.stats) policy.stats.verifyMs += performance.now() - verifying;
  }
  if (!result.valid) return { kind: "invalid", reason: result.reason, message: result.message };
  // Only the signed block is trusted: the body's own fields are at most equal to it (the verifier checked),
  // and may be absent.
  const { signed } = result;
  return {
    kind: "verified",
    kid: result.kid ?? "",
    // Whether it could refresh the on-chain record through an AttestedTrustOracle (see refresh.ts).
    submission: submissionOf(body, result),
    expiresAt: result.expiresAt ?? null,
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

/** What {@link fetchAndVerify} needs. */
export interface FetchVerifyOptions {
  readonly api: TrustApiClient;
  readonly attestations: AttestationPolicy;
  /** Service requests in flight at most. */
  readonly concurrency: number;
  readonly onProgress?: (progress: ScanProgress) => void;
  /** Asked before each request: `false` starts no more (requests in flight finish). Default: always start. */
  readonly shouldStart?: () => boolean;
  /** Called with each fetched outcome as it arrives (to checkpoint it). */
  readonly onOutcome?: (index: number, outcome: ServiceOutcome) => void;
}

/**
 * Runs the stage: the selected candidates' attestations fetched and verified, the others' listing data.
 *
 * @param candidates - The candidates.
 * @param selection - Which to fetch (from triage).
 * @param options - API, verification, concurrency, progress.
 * @returns One outcome per candidate, in order.
 */
export async function fetchAndVerify(
  candidates: readonly Candidate[],
  selection: TriageSelection,
  options: FetchVerifyOptions,
): Promise<ServiceOutcome[]> {
  const fetched = await fetchSelected(candidates, selection, options);
  return candidates.map((candidate, i) => fetched[i] ?? listingOutcome(candidate.listed));
}

/**
 * Runs the stage for the selected candidates only: a sparse array with the outcome of each fetched candidate at its
 * index and a hole for every other one (whose outcome is `listingOutcome(candidate.listed)`, made when it is needed),
 * so that a scan does not hold an outcome for each of the many agents triage compared with the listing.
 *
 * @param candidates - The candidates.
 * @param selection - Which to fetch (from triage).
 * @param options - API, verification, concurrency, progress.
 * @returns The fetched candidates' outcomes, by candidate index; `length` is the number of candidates.
 */
export async function fetchSelected(
  candidates: readonly Candidate[],
  selection: TriageSelection,
  options: FetchVerifyOptions,
): Promise<(ServiceOutcome | undefined)[]> {
  const outcomes = new Array<ServiceOutcome | undefined>(candidates.length);
  let done = 0;
  await mapConcurrently(selection.fetch, options.concurrency, async (i) => {
    if (options.shouldStart && !options.shouldStart()) return;
    outcomes[i] = await fetchServiceOutcome(options.api, candidates[i]!.agent, options.attestations);
    options.onOutcome?.(i, outcomes[i]!);
    options.onProgress?.({ stage: "attestations", done: ++done, total: selection.fetch.length });
  });
  return outcomes;
}

/**
 * What the listing says, as an outcome, for a candidate that is not fetched.
 *
 * @param listed - The listing's data (`null`: not listed; absent: no listing).
 * @returns `listed` for a complete entry, `missing` for an agent the listing lacks, else `error`.
 */
export function listingOutcome(listed: Partial<ServiceData> | null | undefined): ServiceOutcome {
  if (listed === null) return { kind: "missing", message: "not in the service's listing" };
  if (listed === undefined) return { kind: "error", message: "not fetched, and no listing to compare with" };
  if (listed.score === undefined || listed.tier === undefined || listed.sybilSeverity === undefined) {
    return { kind: "error", message: "the listing entry is incomplete" };
  }
  return {
    kind: "listed",
    data: {
      score: listed.score,
      tier: listed.tier,
      sybilSeverity: listed.sybilSeverity,
      at: listed.at ?? new Date(0),
      // The listing's updatedAt is when the service last scored the agent.
      computedAt: listed.at ?? null,
    },
  };
}
