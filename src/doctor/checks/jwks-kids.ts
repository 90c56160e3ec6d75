/**
 * `jwks-kids`: the key ids the service publishes against the ones the kit expects (`rnwy-trust-v2`,
 * `rnwy-trust-v1`, `rnwy-wallet-v1`, `rnwy-mcp-v1`), and whether each key is an EC P-256 key usable for ES256.
 * Holds when the sets are equal and every key is usable; differs for a missing or extra kid, or an unusable key.
 *
 * @packageDocumentation
 */
import type { JWK } from "jose";
import { importVerificationKey } from "../../attestation/public-key.js";
import { MCP_ATTESTATION_KID, TRUST_ATTESTATION_KIDS, WALLET_ATTESTATION_KID } from "../../config/service.js";
import type { JwksObservation } from "../jwks-probe.js";
import { type CheckResult, couldNotCheck, differs, holds } from "../report.js";

/** The check's id. */
export const JWKS_KIDS_CHECK = "jwks-kids";

/** The kids the kit expects in the service's JWKS. */
export const EXPECTED_KIDS: readonly string[] = [...TRUST_ATTESTATION_KIDS, WALLET_ATTESTATION_KID, MCP_ATTESTATION_KID];

/**
 * Runs the check.
 *
 * @param jwks - The key set.
 * @returns The result.
 */
export function checkJwksKids(jwks: JwksObservation): CheckResult {
  if (!jwks.ok) return couldNotCheck(JWKS_KIDS_CHECK, `no key set from ${jwks.source}: ${jwks.reason}`);
  const kids = jwks.keys.map((key) => (typeof key.kid === "string" ? key.kid : "(no kid)"));
  const missing = EXPECTED_KIDS.filter((kid) => !kids.includes(kid));
  const extra = [...new Set(kids.filter((kid) => !EXPECTED_KIDS.includes(kid)))];
  const unusable = jwks.keys.flatMap((key) => {
    const imported = importVerificationKey(key as JWK);
    return imported.ok ? [] : [`${typeof key.kid === "string" ? key.kid : "a key"} ${imported.problem}`];
  });
  const observed = { source: jwks.source, kids, expected: EXPECTED_KIDS, missing, extra, unusable };
  const problems = [
    ...(missing.length > 0 ? [`missing ${missing.join(", ")}`] : []),
    ...(extra.length > 0 ? [`extra ${extra.join(", ")}`] : []),
    ...unusable,
  ];
  if (problems.length === 0) return holds(JWKS_KIDS_CHECK, `${kids.join(", ")}: each an ES256 P-256 key`, observed);
  return differs(JWKS_KIDS_CHECK, `${problems.join("; ")} (published: ${kids.join(", ") || "none"})`, observed);
}
