/**
 * `jws-payload`: the payload of a live trust-check's JWS against its `signed` block. The kit's documentation
 * assumes one signing: the JWS payload is the bytes of `JSON.stringify(signed)`. Holds when the bytes are the same;
 * differs when they are the same value in another serialisation (sorted keys, whitespace: the kit's verifier
 * compares by parsed value and accepts it), another value (the kit refuses the answer), or when `signed` is `null`
 * (the payload is then the only copy of the signed data).
 *
 * @packageDocumentation
 */
import { isDeepStrictEqual } from "node:util";
import { canonicalJson } from "../../attestation/canonical-json.js";
import { decodeCanonicalBase64url } from "../../attestation/jws.js";
import { isRecord } from "../../util/is-record.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import { compactJwsOf, type LiveAttestations, noAttestationReason } from "./trust-check-attestations.js";

/** The check's id. */
export const JWS_PAYLOAD_CHECK = "jws-payload";

/** How one JWS payload relates to its `signed` block. */
export type PayloadRelation =
  /** The bytes of `JSON.stringify(signed)`. */
  | "same-bytes"
  /** The RFC 8785 sorted-key form of the same value. */
  | "same-value-sorted"
  /** The same value, serialised otherwise (whitespace, escapes, number forms, another order). */
  | "same-value-other-serialisation"
  /** Another value. */
  | "other-value"
  /** `signed` is `null`: the payload is the signed data. */
  | "signed-null"
  /** The payload is not a JSON object (or not canonical base64url, or not UTF-8). */
  | "unreadable";

/** What the check found for one trust-check. */
export interface PayloadFinding {
  /** The agent, `chain:id:registry`. */
  readonly agent: string;
  /** How its JWS payload relates to its `signed` block. */
  readonly relation: PayloadRelation;
  /** For `other-value`: the top-level members whose values differ, are missing or are extra. */
  readonly members?: readonly string[];
}

/**
 * Runs the check.
 *
 * @param live - The trust-checks' attestations.
 * @returns The result.
 */
export function checkJwsPayload(live: LiveAttestations): CheckResult {
  if (live.attestations.length === 0) return couldNotCheck(JWS_PAYLOAD_CHECK, noAttestationReason(live));
  const findings: PayloadFinding[] = [];
  for (const attestation of live.attestations) {
    const compact = compactJwsOf(attestation);
    if (compact !== undefined) findings.push({ agent: attestation.agent, ...relationOf(compact, attestation.signed) });
  }
  if (findings.length === 0) return couldNotCheck(JWS_PAYLOAD_CHECK, "no JWS in the trust-check attestations (a raw sig only)");
  const observed = { findings };
  const other = findings.find((f) => f.relation !== "same-bytes");
  if (!other) return holds(JWS_PAYLOAD_CHECK, `the JWS payload is JSON.stringify(signed), byte for byte (${count(findings)})`, observed);
  return differs(JWS_PAYLOAD_CHECK, `${describe(other)}: ${other.agent}`, observed);
}

function relationOf(jws: string, signed: Record<string, unknown> | null | undefined): Omit<PayloadFinding, "agent"> {
  const decoded = decodeCanonicalBase64url(jws.split(".")[1] ?? "");
  if (decoded === undefined) return { relation: "unreadable" };
  const bytes = Buffer.from(decoded);
  if (signed === null || signed === undefined) return { relation: "signed-null" };
  if (bytes.equals(Buffer.from(JSON.stringify(signed), "utf8"))) return { relation: "same-bytes" };
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return { relation: "unreadable" };
  }
  if (!isRecord(payload)) return { relation: "unreadable" };
  if (!isDeepStrictEqual(payload, signed)) return { relation: "other-value", members: differingMembers(payload, signed) };
  return { relation: isCanonicalForm(bytes, signed) ? "same-value-sorted" : "same-value-other-serialisation" };
}

function isCanonicalForm(bytes: Buffer, signed: Record<string, unknown>): boolean {
  try {
    return bytes.equals(Buffer.from(canonicalJson(signed), "utf8"));
  } catch {
    return false;
  }
}

function differingMembers(payload: Record<string, unknown>, signed: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(payload), ...Object.keys(signed)]);
  return [...names].filter((name) => !(name in payload) || !(name in signed) || !isDeepStrictEqual(payload[name], signed[name]));
}

function describe(finding: PayloadFinding): string {
  switch (finding.relation) {
    case "same-value-sorted":
      return "the JWS payload is the RFC 8785 sorted-key form of signed, not JSON.stringify(signed) (same value: the kit accepts it)";
    case "same-value-other-serialisation":
      return "the JWS payload is the value of signed in another serialisation than JSON.stringify(signed) (same value: the kit accepts it)";
    case "other-value":
      return `the JWS payload holds another value than signed (members ${(finding.members ?? []).join(", ")}: the kit refuses it)`;
    case "signed-null":
      return "signed is null: the JWS payload is the only copy of the signed data";
    case "unreadable":
      return "the JWS payload is not a JSON object";
    default:
      return "the JWS payload is JSON.stringify(signed)";
  }
}

function count(findings: readonly PayloadFinding[]): string {
  return `${findings.length} trust-check${findings.length === 1 ? "" : "s"}`;
}
