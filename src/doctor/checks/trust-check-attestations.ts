/**
 * The attestations of the trust-checks the doctor asked for, as the signature checks read them: each with the agent
 * it names, or why there is none.
 *
 * @packageDocumentation
 */
import { formatAgentRef } from "../../agent/agent-ref.js";
import { isCompactJws } from "../../published/attestation.js";
import { isRecord } from "../../util/is-record.js";
import type { ServiceObservations } from "../service-probe.js";

/** The attestation of one trust-check answer. */
export interface LiveAttestation {
  /** The agent asked about, `chain:id:registry`. */
  readonly agent: string;
  /** `attestation.kid`, when a string. */
  readonly kid: string | undefined;
  /** `attestation.signed`: an object, `null`, or absent (`undefined`). */
  readonly signed: Record<string, unknown> | null | undefined;
  /** `attestation.sig`, when a string. */
  readonly sig: string | undefined;
  /** `attestation.jws`, when a string. */
  readonly jws: string | undefined;
}

/** The trust-checks' attestations, and why each missing one is missing. */
export interface LiveAttestations {
  /** One per trust-check answered with an `attestation` object, in the order asked. */
  readonly attestations: readonly LiveAttestation[];
  /** Why the others have none (`base:7:erc8004: HTTP 404`), in the order asked. */
  readonly missing: readonly string[];
}

/**
 * Reads the attestations of the trust-check answers.
 *
 * @param service - What the service answered.
 * @returns The attestations and the reasons of those missing.
 */
export function liveAttestations(service: ServiceObservations): LiveAttestations {
  const attestations: LiveAttestation[] = [];
  const missing: string[] = [];
  service.trustChecks.forEach((outcome, i) => {
    const agent = service.asked[i] ? formatAgentRef(service.asked[i]) : `trust-check ${i + 1}`;
    if (!outcome.ok) {
      missing.push(`${agent}: ${outcome.reason}`);
      return;
    }
    const attestation = (outcome.body as { attestation?: unknown } | null)?.attestation;
    if (!isRecord(attestation)) {
      missing.push(`${agent}: the answer has no attestation object`);
      return;
    }
    const text = (value: unknown) => (typeof value === "string" ? value : undefined);
    const signed = attestation.signed;
    attestations.push({
      agent,
      kid: text(attestation.kid),
      signed: isRecord(signed) ? signed : signed === null ? null : undefined,
      sig: text(attestation.sig),
      jws: text(attestation.jws),
    });
  });
  if (service.trustChecks.length === 0)
    missing.push(service.listing.ok ? "no EVM agent to ask a trust-check about" : service.listing.reason);
  return { attestations, missing };
}

/**
 * Why no attestation could be read, in one line.
 *
 * @param live - The attestations read.
 * @returns The reasons joined, or a fixed sentence.
 */
export function noAttestationReason(live: LiveAttestations): string {
  return live.missing.length > 0 ? `no trust-check attestation (${live.missing.join("; ")})` : "no trust-check attestation";
}

/**
 * The compact JWS of an attestation: its `jws`, else a `sig` that is itself a compact JWS.
 *
 * @param attestation - The attestation.
 * @returns The JWS, or `undefined` when it carries none.
 */
export function compactJwsOf(attestation: LiveAttestation): string | undefined {
  return attestation.jws ?? (attestation.sig !== undefined && isCompactJws(attestation.sig) ? attestation.sig : undefined);
}
