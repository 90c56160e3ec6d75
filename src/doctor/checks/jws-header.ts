/**
 * `jws-header`: the protected header of a live trust-check's JWS. The kit assumes the header a JOSE library writes
 * for the service, `{"alg":"ES256","kid":"<kid>"}` in that order and nothing else; a standard signer may add `typ`,
 * write the members in another order, or add members. Holds for that exact header; differs for any other, saying
 * which members came in which order and whether the kit's JWS rules accept it.
 *
 * @packageDocumentation
 */
import { isRecord } from "../../attestation/signature-check.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";
import { type LiveAttestations, noAttestationReason } from "./trust-check-attestations.js";

/** The check's id. */
export const JWS_HEADER_CHECK = "jws-header";

/** Header members the kit's JWS rules refuse (they would make a verifier fetch keys, or change what is signed). */
export const REFUSED_HEADER_MEMBERS: readonly string[] = ["crit", "jku", "x5u", "jwk", "x5c", "b64"];

/** Values of `typ` the kit's JWS rules accept. */
export const ACCEPTED_TYP_VALUES: readonly string[] = ["JWT", "JOSE"];

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
  for (const { agent, jws, sig, kid } of live.attestations) {
    const compact = jws ?? (sig !== undefined && sig.split(".").length === 3 ? sig : undefined);
    if (compact !== undefined) findings.push(readHeader(agent, compact, kid));
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
  const part = jws.slice(0, Math.max(0, jws.indexOf(".")));
  let text: string;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(part)) throw new Error("not base64url");
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(part, "base64url"));
  } catch {
    return { agent, expected: false, refused: "the header is not base64url of UTF-8 text" };
  }
  const expected = kid !== undefined && text === JSON.stringify({ alg: "ES256", kid });
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    return { agent, header: text, expected, refused: "the header is not JSON" };
  }
  if (!isRecord(header)) return { agent, header: text, expected, refused: "the header is not a JSON object" };
  const members = Object.keys(header);
  const refused = headerRefusal(text, header, kid);
  return { agent, header: text, members, expected, ...(refused === undefined ? {} : { refused }) };
}

/**
 * Why the kit's JWS rules refuse a protected header, or `undefined` when they accept it: `alg` exactly `ES256`,
 * `kid` a string equal to the attestation's, `typ` absent or one of {@link ACCEPTED_TYP_VALUES}, none of
 * {@link REFUSED_HEADER_MEMBERS}, no member name escaped or repeated; other members are skipped.
 */
function headerRefusal(text: string, header: Record<string, unknown>, kid: string | undefined): string | undefined {
  if (/"(?:[^"\\]|\\.)*\\(?:[^"\\]|\\.)*"\s*:/.test(text)) return "a member name is escaped";
  const names = [...text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((m) => m[1]!);
  const repeated = names.find((name, i) => names.indexOf(name) !== i && Object.hasOwn(header, name));
  if (repeated !== undefined) return `member "${repeated}" appears twice`;
  if (header.alg !== "ES256") return `alg is ${JSON.stringify(header.alg ?? null)}, not "ES256"`;
  if (typeof header.kid !== "string") return "kid is missing or not a string";
  if (kid !== undefined && header.kid !== kid) return `kid "${header.kid}" is not the attestation's kid "${kid}"`;
  if (header.typ !== undefined && !ACCEPTED_TYP_VALUES.includes(header.typ as string))
    return `typ ${JSON.stringify(header.typ)} is not JWT or JOSE`;
  const refused = REFUSED_HEADER_MEMBERS.find((name) => Object.hasOwn(header, name));
  return refused === undefined ? undefined : `member "${refused}" is refused`;
}
