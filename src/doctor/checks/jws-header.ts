/**
 * `jws-header`: the protected header of a live trust-check's JWS. The kit assumes the header a JOSE library writes
 * for the service, `{"alg":"ES256","kid":"<kid>"}` in that order and nothing else; a standard signer may add `typ`,
 * write the members in another order, or add members. Holds for that exact header; differs for any other, saying
 * which members came in which order and whether the kit's JWS rules accept it (`readCompactJws`, the rules the
 * oracle applies too, and a `kid` equal to the attestation's).
 *
 * @packageDocumentation
 */
import { decodeCanonicalBase64url, readCompactJws } from "../../attestation/jws.js";
import { isRecord } from "../../util/is-record.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import { compactJwsOf, type LiveAttestations, noAttestationReason } from "./trust-check-attestations.js";

/** The check's id. */
export const JWS_HEADER_CHECK = "jws-header";

/** What the check found for one trust-check. */
export interface HeaderFinding {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** The header as served (decoded text), or `undefined` when it is not base64url UTF-8. */
  readonly header?: string;
  /** Its member names, in order. */
  readonly members?: readonly string[];
  /** Whether it is exactly `{"alg":"ES256","kid":"<kid>"}`. */
  readonly expected: boolean;
  /** Why the kit's rules refuse it, when they do. */
  readonly refused?: string;
}

/**
 * Runs the check.
 *
 * @param live - The trust-checks' attestations.
 * @returns The result.
 */
export function checkJwsHeader(live: LiveAttestations): CheckResult {
  if (live.attestations.length === 0) return couldNotCheck(JWS_HEADER_CHECK, noAttestationReason(live));
  const findings: HeaderFinding[] = [];
  for (const attestation of live.attestations) {
    const compact = compactJwsOf(attestation);
    if (compact !== undefined) findings.push(readHeader(attestation.agent, compact, attestation.kid));
  }
  if (findings.length === 0) return couldNotCheck(JWS_HEADER_CHECK, "no JWS in the trust-check attestations (a raw sig only)");
  const observed = { findings };
  const other = findings.find((f) => !f.expected);
  if (!other)
    return holds(JWS_HEADER_CHECK, `${findings[0]!.header} (${findings.length} trust-check${findings.length === 1 ? "" : "s"})`, observed);
  const verdict = other.refused === undefined ? "the kit's JWS rules accept it" : `the kit's JWS rules refuse it: ${other.refused}`;
  const members = other.members ? ` (members ${other.members.join(", ")})` : "";
  return differs(JWS_HEADER_CHECK, `${other.header ?? "an unreadable header"}${members}: ${verdict}`, observed);
}

function readHeader(agent: string, jws: string, kid: string | undefined): HeaderFinding {
  const read = readCompactJws(jws);
  const bytes = decodeCanonicalBase64url(jws.slice(0, Math.max(0, jws.indexOf("."))));
  let text: string | undefined;
  try {
    text = bytes === undefined ? undefined : new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  const expected = text !== undefined && kid !== undefined && text === JSON.stringify({ alg: "ES256", kid });
  const members = text === undefined ? undefined : memberNames(text);
  const refused = !read.ok
    ? read.problem
    : kid !== undefined && read.jws.header.kid !== kid
      ? `its kid "${read.jws.header.kid}" is not the attestation's kid "${kid}"`
      : undefined;
  return {
    agent,
    ...(text !== undefined ? { header: text } : {}),
    ...(members !== undefined ? { members } : {}),
    expected,
    ...(refused !== undefined ? { refused } : {}),
  };
}

/** The member names of a JSON object text, in order, or `undefined` when it is not one. */
function memberNames(text: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? Object.keys(value) : undefined;
  } catch {
    return undefined;
  }
}
