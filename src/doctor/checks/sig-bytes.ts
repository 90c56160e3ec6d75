/**
 * `sig-bytes`: which bytes the raw `sig` of a live trust-check covers. The kit assumes `JSON.stringify(signed)`,
 * the signed block in the answer's own member order; a signer may instead sign its RFC 8785 canonical form (sorted
 * member names), which the kit's verifier also accepts. The check verifies the `sig` over both with the JWKS key of
 * the attestation's kid: insertion order holds; sorted keys, or neither, differs.
 *
 * @packageDocumentation
 */
import { isCompactJws } from "../../published/attestation.js";
import { decodeLegacySignature, findRawSigBytes } from "../../attestation/legacy-signature.js";
import type { VerificationKey } from "../../attestation/public-key.js";
import { type JwksObservation, keyOfKid } from "../jwks-probe.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import { type LiveAttestations, noAttestationReason } from "./trust-check-attestations.js";

/** The check's id. */
export const SIG_BYTES_CHECK = "sig-bytes";

/** What the check reports of a raw `sig`: the verifier's `SigBytes`, or `neither` when it verified over no serialisation. */
export type SigCoverage = "insertion" | "sorted" | "neither";

/** What the check found for one trust-check. */
export interface SigBytesFinding {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The kid whose key was used. */
  readonly kid: string;
  /** The bytes the `sig` verified over. */
  readonly covers: SigCoverage;
}

/**
 * Runs the check.
 *
 * @param live - The trust-checks' attestations.
 * @param jwks - The key set.
 * @returns The result.
 */
export function checkSigBytes(live: LiveAttestations, jwks: JwksObservation): CheckResult {
  if (live.attestations.length === 0) return couldNotCheck(SIG_BYTES_CHECK, noAttestationReason(live));
  const findings: SigBytesFinding[] = [];
  const skipped: string[] = [];
  for (const attestation of live.attestations) {
    const { agent, kid, sig, signed } = attestation;
    if (sig === undefined || isCompactJws(sig)) {
      skipped.push(`${agent}: no raw sig${sig === undefined ? "" : " (its sig is a compact JWS)"}`);
      continue;
    }
    if (signed === null || signed === undefined) {
      skipped.push(`${agent}: a raw sig with signed ${signed === null ? "null" : "absent"}`);
      continue;
    }
    if (kid === undefined) {
      skipped.push(`${agent}: the attestation has no kid`);
      continue;
    }
    const key = keyOfKid(jwks, kid);
    if (!key.ok) {
      skipped.push(`${agent}: ${key.reason}`);
      continue;
    }
    const decoded = decodeLegacySignature(sig);
    if (!decoded.ok) {
      skipped.push(`${agent}: ${decoded.problem}`);
      continue;
    }
    findings.push({ agent, kid, covers: signedBytesOfSig(signed, sig, key.key).covers });
  }
  const observed = { findings, ...(skipped.length > 0 ? { skipped } : {}) };
  if (findings.length === 0) return couldNotCheck(SIG_BYTES_CHECK, skipped.join("; "), observed);
  const others = findings.filter((f) => f.covers !== "insertion");
  if (others.length === 0) {
    return holds(SIG_BYTES_CHECK, `sig covers JSON.stringify(signed), insertion order (${describeKids(findings)})`, observed);
  }
  const first = others[0]!;
  const what =
    first.covers === "sorted"
      ? "sig covers the RFC 8785 sorted-key form of signed, not JSON.stringify(signed) (the kit's verifier accepts both)"
      : "sig verifies over neither JSON.stringify(signed) nor its sorted-key form";
  return differs(
    SIG_BYTES_CHECK,
    `${what}: ${first.agent}, key ${first.kid}${others.length > 1 ? ` (and ${others.length - 1} more)` : ""}`,
    observed,
  );
}

/**
 * The bytes a raw `sig` verifies over, as the verifier finds them (`findRawSigBytes`): `JSON.stringify(signed)`
 * first, then its RFC 8785 canonical form.
 *
 * @param signed - The signed block.
 * @param sig - The `sig` field (base64 of the raw `r‖s`).
 * @param key - The JWKS key of the attestation's kid.
 * @returns Which serialisation verified and its bytes (`neither`: the insertion-order bytes).
 */
export function signedBytesOfSig(
  signed: Record<string, unknown>,
  sig: string,
  key: VerificationKey,
): { readonly covers: SigCoverage; readonly bytes: Uint8Array } {
  const found = findRawSigBytes(sig, signed, undefined, key);
  if (found.ok) return { covers: found.sigBytes === "insertion-order" ? "insertion" : "sorted", bytes: found.bytes };
  return { covers: "neither", bytes: new TextEncoder().encode(JSON.stringify(signed)) };
}

function describeKids(findings: readonly SigBytesFinding[]): string {
  const kids = [...new Set(findings.map((f) => f.kid))];
  return `${findings.length} trust-check${findings.length === 1 ? "" : "s"}, key ${kids.join(", ")}`;
}
